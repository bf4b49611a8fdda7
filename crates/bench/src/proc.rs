//! Running one benchmark process: the protocol's arguments, pinning, the
//! environment, a time limit, and the `stats:` line.

use crate::impls::Launch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where and how processes run.
#[derive(Debug, Clone)]
pub struct Env {
    /// Cores the process may use: 1 pins it to `cpu` with taskset; more leave
    /// it unpinned. Thread counts of the libraries follow.
    pub cores: usize,
    pub cpu: usize,
    pub taskset: bool,
    /// OPENBLAS_CORETYPE for NumPy's OpenBLAS, if set.
    pub openblas_coretype: Option<String>,
    /// Scratch directory (stderr captures, JAX/Numba caches).
    pub scratch: PathBuf,
}

/// The numbers a process reported.
#[derive(Debug, Clone, Default)]
pub struct Sample {
    pub runs: u64,
    pub ns_per_run: f64,
    pub peak_rss_kb: u64,
    /// Allocations during the timed loop (None: the implementation cannot tell).
    pub sys_allocs: Option<u64>,
    pub peak_bytes: Option<u64>,
    /// Wall time of the whole process (start-up, input, warm-up included).
    pub process_s: f64,
}

/// Why a process gave no sample.
#[derive(Debug, Clone)]
pub enum Failure {
    Timeout(u64),
    Failed(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(s) => write!(f, "timeout ({s} s)"),
            Failure::Failed(m) => write!(f, "{m}"),
        }
    }
}

/// Parse a `stats:` line (`key=value` pairs; -1 means unknown).
pub fn parse_stats(line: &str) -> Option<Sample> {
    let body = line.trim().strip_prefix("stats:")?;
    let mut s = Sample::default();
    let mut have_time = false;
    for kv in body.split_whitespace() {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        let num: Option<f64> = v.parse().ok();
        match (k, num) {
            ("runs", Some(n)) => s.runs = n as u64,
            ("ns_per_run", Some(n)) => {
                s.ns_per_run = n;
                have_time = true;
            }
            ("peak_rss_kb", Some(n)) => s.peak_rss_kb = n.max(0.0) as u64,
            ("sys_allocs", Some(n)) => s.sys_allocs = (n >= 0.0).then_some(n as u64),
            ("peak_bytes", Some(n)) => s.peak_bytes = (n >= 0.0).then_some(n as u64),
            _ => {}
        }
    }
    (have_time && s.runs > 0).then_some(s)
}

/// Run `launch` with `--runs runs --warmup warmup --in input [--out out] --stats`.
pub fn run(
    launch: &Launch,
    env: &Env,
    runs: u64,
    warmup: u64,
    input: &Path,
    out: Option<&Path>,
    timeout: Duration,
) -> Result<Sample, Failure> {
    let mut cmd = if env.cores == 1 && env.taskset {
        let mut c = Command::new("taskset");
        c.arg("-c").arg(env.cpu.to_string()).arg(&launch.program);
        c
    } else {
        Command::new(&launch.program)
    };
    cmd.args(&launch.args)
        .arg("--runs")
        .arg(runs.to_string())
        .arg("--warmup")
        .arg(warmup.to_string())
        .arg("--in")
        .arg(input)
        .arg("--stats");
    if let Some(o) = out {
        cmd.arg("--out").arg(o);
    } else {
        cmd.arg("--out").arg("/dev/null");
    }
    let threads = env.cores.to_string();
    for k in [
        "OMP_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "MKL_NUM_THREADS",
        "NUMBA_NUM_THREADS",
    ] {
        cmd.env(k, &threads);
    }
    cmd.env("JAX_PLATFORMS", "cpu");
    cmd.env("TF_CPP_MIN_LOG_LEVEL", "2");
    if let Some(t) = &env.openblas_coretype {
        cmd.env("OPENBLAS_CORETYPE", t);
    }
    let _ = std::fs::create_dir_all(&env.scratch);
    cmd.env("NUMBA_CACHE_DIR", env.scratch.join("numba-cache"));
    let err_path = env
        .scratch
        .join(format!("stderr-{}.txt", std::process::id()));
    let err_file = std::fs::File::create(&err_path)
        .map_err(|e| Failure::Failed(format!("cannot create {}: {e}", err_path.display())))?;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(err_file));
    let t0 = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| Failure::Failed(format!("cannot run {}: {e}", launch.program.display())))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) => {
                if t0.elapsed() > timeout {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(Failure::Timeout(timeout.as_secs()));
                }
                let e = t0.elapsed();
                std::thread::sleep(if e < Duration::from_millis(50) {
                    Duration::from_micros(500)
                } else {
                    Duration::from_millis(5)
                });
            }
            Err(e) => return Err(Failure::Failed(format!("wait failed: {e}"))),
        }
    };
    let process_s = t0.elapsed().as_secs_f64();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let _ = std::fs::remove_file(&err_path);
    if !status.success() {
        let tail: Vec<&str> = stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .rev()
            .take(3)
            .collect();
        let msg = tail.into_iter().rev().collect::<Vec<_>>().join(" | ");
        return Err(Failure::Failed(format!("exit {status}: {msg}")));
    }
    let mut s = stderr
        .lines()
        .rev()
        .find_map(parse_stats)
        .ok_or_else(|| Failure::Failed("no `stats:` line on stderr".into()))?;
    s.process_s = process_s;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_lines() {
        let s = parse_stats(
            "stats: runs=10 total_ns=1000 ns_per_run=100.0 peak_rss_kb=2048 sys_allocs=3 peak_bytes=64",
        )
        .unwrap();
        assert_eq!((s.runs, s.ns_per_run, s.peak_rss_kb), (10, 100.0, 2048));
        assert_eq!((s.sys_allocs, s.peak_bytes), (Some(3), Some(64)));
        let p =
            parse_stats("stats: runs=2 ns_per_run=5.5 peak_rss_kb=1 sys_allocs=-1 peak_bytes=-1")
                .unwrap();
        assert_eq!((p.sys_allocs, p.peak_bytes), (None, None));
        assert!(parse_stats("stats: runs=0 ns_per_run=1").is_none());
        assert!(parse_stats("hello").is_none());
    }
}
