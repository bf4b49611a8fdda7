//! The generator itself: every program it makes is syntactically valid, the
//! front end accepts almost all of them (sizes are left to the checker, so a few
//! static size mismatches are expected), and no stage panics on them.

use proptest::prelude::*;
use weir_fuzz::generate::program_strategy;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn programs_parse_and_the_front_end_does_not_panic(p in program_strategy()) {
        let file = weir_syntax::FileId(0);
        let (_, diags) = weir_syntax::parse_file(file, &p.source);
        prop_assert!(diags.is_empty(), "syntax errors in a generated program:\n{}\n{:?}", p.source, diags);
        let _ = weir_driver::compile_source("gen.weir", &p.source);
    }
}

#[test]
fn most_programs_type_check_and_cover_the_builtins() {
    let mut accepted = 0;
    let n = 400;
    let mut all = String::new();
    // the first `n` programs are type-checked; coverage is counted over more
    // (generating is cheap; some forms, such as `zip3`, are rare)
    for i in 0..4000 {
        let Some(p) = weir_fuzz::program(7, i) else {
            continue;
        };
        if i < n && weir_driver::compile_source("gen.weir", &p.source).is_ok() {
            accepted += 1;
        }
        all.push_str(&p.source);
    }
    assert!(
        accepted * 100 >= n * 80,
        "only {accepted} of {n} generated programs type-check"
    );
    for b in [
        "build ",
        "ifold ",
        "length ",
        "map ",
        "map2 ",
        "map3 ",
        "zip ",
        "zip3 ",
        "unzip ",
        "fold ",
        "reduce ",
        "ireduce ",
        "scan ",
        "filter ",
        "iota ",
        "replicate ",
        "concat ",
        "++",
        "split ",
        "flatten ",
        "join ",
        "unflatten ",
        "transpose ",
        "slide ",
        "reverse ",
        "rotate ",
        "gather ",
        "pad ",
        "sum ",
        "product ",
        "maximum ",
        "minimum ",
        "scatter ",
        "reduce_by_index ",
        "partition ",
        "partition2 ",
        "argmax ",
        "argmin ",
        "sqrt ",
        "lgamma ",
        "atan2 ",
        "pow ",
        "**",
        "min ",
        "max ",
        "f32 ",
        "i32 ",
        "f64 ",
        "i64 ",
        "loop ",
        " while ",
        " for ",
        "if ",
        "let (",
        "def ",
    ] {
        assert!(all.contains(b), "the generator never produced `{b}`");
    }
}

/// The leg biased towards empty and singleton dimensions (issue 46): its
/// programs parse and mostly type-check, their entry points name sizes
/// `[n]`/`[m]`, most input arrays have 0 or 1 elements, and arrays of arrays
/// are made by maps (whose bodies decide the row shape of zero rows).
#[test]
fn empty_biased_programs_check_and_are_mostly_empty() {
    let opts = weir_fuzz::generate::GenOptions { empty_bias: true };
    let (mut accepted, mut sized, mut maps) = (0, 0, 0);
    let (mut small, mut arrays) = (0usize, 0usize);
    let n = 300;
    for i in 0..n {
        let Some(p) = weir_fuzz::program_with(11, i, opts) else {
            continue;
        };
        let file = weir_syntax::FileId(0);
        let (_, diags) = weir_syntax::parse_file(file, &p.source);
        assert!(diags.is_empty(), "{}\n{diags:?}", p.source);
        if weir_driver::compile_source("gen.weir", &p.source).is_ok() {
            accepted += 1;
        }
        let entry = p
            .source
            .lines()
            .find(|l| l.starts_with("entry"))
            .unwrap_or("");
        if entry.contains("[m]") || entry.contains("[n]") {
            sized += 1;
        }
        if p.source.contains("(map") {
            maps += 1;
        }
        // top-level array inputs: `[]` and `[x]` versus longer ones
        for input in &p.inputs {
            let mut depth = 0;
            let mut commas = 0;
            for ch in input.chars() {
                match ch {
                    '[' if depth == 0 => {
                        depth = 1;
                        commas = 0;
                        arrays += 1;
                    }
                    '[' | '(' => depth += 1,
                    ']' | ')' if depth == 1 => {
                        depth = 0;
                        if commas == 0 {
                            small += 1;
                        }
                    }
                    ']' | ')' => depth -= 1,
                    ',' if depth == 1 => commas += 1,
                    _ => {}
                }
            }
        }
    }
    assert!(
        accepted * 100 >= n * 70,
        "only {accepted} of {n} type-check"
    );
    assert!(
        sized * 2 >= n,
        "only {sized} of {n} entry points name sizes"
    );
    assert!(maps * 3 >= n, "only {maps} of {n} programs map");
    assert!(
        small * 100 >= arrays * 70,
        "only {small} of {arrays} input arrays have at most one element"
    );
    // unbiased programs are what they were
    let plain = weir_fuzz::program_with(11, 5, Default::default()).map(|p| p.source);
    assert_eq!(plain, weir_fuzz::program(11, 5).map(|p| p.source));
}

#[test]
fn every_kth_program_is_biased() {
    use weir_fuzz::generate::biased_at;
    assert!(!biased_at(0, 3));
    assert!(biased_at(1, 0) && biased_at(1, 7));
    let biased: Vec<u64> = (0..12).filter(|&i| biased_at(4, i)).collect();
    assert_eq!(biased, vec![3, 7, 11]);
}
