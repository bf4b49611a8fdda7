//! `weir ... | head -1`: when the reader of its stdout has gone, `weir` ends
//! quietly (status 0, or killed by SIGPIPE) instead of panicking with
//! "failed printing to stdout: Broken pipe".

use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Output, Stdio};

fn weir() -> &'static str {
    env!("CARGO_BIN_EXE_weir")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The write end of a pipe whose read end is already closed: the pipe to the
/// stdin of a process that has exited (`weir --version`, which reads nothing).
/// Every write to it fails with EPIPE, so the test does not race the reader.
fn closed_pipe() -> ChildStdin {
    let mut reader = Command::new(weir())
        .arg("--version")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let w = reader.stdin.take().unwrap();
    assert!(reader.wait().unwrap().success());
    w
}

fn run(args: &[&str], stdout: Stdio) -> Output {
    Command::new(weir())
        .args(args)
        .current_dir(repo())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_ends_weir_quietly() {
    for args in [
        &["test", "examples/add3.weir", "--interp"][..],
        &["test", "examples/add3.weir"],
        &["check", "examples/add3.weir"],
        &["bench", "--list"],
    ] {
        // With a reader, the command prints (so the closed pipe is written to).
        let open = run(args, Stdio::piped());
        assert!(
            !open.stdout.is_empty(),
            "weir {args:?} printed nothing; stderr:\n{}",
            String::from_utf8_lossy(&open.stderr)
        );
        let o = run(args, Stdio::from(closed_pipe()));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "weir {args:?} with its stdout closed:\n{stderr}"
        );
        #[cfg(unix)]
        let by_sigpipe = {
            use std::os::unix::process::ExitStatusExt;
            o.status.signal() == Some(13)
        };
        #[cfg(not(unix))]
        let by_sigpipe = false;
        assert!(
            o.status.success() || by_sigpipe,
            "weir {args:?} with its stdout closed: {:?}\n{stderr}",
            o.status
        );
    }
}
