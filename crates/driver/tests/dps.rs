//! The DPS stage: each allocation simplification rule of dps-ftilde Fig. 8 on a
//! program where it applies (insta snapshots of the DPS IR before and after the
//! rule, plus assertions that fail if the rule stops working), and F-tilde's
//! shape errors.

use weir_dps::ir::{Block, Buf, Fun, Program, ResultPart, SExp, Stmt};
use weir_dps::print::program_to_string;
use weir_dps::simplify::{RULES, run_rules};
use weir_driver::pipeline::{compile_source, to_dps};
use weir_ir::{Atom, Const, PrimType, Span};

fn dps(src: &str) -> Program {
    let c = compile_source("test.weir", src).unwrap_or_else(|e| panic!("{}", e.render(false)));
    to_dps(&c, false).unwrap_or_else(|e| panic!("{}", e.render(false)))
}

/// The simplified DPS of a program that must compile to C.
fn dps_simplified(src: &str) -> Program {
    let c = compile_source("test.weir", src).unwrap_or_else(|e| panic!("{}", e.render(false)));
    to_dps(&c, true).unwrap_or_else(|e| panic!("{}", e.render(false)))
}

fn rule(name: &str) -> weir_dps::simplify::Rule {
    *RULES.iter().find(|r| r.0 == name).expect("rule")
}

fn apply(p: &Program, names: &[&str]) -> Program {
    let mut q = p.clone();
    let rules: Vec<_> = names.iter().map(|n| rule(n)).collect();
    run_rules(&mut q, &rules, &mut |q, name| {
        if let Err(e) = weir_dps::verify::verify_program(q) {
            panic!("invalid DPS IR after {name}: {e:?}");
        }
    });
    q
}

/// (depth, number of buffers) of every alloc scope, in order.
fn allocs(stmts: &[Stmt], depth: usize, out: &mut Vec<(usize, usize)>) {
    for s in stmts {
        if let Stmt::Alloc { bufs, .. } = s {
            out.push((depth, bufs.len()));
        }
        let loop_ = matches!(
            s,
            Stmt::For { .. } | Stmt::Fold { .. } | Stmt::Loop { .. } | Stmt::Reduce { .. }
        );
        for b in weir_dps::ir::nested_blocks(s) {
            allocs(b, depth + usize::from(loop_), out);
        }
    }
}

fn alloc_shape(p: &Program) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for f in &p.funs {
        allocs(&f.body.stmts, 0, &mut v);
    }
    v
}

/// A temporary with several readers (so fusion keeps it) inside a loop.
const PER_ROW_TEMP: &str = "
entry rows [n] (a: [n]f64) : [n]f64 =
  build n (\\i ->
    let t = build 3 (\\j -> exp (a[i] + f64 j)) in
    t[0] + t[1] * t[2] + t[0] * t[2])
";

#[test]
fn hoist_allocation_moves_a_loop_invariant_scope_out_of_the_loop() {
    let before = dps(PER_ROW_TEMP);
    let after = apply(&before, &["hoist-allocation", "empty-allocation"]);
    insta::assert_snapshot!("hoist_before", program_to_string(&before));
    insta::assert_snapshot!("hoist_after", program_to_string(&after));
    assert_eq!(
        alloc_shape(&before),
        vec![(1, 1)],
        "the temporary is allocated per iteration"
    );
    assert_eq!(
        alloc_shape(&after),
        vec![(0, 1)],
        "hoisted: allocated once, outside the loop"
    );
}

const TWO_TEMPS: &str = "
entry two [n] (a: [n]f64) : f64 =
  let x = build n (\\i -> exp a[i]) in
  let y = build n (\\i -> exp (x[i] * x[n - 1 - i])) in
  sum x + sum y + y[0]
";

#[test]
fn merge_allocations_joins_nested_scopes() {
    let before = dps(TWO_TEMPS);
    let after = apply(&before, &["merge-allocations"]);
    insta::assert_snapshot!("merge_before", program_to_string(&before));
    insta::assert_snapshot!("merge_after", program_to_string(&after));
    assert_eq!(alloc_shape(&before), vec![(0, 1), (0, 1)]);
    assert_eq!(
        alloc_shape(&after),
        vec![(0, 2)],
        "one scope with both buffers"
    );
}

fn hand_made(bufs: Vec<Buf>) -> Program {
    let n = Atom::Const(Const::I64(4));
    Program {
        funs: vec![Fun {
            name: "f".into(),
            entry: true,
            dests: vec![],
            params: vec![],
            results: vec![ResultPart::Scalar(PrimType::F64)],
            body: Block {
                stmts: vec![Stmt::Alloc {
                    outs: vec![("o1".into(), PrimType::F64)],
                    bufs,
                    body: Block {
                        stmts: vec![
                            Stmt::Store {
                                dest: "b1".into(),
                                idx: vec![Atom::Const(Const::I64(0))],
                                val: Atom::Const(Const::F64(1.5)),
                                span: Span::default(),
                            },
                            Stmt::Let {
                                var: "x".into(),
                                ty: PrimType::F64,
                                exp: SExp::Load("b1".into(), vec![Atom::Const(Const::I64(0))]),
                                span: Span::default(),
                            },
                        ],
                        results: vec![Atom::Var("x".into())],
                    },
                }],
                results: vec![Atom::Var("o1".into())],
            },
            span: Span::default(),
        }],
    }
    .with_dims(n)
}

trait WithDims {
    fn with_dims(self, n: Atom) -> Self;
}
impl WithDims for Program {
    fn with_dims(self, _n: Atom) -> Self {
        self
    }
}

#[test]
fn dead_allocation_drops_an_unused_buffer_and_empty_allocation_the_scope() {
    let buf = |v: &str| Buf {
        var: v.into(),
        elem: PrimType::F64,
        dims: vec![Atom::Const(Const::I64(4))],
        span: Span::default(),
        when: vec![],
        grown: false,
    };
    let p = hand_made(vec![buf("b1"), buf("b2")]);
    weir_dps::verify::verify_program(&p).expect("valid");
    let dead = apply(&p, &["dead-allocation"]);
    insta::assert_snapshot!("dead_before", program_to_string(&p));
    insta::assert_snapshot!("dead_after", program_to_string(&dead));
    assert_eq!(alloc_shape(&dead), vec![(0, 1)], "b2 is never used");
    // With b1 unused too, the scope is empty and disappears.
    let mut q = p.clone();
    if let Stmt::Alloc { body, .. } = &mut q.funs[0].body.stmts[0] {
        body.stmts.retain(|s| matches!(s, Stmt::Let { .. }));
        if let Some(Stmt::Let { exp, .. }) = body.stmts.first_mut() {
            *exp = SExp::Atom(Atom::Const(Const::F64(1.5)));
        }
    }
    let empty = apply(&q, &["dead-allocation", "empty-allocation"]);
    insta::assert_snapshot!("empty_after", program_to_string(&empty));
    assert!(alloc_shape(&empty).is_empty());
}

#[test]
fn every_rule_is_tested() {
    let names: Vec<&str> = RULES.iter().map(|r| r.0).collect();
    assert_eq!(
        names,
        [
            "in-place-state",
            "dead-allocation",
            "empty-allocation",
            "merge-allocations",
            "hoist-size-lets",
            "short-circuit",
            "reuse-block",
            "hoist-allocation"
        ]
    );
    // (filetests, one per rule: tests/dps/in_place_state.dps,
    // tests/dps/reuse_block.dps,
    // tests/dps/dead_allocation.dps (with
    // empty-allocation), merge_allocations.dps, hoist_allocation.dps)
    // (the short-circuiting rules: filetests tests/dps/short_circuit.dps,
    // hoist_size_lets.dps, and the `structure` lines of
    // tests/regress/in_place.weir)
    // (the size assertions' rules: tests prove_checks_*)
    let names: Vec<&str> = weir_dps::checks::RULES.iter().map(|r| r.0).collect();
    assert_eq!(names, ["prove-checks"]);
    // (the materialisation rules: filetests tests/dps/dense_*.dps)
    let names: Vec<&str> = weir_dps::materialize::RULES.iter().map(|r| r.0).collect();
    assert_eq!(names, ["dense-reshape", "dense-call"]);
    // (the loop rules: filetests tests/dps/split_at_bound.dps,
    // interchange_fold.dps,
    // distribute_rows.dps, tile_accumulate.dps, batch_lanes.dps and
    // peel_boundary.dps, and the `structure` lines of
    // tests/regress/interchange.weir, distribute.weir, tile.weir, batch.weir
    // and peel.weir)
    let names: Vec<&str> = weir_dps::peel::RULES.iter().map(|r| r.0).collect();
    assert_eq!(
        names,
        [
            "split-at-bound",
            "interchange-fold",
            "distribute-rows",
            "tile-accumulate",
            "batch-lanes",
            "peel-boundary"
        ]
    );
}

/// The results of the DPS entry `f`.
fn entry_results(p: &weir_dps::ir::Program) -> Vec<ResultPart> {
    p.find("f").expect("entry f").results.clone()
}

/// A 2-D result existential in both dims: the destination, then each dim.
const EXIST_BOTH_DIMS: [ResultPart; 3] = [
    ResultPart::Dest(0),
    ResultPart::Size { dest: 0, dim: 0 },
    ResultPart::Size { dest: 0, dim: 1 },
];

fn backend_error(src: &str) -> String {
    let c = compile_source("test.weir", src).unwrap_or_else(|e| panic!("{}", e.render(false)));
    match to_dps(&c, true) {
        Ok(p) => panic!("expected a DPS error, got:\n{}", program_to_string(&p)),
        Err(e) => e.render(false),
    }
}

#[test]
fn if_branches_of_different_shapes_are_rejected_naming_both() {
    // rows of different shapes: storage of the taken branch's shape
    let p = dps_simplified(
        "entry f [n] (a: [n]f64) (c: bool) : f64 = let x = if c then [a, a] else [a[1:], a[1:]] in x[0][0]",
    );
    let text = program_to_string(&p);
    assert!(text.contains("_ifdim0_1"), "{text}");
    // ... unless a branch's shape is chosen inside the other branch
    let e = backend_error(
        "entry f [n][m] (a: [n][m]f64) (c: bool) (d: bool) : f64 = let x = if c then (if d then a else transpose a) else a in x[0][0] + f64 (length x)",
    );
    assert!(e.contains("the branch an `if` takes"), "{e}");
    assert!(e.contains("test.weir:1:"), "{e}");
    // as a result of an entry: existential in both dims, each bound
    // allocated by the caller and each dim returned
    let p = dps_simplified(
        "entry f [n][m] (a: [n][m]f64) (c: bool) : [][]f64 = if c then transpose a else a",
    );
    assert_eq!(entry_results(&p), EXIST_BOTH_DIMS);
    // different lengths in an inner dimension of an entry's result: that dim
    // is existential (the longer branch's length allocated, the length
    // returned)
    let p = dps_simplified(
        "entry f [n] (a: [n]f64) (c: bool) : [][]f64 = [if c then a else a[0:n - 1]]",
    );
    let f = p.find("f").expect("entry f");
    assert_eq!(
        f.results,
        [ResultPart::Dest(0), ResultPart::Size { dest: 0, dim: 1 }]
    );
    // existential in two dims of one result: both returned
    let p = dps_simplified(
        "entry f (rows: [][]f64) : [][]f64 = map (\\r -> filter (\\v -> v > 0.0) r) (filter (\\r -> r[0] > 0.0) rows)",
    );
    assert_eq!(entry_results(&p), EXIST_BOTH_DIMS);
    // an inner existential dim with no bound: rejected
    let e = backend_error("entry f (a: []i64) : [][]i64 = replicate 2 (iota (reduce (+) 0 a))");
    assert!(e.contains("the result shape of `f` depends on"), "{e}");
    // as the outer size of an entry's result: an upper bound allocated by the
    // caller (the longer branch), the length returned
    let p =
        dps_simplified("entry f [n] (a: [n]f64) (c: bool) : []f64 = if c then a else a[0:n - 1]");
    let f = p.find("f").expect("entry f");
    assert_eq!(
        f.results,
        [ResultPart::Dest(0), ResultPart::Size { dest: 0, dim: 0 }]
    );
    assert_eq!(f.dests[0].shape.len(), 1);
}

#[test]
fn a_loop_state_changing_shape_is_rejected_naming_both() {
    // by a length read from the array inside the loop (no bound from
    // sizes): compiles since session 8, the iteration computing its next
    // state in its own storage and the loop's storage growing to its length
    // where it is copied in (the growth after the `replicate`, inside the
    // iteration's `alloc` scope)
    let p = dps_simplified(
        "entry f [n] (a: [n]f64) : f64 = let y = loop x = a while length x > 1 do replicate (i64 x[0]) 1.0 in y[0]",
    );
    let text = program_to_string(&p);
    assert!(text.contains(" grows to fin"), "{text}");
    let (rep, grow) = (text.find("1.0f64"), text.find("grow nx"));
    assert!(
        matches!((rep, grow), (Some(r), Some(g)) if r < g),
        "the state grows after the iteration computed it:\n{text}"
    );
    // also through an `if` whose branch's length is read from the array
    // inside the branch (the `if`'s storage grows too)
    let p = dps_simplified(
        "entry f [n] (a: [n]f64) : f64 = let y = loop x = a while length x > 1 do (if x[0] > 0.0 then replicate (i64 x[0]) 1.0 else x) in y[0]",
    );
    assert!(program_to_string(&p).contains(" grown"));
    // an inner size changed by a value computed in the loop: rejected,
    // naming both shapes
    let e = backend_error(
        "entry f [n] (a: [n][2]f64) (k: i64) : f64 = let y = loop x = a for i < k do (if x[0][0] > 0.0 then transpose x else x) in y[0][0]",
    );
    assert!(e.contains("changes shape"), "{e}");
    assert!(e.contains("starts as") && e.contains("returns"), "{e}");
    // a slice with bounds read from the array: bounded by the array's
    // length, compiles (the state shrinks in its first storage)
    dps_simplified(
        "entry f [n] (a: [n]f64) : f64 = let y = loop x = a while length x > 1 do x[0:(i64 x[0])] in y[0]",
    );
    // by what a filter keeps: bounded by the filter's input length, compiles
    // (the storage grows to the bound in the loop)
    let p = dps_simplified(
        "entry f [n] (a: [n]f64) (k: i64) : f64 = let y = loop x = a for i < k do x ++ filter (\\v -> v > 0.0) x in y[0]",
    );
    assert!(program_to_string(&p).contains(" grows to fin"));
    // the inner size of the state changes by sizes alone: compiles, every
    // dim sliced
    let p = dps_simplified(
        "entry f [n] (a: [n][2]f64) (k: i64) : f64 = let y = loop x = a for i < k do map (\\r -> r ++ r) x in y[0][0]",
    );
    assert!(program_to_string(&p).contains("_loopcur0_1"));
    // ... also in a `while` loop (the storage grows in the loop)
    let p = dps_simplified(
        "entry f [n] (a: [n][2]f64) : f64 = let y = loop x = a while length x[0] < 9 do map (\\r -> r ++ r) x in y[0][0]",
    );
    assert!(program_to_string(&p).contains(" grows to fin"));
    // ... but not by a size computed in the loop: rejected
    let e = backend_error(
        "entry f [n] (a: [n][2]f64) : f64 = let y = loop x = a while length x[0] < 9 do map (\\r -> filter (\\v -> v > 0.0) r) x in y[0][0]",
    );
    assert!(e.contains("only the outer length"), "{e}");
    // a `for` loop whose length changes by sizes alone: compiles (size slicing)
    dps_simplified(
        "entry f [n] (a: [n]f64) (k: i64) : f64 = let y = loop x = a for i < k do x[1:length x] in y[0]",
    );
}

/// Depths (loop nesting) of the alloc scopes that hold the buffer a growing
/// `while` state starts in.
fn grown_scopes(stmts: &[Stmt], depth: usize, out: &mut Vec<usize>) {
    for s in stmts {
        if let Stmt::Alloc { bufs, body, .. } = s {
            let g = weir_dps::ir::grown_outs(&body.stmts);
            if bufs.iter().any(|b| g.contains(&b.var)) {
                out.push(depth);
            }
        }
        let loop_ = matches!(
            s,
            Stmt::For { .. } | Stmt::Fold { .. } | Stmt::Loop { .. } | Stmt::Reduce { .. }
        );
        for b in weir_dps::ir::nested_blocks(s) {
            grown_scopes(b, depth + usize::from(loop_), out);
        }
    }
}

#[test]
fn a_while_state_that_changes_length_grows_in_a_scope_that_stays_in_the_loop() {
    // grows (doubling) and shrinks: compiles; the state's storage grows in
    // the loop (`grow`), the final state is bound after it
    for src in [
        "entry f (a: []f64) (k: i64) : f64 = let y = loop x = a while length x < k do x ++ x in y[0]",
        "entry f (a: []f64) : f64 = let y = loop x = a while length x > 1 do x[1:] in y[0]",
    ] {
        let p = dps_simplified(src);
        let text = program_to_string(&p);
        assert!(text.contains("grow nx"), "{text}");
        assert!(text.contains(" grows to fin"), "{text}");
    }
    // in a `map`: the buffer the state starts in has a constant size, but
    // its scope (which releases what the loop grows) is not hoisted out of
    // the map's loop, so each element's storage is released before the next
    let p = dps_simplified(
        "entry f (ns: []i64) : []i64 = map (\\n -> let s = loop s = [0] while length s < n do s ++ s in reduce (+) 0 s) ns",
    );
    let mut d = Vec::new();
    for f in &p.funs {
        grown_scopes(&f.body.stmts, 0, &mut d);
    }
    assert_eq!(d, vec![1], "{}", program_to_string(&p));
}

#[test]
fn simplified_dps_of_every_example_verifies_and_shapes_are_static() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for e in std::fs::read_dir(dir).expect("examples").flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "weir") {
            continue;
        }
        let c = weir_driver::compile_file(&p).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let d = to_dps(&c, true).unwrap_or_else(|e| panic!("{}: {}", p.display(), e.render(false)));
        weir_dps::verify::verify_program(&d).expect("verifies");
        // add3's result shape is its parameter's: no shape computation at run time.
        if p.ends_with("add3.weir") {
            let f = d.find("add3").expect("add3");
            assert_eq!(
                weir_shape::shape_to_string(&f.dests[0].shape),
                "[dim a_18 0]"
            );
        }
    }
}

/// (checks, of which inside a loop) in `stmts`.
fn size_checks(stmts: &[Stmt], in_loop: bool, out: &mut (usize, usize)) {
    for s in stmts {
        if let Stmt::Check { .. } = s {
            out.0 += 1;
            out.1 += usize::from(in_loop);
        }
        let loop_ = matches!(
            s,
            Stmt::For { .. } | Stmt::Fold { .. } | Stmt::Loop { .. } | Stmt::Reduce { .. }
        );
        for b in weir_dps::ir::nested_blocks(s) {
            size_checks(b, in_loop || loop_, out);
        }
    }
}

fn checks_of(p: &Program) -> (usize, usize) {
    let mut n = (0, 0);
    for f in &p.funs {
        size_checks(&f.body.stmts, false, &mut n);
    }
    n
}

fn apply_checks(p: &Program) -> Program {
    let mut q = p.clone();
    let rule = *weir_dps::checks::RULES
        .iter()
        .find(|r| r.0 == "prove-checks")
        .expect("rule");
    weir_dps::checks::run_rules(&mut q, &[rule], &mut |q, name| {
        if let Err(e) = weir_dps::verify::verify_program(q) {
            panic!("invalid DPS IR after {name}: {e:?}");
        }
    });
    q
}

/// A stencil step called twice per iteration of a loop whose array state
/// keeps its dims: the calls' size checks are proved from the state's dims
/// (`dim` of the state is the dims it was allocated with, `max d 0` of a
/// dim is the dim), so no check is left in the loop.
#[test]
fn prove_checks_drops_the_checks_a_loop_state_proves() {
    let before = dps("
def step [n] (src: [n]f64) (dst: [n]f64) : [n]f64 =
  build n (\\i -> if i == 0 then dst[i] else src[i] + src[i - 1])
entry run [n] (t: i64) (a: [n]f64) (b: [n]f64) : [n]f64 =
  let (x, _) = loop (x, y) = (a, b) for s < t do (step x y, step y x) in x
");
    let after = apply_checks(&before);
    let (b, bl) = checks_of(&before);
    let (a, al) = checks_of(&after);
    assert!(
        bl >= 1,
        "a call is checked in the loop: {}",
        program_to_string(&before)
    );
    assert_eq!(al, 0, "{}", program_to_string(&after));
    // (the entry's own check of `b` against `n` stays: it is a fact about the
    // arguments)
    assert_eq!(a, 1, "{}", program_to_string(&after));
    assert!(b > a);
}

/// A count checked non-negative once (`replicate k`) is not checked again
/// by the `build`s of `k` rows after it, in the loop's body included: each
/// invariant is checked once.
#[test]
fn prove_checks_shares_a_check_between_uses_of_the_same_size() {
    let before = dps("
entry rowsum_then [n] (a: [n]f64) (k: i64) : []f64 =
  reduce (\\x y -> map2 (+) x y) (replicate k 0.0) (map (\\v -> replicate k v) a)
");
    let nonneg = |p: &Program| program_to_string(p).matches("assert_nonneg").count();
    let after = apply_checks(&before);
    assert!(nonneg(&before) >= 3, "{}", program_to_string(&before));
    assert_eq!(nonneg(&after), 1, "{}", program_to_string(&after));
}

/// A check inside a branch proves nothing after the `if`.
#[test]
fn prove_checks_keeps_what_a_branch_checks_in_the_branch() {
    let before = dps("
def dot [n] (a: [n]f64) (b: [n]f64) : f64 = reduce (+) 0.0 (map2 (*) a b)
entry br (a: []f64) (b: []f64) (p: bool) : f64 = (if p then dot a b else 0.0) + dot b a
");
    let after = apply_checks(&before);
    assert_eq!(checks_of(&after).0, 2, "{}", program_to_string(&after));
}

/// The C lowering hoists the size check of a call in a `build` in front of
/// the loop, guarded by the loop running (`hoist_check`).
#[test]
fn a_loop_invariant_size_check_is_made_in_front_of_the_loop() {
    let c = compile_source(
        "test.weir",
        "
def dot [n] (a: [n]f64) (b: [n]f64) : f64 = reduce (+) 0.0 (map2 (*) a b)
entry mv [m][k] (a: [m][k]f64) (v: []f64) : [m]f64 = build m (\\i -> dot a[i] v)
",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let src =
        weir_driver::native::c_source(&c, &weir_driver::native::BuildOptions::default(), false)
            .unwrap_or_else(|e| panic!("{e}"));
    let body = src
        .split("static int weirf_f_mv(")
        .nth(1)
        .expect("the body function");
    // (the message is in the check's cold error function, `weiri_err_K`)
    let at = src
        .find("size mismatch in the call of `dot`")
        .expect("the message");
    let err_fn = src[..at]
        .rsplit("void weiri_err_")
        .next()
        .and_then(|t| t.split('(').next())
        .expect("the error function");
    let check = body
        .find(&format!("weiri_err_{err_fn}(ctx"))
        .expect("the check");
    let first_for = body.find("for (").expect("the loop");
    assert!(check < first_for, "{body}");
    assert!(
        body[..check].contains("if ((m_"),
        "guarded by the trip count: {body}"
    );
}

/// The DPS IR's text form reads back: print → parse → print is the same
/// text, and what is parsed verifies, for the DPS (before and after the
/// simplifications) of every example and regression file.
#[test]
fn the_text_form_of_every_dps_program_reads_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut programs = 0;
    for dir in ["examples", "tests/regress", "tests/regress_c"] {
        for e in std::fs::read_dir(root.join(dir)).expect("dir").flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "weir") {
                continue;
            }
            let Ok(c) = weir_driver::compile_file(&p) else {
                continue;
            };
            for simplify in [false, true] {
                let Ok((d, _)) = weir_driver::pipeline::to_dps_partial(&c.optimized, simplify)
                else {
                    continue;
                };
                let text = program_to_string(&d);
                let back = weir_dps::parse::parse_program(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", p.display()));
                assert_eq!(program_to_string(&back), text, "{}", p.display());
                if let Err(e) = weir_dps::verify::verify_program(&back) {
                    panic!("{}: the parsed program does not verify: {e:?}", p.display());
                }
                programs += 1;
            }
        }
    }
    assert!(
        programs > 150,
        "only {programs} programs: did the files move?"
    );
}

/// Malformed DPS text is an error with a position, never a panic: every
/// prefix of a printed program, and the program with a token dropped.
#[test]
fn malformed_dps_text_is_an_error_not_a_panic() {
    let d = dps_simplified(PER_ROW_TEMP);
    let text = program_to_string(&d);
    let mut errors = 0;
    for k in 0..text.len() {
        if !text.is_char_boundary(k) {
            continue;
        }
        if weir_dps::parse::parse_program(&text[..k]).is_err() {
            errors += 1;
        }
        // (drop the word at k)
        let rest = &text[k..];
        let end = rest.find([' ', '\n']).unwrap_or(rest.len());
        let cut = format!("{}{}", &text[..k], &rest[end..]);
        let _ = weir_dps::parse::parse_program(&cut);
    }
    assert!(
        errors > text.len() / 2,
        "{errors} of {} prefixes rejected",
        text.len()
    );
}
