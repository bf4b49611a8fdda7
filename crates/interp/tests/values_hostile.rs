//! The text value reader never panics, whatever the text and the type: random
//! bytes, random token soups, and deep nesting are values or clear errors.

use proptest::prelude::*;
use weir_interp::value::{count_values, format_value, parse_values};
use weir_ir::{PrimType, Size, Type};

fn types() -> Vec<Type> {
    let a = |s: Size, t: Type| Type::array(s, t);
    vec![
        Type::F64,
        Type::I64,
        Type::Prim(PrimType::I32),
        Type::Prim(PrimType::F32),
        Type::BOOL,
        a(Size::Unknown, Type::F64),
        a(Size::Const(2), a(Size::Unknown, Type::I64)),
        a(
            Size::Unknown,
            Type::Tuple(vec![Type::F64, a(Size::Const(-1), Type::BOOL)]),
        ),
        Type::Tuple(vec![Type::I64, Type::F64]),
    ]
}

const TOKENS: &[&str] = &[
    "[",
    "]",
    "(",
    ")",
    ",",
    " ",
    "1",
    "-2",
    "1.5",
    "1e308",
    "1e999",
    "-0.0",
    "nan",
    "inf",
    "-inf",
    "true",
    "false",
    "7i32",
    "7i64",
    "1.5f32",
    "3f64",
    "99999999999999999999",
    "_",
    "0x10",
    "--c\n",
    "#",
    "é",
    "\u{0}",
    "+",
    "e",
    "1e",
    ".",
    "1_000",
];

fn check(text: &str) {
    let _ = count_values(text);
    for t in types() {
        if let Ok(vs) = parse_values(text, &[("v".into(), t.clone())]) {
            // whatever is read prints and reads back the same
            let printed = format_value(&vs[0]);
            let again = parse_values(&printed, &[("v".into(), t)]).expect("reads back");
            assert_eq!(format_value(&again[0]), printed);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes(b in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn random_tokens(ts in prop::collection::vec(prop::sample::select(TOKENS), 0..40)) {
        check(&ts.concat());
    }
}

#[test]
fn deep_nesting_is_an_error() {
    for n in [150, 250, 100_000] {
        for (open, close) in [("[", "]"), ("(", ")")] {
            let text = format!("{}1{}", open.repeat(n), close.repeat(n));
            check(&text);
        }
    }
    let e = count_values(&"[".repeat(100_000)).expect_err("too deep");
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
}
