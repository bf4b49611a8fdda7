//! `weir bench` end to end on the implementations every machine has (Weir and
//! hand-written C): inputs, builds, cross-check, interleaved timing, JSON and
//! figures. The peers (C++, Eigen, NumPy, JAX, Numba) are never needed here.
//!
//! A test that needs a C compiler or a TrueType font is `#[ignore]`d with the
//! reason when build.rs did not find it, and fails when it is missing under
//! `CI=true` (build.rs then sets `weir_has_cc` and `weir_has_font`).

use std::path::{Path, PathBuf};
use weir_bench::{Config, runner};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The tests that build run only when build.rs found a C compiler, or under
/// `CI=true`, where a missing one is a failure.
fn require_cc() {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    assert!(
        std::process::Command::new(&cc)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "`{cc} --version` does not run: install gcc or clang (scripts/install-c-tools.sh), or set $CC"
    );
}

fn config(root: PathBuf, only: &[&str]) -> Config {
    Config {
        root,
        suite: None,
        build_dir: None,
        quick: true,
        size: Some("MINI".into()),
        only: only.iter().map(|s| s.to_string()).collect(),
        impls: vec!["weir".into(), "c".into()],
        variants: Some(false),
        reps: Some(2),
        budget_ms: Some(5),
        timeout_s: Some(60),
        cores: 1,
        cpu: None,
        openblas_coretype: None,
        machine: false,
        progress: false,
    }
}

#[test]
#[cfg_attr(
    not(weir_has_cc),
    ignore = "no C compiler (`$CC`, else `cc`) when weir-bench was built: install gcc or clang"
)]
fn weir_and_hand_written_c_agree_and_are_timed() {
    require_cc();
    let root = repo().canonicalize().unwrap();
    let rep = weir_bench::run(&config(root, &["add3-100", "cross", "mm"])).unwrap();
    assert_eq!(rep.workloads.len(), 3);
    for w in &rep.workloads {
        assert_eq!(w.reference.as_deref(), Some("c"), "{}", w.name);
        assert_eq!(w.impls.len(), 2);
        for r in &w.impls {
            assert!(r.ok(), "{} {}: {}", w.name, r.id, r.status);
            let c = r.check.as_ref().unwrap();
            assert!(c.agrees && c.elements > 0, "{} {}", w.name, r.id);
            // Weir and the hand-written C evaluate in the same order.
            assert!(c.bit_identical, "{} {}: {:?}", w.name, r.id, c);
            assert_eq!(r.samples_ns.len(), 2, "{} {}", w.name, r.id);
            let (lo, m, hi) = (r.min_ns.unwrap(), r.median_ns.unwrap(), r.max_ns.unwrap());
            assert!(lo > 0.0 && lo <= m && m <= hi);
            assert!(r.calls_per_process >= 1 && r.warmup_calls >= 1);
            assert!(r.peak_rss_kb.unwrap() > 0);
            // Both count allocations; Weir's default allocates nothing per call
            // in steady state.
            assert!(r.allocs_per_call.is_some());
        }
        let c = w.impls.iter().find(|r| r.id == "c").unwrap();
        assert_eq!(c.vs_c, Some(1.0));
        let weir = w.impls.iter().find(|r| r.id == "weir").unwrap();
        assert_eq!(weir.allocs_per_call, Some(0.0), "{}", w.name);
        assert!(weir.vs_c.unwrap() > 0.0);
    }
    // add3 moves 32 bytes per element; MM is 2 n^3 flops (MINI: 20 x 25 x 30).
    let add3 = &rep.workloads[0];
    assert_eq!(add3.work.bytes, Some(3200.0));
    let mm = &rep.workloads[2];
    assert_eq!(mm.size.as_deref(), Some("MINI"));
    assert_eq!(
        mm.work.flops,
        Some(2.0 * 20.0 * 25.0 * 30.0 + 3.0 * 20.0 * 25.0)
    );

    // The report: JSON that reads back, the Markdown table (the figures: below).
    let dir = std::env::temp_dir().join(format!("weir-bench-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("results.json");
    weir_bench::report::write_json(&rep, &json).unwrap();
    let back: weir_bench::Report =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        back.workloads[1].impls[0].samples_ns,
        rep.workloads[1].impls[0].samples_ns
    );
    let md = weir_bench::report::markdown(&rep);
    assert!(
        md.contains("| add3-100 |") && md.contains("| mm (MINI) |"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The figures of a saved run (the committed quick results, read back as
/// `weir bench --from` does): time and memory, PNG and SVG.
#[test]
#[cfg_attr(
    not(weir_has_font),
    ignore = "no TrueType font for the figures when weir-bench was built: install fonts-dejavu-core (scripts/install-c-tools.sh) or set WEIR_BENCH_FONT"
)]
fn the_figures_of_a_saved_run_are_drawn() {
    let json = repo().join("bench/results/quick-1core/results.json");
    let rep: weir_bench::Report =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let dir = std::env::temp_dir().join(format!("weir-bench-figures-{}", std::process::id()));
    let files = weir_bench::plot::write_all(&rep, &dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(files.len(), 4, "{files:?}");
    for f in &files {
        let b = std::fs::read(f).unwrap();
        if f.extension().unwrap() == "png" {
            assert_eq!(&b[..4], b"\x89PNG");
        } else {
            let s = String::from_utf8(b).unwrap();
            assert!(s.contains("<svg") && s.contains("add3-100"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of the suite's files in a scratch root, with a wrong hand-written
/// add3: the cross-check must catch it and keep its times out of the report.
#[test]
#[cfg_attr(
    not(weir_has_cc),
    ignore = "no C compiler (`$CC`, else `cc`) when weir-bench was built: install gcc or clang"
)]
fn a_wrong_result_is_caught_and_not_timed() {
    require_cc();
    let repo = repo().canonicalize().unwrap();
    let root = std::env::temp_dir().join(format!("weir-bench-wrong-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for d in ["bench/handwritten", "examples"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in [
        "bench/suite.toml",
        "bench/handwritten/harness.h",
        "bench/handwritten/mkinput.py",
        "examples/add3.weir",
    ] {
        std::fs::copy(repo.join(f), root.join(f)).unwrap();
    }
    let good = std::fs::read_to_string(repo.join("bench/handwritten/add3.c")).unwrap();
    let bad = good.replace("(a[i] + b[i]) + c[i]", "(a[i] + b[i]) - c[i]");
    assert_ne!(good, bad, "the test's edit no longer applies to add3.c");
    std::fs::write(root.join("bench/handwritten/add3.c"), bad).unwrap();
    let rep = runner::run(&config(root.clone(), &["add3-100"])).unwrap();
    let w = &rep.workloads[0];
    // The hand-written C is the reference, so Weir is the one that disagrees.
    let weir = w.impls.iter().find(|r| r.id == "weir").unwrap();
    assert!(weir.status.starts_with("wrong result"), "{}", weir.status);
    assert!(weir.median_ns.is_none() && weir.samples_ns.is_empty());
    assert!(!weir.check.as_ref().unwrap().agrees);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn unknown_names_are_errors_that_list_the_choices() {
    let root = repo().canonicalize().unwrap();
    let e = weir_bench::run(&config(root.clone(), &["add4"])).unwrap_err();
    assert!(
        e.contains("no workload `add4`") && e.contains("add3-100"),
        "{e}"
    );
    let mut c = config(root, &["add3-100"]);
    c.impls = vec!["fortran".into()];
    let e = weir_bench::run(&c).unwrap_err();
    assert!(
        e.contains("no implementation `fortran`") && e.contains("numba"),
        "{e}"
    );
}

/// An implementation that was asked for and cannot be built is a failure of
/// the run (`weir bench` exits non-zero), not a skip: here a scratch copy of
/// the suite whose add3 is a `while` loop whose state changes shape, which
/// the C backend rejects.
#[test]
#[cfg_attr(
    not(weir_has_cc),
    ignore = "no C compiler (`$CC`, else `cc`) when weir-bench was built: install gcc or clang"
)]
fn a_requested_implementation_that_cannot_be_built_fails_the_run() {
    require_cc();
    let repo = repo().canonicalize().unwrap();
    let root = std::env::temp_dir().join(format!("weir-bench-unbuilt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for d in ["bench/handwritten", "examples"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in [
        "bench/suite.toml",
        "bench/handwritten/harness.h",
        "bench/handwritten/mkinput.py",
        "bench/handwritten/add3.c",
    ] {
        std::fs::copy(repo.join(f), root.join(f)).unwrap();
    }
    std::fs::write(
        root.join("examples/add3.weir"),
        "entry add3 [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) : []f64 =\n  flatten (map (\\x -> replicate (i64 x) 1.0) a)\n",
    )
    .unwrap();
    let mut cfg = config(root.clone(), &["add3-100"]);
    cfg.impls = vec!["weir".into(), "weir-CL".into(), "c".into()];
    let rep = runner::run(&cfg).unwrap();
    let status = |id: &str| {
        rep.workloads[0]
            .impls
            .iter()
            .find(|r| r.id == id)
            .unwrap()
            .status
            .clone()
    };
    for id in ["weir", "weir-CL"] {
        assert!(
            status(id).starts_with(runner::CANNOT_BUILD),
            "{}",
            status(id)
        );
    }
    assert_eq!(status("c"), "ok");
    let f = weir_bench::failures(&rep);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f[0].starts_with("add3-100 weir: failed: cannot build:"),
        "{f:?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn what_is_requested_and_where_results_go() {
    let root = repo();
    let all = weir_bench::impls::all(true);
    let get = |id: &str| all.iter().find(|i| i.id == id).unwrap().clone();
    let mut cfg = config(root.clone(), &[]);
    cfg.impls.clear();
    cfg.variants = None;
    // A plain run asks for Weir itself; peers and default variants are
    // skipped when their tools are missing.
    assert!(runner::requested(&cfg, &get("weir")));
    assert!(!runner::requested(&cfg, &get("weir-CG")));
    assert!(!runner::requested(&cfg, &get("eigen")));
    cfg.variants = Some(true);
    assert!(runner::requested(&cfg, &get("weir-CG")));
    assert!(!runner::requested(&cfg, &get("numpy")));
    cfg.impls = vec!["numpy".into()];
    assert!(runner::requested(&cfg, &get("numpy")));
    // --quick writes to a scratch directory git ignores, never over the
    // committed results.
    let quick = weir_bench::default_out_dir(&root, true, 1);
    assert!(quick.ends_with("bench/build/results/quick-1core"));
    assert!(!quick.starts_with(root.join("bench/results")));
    assert!(
        std::process::Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(["check-ignore", "-q"])
            .arg(&quick)
            .status()
            .map_or(true, |s| s.success()),
        "{} is not ignored by git",
        quick.display()
    );
    assert!(weir_bench::default_out_dir(&root, false, 2).ends_with("bench/results/full-2core"));
}

/// Eigen is reported at two -march levels: `eigen` (-march=native) and
/// `eigen-v3` (-march=x86-64-v3: on an AVX-512 CPU Eigen's AVX2 code can be
/// the faster). Both are listed and run by default, are built from the same
/// bench/eigen sources into their own directories, and `eigen-v3` obeys the
/// suite's `skip` entries for `eigen`. Checked on the compile commands, so
/// Eigen need not be installed.
#[test]
fn eigen_is_built_at_native_and_at_x86_64_v3() {
    let root = repo().canonicalize().unwrap();
    for with_variants in [false, true] {
        let ids: Vec<String> = weir_bench::impls::all(with_variants)
            .into_iter()
            .map(|i| i.id)
            .collect();
        let e = ids.iter().position(|i| i == "eigen").expect("no eigen");
        assert_eq!(
            ids.get(e + 1).map(String::as_str),
            Some("eigen-v3"),
            "{ids:?}"
        );
    }
    // In the default set of a run (quick or full), and named by --impls.
    let mut cfg = config(root.clone(), &[]);
    cfg.impls.clear();
    for variants in [false, true] {
        let chosen = runner::chosen_impls(&cfg, variants).unwrap();
        assert!(chosen.iter().any(|i| i.id == "eigen"));
        assert!(chosen.iter().any(|i| i.id == "eigen-v3"));
    }
    cfg.impls = vec!["c".into(), "eigen-v3".into()];
    let chosen = runner::chosen_impls(&cfg, false).unwrap();
    assert_eq!(
        chosen.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        ["c", "eigen-v3"]
    );

    let all = weir_bench::impls::all(false);
    let get = |id: &str| all.iter().find(|i| i.id == id).unwrap().clone();
    let tools = weir_bench::impls::Toolchain {
        cc: Some("cc".into()),
        cxx: Some("c++".into()),
        eigen: Some("/opt/eigen3".into()),
        python: None,
        python_peers: vec![],
        versions: vec![],
    };
    let cmd = |id: &str| {
        weir_bench::impls::compile_command(&root, &tools, &get(id), "gemm")
            .unwrap_or_else(|e| panic!("{id}: {e}"))
    };
    let (native, v3) = (cmd("eigen"), cmd("eigen-v3"));
    let march = |c: &weir_bench::impls::CompileCommand| -> Vec<String> {
        c.flags
            .iter()
            .filter(|f| f.starts_with("-march") || f.starts_with("-mtune"))
            .cloned()
            .collect()
    };
    assert_eq!(march(&native), ["-march=native"], "{native:?}");
    assert_eq!(march(&v3), ["-march=x86-64-v3"], "{v3:?}");
    for c in [&native, &v3] {
        assert_eq!(c.compiler, "c++");
        assert_eq!(c.src, root.join("bench/eigen/gemm.cpp"));
        for f in ["-O3", "-std=c++17", "-DNDEBUG", "-I/opt/eigen3"] {
            assert!(c.flags.iter().any(|x| x == f), "{f} missing: {c:?}");
        }
    }
    // Their own programs (and so their own cache stamps beside them).
    assert_eq!(native.out, root.join("bench/build/bin/eigen/gemm"));
    assert_eq!(v3.out, root.join("bench/build/bin/eigen-v3/gemm"));
    // The other C/C++ peers are still built for the host.
    assert_eq!(march(&cmd("c")), ["-march=native"]);
    assert_eq!(march(&cmd("cpp")), ["-march=native"]);
    // Without Eigen neither can be built, with the reason.
    let no_eigen = weir_bench::impls::Toolchain {
        eigen: None,
        ..tools.clone()
    };
    let e =
        weir_bench::impls::compile_command(&root, &no_eigen, &get("eigen-v3"), "gemm").unwrap_err();
    assert!(e.contains("Eigen 3 is not installed"), "{e}");

    // A workload that skips eigen skips eigen-v3 too; its own entry wins.
    let suite = weir_bench::suite::load(&root.join("bench/suite.toml")).unwrap();
    let scan = suite
        .workloads
        .iter()
        .find(|w| w.skip.contains_key("eigen") && !w.skip.contains_key("eigen-v3"))
        .expect("a workload with a skip for eigen");
    assert_eq!(
        get("eigen-v3").skip_reason(&scan.skip),
        scan.skip.get("eigen").map(String::as_str)
    );
    let mut skip = std::collections::BTreeMap::new();
    skip.insert("eigen-v3".to_string(), "own".to_string());
    assert_eq!(get("eigen-v3").skip_reason(&skip), Some("own"));
    assert_eq!(get("eigen").skip_reason(&skip), None);
    skip.insert("eigen".to_string(), "both".to_string());
    assert_eq!(get("cpp").skip_reason(&skip), None);
}

/// Every workload of bench/suite.toml has what `weir bench` looks for, checked
/// without building or running anything: a Weir entry that compiles to C;
/// hand-written C; the C++, Eigen and Python programs unless the workload
/// `skip`s that implementation; the kernel in the build scripts, in
/// handwritten/check.sh and in the Python peers' list; and its input kind in
/// mkinput.py's tables (the signature, result, generator, and the same Weir
/// entry as the suite's).
#[test]
fn every_workload_has_its_programs_and_tables() {
    let root = repo().canonicalize().unwrap();
    let suite = weir_bench::suite::load(&root.join("bench/suite.toml")).unwrap();
    let read = |p: &str| {
        std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("cannot read {p}: {e}"))
    };
    let mkinput = read("bench/handwritten/mkinput.py");
    let check_sh = read("bench/handwritten/check.sh");
    let py_harness = read("bench/py/harness.py");
    // A word of a build script's program list.
    let lists = |script: &str, kernel: &str| {
        read(script)
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == kernel)
    };
    let mut missing = Vec::new();
    let mut compiled = std::collections::HashSet::new();
    // (a kernel's first workload names its Weir program in the scripts;
    // a later one may run another program of the same kernel, e.g. the
    // dps-views way of writing it, `mm-t` beside `mm`)
    let mut primary: std::collections::HashMap<String, (String, String)> = Default::default();
    for w in &suite.workloads {
        let (own_file, entry) = w.weir_entry().unwrap();
        let k = w.kernel.as_str();
        let (file, script_entry) = primary
            .entry(k.to_string())
            .or_insert_with(|| (own_file.to_string(), entry.to_string()))
            .clone();
        let mut need = |ok: bool, what: String| {
            if !ok {
                missing.push(format!("{} (kernel {k}): {what}", w.name));
            }
        };
        if compiled.insert(w.weir.clone()) {
            match weir_driver::pipeline::compile_file(&root.join(own_file)) {
                Ok(c) => {
                    need(
                        c.program.find(entry).is_some(),
                        format!("{own_file} has no entry `{entry}`"),
                    );
                    let src = weir_driver::native::c_source(
                        &c,
                        &weir_driver::native::BuildOptions::default(),
                        true,
                    );
                    need(
                        src.is_ok(),
                        format!("{own_file} does not compile to C: {:?}", src.err()),
                    );
                }
                Err(e) => need(false, format!("{own_file}: {}", e.render(false))),
            }
        }
        need(
            root.join(format!("bench/handwritten/{k}.c")).is_file(),
            format!("no bench/handwritten/{k}.c"),
        );
        need(
            lists("bench/handwritten/build.sh", k),
            "not in bench/handwritten/build.sh".into(),
        );
        need(
            check_sh.contains(&format!("{k}) echo \"{file} {script_entry}\"")),
            format!("bench/handwritten/check.sh has no `{k}) echo \"{file} {script_entry}\"`"),
        );
        for (id, dir) in [("cpp", "cpp"), ("eigen", "eigen")] {
            if !w.skip.contains_key(id) {
                need(
                    root.join(format!("bench/{dir}/{k}.cpp")).is_file(),
                    format!("no bench/{dir}/{k}.cpp and no `skip` for {id}"),
                );
                need(
                    lists(&format!("bench/{dir}/build.sh"), k),
                    format!("not in bench/{dir}/build.sh"),
                );
            }
        }
        if ["numpy", "jax", "numba"]
            .iter()
            .any(|id| !w.skip.contains_key(*id))
        {
            need(
                root.join(format!("bench/py/kernels/{k}.py")).is_file(),
                format!("no bench/py/kernels/{k}.py"),
            );
            need(
                py_harness.contains(&format!("'{k}'")),
                "not in KERNELS of bench/py/harness.py".into(),
            );
        }
        // mkinput.py KIND ...: the kind's tables
        let kind = w.input.split_whitespace().next().unwrap_or("");
        need(
            mkinput.matches(&format!("\n    '{kind}': [")).count() == 2,
            format!("mkinput.py: `{kind}` needs a SIGNATURES and a RESULTS row"),
        );
        need(
            mkinput.contains(&format!("'{kind}': gen_{kind}")),
            format!("mkinput.py: no generator gen_{kind} in GENERATORS"),
        );
        need(
            mkinput.contains(&format!("'{kind}': ('{file}', '{script_entry}')")),
            format!("mkinput.py: ENTRIES['{kind}'] is not ('{file}', '{script_entry}')"),
        );
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// bench/natural.toml (issue 47's measure: examples/natural/ against
/// PolyBench's C) loads as a user's suite, and each workload names a Weir
/// entry that compiles to C, a C peer that exists, and a kernel whose inputs
/// mkinput.py writes (a kernel of bench/suite.toml, whose port reads the
/// same inputs; the sizes may differ: lu's `--size` rather than `--dims`).
#[test]
fn the_natural_suite_names_its_programs() {
    let root = repo().canonicalize().unwrap();
    let path = root.join("bench/natural.toml");
    let suite = weir_bench::suite::load_user(&path).unwrap();
    let main = weir_bench::suite::load(&root.join("bench/suite.toml")).unwrap();
    assert!(suite.workloads.len() >= 17);
    let mut missing = Vec::new();
    for w in &suite.workloads {
        let (file, entry) = w.weir_entry().unwrap();
        let file = root.join("bench").join(file);
        match weir_driver::pipeline::compile_file(&file) {
            Ok(c) if c.program.find(entry).is_some() => {}
            Ok(_) => missing.push(format!("{}: no entry `{entry}`", w.name)),
            Err(e) => missing.push(format!("{}: {}", w.name, e.render(false))),
        }
        let c = w.c.as_deref().unwrap_or_default();
        if !root.join("bench").join(c).is_file() {
            missing.push(format!("{}: no C peer {c}", w.name));
        }
        if !main
            .workloads
            .iter()
            .any(|m| m.kernel == w.kernel && first_word(&m.input) == first_word(&w.input))
        {
            missing.push(format!(
                "{}: kernel {} with input `{}` is in no workload of bench/suite.toml",
                w.name, w.kernel, w.input
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The first word of a workload's input line (mkinput.py's kernel).
fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or_default()
}
