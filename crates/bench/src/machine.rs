//! The machine's limits, measured by the suite itself: STREAM-like memory
//! bandwidth (bench/machine/stream.c) and the single-core peak FLOP rate
//! (bench/machine/peakflops.c).

use crate::impls::{Launch, Toolchain};
use serde::Serialize;
use std::path::Path;
use std::process::Command;

#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct Limits {
    /// kernel (copy, add, triad) -> best GB/s.
    pub stream_gbps: Vec<(String, f64)>,
    /// isa (avx512, avx2) -> GFLOP/s.
    pub peak_gflops: Vec<(String, f64)>,
    pub cpu_model: String,
    pub cpus: usize,
    pub notes: Vec<String>,
}

impl Limits {
    pub fn triad_gbps(&self) -> Option<f64> {
        self.stream_gbps
            .iter()
            .find(|(k, _)| k == "triad")
            .map(|(_, v)| *v)
    }
    pub fn peak(&self) -> Option<f64> {
        self.peak_gflops.iter().map(|(_, v)| *v).reduce(f64::max)
    }
}

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

/// Parse the programs' output lines.
pub fn parse(out: &str, l: &mut Limits) {
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("stream:") {
            if let (Some(k), Some(v)) = (field(rest, "kernel"), field(rest, "best_gbps"))
                && let Ok(v) = v.parse()
            {
                l.stream_gbps.push((k.to_string(), v));
            }
        } else if let Some(rest) = line.strip_prefix("peak:")
            && let (Some(k), Some(v)) = (field(rest, "isa"), field(rest, "gflops"))
            && let Ok(v) = v.parse()
        {
            l.peak_gflops.push((k.to_string(), v));
        }
    }
}

pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|r| r.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Build and run the two programs (pinned like the benchmarks when `pin` is set).
pub fn measure(root: &Path, tools: &Toolchain, pin: Option<usize>) -> Limits {
    let mut l = Limits {
        cpu_model: cpu_model(),
        cpus: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        ..Limits::default()
    };
    let Some(cc) = tools.cc.as_deref() else {
        l.notes
            .push("no C compiler: machine limits not measured".into());
        return l;
    };
    for prog in ["stream", "peakflops"] {
        let src = root.join(format!("bench/machine/{prog}.c"));
        if !src.exists() {
            l.notes.push(format!("{} is missing", src.display()));
            continue;
        }
        let exe = root.join(format!("bench/build/bin/machine/{prog}"));
        let launch = Launch {
            program: exe.clone(),
            args: vec![],
        };
        if let Err(e) = crate::impls::compile(
            cc,
            &["-O3", "-march=native", "-std=c11"],
            &src,
            &["-lm"],
            &exe,
        ) {
            l.notes.push(e);
            continue;
        }
        let mut cmd = match pin {
            Some(cpu) => {
                let mut c = Command::new("taskset");
                c.arg("-c").arg(cpu.to_string()).arg(&launch.program);
                c
            }
            None => Command::new(&launch.program),
        };
        match cmd.output() {
            Ok(o) if o.status.success() => parse(&String::from_utf8_lossy(&o.stdout), &mut l),
            Ok(o) => l.notes.push(format!(
                "{prog} failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => l.notes.push(format!("cannot run {prog}: {e}")),
        }
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stream_and_peak_lines() {
        let mut l = Limits::default();
        parse(
            "stream: kernel=copy bytes_per_iter=16 best_gbps=20.5 median_gbps=19\nnoise\nstream: kernel=triad bytes_per_iter=24 best_gbps=22.25 median_gbps=21\npeak: isa=avx512 gflops=80.5\npeak: isa=avx2 gflops=40\n",
            &mut l,
        );
        assert_eq!(l.triad_gbps(), Some(22.25));
        assert_eq!(l.peak(), Some(80.5));
        assert_eq!(l.stream_gbps.len(), 2);
    }
}
