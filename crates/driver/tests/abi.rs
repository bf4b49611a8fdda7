//! The ABI model (`weir_cgen::abi`) of entries of every kind: scalars and
//! arrays of each element type, tuple results, a result of existential outer
//! size (upper bound + returned size), one with no bound (retry), an
//! existential inner dim, parameter names that are C keywords or runtime
//! names; and what is generated from it (header prototypes, manifest).

use weir_cgen::abi::{Abi, Result as R};
use weir_driver::native::{BuildOptions, CTarget, Entries, c_source_for};

const SRC: &str = r#"
entry scal (x: f32) (k: i32) (b: bool) : (f64, i64) = (f64 x, i64 k + (if b then 1 else 0))
entry arrs [n][m] (a: [n][m]f64) (v: [m]i32) : ([n]f64, [m]bool) =
  (map (\r -> reduce (+) 0.0 r) a, map (\x -> x > 0i32) v)
entry above (t: f64) (xs: []f64) : ([]f64, i64) =
  let ys = filter (\x -> x > t) xs in (ys, length ys)
entry ramp (a: []i64) : []i64 = iota (reduce (+) 0 a)
entry rowpos [n][m] (a: [n][m]f64) : [n][]f64 = map (\r -> filter (\x -> x > 0.0) r) a
entry kw (int: f64) (weir_ctx: i64) (out0: f64) : f64 = int + f64 weir_ctx + out0
"#;

fn abi() -> Abi {
    let c = match weir_driver::compile_source("abi.weir", SRC) {
        Ok(c) => c,
        Err(e) => panic!("{}", e.render(false)),
    };
    let src = c_source_for(
        &c,
        &BuildOptions::default(),
        CTarget::Library("lib"),
        Entries::All,
    )
    .expect("C source");
    src.abi
}

#[test]
fn the_model_describes_every_kind_of_entry() {
    let abi = abi();
    assert_eq!(abi.prefix, "lib");
    let e = |n: &str| {
        abi.entries
            .iter()
            .find(|e| e.name == n)
            .unwrap_or_else(|| panic!("no entry {n}"))
    };
    let scal = e("scal");
    assert_eq!(scal.symbol, "lib_scal");
    assert_eq!(scal.shape_symbol, "lib_scal_shape");
    assert_eq!(scal.params.len(), 3);
    assert!(scal.params.iter().all(|p| p.rank == 0));
    assert!(scal.dests.is_empty());
    assert_eq!(scal.results, vec![R::Scalar(0), R::Scalar(1)]);
    assert!(scal.signature.starts_with("entry scal (x: f32)"));

    let arrs = e("arrs");
    assert_eq!(
        arrs.params.iter().map(|p| p.rank).collect::<Vec<_>>(),
        [2, 1]
    );
    assert_eq!(arrs.dests.len(), 2);
    assert_eq!(arrs.results, vec![R::Array(0), R::Array(1)]);
    assert!(
        arrs.dests
            .iter()
            .all(|d| d.size_ret.is_none() && !d.unbounded && d.inner_sizes.is_empty())
    );

    // existential outer size: an upper bound and its size in a ret after the
    // scalar results
    let above = e("above");
    assert_eq!(above.results, vec![R::Array(0), R::Scalar(0)]);
    assert_eq!(above.rets.len(), 2);
    assert_eq!(above.dests[0].size_ret, Some(1));
    assert!(!above.dests[0].unbounded);

    let ramp = e("ramp");
    assert!(ramp.dests[0].unbounded);
    assert!(ramp.dests[0].size_ret.is_some());

    let rowpos = e("rowpos");
    assert_eq!(rowpos.dests[0].size_ret, None);
    assert_eq!(rowpos.dests[0].inner_sizes, vec![(1, 0)]);

    // names that would not be C parameters get one that is
    let kw = e("kw");
    let names: Vec<&str> = kw.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), 3);
    assert!(!names.contains(&"int") && !names.contains(&"weir_ctx") && !names.contains(&"out0"));
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 3, "{names:?}");
}

#[test]
fn header_and_manifest_follow_the_model() {
    let abi = abi();
    let h = weir_cgen::abi::header(&abi, weir_cgen::emit::WEIR_H);
    for e in &abi.entries {
        assert!(
            h.contains(&format!("int {}(weir_ctx *ctx", e.symbol)),
            "no prototype of {}",
            e.symbol
        );
        assert!(h.contains(&format!("int {}(weir_ctx *ctx", e.shape_symbol)));
    }
    assert!(h.contains("#define WEIR_ABI_VERSION 1"));
    assert!(h.contains("existential") || h.contains("data-dependent"));
    let m = weir_cgen::abi::manifest(&abi);
    assert!(m.contains("\"symbol\": \"lib_rowpos\""));
    assert!(m.contains("\"inner_size_rets\": [[1, 0]]"));
    assert!(m.contains("\"unbounded\": true"));
    // balanced braces and brackets (the Python package parses it; its tests
    // load real manifests)
    let depth = m.chars().fold(0i64, |d, c| match c {
        '{' | '[' => d + 1,
        '}' | ']' => d - 1,
        _ => d,
    });
    assert_eq!(depth, 0);
}

/// Issue 46: which arrays of a tuple or record parameter must agree, in
/// how many dims: those of the array of tuples or records around them, a
/// component that is itself an array having more of its own; a tuple of
/// arrays has none to agree in.
#[test]
fn the_model_says_which_components_agree() {
    const SRC: &str = r#"
entry nested (xs: [][](f64, {u: [3]i64, v: f64})) (p: ([]f64, []i64)) (s: f64) : f64 =
  s + f64 (length xs) + f64 (length p.0) + f64 (length p.1)
entry plain (ys: []{a: f64, b: bool}) : i64 = length ys
"#;
    let c = match weir_driver::compile_source("agree.weir", SRC) {
        Ok(c) => c,
        Err(e) => panic!("{}", e.render(false)),
    };
    let abi = c_source_for(
        &c,
        &BuildOptions::default(),
        CTarget::Library("lib"),
        Entries::All,
    )
    .expect("C source")
    .abi;
    let e = |n: &str| {
        abi.entries
            .iter()
            .find(|e| e.name == n)
            .unwrap_or_else(|| panic!("no entry {n}"))
    };
    let nested = e("nested");
    let names: Vec<&str> = nested.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["xs_0", "xs_1_u", "xs_1_v", "p_0", "p_1", "s"]);
    let agree: Vec<(&str, usize, &str, usize, &str, usize)> = nested
        .agree
        .iter()
        .map(|a| {
            (
                a.param.as_str(),
                a.leaf,
                a.leaf_what.as_str(),
                a.with,
                a.with_what.as_str(),
                a.dims,
            )
        })
        .collect();
    assert_eq!(
        agree,
        [
            ("xs", 1, "field `1.u`", 0, "component `0`", 2),
            ("xs", 2, "field `1.v`", 0, "component `0`", 2),
        ]
    );
    let plain = e("plain");
    assert_eq!(plain.agree.len(), 1);
    assert_eq!(
        (
            plain.agree[0].leaf_what.as_str(),
            plain.agree[0].with_what.as_str()
        ),
        ("field `b`", "field `a`")
    );
    let h = weir_cgen::abi::header(&abi, weir_cgen::emit::WEIR_H);
    assert!(
        h.contains(
            " *   xs_0, xs_1_u, xs_1_v: the components of `xs`, an array of tuples or records:"
        ),
        "{h}"
    );
}
