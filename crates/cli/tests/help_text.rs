//! The help texts say what the commands do: `weir build`'s executables read
//! and write `.npy` by default (Weir's raw binary format only with `--raw`).

use std::process::Command;

fn help(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_weir"))
        .args(args)
        .output()
        .expect("run weir");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn build_help_says_executables_speak_npy() {
    let long = help(&["build", "--help"]);
    assert!(long.contains(".npy"), "{long}");
    assert!(long.contains("--raw"), "{long}");
    // the old text said the executables speak Weir's binary format
    assert!(!long.contains("results in Weir's binary format"), "{long}");
    let short = help(&["build", "-h"]);
    assert!(short.contains(".npy"), "{short}");
    assert!(!short.contains("binary format"), "{short}");
    let top = help(&["--help"]);
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("build"))
        .expect("`build` in weir --help");
    assert!(line.contains(".npy") && !line.contains("binary"), "{line}");
}

#[test]
fn c_main_help_says_npy() {
    let long = help(&["c", "--help"]);
    assert!(!long.contains("reads binary inputs"), "{long}");
    assert!(long.contains(".npy"), "{long}");
}
