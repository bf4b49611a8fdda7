//! The oracle: the unoptimized interpreter, the optimized interpreter, C at `-O0`
//! and C at `-O3` must compute the same thing.
//!
//! **Values** are compared bit for bit: integers exactly, floats by their bits
//! (so `-0.0` differs from `0.0`), except that every NaN equals every NaN (the
//! sign and payload of a NaN are not specified, docs/language.md §6). A float
//! difference in a program that uses a float reduction (`sum`, `product`,
//! `reduce`, `ireduce`, `scan`), which compiled code may reassociate by contract
//! (§11), is counted separately as *reassociated* when it is within the test-block
//! tolerance, and as a mismatch otherwise.
//!
//! **Errors** are compared by kind (index, size, division, negative size,
//! invalid argument, memory, other) and by source location (`line:col`).

use std::fmt;
use weir_interp::{RuntimeError, Value};

/// The kind of a run-time error, from its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrKind {
    Index,
    Size,
    Division,
    NegativeSize,
    Invalid,
    Memory,
    Other,
}

impl ErrKind {
    pub fn of(msg: &str) -> ErrKind {
        let m = msg.to_ascii_lowercase();
        if m.contains("out of memory") || m.contains("too large") {
            ErrKind::Memory
        } else if m.contains("negative") && (m.contains("size") || m.contains("length")) {
            ErrKind::NegativeSize
        } else if m.contains("out of bounds") {
            ErrKind::Index
        } else if m.contains("by zero") {
            ErrKind::Division
        } else if m.contains("size mismatch")
            || m.contains("irregular")
            || m.contains("does not match")
            || m.contains("size")
        {
            ErrKind::Size
        } else if m.contains("invalid") || m.contains("must be") || m.contains("negative") {
            ErrKind::Invalid
        } else {
            ErrKind::Other
        }
    }
}

/// What one leg computed.
#[derive(Clone, Debug)]
pub enum Outcome {
    Value(Value),
    Error {
        kind: ErrKind,
        /// `line:col` in the program's file ("?" when the message had none).
        loc: String,
        message: String,
    },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Value(v) => write!(f, "{}", weir_interp::format_value(v)),
            Outcome::Error { kind, loc, message } => {
                write!(f, "error ({kind:?}) at {loc}: {message}")
            }
        }
    }
}

/// An interpreter error as an outcome.
pub fn interp_outcome(c: &weir_driver::Compiled, e: &RuntimeError) -> Outcome {
    let loc = match c.sources.files().get(e.span.file.0 as usize) {
        Some(f) if e.span != weir_ir::Span::default() => {
            let (l, col) = f.line_col(e.span.start as usize);
            format!("{l}:{col}")
        }
        _ => "?".into(),
    };
    Outcome::Error {
        kind: ErrKind::of(&e.message),
        loc,
        message: e.message.clone(),
    }
}

/// A compiled program's error message (`file:line:col: message`) as an outcome.
pub fn c_outcome(msg: &str) -> Outcome {
    let mut parts = msg.splitn(4, ':');
    let (file, line, col, rest) = (parts.next(), parts.next(), parts.next(), parts.next());
    match (file, line, col, rest) {
        (Some(_), Some(l), Some(c), Some(rest))
            if l.trim().parse::<usize>().is_ok() && c.trim().parse::<usize>().is_ok() =>
        {
            Outcome::Error {
                kind: ErrKind::of(rest),
                loc: format!("{}:{}", l.trim(), c.trim()),
                message: rest.trim().to_string(),
            }
        }
        _ => Outcome::Error {
            kind: ErrKind::of(msg),
            loc: "?".into(),
            message: msg.trim().to_string(),
        },
    }
}

/// Bit-exact equality of values (every NaN equals every NaN).
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits(),
        (Value::F32(x), Value::F32(y)) => (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits(),
        (Value::I64(x), Value::I64(y)) => x == y,
        (Value::I32(x), Value::I32(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_value(p, q))
        }
        (x, y) => x.as_int().is_some() && x.prim() == y.prim() && x.as_int() == y.as_int(),
    }
}

/// Equality within the test-block tolerance (docs/language.md §8).
pub fn close_value(a: &Value, b: &Value) -> bool {
    fn close(x: f64, y: f64) -> bool {
        (x.is_nan() && y.is_nan())
            || x == y
            || (x - y).abs() <= 1e-9 * 1f64.max(x.abs()).max(y.abs())
    }
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => close(*x, *y),
        (Value::F32(x), Value::F32(y)) => {
            (x.is_nan() && y.is_nan())
                || x == y
                || (x - y).abs() <= 1e-5 * 1f32.max(x.abs()).max(y.abs())
        }
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| close_value(p, q))
        }
        _ => same_value(a, b),
    }
}

/// How two outcomes relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    Same,
    /// Float values within tolerance, in a program with reassociable reductions.
    Reassociated,
    Differ,
}

pub fn compare(a: &Outcome, b: &Outcome, reassociable: bool) -> Agreement {
    match relate(a, b, reassociable) {
        Relation::Same => Agreement::Same,
        Relation::Reassociated => Agreement::Reassociated,
        Relation::Differ(_) => Agreement::Differ,
    }
}

/// How two outcomes that do not agree differ (each is counted on its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difference {
    /// Both are values, and the values differ.
    Value,
    /// One is a value, the other an error.
    ValueVsError,
    /// Both are errors, of different kinds (the first error one leg meets is
    /// not the other's: a check hoisted before another, or a missing check).
    ErrorKind,
    /// Both are errors of the same kind, reported at different source
    /// locations (`line:col`).
    ErrorLocation,
}

impl Difference {
    /// The words of the report.
    pub fn describe(self) -> &'static str {
        match self {
            Difference::Value => "values differ",
            Difference::ValueVsError => "value vs error",
            Difference::ErrorKind => "error kinds differ",
            Difference::ErrorLocation => "same error kind, locations differ",
        }
    }
}

/// How two outcomes relate, with the way they differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Same,
    /// Float values within tolerance, in a program with reassociable reductions.
    Reassociated,
    Differ(Difference),
}

/// Compare two outcomes: values bit for bit (within tolerance as
/// [`Relation::Reassociated`] when `reassociable`), errors by kind and then by
/// location.
pub fn relate(a: &Outcome, b: &Outcome, reassociable: bool) -> Relation {
    match (a, b) {
        (Outcome::Value(x), Outcome::Value(y)) => {
            if same_value(x, y) {
                Relation::Same
            } else if reassociable && close_value(x, y) {
                Relation::Reassociated
            } else {
                Relation::Differ(Difference::Value)
            }
        }
        (
            Outcome::Error {
                kind: k1, loc: l1, ..
            },
            Outcome::Error {
                kind: k2, loc: l2, ..
            },
        ) => {
            if k1 != k2 {
                Relation::Differ(Difference::ErrorKind)
            } else if l1 != l2 {
                Relation::Differ(Difference::ErrorLocation)
            } else {
                Relation::Same
            }
        }
        _ => Relation::Differ(Difference::ValueVsError),
    }
}

/// Does the program use a reduction that compiled code may reassociate?
pub fn reassociable(source: &str) -> bool {
    ["sum ", "product ", "reduce ", "ireduce ", "scan "]
        .iter()
        .any(|k| source.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(
            ErrKind::of("index out of bounds: index 3 in an array of length 2"),
            ErrKind::Index
        );
        assert_eq!(ErrKind::of("integer division by zero"), ErrKind::Division);
        assert_eq!(
            ErrKind::of("negative size -3 in replicate"),
            ErrKind::NegativeSize
        );
        assert_eq!(ErrKind::of("size mismatch: 2 vs 3"), ErrKind::Size);
    }

    #[test]
    fn nans_are_equal_and_zeros_are_not() {
        assert!(same_value(&Value::F64(f64::NAN), &Value::F64(-f64::NAN)));
        assert!(!same_value(&Value::F64(0.0), &Value::F64(-0.0)));
    }

    fn err(kind: ErrKind, loc: &str) -> Outcome {
        Outcome::Error {
            kind,
            loc: loc.into(),
            message: String::new(),
        }
    }

    #[test]
    fn relations() {
        let v = Outcome::Value(Value::I64(1));
        let w = Outcome::Value(Value::I64(2));
        let a = err(ErrKind::Index, "3:7");
        assert_eq!(relate(&v, &v, false), Relation::Same);
        assert_eq!(relate(&v, &w, false), Relation::Differ(Difference::Value));
        assert_eq!(
            relate(&v, &a, false),
            Relation::Differ(Difference::ValueVsError)
        );
        assert_eq!(
            relate(&a, &err(ErrKind::Index, "3:7"), false),
            Relation::Same
        );
        assert_eq!(
            relate(&a, &err(ErrKind::Index, "4:2"), false),
            Relation::Differ(Difference::ErrorLocation)
        );
        assert_eq!(
            relate(&a, &err(ErrKind::Size, "3:7"), false),
            Relation::Differ(Difference::ErrorKind)
        );
        let x = Outcome::Value(Value::F64(1.0));
        let y = Outcome::Value(Value::F64(1.0 + 1e-12));
        assert_eq!(relate(&x, &y, true), Relation::Reassociated);
        assert_eq!(relate(&x, &y, false), Relation::Differ(Difference::Value));
    }

    #[test]
    fn c_messages() {
        match c_outcome("prog.weir:3:14: integer division by zero") {
            Outcome::Error { kind, loc, .. } => {
                assert_eq!(kind, ErrKind::Division);
                assert_eq!(loc, "3:14");
            }
            o => panic!("{o}"),
        }
    }
}
