//! Every example compiles, its core IR verifies and round-trips through the text
//! form, and every test block case passes on the reference interpreter. The GMM and
//! BA objectives also run on ADBench instances converted by `weir adbench`, compared
//! with NumPy results (tools/oracles/adbench_expected.py).

use std::path::{Path, PathBuf};
use weir_driver::testblock::{ValueSrc, parse_expected, run_cases};
use weir_driver::{compile_file, compile_source, run_entry};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "weir"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn examples_pass_their_test_blocks() {
    let files = example_files();
    assert!(
        files.len() >= 12,
        "expected the example programs under examples/, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    let mut total = 0;
    for f in &files {
        let c = match compile_file(f) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!(
                    "{} does not compile:\n{}",
                    f.display(),
                    e.render(false)
                ));
                continue;
            }
        };
        weir_driver::pipeline::verify(&c.program, "elaborate")
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // the printed IR parses back to the same text
        let printed = weir_ir::print::program_to_string(&c.program);
        let parsed = weir_ir::parse::parse_program(&printed)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(
            weir_ir::print::program_to_string(&parsed),
            printed,
            "{}",
            f.display()
        );
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let (cases, structures) =
            weir_driver::testblock::parse_blocks_full(&text, f.parent().unwrap_or(Path::new(".")))
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(!cases.is_empty(), "{} has no test cases", f.display());
        let mut outcomes = run_cases(&c, &cases);
        outcomes.extend(weir_driver::testblock::check_structures(&c, &structures));
        for o in outcomes {
            total += 1;
            if let Some(msg) = o.failure {
                failures.push(format!("{}:{} ({}): {msg}", f.display(), o.line, o.entry));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Convert an ADBench file and run an entry on it; compare with the oracle output.
fn adbench_case(kind: &str, data: &str, weir: &str, entry: &str, expected: &str, tol: f64) {
    let data_path = root().join("../shared/data/adbench").join(data);
    if !data_path.exists() {
        eprintln!(
            "SKIPPED: {} is absent (../shared/data not beside the project)",
            data_path.display()
        );
        return;
    }
    let text = std::fs::read_to_string(&data_path).unwrap_or_default();
    let values = match kind {
        "gmm" => weir_driver::adbench::gmm(&text),
        _ => weir_driver::adbench::ba(&text),
    }
    .unwrap_or_else(|e| panic!("converting {data}: {e}"));
    let c = compile_file(&root().join("examples").join(weir))
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let d = c
        .program
        .find(entry)
        .unwrap_or_else(|| panic!("no entry {entry}"));
    let args = weir_driver::inputs::read_args(
        d,
        &[weir_driver::inputs::Source::Text(values, data.into())],
    )
    .unwrap_or_else(|e| panic!("{data}: {e}"));
    let ret = d.ret.clone();
    let v = run_entry(&c, entry, args).unwrap_or_else(|e| panic!("{data}: {}", e.message));
    let exp_path = root().join("examples/data/adbench").join(expected);
    let want = parse_expected(&ValueSrc::File(exp_path), &ret)
        .unwrap_or_else(|e| panic!("{expected}: {e}"));
    weir_interp::compare(&v, &want, tol).unwrap_or_else(|e| panic!("{data}: {e}"));
}

#[test]
fn adbench_gmm_instances() {
    adbench_case(
        "gmm",
        "gmm/test.txt",
        "gmm.weir",
        "gmm_objective",
        "gmm_test.out",
        1e-9,
    );
    adbench_case(
        "gmm",
        "gmm/1k/gmm_d2_K5.txt",
        "gmm.weir",
        "gmm_objective",
        "gmm_d2_K5.out",
        1e-9,
    );
    adbench_case(
        "gmm",
        "gmm/1k/gmm_d10_K5.txt",
        "gmm.weir",
        "gmm_objective",
        "gmm_d10_K5.out",
        1e-9,
    );
}

#[test]
fn adbench_ba_instances() {
    adbench_case(
        "ba",
        "ba/test.txt",
        "ba.weir",
        "ba_objective",
        "ba_test.out",
        1e-9,
    );
    adbench_case(
        "ba",
        "ba/ba1_n49_m7776_p31843.txt",
        "ba.weir",
        "ba_objective",
        "ba1_n49_m7776_p31843.out",
        1e-9,
    );
}

#[test]
fn runtime_errors_carry_source_locations() {
    let src = "entry f (a: [3]f64) (i: i64) : f64 =\n  let x = a[i]\n  in x / 2.0\n";
    let c = compile_source("t.weir", src).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let args = vec![
        weir_interp::Value::array(vec![weir_interp::Value::F64(1.0); 3]),
        weir_interp::Value::I64(7),
    ];
    let e = run_entry(&c, "f", args).expect_err("index 7 is out of bounds");
    let text = weir_driver::pipeline::render_runtime_error(&c, &e, false);
    assert!(
        text.starts_with("t.weir:2:11: error[E0901]: runtime error: index out of bounds: index 7"),
        "{text}"
    );
}

/// The C of every example is the same text on every compilation: no pass may
/// depend on a hash order (`HashMap`'s seed differs per map, so repeated
/// compilations in one process see different orders). gmm.weir's
/// vectorised lanes once listed their buffers in a `HashSet`'s order, which
/// also decided which out-of-memory check C made first.
#[test]
fn examples_compile_to_the_same_c_every_time() {
    let opts = weir_driver::native::BuildOptions::default();
    let mut differ = Vec::new();
    for f in example_files() {
        let Ok(c) = compile_file(&f) else { continue };
        let Ok(first) = weir_driver::native::c_source(&c, &opts, true) else {
            continue;
        };
        for _ in 0..4 {
            let again = compile_file(&f)
                .ok()
                .and_then(|c| weir_driver::native::c_source(&c, &opts, true).ok());
            if again.as_deref() != Some(first.as_str()) {
                differ.push(f.display().to_string());
                break;
            }
        }
    }
    assert!(
        differ.is_empty(),
        "C differs between compilations: {differ:?}"
    );
}
