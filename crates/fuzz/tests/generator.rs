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
