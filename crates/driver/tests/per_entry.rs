//! Issue 15 (compile per entry): an entry point the C backend cannot compile
//! reports its own error and does not stop the other entry points of its file
//! from compiling and running.

use weir_driver::compile_source;
use weir_driver::native::{BuildOptions, Entries, NativeError, c_source, c_source_of, run_native};
use weir_interp::Value;

/// `bad` builds rows whose lengths are values read from the array (which
/// the C backend cannot compile: irregular unless every value is the same);
/// `good` does not use it.
const SRC: &str = "\
def grow (a: []f64) : [][]f64 = map (\\x -> replicate (i64 x) 1.0) a

entry good (a: []f64) : f64 = reduce (+) 0.0 a

entry bad (a: []f64) : [][]f64 = grow a
";

#[test]
fn one_entry_does_not_stop_the_others() {
    let Ok(c) = compile_source("two.weir", SRC) else {
        panic!("front end")
    };
    // All: the bad entry is an error.
    match c_source(&c, &BuildOptions::default(), true) {
        Err(NativeError::Backend(m)) => assert!(m.contains("E0801"), "{m}"),
        other => panic!("expected an E0801 error, got {other:?}"),
    }
    // Compilable: `good` is there, `bad` is left out with its error.
    let src = c_source_of(&c, &BuildOptions::default(), true, Entries::Compilable)
        .expect("the good entry compiles");
    assert!(src.text.contains("weirf_e_good("), "good is compiled");
    assert!(!src.text.contains("weirf_e_bad("), "bad is left out");
    assert_eq!(src.left_out.len(), 1);
    assert_eq!(src.left_out[0].0, "bad");
    assert!(
        src.left_out[0].1.contains("two.weir:1:"),
        "{}",
        src.left_out[0].1
    );
    // Needed: asking for `bad` is its error, with the location of the cause.
    match c_source_of(&c, &BuildOptions::default(), true, Entries::Needed("bad")) {
        Err(NativeError::Backend(m)) => {
            assert!(m.contains("E0801"), "{m}");
            assert!(m.contains("depends on"), "{m}");
            // the value the size depends on is marked where it is computed
            // (`i64 x`, a temporary: not named by its compiler name `t`)
            assert!(
                m.contains("the size depends on the value computed here"),
                "{m}"
            );
            assert!(!m.contains("`t`"), "{m}");
        }
        other => panic!("expected an E0801 error for `bad`, got {other:?}"),
    }
}

#[test]
fn the_good_entry_runs() {
    let Ok(c) = compile_source("two.weir", SRC) else {
        panic!("front end")
    };
    let a = Value::array(vec![Value::F64(1.0), Value::F64(-2.0), Value::F64(3.5)]);
    let (v, _) = run_native(&c, "good", &[a], &BuildOptions::default(), 1).expect("runs");
    assert_eq!(v, Value::F64(2.5));
}
