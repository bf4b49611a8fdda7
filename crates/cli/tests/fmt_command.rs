//! `weir fmt`: rewrites files in place, walks folders (not hidden ones),
//! formats stdin to stdout with `-`, `--check` changes nothing and exits 1
//! when a file would change, and a file with syntax errors is reported with
//! its file:line:col and left as it is.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn weir() -> &'static str {
    env!("CARGO_BIN_EXE_weir")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(weir())
        .current_dir(dir)
        .args(["--color", "never"])
        .args(args)
        .output()
        .expect("run weir fmt")
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(weir())
        .args(["--color", "never"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run weir fmt -");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for weir fmt -")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "fmt-cmd-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch");
    d
}

const MESSY: &str = "def f(x:f64):f64=\n      x+1.0\n";
const FORMATTED: &str = "def f (x: f64) : f64 =\n  x + 1.0\n";
const BROKEN: &str = "def g (x) : f64 = x\n";

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).expect("read")
}

/// A folder with a formatted file, two that are not (one in a subfolder),
/// one in a hidden folder and one that is not .weir.
fn project(name: &str) -> PathBuf {
    let d = scratch(name);
    std::fs::create_dir_all(d.join("src/sub")).expect("mkdir");
    std::fs::create_dir_all(d.join("src/.hidden")).expect("mkdir");
    std::fs::write(d.join("src/good.weir"), FORMATTED).expect("write");
    std::fs::write(d.join("src/messy.weir"), MESSY).expect("write");
    std::fs::write(d.join("src/sub/deep.weir"), MESSY).expect("write");
    std::fs::write(d.join("src/.hidden/skip.weir"), MESSY).expect("write");
    std::fs::write(d.join("src/notes.txt"), MESSY).expect("write");
    d
}

#[test]
fn check_lists_what_would_change_and_changes_nothing() {
    let d = project("check");
    let o = run(&d, &["fmt", "--check", "src"]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(
        listed,
        ["src/messy.weir", "src/sub/deep.weir"],
        "{out}{err}"
    );
    assert!(err.contains("2 files would be reformatted"), "{err}");
    // nothing was written
    assert_eq!(read(&d.join("src/messy.weir")), MESSY);
    assert_eq!(read(&d.join("src/sub/deep.weir")), MESSY);
    // a formatted file passes
    let o = run(&d, &["fmt", "--check", "src/good.weir"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
}

#[test]
fn rewrites_in_place() {
    let d = project("rewrite");
    let o = run(&d, &["fmt", "src"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(read(&d.join("src/messy.weir")), FORMATTED);
    assert_eq!(read(&d.join("src/sub/deep.weir")), FORMATTED);
    assert_eq!(read(&d.join("src/good.weir")), FORMATTED);
    // hidden folders and other files are not touched
    assert_eq!(read(&d.join("src/.hidden/skip.weir")), MESSY);
    assert_eq!(read(&d.join("src/notes.txt")), MESSY);
    // and now everything is formatted
    let o = run(&d, &["fmt", "--check", "src"]);
    assert_eq!(o.status.code(), Some(0));
    // a file named on the command line is formatted whatever its name
    let o = run(&d, &["fmt", "src/notes.txt"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(read(&d.join("src/notes.txt")), FORMATTED);
}

#[test]
fn stdin_to_stdout() {
    let o = run_stdin(&["fmt", "-"], MESSY);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), FORMATTED);
    // --check: no output but the name, status 1 when it would change
    let o = run_stdin(&["fmt", "--check", "-"], MESSY);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "<stdin>\n");
    let o = run_stdin(&["fmt", "--check", "-"], FORMATTED);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
}

#[test]
fn syntax_errors_are_reported_and_the_file_left_alone() {
    let d = scratch("syntax");
    std::fs::write(d.join("broken.weir"), BROKEN).expect("write");
    std::fs::write(d.join("messy.weir"), MESSY).expect("write");
    let o = run(&d, &["fmt", "broken.weir", "messy.weir"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // where, what, and what to do
    assert!(
        err.contains("broken.weir:1:9: error[E0003]: expected `:` and the parameter's type"),
        "{err}"
    );
    assert!(
        err.contains("parameters of definitions need a type"),
        "{err}"
    );
    assert!(
        err.contains("broken.weir has syntax errors; it is left as it is"),
        "{err}"
    );
    assert_eq!(read(&d.join("broken.weir")), BROKEN);
    // the other file was still formatted
    assert_eq!(read(&d.join("messy.weir")), FORMATTED);
    // from stdin: the error, and nothing on stdout
    let o = run_stdin(&["fmt", "-"], BROKEN);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("<stdin>:1:9: error[E0003]"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn missing_paths_are_errors() {
    let d = scratch("missing");
    let o = run(&d, &["fmt", "nothing.weir"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("error: nothing.weir does not exist"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // no path at all: the usage
    let o = run(&d, &["fmt"]);
    assert!(!o.status.success());
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
