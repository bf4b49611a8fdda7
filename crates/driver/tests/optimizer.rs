//! The optimizer on the paper's examples: insta snapshots of the optimized IR of
//! add3, GMM, cross, HT and MM, with assertions on what fusion must have done (so a
//! snapshot accepted by mistake still fails the test), and the materialised-array
//! counts before and after for every example.

use std::path::{Path, PathBuf};
use weir_driver::{Compiled, compile_file};
use weir_ir::visit::{MutVisitor, walk_body_mut};
use weir_ir::*;
use weir_opt::count::{materialised_in, materialised_per_entry};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(name: &str) -> Compiled {
    let p = root().join("examples").join(name);
    match compile_file(&p) {
        Ok(c) => c,
        Err(e) => panic!("{name}: {}", e.render(false)),
    }
}

fn def<'a>(p: &'a Program, name: &str) -> &'a FunDef {
    p.find(name)
        .unwrap_or_else(|| panic!("no definition `{name}`"))
}

fn print_def(d: &FunDef) -> String {
    weir_ir::print::program_to_string(&Program {
        defs: vec![d.clone()],
        effects: vec![],
        ..Default::default()
    })
}

/// Every builtin used in a body (nested bodies included), and whether any function
/// value remains (a lambda passed to a call, `apply`, or a function variable).
#[derive(Default)]
struct Census {
    prims: Vec<Builtin>,
    higher_order: bool,
    calls: usize,
}

fn census(b: &Body, c: &mut Census) {
    for s in &b.stmts {
        match &s.exp {
            Exp::Prim(p) => {
                c.prims.push(p.builtin());
                for a in p.args() {
                    match a {
                        ArgRef::Fun(Fun::Lambda(l)) => census(&l.body, c),
                        ArgRef::Fun(Fun::Var(_)) => c.higher_order = true,
                        _ => {}
                    }
                }
            }
            Exp::Call(_, args) => {
                c.calls += 1;
                if args.iter().any(|a| matches!(a, Arg::Fun(_))) {
                    c.higher_order = true;
                }
            }
            Exp::Apply(..) => c.higher_order = true,
            Exp::If(_, t, f) => {
                census(t, c);
                census(f, c);
            }
            Exp::Loop { form, body, .. } => {
                if let LoopForm::While(w) = form {
                    census(w, c);
                }
                census(body, c);
            }
            _ => {}
        }
    }
}

/// How many `build`s a definition has (nested ones included).
fn builds_in(d: &FunDef) -> usize {
    census_of(d)
        .prims
        .iter()
        .filter(|b| **b == Builtin::Build)
        .count()
}

fn census_of(d: &FunDef) -> Census {
    let mut c = Census::default();
    census(&d.body, &mut c);
    c
}

/// The loop depth at which each `build` sits (0: top level of the function).
fn build_depths(b: &Body, depth: usize, out: &mut Vec<(Name, usize)>) {
    for s in &b.stmts {
        match &s.exp {
            Exp::Prim(p) => {
                if let Prim::Build { .. } = p {
                    out.push((s.var.clone(), depth));
                }
                for l in p.lambdas() {
                    build_depths(&l.body, depth + 1, out);
                }
            }
            Exp::If(_, t, f) => {
                build_depths(t, depth, out);
                build_depths(f, depth, out);
            }
            Exp::Loop { body, .. } => build_depths(body, depth + 1, out),
            _ => {}
        }
    }
}

#[test]
fn add3_fuses_to_one_loop() {
    let c = load("add3.weir");
    let d = def(&c.optimized, "add3");
    insta::assert_snapshot!("opt_add3", print_def(d));
    let cs = census_of(d);
    assert_eq!(
        cs.prims,
        vec![Builtin::Build],
        "add3 must be a single build (one loop, no intermediate array)"
    );
    assert_eq!(materialised_in(d), 1, "only the result array remains");
    // before: vectorAdd's build twice (through the two calls)
    assert_eq!(materialised_per_entry(&c.program, "add3"), 2);
    assert!(
        c.optimized.defs.iter().all(|d| d.entry),
        "helpers are inlined away"
    );
}

#[test]
fn gmm_objective_fuses_all_but_the_irreducible_arrays() {
    let c = load("gmm.weir");
    let d = def(&c.optimized, "gmm_objective");
    insta::assert_snapshot!("opt_gmm_objective", print_def(d));
    let cs = census_of(d);
    assert!(!cs.higher_order, "the optimized GMM is first-order");
    assert_eq!(cs.calls, 0, "every helper is inlined");
    // no library builtin survives: everything is build / ifold / ireduce
    for p in &cs.prims {
        assert!(
            matches!(p, Builtin::Build | Builtin::IFold | Builtin::IReduce),
            "unexpected {p:?} in the optimized GMM"
        );
    }
    // What stays materialised, and why:
    //   qdiags [k][d] and sumQs [k]: computed once, read in the n x k loop nest;
    //   xcentered [d] per (point, component): read at arbitrary indices by Q x;
    //   mainTerm [k] per point: two consumers (the maximum and the sum of exps).
    let mut builds = Vec::new();
    build_depths(&d.body, 0, &mut builds);
    let names: Vec<&str> = builds.iter().map(|(n, _)| display_name(n)).collect();
    assert!(names.contains(&"mainTerm"), "{names:?}");
    assert!(names.contains(&"xcentered"), "{names:?}");
    assert!(names.contains(&"qdiags"), "{names:?}");
    assert!(names.contains(&"sumQs"), "{names:?}");
    assert_eq!(
        materialised_in(d),
        4,
        "qdiags, sumQs, xcentered, mainTerm: {names:?}"
    );
    // qdiags and sumQs are computed once, at the top level
    for (n, depth) in &builds {
        if display_name(n) == "sumQs" || display_name(n) == "qdiags" {
            assert_eq!(*depth, 0, "{n} must be computed outside the loops");
        }
    }
}

#[test]
fn cross_keeps_its_literal() {
    let c = load("cross.weir");
    let d = def(&c.optimized, "cross");
    insta::assert_snapshot!("opt_cross", print_def(d));
    assert_eq!(census_of(d).calls, 0);
    assert_eq!(materialised_in(d), 1, "the result literal only");
}

#[test]
fn ht_keeps_multi_consumer_intermediates() {
    let c = load("ht.weir");
    let d = def(&c.optimized, "angle_axis_to_rotation_matrix");
    insta::assert_snapshot!("opt_ht", print_def(d));
    let text = print_def(d);
    // sin n and cos n are computed once each (several consumers), not per entry
    assert_eq!(text.matches("= sin ").count(), 1, "{text}");
    assert_eq!(text.matches("= cos ").count(), 1, "{text}");
    // 1 - c appears in several entries: computed once (CSE)
    assert_eq!(text.matches("= 1.0f64 - ").count(), 4, "{text}");
    assert_eq!(census_of(d).calls, 0);
}

#[test]
fn mm_transpose_is_materialised_once() {
    let c = load("mm.weir");
    let d = def(&c.optimized, "matmul");
    insta::assert_snapshot!("opt_mm_matmul", print_def(d));
    let mut builds = Vec::new();
    build_depths(&d.body, 0, &mut builds);
    let bt: Vec<_> = builds
        .iter()
        .filter(|(n, _)| display_name(n) == "bt")
        .collect();
    assert_eq!(bt.len(), 1, "the transpose exists once: {builds:?}");
    assert_eq!(bt[0].1, 0, "the transpose is computed outside the loops");
    // the element-wise product is fused into the sum: no build inside the j loop
    assert!(
        builds.iter().all(|(_, depth)| *depth <= 2),
        "a row is rebuilt per element: {builds:?}"
    );
    let cs = census_of(d);
    assert!(cs.prims.contains(&Builtin::IReduce), "sum is an ireduce");
    assert!(!cs.prims.contains(&Builtin::Map2));
    // the linalg version (transpose written as a build) behaves the same
    let c = load("linalg.weir");
    let d = def(&c.optimized, "test_matrixMul");
    insta::assert_snapshot!("opt_linalg_matrixMul", print_def(d));
    let mut builds = Vec::new();
    build_depths(&d.body, 0, &mut builds);
    assert!(
        builds.iter().filter(|(_, depth)| *depth == 0).count() >= 2,
        "transpose and result at the top level: {builds:?}"
    );
    assert!(builds.iter().all(|(_, depth)| *depth <= 1), "{builds:?}");
}

/// The materialised-array count of every example, before and after (printed; the
/// closing note of issue 3 quotes it), and fusion never adds arrays.
#[test]
fn materialised_counts_never_grow() {
    let mut rows = Vec::new();
    let mut dir: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    dir.sort();
    for p in dir
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "weir"))
    {
        let c = compile_file(p).unwrap_or_else(|e| panic!("{}", e.render(false)));
        // per entry: the entry plus what it calls (before: the elaborated program
        // with its helpers; after: the optimized program)
        for e in c.program.entries() {
            let before = materialised_per_entry(&c.program, &e.name);
            let after = materialised_per_entry(&c.optimized, &e.name);
            rows.push(format!(
                "{:<16} {:<32} {before:>4} -> {after:>4}",
                p.file_name().and_then(|s| s.to_str()).unwrap_or("?"),
                e.name
            ));
            assert!(
                after <= before,
                "{}: {}: the optimizer added arrays ({before} -> {after})",
                p.display(),
                e.name
            );
        }
    }
    println!("{}", rows.join("\n"));
}

/// Names stay unique and the verifier passes after every pass, for every example
/// (the pipeline runs the verifier in test builds; this checks it ran green).
#[test]
fn every_pass_verifies_on_every_example() {
    let dir: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    for p in dir
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "weir"))
    {
        let c = compile_file(p).unwrap_or_else(|e| panic!("{}", e.render(false)));
        weir_opt::optimize_verified(&c.program).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        // the optimized IR round-trips through the text form
        let text = weir_ir::print::program_to_string(&c.optimized);
        let back =
            weir_ir::parse::parse_program(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(weir_ir::print::program_to_string(&back), text);
        // optimizing the optimized program again still verifies
        let again = weir_opt::optimize_verified(&c.optimized)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        for d in &again.defs {
            let mut names = NameCheck::default();
            walk_body_mut(&mut names, &mut d.body.clone());
            assert!(names.dups.is_empty(), "{}: {:?}", p.display(), names.dups);
        }
        // the rounds reached their fixed point: one more round changes nothing
        let mut q = c.optimized.clone();
        for (name, _, f) in weir_opt::ROUND {
            let changed = f(&mut q);
            assert!(
                !changed,
                "{}: pass `{name}` still changes the program",
                p.display()
            );
        }
    }
}

#[derive(Default)]
struct NameCheck {
    seen: std::collections::HashSet<Name>,
    dups: Vec<Name>,
}
impl MutVisitor for NameCheck {
    fn binder(&mut self, n: &mut Name) {
        if !self.seen.insert(n.clone()) {
            self.dups.push(n.clone());
        }
    }
}

/// The float identities the simplifier uses are exact, and the ones that are not
/// (`x + 0.0`, `x * 0.0`) are not applied: checked on the values that tell them apart.
#[test]
fn float_identities_are_exact_in_ieee() {
    use weir_driver::pipeline::{run_entry, run_entry_optimized};
    use weir_interp::Value;
    let cases: &[(&str, f64, bool)] = &[
        // (expression of x, input, must the operation stay in the optimized IR?)
        ("x + 0.0", -0.0, true),
        ("0.0 + x", -0.0, true),
        ("x * 0.0", f64::INFINITY, true),
        ("x * 0.0", -1.0, true),
        ("x - 0.0", -0.0, false),
        ("x * 1.0", -0.0, false),
        ("1.0 * x", f64::NAN, false),
        ("x / 1.0", -0.0, false),
        ("x + -0.0", 0.0, false),
        ("x - x", f64::INFINITY, true),
        ("x - -0.0", -0.0, true),
    ];
    for (e, input, stays) in cases {
        let src = format!("entry main [n] (v: [n]f64) : f64 = let x = v[0] in {e}\n");
        let c = weir_driver::compile_source("ieee.weir", &src)
            .unwrap_or_else(|_| panic!("{e} does not compile"));
        let args = vec![Value::array(vec![Value::F64(*input)])];
        let a = run_entry(&c, "main", args.clone()).unwrap_or_else(|e| panic!("{}", e.message));
        let b = run_entry_optimized(&c, "main", args).unwrap_or_else(|e| panic!("{}", e.message));
        match (a, b) {
            (Value::F64(a), Value::F64(b)) => assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "`{e}` on {input}: {a} before, {b} after optimization"
            ),
            r => panic!("{r:?}"),
        }
        let text = print_def(def(&c.optimized, "main"));
        let has_op = text.contains(" + ")
            || text.contains(" * ")
            || text.contains(" - ")
            || text.contains(" / ");
        assert_eq!(has_op, *stays, "`{e}`:\n{text}");
    }
}

/// The kind of a run-time error: its diagnostic code (as `weir` reports it).
fn error_kind(message: &str) -> &'static str {
    if message.starts_with("index out of bounds") || message.starts_with("slice") {
        "E0901"
    } else if message.starts_with("size mismatch") {
        "E0902"
    } else if message.starts_with("integer division") {
        "E0903"
    } else {
        "E0900"
    }
}

fn bits_equal(a: &weir_interp::Value, b: &weir_interp::Value) -> bool {
    use weir_interp::Value;
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::F32(x), Value::F32(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::Array(xs), Value::Array(ys)) | (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| bits_equal(x, y))
        }
        _ => a == b,
    }
}

/// The regression corpus `tests/regress/*.weir` (issue 14: the optimizer dropped
/// checks of dead code and of fused reads): on every case the optimized program
/// has the outcome of the unoptimized one — the same value bit for bit, or an
/// error of the same kind at the same source location — so no check is lost,
/// invented, or reported before another (docs/language.md §6); and where the
/// unoptimized run meets the case's expectation, the optimized run does too.
/// (`tests/regress.rs` runs the same files' expectations on the unoptimized
/// interpreter and on C.)
#[test]
fn regressions_keep_their_checks_when_optimized() {
    use weir_driver::pipeline::{run_entry, run_entry_optimized};
    use weir_driver::testblock::{Expect, case_args, parse_blocks, parse_expected};
    let dir = root().join("tests/regress");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "weir"));
    files.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut errors = std::collections::BTreeMap::<&str, usize>::new();
    for f in &files {
        let c = compile_file(f).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let cases = parse_blocks(&text, &dir).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let first = c.program.entries().next().map(|d| d.name.clone());
        for case in &cases {
            let entries = if case.entries.is_empty() {
                first.iter().cloned().collect()
            } else {
                case.entries.clone()
            };
            for entry in entries {
                let at = format!("{}:{} ({entry})", f.display(), case.line);
                // inputs the entry rejects are the input reader's business
                let Ok(args) = case_args(&c, &entry, &case.input) else {
                    continue;
                };
                checked += 1;
                let r = run_entry(&c, &entry, args.clone());
                let o = run_entry_optimized(&c, &entry, args);
                match (&r, &o) {
                    (Ok(a), Ok(b)) if !bits_equal(a, b) => failures.push(format!(
                        "{at}: {} unoptimized, {} optimized",
                        weir_interp::format_value(a),
                        weir_interp::format_value(b)
                    )),
                    (Err(e), Err(g))
                        if error_kind(&e.message) != error_kind(&g.message) || e.span != g.span =>
                    {
                        failures.push(format!(
                            "{at}: `{}` at {:?} unoptimized, `{}` at {:?} optimized",
                            e.message, e.span, g.message, g.span
                        ))
                    }
                    (Err(e), Ok(v)) => failures.push(format!(
                        "{at}: `{}` unoptimized, but the optimized program returns {}",
                        e.message,
                        weir_interp::format_value(v)
                    )),
                    (Ok(_), Err(g)) => failures.push(format!(
                        "{at}: the optimized program fails with `{}`",
                        g.message
                    )),
                    _ => {}
                }
                if let Err(e) = &r {
                    *errors.entry(error_kind(&e.message)).or_default() += 1;
                }
                match (&case.expect, &r, &o) {
                    (Expect::Error(w), Err(e), Err(g))
                        if e.message.contains(w.as_str()) && !g.message.contains(w.as_str()) =>
                    {
                        failures.push(format!(
                            "{at}: expected an error containing `{w}`, the optimized program fails with `{}`",
                            g.message
                        ))
                    }
                    (Expect::Output(src), Ok(a), Ok(b)) => {
                        let ret = c.program.find(&entry).map(|d| d.ret.clone());
                        let Some(ret) = ret else { continue };
                        if let Ok(want) = parse_expected(src, &ret)
                            && weir_interp::compare(a, &want, case.tolerance).is_ok()
                            && let Err(d) = weir_interp::compare(b, &want, case.tolerance)
                        {
                            failures.push(format!("{at}: optimized: {d}"));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // the corpus covers every kind of check (dead_code, fusion, code_motion, ...)
    assert!(checked >= 50, "only {checked} cases");
    for k in ["E0900", "E0901", "E0902", "E0903"] {
        assert!(errors.get(k).is_some_and(|n| *n >= 2), "{errors:?}");
    }
}

/// Every rule of the lowering table fires: a program using the builtin has no
/// call of it left after optimization (a rule added without an example here
/// fails the test).
#[test]
fn every_lowering_rule_fires() {
    let example = |name: &str| -> Option<&str> {
        Some(match name {
            "map" => "entry t (a: []f64) : []f64 = map (\\x -> x + 1.0) a",
            "map2" => "entry t (a: []f64) (b: []f64) : []f64 = map2 (+) a b",
            "map3" => "entry t (a: []f64) : []f64 = map3 (\\x y z -> x + y + z) a a a",
            "zip" => "entry t (a: []f64) (b: []i64) : [](f64, i64) = zip a b",
            "zip3" => "entry t (a: []f64) : [](f64, f64, f64) = zip3 a a a",
            "unzip" => "entry t (a: [](f64, i64)) : ([]f64, []i64) = unzip a",
            "unzip3" => "entry t (a: [](f64, i64, bool)) : ([]f64, []i64, []bool) = unzip3 a",
            "iota" => "entry t (n: i64) : []i64 = iota n",
            "replicate" => "entry t (n: i64) : []f64 = replicate n 1.0",
            // (read by index: a view only where used whole, see
            // `the_views_decision_keeps_what_is_used_whole`)
            "transpose" => {
                "entry t (a: [][]f64) : [][]f64 = map (\\r -> map (\\x -> x * 2.0) r) (transpose a)"
            }
            "reverse" => "entry t (a: []f64) : []f64 = map (\\x -> x + 1.0) (reverse a)",
            "gather" => "entry t (a: []f64) (i: []i64) : []f64 = gather a i",
            "sum" => "entry t (a: []f64) : f64 = sum a",
            "product" => "entry t (a: []f64) : f64 = product a",
            "maximum" => "entry t (a: []f64) : f64 = maximum a",
            "minimum" => "entry t (a: []i64) : i64 = minimum a",
            "reduce" => "entry t (a: []f64) : f64 = reduce (+) 0.0 a",
            "fold" => "entry t (a: []f64) : f64 = fold (\\acc x -> acc * 2.0 + x) 0.0 a",
            "argmax" => "entry t (a: []f64) : i64 = argmax a",
            "argmin" => "entry t (a: []i32) : i64 = argmin a",
            "rotate" => "entry t (k: i64) (a: []f64) : []f64 = rotate k a",
            "pad" => "entry t (a: []f64) : []f64 = pad 1 2 0.0 a",
            "reduce_by_index" => {
                "entry t (k: i64) (is: []i64) : []i64 = reduce_by_index (replicate k 0) (+) 0 is (map (\\_ -> 1) is)"
            }
            _ => return None,
        })
    };
    for (name, b, _) in weir_opt::lower::RULES {
        let Some(src) = example(name) else {
            panic!("lowering rule `{name}` has no example in this test");
        };
        let c = match weir_driver::compile_source("rule.weir", src) {
            Ok(c) => c,
            Err(e) => panic!("{name}: {}", e.render(false)),
        };
        let mut before = Census::default();
        census(&def(&c.program, "t").body, &mut before);
        assert!(
            before.prims.contains(b),
            "{name}: the example does not use it"
        );
        let after = census_of(def(&c.optimized, "t"));
        assert!(
            !after.prims.contains(b),
            "lowering rule `{name}` did not fire:\n{}",
            print_def(def(&c.optimized, "t"))
        );
    }
}

#[test]
fn the_views_decision_keeps_what_is_used_whole() {
    use weir_opt::Views;
    // (source, whether the heuristic keeps the primitive)
    let cases = [
        ("entry t (a: [][]f64) : [][]f64 = transpose a", true),
        (
            "entry t (a: []f64) (b: []f64) : []f64 = reverse a ++ b",
            true,
        ),
        (
            "entry t (a: [][]f64) (k: i64) : [][]f64 = loop s = transpose a for i < k do s",
            true,
        ),
        // a view of a view is used as the outer one is
        (
            "entry t (a: [][]f64) : [][]f64 = reverse (transpose a) ++ a",
            true,
        ),
        // read by index only: fused
        (
            "entry t (a: [][]f64) : []f64 = map (\\r -> r[0]) (transpose a)",
            false,
        ),
        // a reshape needs dense memory: computed
        (
            "entry t (a: [][]f64) : []f64 = flatten (transpose a)",
            false,
        ),
    ];
    let views = |src: &str, v: Views| -> usize {
        let c = weir_driver::pipeline::compile_source_views("v.weir", src, v)
            .unwrap_or_else(|e| panic!("{src}: {}", e.render(false)));
        let mut n = Census::default();
        census(&def(&c.optimized, "t").body, &mut n);
        n.prims
            .iter()
            .filter(|p| matches!(p, Builtin::Transpose | Builtin::Reverse))
            .count()
    };
    for (src, keep) in cases {
        // `weir dev --explain-views` says the same
        let c = weir_driver::compile_source("v.weir", src)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        let inlined = weir_driver::pipeline::optimize(&c.program, Some("inline")).expect("inline");
        let said = weir_opt::lower::explain(&inlined, Views::Heuristic);
        assert!(!said.is_empty(), "{src}");
        let viewed = said
            .iter()
            .filter(|d| matches!(d.1, Builtin::Transpose | Builtin::Reverse))
            .any(|d| d.2);
        assert_eq!(viewed, keep, "explain: {src}: {said:?}");
        assert_eq!(views(src, Views::None), 0, "--views=none: {src}");
        assert!(views(src, Views::All) >= 1, "--views=all: {src}");
        assert_eq!(views(src, Views::Heuristic) >= 1, keep, "heuristic: {src}");
    }
}

/// Every `while` loop in a body, nested bodies included.
fn while_loops(b: &Body) -> usize {
    let mut n = 0;
    for s in &b.stmts {
        match &s.exp {
            Exp::Loop { form, body, .. } => {
                n += usize::from(matches!(form, LoopForm::While(_))) + while_loops(body);
            }
            Exp::If(_, t, e) => n += while_loops(t) + while_loops(e),
            Exp::Prim(p) => {
                for l in p.lambdas() {
                    n += while_loops(&l.body);
                }
            }
            _ => {}
        }
    }
    n
}

/// Rule `while-counter`: a `while` loop that counts from a constant `>= 0` to
/// a bound known outside it is a `for` loop (so its growing state can be
/// sliced); other `while` loops stay.
#[test]
fn a_counting_while_loop_becomes_a_for_loop() {
    let count = |src: &str| -> usize {
        let c = weir_driver::compile_source("w.weir", src)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        while_loops(&def(&c.optimized, "t").body)
    };
    for src in [
        "entry t (a: []f64) (k: i64) : []f64 = let (w, s) = loop (w, s) = (0, a) while w < k do (w + 1, s ++ [f64 w]) in s",
        "entry t (k: i64) : i64 = loop w = 2 while k > w do w + 1",
        "entry t (a: []f64) (k: i64) : f64 = let (s, w) = loop (s, w) = (a, 0) while w < k do (map (\\x -> x * 2.0) s, 1 + w) in s[0]",
    ] {
        assert_eq!(count(src), 0, "becomes a for loop: {src}");
    }
    for src in [
        // counts from a negative start, or by 2, or from a value, or tests more
        "entry t (k: i64) : i64 = loop w = -1 while w < k do w + 1",
        "entry t (k: i64) : i64 = loop w = 0 while w < k do w + 2",
        "entry t (k: i64) (j: i64) : i64 = loop w = j while w < k do w + 1",
        "entry t (k: i64) (a: []i64) : i64 = loop w = 0 while w < k && a[w] > 0 do w + 1",
        "entry t (k: i64) : i64 = loop w = 0 while w <= k do w + 1",
    ] {
        assert_eq!(count(src), 1, "stays a while loop: {src}");
    }
}

/// The `if`s in a function that sit in the body of a `build` (at any depth)
/// and the `if`s outside every `build`.
fn ifs_in_builds(b: &Body, inside: bool, out: &mut (usize, usize)) {
    for s in &b.stmts {
        match &s.exp {
            Exp::If(_, t, e) => {
                if inside {
                    out.0 += 1;
                } else {
                    out.1 += 1;
                }
                ifs_in_builds(t, inside, out);
                ifs_in_builds(e, inside, out);
            }
            Exp::Loop { body, .. } => ifs_in_builds(body, inside, out),
            Exp::Prim(p) => {
                for l in p.lambdas() {
                    ifs_in_builds(&l.body, inside || p.builtin() == Builtin::Build, out);
                }
            }
            _ => {}
        }
    }
}

/// Pass `unswitch`: a `build` ending in an `if` on a condition computed
/// outside it, whose branches' sizes may differ, becomes an `if` of two
/// `build`s; an `if` on the index, or whose branches have one size, stays.
#[test]
fn an_invariant_if_leaves_its_build() {
    let count = |src: &str| -> (usize, usize) {
        let c = weir_driver::compile_source("u.weir", src)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        let mut n = (0, 0);
        ifs_in_builds(&def(&c.optimized, "t").body, false, &mut n);
        n
    };
    for src in [
        "entry t (a: []i64) (b: bool) : [][]i64 = map (\\x -> if b then iota x else replicate 1 x) a",
        "entry t (a: []i64) (k: i64) : [][]i64 = map (\\x -> let y = x * 2 in if k > 3 then [y, x] else [y]) a",
    ] {
        assert_eq!(count(src), (0, 1), "unswitched: {src}");
    }
    for src in [
        // the condition depends on the element; the branches have one size
        "entry t (a: []i64) : [][]i64 = map (\\x -> if x > 0 then [x] else [1]) a",
        "entry t (a: []i64) (b: bool) : [][]i64 = map (\\x -> if b then [x, 1] else [1, x]) a",
    ] {
        assert_eq!(count(src), (1, 0), "stays in the build: {src}");
    }
}

/// `index-stride` and `dim-of-stride`: a stride of a `map` that is read by
/// index leaves neither the stride nor the map's array: one loop over every
/// k-th element, computing only those (with either rule off, the `build`
/// stays).
#[test]
fn a_stride_of_a_map_fuses_into_its_reader() {
    let c = weir_driver::compile_source(
        "s.weir",
        "entry f [n] (a: [n]f64) : f64 = sum (stride 3 (map (\\x -> x * 2.0) a))",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let f = def(&c.optimized, "f");
    let cs = census_of(f);
    assert!(
        !cs.prims.contains(&Builtin::Build) && !cs.prims.contains(&Builtin::Stride),
        "{}",
        print_def(f)
    );
}

/// `involution`: a transpose of a transpose, and a reverse of a reverse, is
/// the array itself (with the rule off, both primitives stay: they are used
/// whole, so they are views).
#[test]
fn a_transpose_of_a_transpose_is_the_array() {
    for src in [
        "entry f [n][m] (a: [n][m]f64) : [n][m]f64 = transpose (transpose a)",
        "entry f [n] (a: [n]f64) : [n]f64 = reverse (reverse a)",
    ] {
        let c = weir_driver::compile_source("i.weir", src)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        let f = def(&c.optimized, "f");
        let cs = census_of(f);
        assert!(
            !cs.prims.contains(&Builtin::Transpose) && !cs.prims.contains(&Builtin::Reverse),
            "{src}\n{}",
            print_def(f)
        );
    }
}

/// `dim-of-build` on a row dimension, and the facts of a slice: the column
/// of a slice, `a[i:, i]`, is read by the reduction straight from `a`; the
/// transposed block it was cut from (`n × (n - i)` elements per `i`), kept
/// only for its row count, and the check-only loops of its reads are gone
/// (issue 47: 1.6 s at n = 1000 before, 1.2 ms after; with either part off,
/// a `build` or a loop stays).
#[test]
fn a_column_slice_in_a_loop_reads_the_matrix() {
    let c = weir_driver::compile_source(
        "i.weir",
        "entry f [n] (a: [n][n]f64) : [n]f64 = map (\\i -> sum a[i:, i]) (iota n)",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let f = def(&c.optimized, "f");
    let mut depths = Vec::new();
    build_depths(&f.body, 0, &mut depths);
    assert_eq!(depths.len(), 1, "{}", print_def(f));
    let printed = print_def(f);
    assert!(
        !printed.contains("loop") && !printed.contains("assert_"),
        "{printed}"
    );
}

/// The simplifier's copy propagation through a name only indexed: the rows
/// of a block update's value (`b with [1:n-1, 1:n-1] = map …`) are read
/// through the name the update binds the `map` to, whose type leaves its
/// sizes unknown; since every use of that name is `x[i]`, it takes the
/// producer's name and the `map` fuses into the update's loop nest (with
/// the propagation off, a `build` of the whole block stays).
#[test]
fn a_block_update_reads_its_map_fused() {
    let c = weir_driver::compile_source(
        "u.weir",
        "entry f [n] (a: [n][n]f64) : [n][n]f64 =
           copy a with [1:n-1, 1:n-1] =
             map (\\i -> map (\\j -> a[i, j] * 2.0) (map (+1) (iota (n-2)))) (map (+1) (iota (n-2)))",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let f = def(&c.optimized, "f");
    assert!(
        !census_of(f).prims.contains(&Builtin::Build),
        "{}",
        print_def(f)
    );
}

/// Inlining a callee that updates a `*` parameter: a stencil step called
/// twice per time step (too large for the small-callee rule) is inlined, so
/// its update is made in the loop state (through a call, the whole state is
/// copied into the call's destination first).
#[test]
fn a_step_updating_its_argument_is_inlined() {
    let body = (0..80)
        .map(|k| format!("  let x{k} = x{} + a[i] * {k}.0\n", k.max(1) - 1))
        .collect::<String>();
    let src = format!(
        "def step [n] (a: [n]f64) (b: *[n]f64) (i: i64) : *[n]f64 =\n  let x0 = a[i]\n{}  in b with [i] = x79\n\
         entry f [n] (a: [n]f64) (t: i64) : [n]f64 =\n  loop b = copy a for k < t do step a (step a b (k % n)) ((k + 1) % n)\n",
        body.replacen("  let x0 = x0 + a[i] * 0.0\n", "", 1)
    );
    let c = weir_driver::compile_source("s.weir", &src)
        .unwrap_or_else(|e| panic!("{src}\n{}", e.render(false)));
    let f = def(&c.optimized, "f");
    assert!(
        weir_ir::visit::body_size(&def(&c.program, "step").body)
            > weir_opt::inline::INLINE_MAX_STMTS,
        "the step must be larger than a small callee"
    );
    assert!(!print_def(f).contains("call "), "{}", print_def(f));
}

/// `index-build`'s index-arithmetic case: a range shared by the maps of a
/// 3-d stencil (`let inner = map (+ 1) (iota (n - 2))`) is recomputed where
/// each map reads it, at any depth, instead of being built once and loaded
/// (with the case off, its `build` stays and the reads check it in a
/// separate loop nest: natural heat-3d ran at 14x PolyBench's C).
#[test]
fn a_range_is_recomputed_where_it_is_read() {
    let c = weir_driver::compile_source(
        "r.weir",
        "entry f [n] (a: [n][n][n]f64) : [][][]f64 =
           let inner = map (+ 1) (iota (n - 2))
           in map (\\i -> map (\\j -> map (\\k -> a[i, j, k] + a[i-1, j, k]) inner) inner) inner",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let f = def(&c.optimized, "f");
    let builds = builds_in(f);
    assert_eq!(builds, 3, "only the three maps' builds:\n{}", print_def(f));
}

/// A block `a[1:n-1, 1:n-1]` (a map over row slices) read by a map over
/// it: `dim-of-build` answers its row length from the slices' bounds
/// (`max (hi - lo) 0`), and a loop counter below `max x 0` is below `x`
/// (facts), so the five blocks of a NumPy-style jacobi-2d step leave
/// neither a `build` nor a check-only loop (with either off, builds of the
/// blocks' rows stay: 17x PolyBench's C at MEDIUM).
#[test]
fn blocks_read_by_a_map_leave_no_build() {
    let c = weir_driver::compile_source(
        "j.weir",
        "entry f [n] (a: [n][n]f64) : [][]f64 =
           map5 (map5 (\\c l r d u -> 0.2 * (c + l + r + d + u)))
                a[1:n-1, 1:n-1] a[1:n-1, :n-2] a[1:n-1, 2:] a[2:, 1:n-1] a[:n-2, 1:n-1]",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let f = def(&c.optimized, "f");
    let builds = builds_in(f);
    assert_eq!(builds, 2, "only the result's two builds:\n{}", print_def(f));
    assert!(!print_def(f).contains("loop ("), "{}", print_def(f));
}

/// `max-zero-of-size`: inside a function whose size parameter `m` names
/// `y`'s columns, the rows of `transpose y` count `m`, not `max m 0` (with
/// the rule off, the `max` stays, with a check per row of the product).
#[test]
fn rows_of_a_transpose_count_the_size_parameter() {
    let c = weir_driver::compile_source(
        "m.weir",
        "def dot [n] (x: [n]f64) (y: [n]f64) : f64 = f64.sum (map2 (*) x y)
         def matmul [n][k][m] (x: [n][k]f64) (y: [k][m]f64) : [n][m]f64 =
           map (\\xrow -> map (\\ycol -> dot xrow ycol) (transpose y)) x
         entry f [n][k][m] (a: [n][k]f64) (b: [k][m]f64) : [n][m]f64 = matmul a b",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let text = print_def(def(&c.optimized, "f"));
    assert!(!text.contains("max"), "{text}");
}

/// `sub-offsets`: the rows of a window `a[i-1:i+2, j-1:j+2]` have length 3,
/// so the sum over each runs a constant count (with the rule off, `(j + 2)
/// - (j - 1)`).
#[test]
fn a_window_has_a_constant_length() {
    let c = weir_driver::compile_source(
        "w.weir",
        "entry f [n][m] (a: [n][m]f64) (i: i64) : [m]f64 =
           map (\\j -> f64.sum (map f64.sum a[i-1:i+2, j-1:j+2])) (iota m)",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let text = print_def(def(&c.optimized, "f"));
    assert!(text.contains("0.0f64 3i64"), "{text}");
}

/// The "view element" guard: the rows of `transpose a[:i, i:]`, views of
/// `a`, fuse into the dot that reads them two loops down (with the guard
/// off, the block is a `build` made per row).
#[test]
fn rows_that_are_views_fuse_at_any_depth() {
    let c = weir_driver::compile_source(
        "v.weir",
        "def dot [n] (x: [n]f64) (y: [n]f64) : f64 = f64.sum (map2 (*) x y)
         entry f [n] (a: [n][n]f64) (i: i64) : []f64 =
           map2 (\\aij col -> aij - dot a[i, :i] col) a[i, i:] (transpose a[:i, i:])",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let f = def(&c.optimized, "f");
    assert_eq!(builds_in(f), 1, "{}", print_def(f));
}
