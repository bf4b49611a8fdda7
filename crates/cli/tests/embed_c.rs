//! `weir lib` from a C program's point of view (examples/embed/c): two Weir
//! libraries linked into one program, statically and as shared libraries,
//! under gcc and clang with `-Wall -Wextra -Werror`, and their C sources
//! compiled with the program under AddressSanitizer and UBSan; the program's
//! output (results, and the errors of a too-small destination, arguments of
//! different sizes, a wrong second destination and an overlap) is
//! examples/embed/c/expected.txt. A wrong element type is a compile error.

use std::path::{Path, PathBuf};
use std::process::Command;

fn weir() -> &'static str {
    env!("CARGO_BIN_EXE_weir")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// Build the two libraries of the example into `dir`.
fn build_libs(dir: &Path) {
    for (file, name) in [
        ("examples/embed/kernels.weir", None),
        ("examples/add3.weir", Some("vec")),
    ] {
        let mut cmd = Command::new(weir());
        cmd.current_dir(repo()).args(["lib", file, "-o"]).arg(dir);
        if let Some(n) = name {
            cmd.args(["--name", n]);
        }
        let out = cmd.output().expect("run weir lib");
        assert!(
            out.status.success(),
            "weir lib {file} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for f in [
        "kernels.h",
        "libkernels.a",
        "libkernels.so",
        "kernels.json",
        "kernels.c",
        "vec.h",
        "libvec.a",
        "libvec.so",
        "weir_rt.c",
    ] {
        assert!(dir.join(f).exists(), "weir lib wrote no {f}");
    }
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Compilers to try: gcc always; clang where installed (required under CI).
fn compilers() -> Vec<&'static str> {
    let mut v = vec!["gcc"];
    if have("clang") {
        v.push("clang");
    } else {
        assert!(
            std::env::var("CI").is_err(),
            "clang is missing (scripts/install-c-tools.sh installs it)"
        );
        eprintln!("note: clang not installed, only gcc is tried");
    }
    v
}

fn compile(cc: &str, args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(cc)
        .current_dir(dir)
        .args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"))
}

fn run_main(exe: &Path) -> String {
    // (cargo puts build scripts' link folders on LD_LIBRARY_PATH, which wins
    // over the executable's run path: the Rust example's OUT_DIR has a
    // libkernels.so of its own)
    let out = Command::new(exe)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("run the C program");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{} failed:\n{stdout}{}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn expected() -> String {
    std::fs::read_to_string(repo().join("examples/embed/c/expected.txt")).expect("expected.txt")
}

#[test]
fn a_c_program_links_two_weir_libraries_statically_and_shared() {
    let dir = scratch("embed-c");
    build_libs(&dir);
    let main_c = repo().join("examples/embed/c/main.c");
    let main_c = main_c.to_str().expect("utf-8 path");
    for cc in compilers() {
        // static: both archives hold the runtime object; the linker takes one
        let exe = dir.join(format!("main-static-{cc}"));
        let out = compile(
            cc,
            &[
                "-I.",
                main_c,
                "-L.",
                "-Wl,-Bstatic",
                "-lkernels",
                "-lvec",
                "-Wl,-Bdynamic",
                "-lm",
                "-o",
                exe.to_str().expect("utf-8"),
            ],
            &dir,
        );
        assert!(
            out.status.success(),
            "{cc}: main.c does not build against the static libraries:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(run_main(&exe), expected(), "static, {cc}");
        // shared
        let exe = dir.join(format!("main-shared-{cc}"));
        let rpath = format!("-Wl,-rpath,{}", dir.display());
        let out = compile(
            cc,
            &[
                "-I.",
                main_c,
                "-L.",
                "-lkernels",
                "-lvec",
                "-lm",
                &rpath,
                "-o",
                exe.to_str().expect("utf-8"),
            ],
            &dir,
        );
        assert!(
            out.status.success(),
            "{cc}: main.c does not build against the shared libraries:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(run_main(&exe), expected(), "shared, {cc}");
    }
    // Only the API is exported from a shared library.
    if have("nm") {
        let out = Command::new("nm")
            .args(["-D", "--defined-only"])
            .arg(dir.join("libkernels.so"))
            .output()
            .expect("nm");
        let syms = String::from_utf8_lossy(&out.stdout);
        for line in syms.lines() {
            let name = line.rsplit(' ').next().unwrap_or("");
            if name.is_empty() || !line.contains(" T ") {
                continue;
            }
            assert!(
                name.starts_with("kernels_")
                    || [
                        "weir_ctx_new",
                        "weir_ctx_new_with",
                        "weir_ctx_free",
                        "weir_ctx_release",
                        "weir_error",
                        "weir_error_code",
                        "weir_error_location",
                        "weir_error_message",
                        "weir_error_clear",
                        "weir_retry_rows",
                        "weir_ctx_stats",
                        "weir_stats_reset",
                        "weir_version",
                        "weir_abi_version",
                    ]
                    .contains(&name),
                "libkernels.so exports `{name}`, which is not in its header"
            );
        }
    }
}

#[test]
fn the_libraries_c_sources_are_clean_under_asan_and_ubsan() {
    let dir = scratch("embed-c-asan");
    build_libs(&dir);
    let main_c = repo().join("examples/embed/c/main.c");
    let exe = dir.join("main-asan");
    // The generated sources as a caller who vendors them compiles them: two
    // libraries' code and one runtime object.
    let out = compile(
        "gcc",
        &[
            "-g",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fopenmp-simd",
            "-ffp-contract=off",
            "-I.",
            main_c.to_str().expect("utf-8"),
            "kernels.c",
            "vec.c",
            "weir_rt.c",
            "-lm",
            "-o",
            exe.to_str().expect("utf-8"),
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "the sanitized build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(run_main(&exe), expected());
}

#[test]
fn a_wrong_element_type_is_a_compile_error_in_c() {
    let dir = scratch("embed-c-type");
    build_libs(&dir);
    std::fs::write(
        dir.join("wrong.c"),
        "#include \"kernels.h\"\nint main(void) {\n    weir_ctx *ctx = weir_ctx_new();\n    float a[2] = {1, 2};\n    double out[2];\n    int rc = kernels_add3(ctx, out, 2, a, 2, a, 2, a, 2);\n    weir_ctx_free(ctx);\n    return rc;\n}\n",
    )
    .expect("write wrong.c");
    let out = compile("gcc", &["-I.", "-c", "wrong.c"], &dir);
    assert!(
        !out.status.success(),
        "a float array passed as f64 compiled"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("incompatible pointer type") && err.contains("const double *"),
        "unclear error: {err}"
    );
}

#[test]
fn weir_lib_rejects_a_bad_name_and_a_program_without_entries() {
    let dir = scratch("embed-c-bad");
    let out = Command::new(weir())
        .current_dir(repo())
        .args(["lib", "examples/add3.weir", "--name", "weird", "-o"])
        .arg(&dir)
        .output()
        .expect("weir lib");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("may clash with Weir's runtime"));
    let out = Command::new(weir())
        .current_dir(repo())
        .args(["lib", "examples/add3.weir", "--name", "1x", "-o"])
        .arg(&dir)
        .output()
        .expect("weir lib");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a C identifier"));
    let src = dir.join("noentry.weir");
    std::fs::write(&src, "def f (x: f64) : f64 = x\n").expect("write");
    let out = Command::new(weir())
        .args(["lib"])
        .arg(&src)
        .arg("-o")
        .arg(&dir)
        .output()
        .expect("weir lib");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no entry point"));
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
