//! The edges of `weir lib` from a C program's point of view: the link lines
//! docs/embedding.md gives (run as written, the program then run from
//! another folder), NULL contexts and pointers and results of data-dependent
//! size in destinations smaller than their bound (examples/embed/c/edges.c,
//! linked with the library and compiled with its sources under
//! AddressSanitizer and UBSan), and `--march` (recorded in the manifest and
//! the sources' first line).

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

/// A number no other scratch folder of this process has.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
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

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

fn lib(dir: &Path, file: &str, extra: &[&str]) -> std::process::Output {
    Command::new(weir())
        .current_dir(repo())
        .args(["lib", file, "-o"])
        .arg(dir)
        .args(extra)
        .output()
        .expect("run weir lib")
}

fn ok(out: &std::process::Output, what: &str) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

/// Run a program from a folder of its own, with no LD_LIBRARY_PATH (cargo
/// sets one): what it needs at run time must be in it.
fn run_elsewhere(exe: &Path) -> String {
    let away = scratch("elsewhere");
    let out = Command::new(exe)
        .current_dir(&away)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("run the program");
    ok(
        &out,
        &format!("{} (run from {})", exe.display(), away.display()),
    )
}

/// The first code block of the "C: `weir lib`" section of docs/embedding.md
/// and the one after it: the commands a reader types.
fn documented_commands() -> Vec<String> {
    let doc = std::fs::read_to_string(repo().join("docs/embedding.md")).expect("embedding.md");
    let section = doc
        .split("## C: `weir lib`")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the C section");
    let blocks: Vec<&str> = section.split("```").collect();
    // (blocks[1] and blocks[3]: the insides of the first two fences)
    [1, 3]
        .iter()
        .filter_map(|&i| blocks.get(i))
        .flat_map(|b| b.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_documented_link_lines_make_programs_that_run_from_anywhere() {
    let cmds = documented_commands();
    let cc_lines: Vec<&String> = cmds.iter().filter(|l| l.starts_with("cc ")).collect();
    assert!(
        cmds.iter().filter(|l| l.starts_with("weir lib ")).count() == 2 && cc_lines.len() == 2,
        "the C section's commands changed: {cmds:#?}"
    );
    let mut compilers = vec!["gcc"];
    if have("clang") {
        compilers.push("clang");
    }
    for cc in compilers {
        let proj = scratch(&format!("doc-link-{cc}"));
        std::fs::copy(
            repo().join("examples/embed/kernels.weir"),
            proj.join("kernels.weir"),
        )
        .expect("copy kernels.weir");
        std::fs::copy(repo().join("examples/add3.weir"), proj.join("more.weir"))
            .expect("copy more.weir");
        std::fs::write(
            proj.join("main.c"),
            "#include <stdio.h>\n#include \"kernels.h\"\n#include \"more.h\"\nint main(void) {\n    weir_ctx *ctx = weir_ctx_new();\n    double a[2] = {1, 2}, b[2] = {10, 20}, c[2] = {100, 200}, k[2], m[2];\n    if (!ctx || kernels_add3(ctx, k, 2, a, 2, b, 2, c, 2) || more_add3(ctx, m, 2, c, 2, b, 2, a, 2)) return 1;\n    printf(\"%g %g %g %g\\n\", k[0], k[1], m[0], m[1]);\n    weir_ctx_free(ctx);\n    return 0;\n}\n",
        )
        .expect("write main.c");
        // `weir` and `cc` as the reader's shell finds them
        let bin = proj.join("bin");
        std::fs::create_dir_all(&bin).expect("bin");
        std::os::unix::fs::symlink(weir(), bin.join("weir")).expect("link weir");
        let cc_path = String::from_utf8_lossy(
            &Command::new("sh")
                .args(["-c", &format!("command -v {cc}")])
                .output()
                .expect("sh")
                .stdout,
        )
        .trim()
        .to_string();
        std::os::unix::fs::symlink(&cc_path, bin.join("cc")).expect("link cc");
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let sh = |line: &str| {
            Command::new("sh")
                .current_dir(&proj)
                .env("PATH", &path)
                .env("PWD", &proj)
                .args(["-c", line])
                .output()
                .expect("sh")
        };
        for line in cmds.iter().filter(|l| l.starts_with("weir lib ")) {
            ok(&sh(line), line);
        }
        for (k, line) in cc_lines.iter().enumerate() {
            let _ = std::fs::remove_file(proj.join("app"));
            ok(&sh(line), &format!("{cc}: {line}"));
            let app = proj.join("app");
            assert!(app.exists(), "`{line}` wrote no ./app");
            assert_eq!(run_elsewhere(&app), "111 222 111 222\n", "{cc}: {line}");
            // the first links the static libraries, the second the shared ones
            if have("readelf") {
                let d = Command::new("readelf")
                    .args(["-d"])
                    .arg(&app)
                    .output()
                    .expect("readelf");
                let needs = String::from_utf8_lossy(&d.stdout).contains("libkernels.so");
                assert_eq!(needs, k == 1, "{cc}: `{line}` links libkernels.so: {needs}");
            }
        }
    }
}

/// examples/embed/c/edges.c against the example library, and with its
/// sources under the sanitizers: every check of it passes.
#[test]
fn null_pointers_and_short_destinations_are_errors_not_crashes() {
    let dir = scratch("embed-c-edges");
    ok(&lib(&dir, "examples/embed/kernels.weir", &[]), "weir lib");
    let edges = repo().join("examples/embed/c/edges.c");
    let edges = edges.to_str().expect("utf-8 path");
    let mut compilers = vec!["gcc"];
    if have("clang") {
        compilers.push("clang");
    }
    for cc in &compilers {
        // the library, as the documentation links it
        let exe = dir.join(format!("edges-{cc}"));
        let out = Command::new(cc)
            .current_dir(&dir)
            .args([
                "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I.", edges,
            ])
            .args(["libkernels.a", "-lm", "-o"])
            .arg(&exe)
            .output()
            .expect("cc");
        ok(&out, &format!("{cc}: edges.c against libkernels.a"));
        let text = run_elsewhere(&exe);
        assert!(text.ends_with("0 failures\n"), "{text}");
    }
    // the library's sources, with the program, under the sanitizers (a
    // write past a destination's rows is an error)
    for cc in &compilers {
        let exe = dir.join(format!("edges-asan-{cc}"));
        let out = Command::new(cc)
            .current_dir(&dir)
            .args([
                "-std=c11",
                "-g",
                "-O1",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                "-fopenmp-simd",
                "-ffp-contract=off",
                "-I.",
                edges,
                "kernels.c",
                "weir_rt.c",
                "-lm",
                "-o",
            ])
            .arg(&exe)
            .output()
            .expect("cc");
        ok(&out, &format!("{cc}: edges.c with the sources, sanitized"));
        let text = run_elsewhere(&exe);
        assert!(text.ends_with("0 failures\n"), "{cc}, sanitized:\n{text}");
    }
}

fn manifest_march(dir: &Path, name: &str) -> (String, String) {
    let m = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("manifest");
    let march = m
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"march\": "))
        .unwrap_or("")
        .trim_end_matches(',')
        .to_string();
    let cflags = m
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"cflags\": "))
        .unwrap_or("")
        .to_string();
    (march, cflags)
}

#[test]
fn weir_lib_march_picks_the_cpus_and_the_manifest_records_it() {
    // the default: this machine's CPU
    let dir = scratch("march-native");
    ok(&lib(&dir, "examples/add3.weir", &[]), "weir lib");
    let (march, cflags) = manifest_march(&dir, "add3");
    assert_eq!(march, "\"native\"");
    assert!(cflags.contains("\"-march=native\""), "{cflags}");
    let first = std::fs::read_to_string(dir.join("add3.c")).expect("add3.c");
    let first = first.lines().next().unwrap_or("");
    assert!(
        first.contains("--march native") && first.contains("-march=native"),
        "{first}"
    );
    // portable: no -march at all
    let dir = scratch("march-portable");
    ok(
        &lib(&dir, "examples/add3.weir", &["--march", "portable"]),
        "weir lib --march portable",
    );
    let (march, cflags) = manifest_march(&dir, "add3");
    assert_eq!(march, "\"portable\"");
    assert!(!cflags.contains("-march"), "{cflags}");
    for f in ["add3.c", "weir_rt.c"] {
        let text = std::fs::read_to_string(dir.join(f)).expect("source");
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.contains("--march portable") && !first.contains("-march="),
            "{f}: {first}"
        );
    }
    // a named level: in the flags, and the library works (on x86-64)
    if cfg!(target_arch = "x86_64") {
        let dir = scratch("march-v2");
        ok(
            &lib(&dir, "examples/add3.weir", &["--march", "x86-64-v2"]),
            "weir lib --march x86-64-v2",
        );
        let (march, cflags) = manifest_march(&dir, "add3");
        assert_eq!(march, "\"x86-64-v2\"");
        assert!(cflags.contains("\"-march=x86-64-v2\""), "{cflags}");
        std::fs::write(
            dir.join("main.c"),
            "#include <stdio.h>\n#include \"add3.h\"\nint main(void) {\n    weir_ctx *ctx = weir_ctx_new();\n    double a[3] = {1, 2, 3}, o[3];\n    if (!ctx || add3_add3(ctx, o, 3, a, 3, a, 3, a, 3)) return 1;\n    printf(\"%g %g %g\\n\", o[0], o[1], o[2]);\n    weir_ctx_free(ctx);\n    return 0;\n}\n",
        )
        .expect("main.c");
        let out = Command::new("gcc")
            .current_dir(&dir)
            .args(["-O2", "-I.", "main.c", "libadd3.a", "-lm", "-o", "app"])
            .output()
            .expect("gcc");
        ok(&out, "main.c against the x86-64-v2 library");
        assert_eq!(run_elsewhere(&dir.join("app")), "3 6 9\n");
    }
    // not a CPU name: refused before anything is compiled
    let dir = scratch("march-bad");
    let out = lib(&dir, "examples/add3.weir", &["--march", "x86 64"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a CPU name"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a name the C compiler does not know: its error
    let out = lib(&dir, "examples/add3.weir", &["--march", "no-such-cpu"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no-such-cpu"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
