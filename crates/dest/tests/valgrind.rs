//! The `dest-selftest` binary (every `unsafe` path of `dest` on moderate
//! inputs, see `src/bin/dest-selftest.rs`), run natively and under Valgrind's
//! memcheck: no read of uninitialised memory, no invalid access, no leak.
//!
//! Valgrind is optional locally: when build.rs does not find it, the Valgrind
//! test is reported as ignored, with the reason. Under `CI=true` it always
//! runs, and fails if valgrind is missing; CI installs it
//! (`scripts/install-c-tools.sh`).

use std::process::{Command, Output};
use std::time::{Duration, Instant};

const SELFTEST: &str = env!("CARGO_BIN_EXE_dest-selftest");

/// The exit status Valgrind is told to use when it finds an error.
const VALGRIND_ERROR: i32 = 99;

/// A guard against a hang, not a speed goal: the run takes about 2 s here.
const TIME_LIMIT: Duration = Duration::from_secs(300);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lines of the self-test's report that are not `ok`.
fn failures(out: &Output) -> String {
    text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("ok "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
#[cfg_attr(
    miri,
    ignore = "spawns a process: not possible inside Miri (scripts/miri-dest.sh runs dest-selftest under Miri directly)"
)]
fn selftest_passes() {
    let out = Command::new(SELFTEST)
        .output()
        .expect("could not run dest-selftest");
    assert!(
        out.status.success(),
        "dest-selftest failed ({}):\n{}\n{}",
        out.status,
        failures(&out),
        text(&out.stderr)
    );
}

#[test]
#[cfg_attr(miri, ignore = "spawns valgrind: not possible inside Miri")]
#[cfg_attr(
    not(weir_has_valgrind),
    ignore = "valgrind not found when dest was built: install it with scripts/install-c-tools.sh"
)]
fn selftest_under_valgrind() {
    assert!(
        Command::new("valgrind")
            .arg("--version")
            .output()
            .is_ok_and(|v| v.status.success()),
        "`valgrind --version` does not run: install valgrind \
         (scripts/install-c-tools.sh does; CI=true requires it)"
    );
    let start = Instant::now();
    let out = Command::new("valgrind")
        .arg(format!("--error-exitcode={VALGRIND_ERROR}"))
        .args([
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "-q",
            SELFTEST,
        ])
        .output()
        .expect("could not run valgrind");
    let elapsed = start.elapsed();
    let why = match out.status.code() {
        Some(0) => None,
        Some(VALGRIND_ERROR) => Some("valgrind reported memory errors or leaks"),
        Some(_) => Some("a self-test check failed (or the program crashed)"),
        None => Some("killed by a signal"),
    };
    if let Some(why) = why {
        panic!(
            "dest-selftest under valgrind: {why} ({}) after {:.1}s\n\
             --- valgrind's report (stderr) ---\n{}\n--- failed checks ---\n{}",
            out.status,
            elapsed.as_secs_f64(),
            text(&out.stderr),
            failures(&out)
        );
    }
    eprintln!(
        "dest-selftest under valgrind: clean, {:.1}s",
        elapsed.as_secs_f64()
    );
    assert!(
        elapsed < TIME_LIMIT,
        "dest-selftest under valgrind took {:.1}s (limit {}s): reduce its sizes",
        elapsed.as_secs_f64(),
        TIME_LIMIT.as_secs()
    );
}
