//! The oracle's categories (issue 46): outcomes planted by hand are judged
//! as the campaign judges the legs — the unoptimized interpreter, the
//! optimized one, then compiled C — and each disagreement is classified by
//! the pair of legs and how they differ (values, value vs error, error kinds,
//! or the same kind at another location).

use weir_fuzz::oracle::{Difference, ErrKind, Outcome};
use weir_fuzz::{Pair, Verdict, judge};
use weir_interp::Value;

fn err(kind: ErrKind, loc: &str) -> Outcome {
    Outcome::Error {
        kind,
        loc: loc.into(),
        message: "planted".into(),
    }
}

fn verdict(legs: &[(&str, Outcome)]) -> Verdict {
    let refs: Vec<(&str, &Outcome)> = legs.iter().map(|(n, o)| (*n, o)).collect();
    judge(&refs, false).unwrap_or_else(|e| e)
}

#[test]
fn a_planted_location_mismatch_is_classified_as_such() {
    let v = verdict(&[
        ("interpreter", err(ErrKind::Index, "3:14")),
        ("optimized interpreter", err(ErrKind::Index, "3:14")),
        ("C -O0", err(ErrKind::Index, "3:14")),
        ("C -O3", err(ErrKind::Index, "5:2")),
    ]);
    assert!(
        matches!(
            v,
            Verdict::Mismatch(Pair::Backend, Difference::ErrorLocation, _)
        ),
        "{v:?}"
    );
    assert!(v.is_bug());
    assert_eq!(
        v.category(),
        "BUG: mismatch, interpreter vs C: same error kind, locations differ"
    );
    assert_eq!(v.group(), "BUG: error kinds agree, locations differ");
    assert!(v.detail().contains("C -O3"), "{}", v.detail());
    assert!(v.detail().contains("5:2"), "{}", v.detail());
}

#[test]
fn a_location_mismatch_between_the_interpreters_is_the_optimizers() {
    let v = verdict(&[
        ("interpreter", err(ErrKind::Size, "2:5")),
        ("optimized interpreter", err(ErrKind::Size, "4:9")),
    ]);
    assert!(
        matches!(
            v,
            Verdict::Mismatch(Pair::Optimizer, Difference::ErrorLocation, _)
        ),
        "{v:?}"
    );
}

#[test]
fn an_error_unoptimized_and_a_value_optimized_disagree() {
    // (the shape of issue 46's finding: the unoptimized interpreter reports a
    // size mismatch of the result, the optimized one returns [])
    let v = verdict(&[
        ("interpreter", err(ErrKind::Size, "1:1")),
        (
            "optimized interpreter",
            Outcome::Value(Value::Array(Default::default())),
        ),
        ("C -O0", Outcome::Value(Value::Array(Default::default()))),
    ]);
    assert!(
        matches!(
            v,
            Verdict::Mismatch(Pair::Optimizer, Difference::ValueVsError, _)
        ),
        "{v:?}"
    );
    assert_eq!(
        v.group(),
        "BUG: disagree (value, value vs error, error kind)"
    );
}

#[test]
fn a_hoisted_check_is_an_error_kind_mismatch() {
    let v = verdict(&[
        ("interpreter", err(ErrKind::Index, "3:7")),
        ("optimized interpreter", err(ErrKind::Index, "3:7")),
        ("C -O0", err(ErrKind::Size, "2:3")),
    ]);
    assert!(
        matches!(
            v,
            Verdict::Mismatch(Pair::Backend, Difference::ErrorKind, _)
        ),
        "{v:?}"
    );
}

#[test]
fn values_and_errors_that_agree() {
    let v = verdict(&[
        ("interpreter", Outcome::Value(Value::I64(3))),
        ("optimized interpreter", Outcome::Value(Value::I64(3))),
        ("C -O3", Outcome::Value(Value::I64(4))),
    ]);
    assert!(
        matches!(v, Verdict::Mismatch(Pair::Backend, Difference::Value, _)),
        "{v:?}"
    );
    let v = verdict(&[
        ("interpreter", err(ErrKind::Division, "6:1")),
        ("optimized interpreter", err(ErrKind::Division, "6:1")),
        ("C -O0", err(ErrKind::Division, "6:1")),
        ("C -O3", err(ErrKind::Division, "6:1")),
    ]);
    assert_eq!(v, Verdict::AgreeError("division".into()));
    assert_eq!(v.group(), "agree (error: same kind, same location)");
    // out of memory unoptimized: the optimized program may run on
    let v = verdict(&[
        ("interpreter", err(ErrKind::Memory, "1:1")),
        ("optimized interpreter", Outcome::Value(Value::I64(1))),
        ("C -O0", Outcome::Value(Value::I64(1))),
    ]);
    assert!(!v.is_bug(), "{v:?}");
}

#[test]
fn a_shrunk_mismatch_keeps_its_pair_and_difference() {
    let loc = Verdict::Mismatch(Pair::Backend, Difference::ErrorLocation, "a".into());
    let loc2 = Verdict::Mismatch(Pair::Backend, Difference::ErrorLocation, "b".into());
    let kind = Verdict::Mismatch(Pair::Backend, Difference::ErrorKind, "a".into());
    let opt = Verdict::Mismatch(Pair::Optimizer, Difference::ErrorLocation, "a".into());
    assert!(loc.same_bug(&loc2));
    assert!(!loc.same_bug(&kind));
    assert!(!loc.same_bug(&opt));
}

#[test]
fn compiled_error_locations_are_read() {
    match weir_fuzz::oracle::c_outcome("prog.weir:12:5: index out of bounds: index 2 in 0") {
        Outcome::Error { kind, loc, .. } => {
            assert_eq!(kind, ErrKind::Index);
            assert_eq!(loc, "12:5");
        }
        o => panic!("{o}"),
    }
}
