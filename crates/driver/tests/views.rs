//! The views decision (dps-views ch. 4, `--views=none|heuristic|all`): every
//! example and regression file agrees with the interpreter under `none` and
//! `all` (the default, `heuristic`, is what every other test runs), on the
//! interpreter (the optimized program keeps the views as primitives) and in
//! compiled C (where they are index functions over their argument's memory,
//! and where `none` computes every `++`/`pad` into storage of its own). A
//! file whose optimized program (the interpreter's cases) or C (the compiled
//! cases) is the same as under the default is not run again.

use std::path::{Path, PathBuf};
use weir_driver::native::{BuildOptions, build_c, c_source};
use weir_driver::testblock::{parse_blocks, run_cases, run_cases_native};
use weir_opt::Views;

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut v = Vec::new();
    for d in ["examples", "tests/regress", "tests/regress_c"] {
        for e in std::fs::read_dir(root.join(d)).expect("dir").flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "weir") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn run(views: Views, tag: &str, min_differ: usize) {
    let mut failures = Vec::new();
    let mut native = 0;
    let files = files();
    assert!(files.len() >= 8, "only {} files use views", files.len());
    let mut differ = 0;
    for f in &files {
        let c = match weir_driver::pipeline::compile_file_views(f, views) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: {}", f.display(), e.render(false)));
                continue;
            }
        };
        let Ok(base) = weir_driver::pipeline::compile_file_views(f, Views::Heuristic) else {
            continue;
        };
        let text = std::fs::read_to_string(f).expect("read");
        let cases = parse_blocks(&text, f.parent().unwrap_or(Path::new("."))).expect("blocks");
        if c.optimized.defs != base.optimized.defs {
            for o in run_cases(&c, &cases) {
                if let Some(m) = o.failure {
                    failures.push(format!("{}:{} ({}): {m}", f.display(), o.line, o.entry));
                }
            }
        }
        if f.to_string_lossy().ends_with("_interp.weir") {
            continue;
        }
        let opts = BuildOptions::default();
        let src = c_source(&c, &opts, true);
        let base_src = c_source(&base, &opts, true).ok();
        if base_src.is_some() && src.as_ref().ok() == base_src.as_ref() {
            continue;
        }
        differ += 1;
        let exe = match src.and_then(|src| build_c(&src, &opts)) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: the C backend fails: {e}", f.display()));
                continue;
            }
        };
        for o in run_cases_native(&c, &cases, &exe, &[]) {
            native += 1;
            if let Some(m) = o.failure {
                failures.push(format!(
                    "{}:{} ({}) in C: {m}",
                    f.display(),
                    o.line,
                    o.entry
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "--views={tag}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(native >= 50, "only {native} C cases ran");
    assert!(
        differ >= min_differ,
        "only {differ} files compile differently"
    );
}

#[test]
fn every_file_with_views_agrees_with_the_interpreter_under_views_none() {
    run(Views::None, "none", 20);
}

#[test]
fn every_file_with_views_agrees_with_the_interpreter_under_views_all() {
    run(Views::All, "all", 5);
}
