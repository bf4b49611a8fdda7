//! The front end never panics, whatever the input: random bytes, random token
//! streams, and mutations of the example programs go through parse + check (+ the
//! IR verifier, which must accept whatever the checker accepts). Bounded by case
//! counts so that it runs in seconds in CI.

use proptest::prelude::*;
use std::path::Path;

const TOKENS: &[&str] = &[
    "def",
    "entry",
    "let",
    "in",
    "if",
    "then",
    "else",
    "loop",
    "for",
    "while",
    "do",
    "true",
    "false",
    "x",
    "y",
    "n",
    "a",
    "f",
    "map",
    "map2",
    "build",
    "ifold",
    "reduce",
    "sum",
    "filter",
    "concat",
    "transpose",
    "length",
    "iota",
    "zip",
    "unzip",
    "scan",
    "split",
    "slide",
    "f64",
    "i64",
    "i32",
    "bool",
    "0",
    "1",
    "2i32",
    "1.5",
    "2.0f32",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ".",
    "\\",
    "->",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "**",
    "/",
    "%",
    "&&",
    "||",
    "!",
    "++",
    "|>",
    "<|",
    ">->",
    "<-<",
    "'",
    "_",
    "\n",
    " ",
    "-- c\n",
    "@",
    "#",
    // modules: imports (of the standard library: nothing is read from disk),
    // members of a module and of the built-in float modules
    "import \"std/math\"\n",
    "module m = import \"std/sort\"\n",
    "m.sort",
    "m",
    "mean",
    "f64.isnan",
    "f64.round",
    "f32.max",
];

fn check_no_panic(text: &str) {
    match weir_driver::compile_source("fuzz.weir", text) {
        Ok(c) => {
            // whatever the checker accepts must be valid core IR and print/parse back
            if let Err(e) = weir_ir::verify::verify_program(&c.program) {
                panic!("verifier rejected checked program:\n{text}\n{e:?}");
            }
            let printed = weir_ir::print::program_to_string(&c.program);
            let reparsed = weir_ir::parse::parse_program(&printed)
                .unwrap_or_else(|e| panic!("printed IR does not parse ({e}):\n{printed}"));
            assert_eq!(weir_ir::print::program_to_string(&reparsed), printed);
        }
        Err(e) => {
            let _ = e.render(false);
        }
    }
}

fn tokens() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|ts| ts.join(" "))
}

/// A syntactically plausible definition built from pieces.
fn def_like() -> impl Strategy<Value = String> {
    (tokens(), tokens()).prop_map(|(a, b)| {
        format!("def f [n] (x: [n]f64) (y: f64) : f64 = {a}\nentry g (a: [3]f64) : [3]f64 = {b}\n")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_no_panic(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_tokens(text in tokens()) {
        check_no_panic(&text);
    }

    #[test]
    fn random_bodies(text in def_like()) {
        check_no_panic(&text);
    }
}

fn examples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.path().extension().is_some_and(|x| x == "weir")
                && let Ok(t) = std::fs::read_to_string(e.path())
            {
                out.push(t);
            }
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]

    /// Delete, duplicate or replace a random slice of a real program.
    #[test]
    fn mutated_examples(which in 0usize..64, at in 0usize..100_000, len in 0usize..40, tok in prop::sample::select(TOKENS), mode in 0u8..3) {
        let ex = examples();
        prop_assume!(!ex.is_empty());
        let src = &ex[which % ex.len()];
        let chars: Vec<char> = src.chars().collect();
        let a = at % (chars.len() + 1);
        let b = (a + len).min(chars.len());
        let mut s: String = chars[..a].iter().collect();
        match mode {
            0 => {}
            1 => s.push_str(tok),
            _ => s.extend(chars[a..b].iter()),
        }
        s.extend(chars[b..].iter());
        check_no_panic(&s);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for n in [100, 1000, 100_000] {
        let text = format!("def f (x: f64) : f64 = {}x{}", "(".repeat(n), ")".repeat(n));
        check_no_panic(&text);
        let text = format!("def f (x: f64) : f64 = x{}", " + x".repeat(n));
        check_no_panic(&text);
        let text = format!("def f (x: f64) : f64 = {}x", "-".repeat(n));
        check_no_panic(&text);
        let text = format!("def f (x: f64) : f64 = {} x", "let y = x in ".repeat(n));
        check_no_panic(&text);
    }
}
