//! Runtime values and their text format (docs/language.md §7).

use std::fmt::Write;
use std::rc::Rc;
use weir_ir::print::{f32_text, float_text, user_type_to_string};
use weir_ir::{Const, PrimType, Size, Type};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    F64(f64),
    F32(f32),
    I64(i64),
    I32(i32),
    Bool(bool),
    I8(i8),
    I16(i16),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    Tuple(Rc<Vec<Value>>),
    Array(Rc<Vec<Value>>),
    /// An empty array that remembers the shape its elements would have, so that
    /// `transpose`, `++`, `dim` and size checks see the shapes compiled code sees
    /// (a `[0][k]` array is not a `[0][j]` one). Only the interpreter makes these,
    /// and [`crate::Interp::call`] never returns one: results are [`Value::plain`].
    Empty(Rc<Shape>),
}

/// The shape of a value, as far as it is known: what an empty array knows of its
/// (absent) elements.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Not known (an empty array that came without its element shape); it is
    /// compatible with every shape.
    Unknown,
    Scalar,
    /// An array: its length (`None`: not known to the interpreter, compatible with
    /// every length) and the shape of its elements.
    Array(Option<usize>, Rc<Shape>),
    Tuple(Rc<Vec<Shape>>),
}

impl Shape {
    /// Could values of the two shapes be elements of one (rectangular) array?
    /// Unknown parts are compatible with anything.
    pub fn compatible(&self, other: &Shape) -> bool {
        match (self, other) {
            (Shape::Unknown, _) | (_, Shape::Unknown) => true,
            (Shape::Scalar, Shape::Scalar) => true,
            (Shape::Array(n, a), Shape::Array(m, b)) => {
                (n.is_none() || m.is_none() || n == m) && a.compatible(b)
            }
            (Shape::Tuple(xs), Shape::Tuple(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| x.compatible(y))
            }
            _ => false,
        }
    }

    /// The more precise of two compatible shapes (known parts win).
    pub fn meet(&self, other: &Shape) -> Shape {
        match (self, other) {
            (Shape::Unknown, s) | (s, Shape::Unknown) => s.clone(),
            (Shape::Array(n, a), Shape::Array(m, b)) => Shape::Array(n.or(*m), Rc::new(a.meet(b))),
            (Shape::Tuple(xs), Shape::Tuple(ys)) if xs.len() == ys.len() => Shape::Tuple(Rc::new(
                xs.iter().zip(ys.iter()).map(|(x, y)| x.meet(y)).collect(),
            )),
            (s, _) => s.clone(),
        }
    }

    /// The dimensions along nested arrays (unknown ones as 0).
    pub fn dims(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut s = self;
        while let Shape::Array(n, e) = s {
            out.push(n.unwrap_or(0));
            s = e;
        }
        out
    }
}

impl std::fmt::Display for Shape {
    /// `[3][2]` for a 3×2 array of scalars, `[3]([2], )` for arrays of tuples,
    /// `[?]` for an unknown length, `scalar`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shape::Unknown => f.write_str("?"),
            Shape::Scalar => f.write_str("scalar"),
            Shape::Array(n, e) => {
                match n {
                    Some(n) => write!(f, "[{n}]")?,
                    None => f.write_str("[?]")?,
                }
                match &**e {
                    Shape::Scalar => Ok(()),
                    e => write!(f, "{e}"),
                }
            }
            Shape::Tuple(xs) => {
                f.write_str("(")?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// The full shape of a value (arrays are rectangular: the first element stands
/// for all).
pub fn shape_of(v: &Value) -> Shape {
    match v {
        Value::Array(xs) => Shape::Array(Some(xs.len()), Rc::new(elem_shape(v))),
        Value::Empty(s) => Shape::Array(Some(0), s.clone()),
        Value::Tuple(xs) => Shape::Tuple(Rc::new(xs.iter().map(shape_of).collect())),
        _ => Shape::Scalar,
    }
}

/// The shape of the elements of an array value (`Unknown` for a plain empty
/// array, `Scalar` for a non-array).
pub fn elem_shape(v: &Value) -> Shape {
    match v {
        Value::Array(xs) => xs.first().map(shape_of).unwrap_or(Shape::Unknown),
        Value::Empty(s) => (**s).clone(),
        _ => Shape::Scalar,
    }
}

/// Do two values have compatible shapes (as [`Shape::compatible`]), without
/// building the shapes in the common case.
pub fn same_shape(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| same_shape(x, y))
        }
        (Value::Array(xs), Value::Array(ys)) if !xs.is_empty() && !ys.is_empty() => {
            xs.len() == ys.len() && same_shape(&xs[0], &ys[0])
        }
        (Value::Array(_) | Value::Empty(_), Value::Array(_) | Value::Empty(_)) => {
            a.array_len() == b.array_len() && elem_shape(a).compatible(&elem_shape(b))
        }
        (Value::Tuple(_) | Value::Array(_) | Value::Empty(_), _)
        | (_, Value::Tuple(_) | Value::Array(_) | Value::Empty(_)) => false,
        _ => true,
    }
}

impl Value {
    pub fn array(v: Vec<Value>) -> Value {
        Value::Array(Rc::new(v))
    }
    pub fn tuple(v: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(v))
    }
    /// The value of a constant.
    pub fn from_const(c: Const) -> Value {
        match c {
            Const::F64(v) => Value::F64(v),
            Const::F32(v) => Value::F32(v),
            Const::I64(v) => Value::I64(v),
            Const::I32(v) => Value::I32(v),
            Const::Bool(v) => Value::Bool(v),
            Const::I8(v) => Value::I8(v),
            Const::I16(v) => Value::I16(v),
            Const::U8(v) => Value::U8(v),
            Const::U16(v) => Value::U16(v),
            Const::U32(v) => Value::U32(v),
            Const::U64(v) => Value::U64(v),
        }
    }
    /// The constant of a scalar value (None for tuples and arrays).
    pub fn to_const(&self) -> Option<Const> {
        Some(match *self {
            Value::F64(v) => Const::F64(v),
            Value::F32(v) => Const::F32(v),
            Value::I64(v) => Const::I64(v),
            Value::I32(v) => Const::I32(v),
            Value::Bool(v) => Const::Bool(v),
            Value::I8(v) => Const::I8(v),
            Value::I16(v) => Const::I16(v),
            Value::U8(v) => Const::U8(v),
            Value::U16(v) => Const::U16(v),
            Value::U32(v) => Const::U32(v),
            Value::U64(v) => Const::U64(v),
            Value::Tuple(_) | Value::Array(_) | Value::Empty(_) => return None,
        })
    }
    /// `v` modulo 2^width as a value of integer type `p`.
    pub fn int(p: PrimType, v: i128) -> Value {
        Value::from_const(Const::wrapping(p, v))
    }
    /// The value of an integer (None for other values).
    pub fn as_int(&self) -> Option<i128> {
        self.to_const().and_then(Const::as_int)
    }
    /// The type of a scalar value.
    pub fn prim(&self) -> Option<PrimType> {
        self.to_const().map(Const::prim)
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::I64(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Rc<Vec<Value>>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The length of an array value (`None` for a non-array).
    pub fn array_len(&self) -> Option<usize> {
        match self {
            Value::Array(a) => Some(a.len()),
            Value::Empty(_) => Some(0),
            _ => None,
        }
    }
    /// Shape of a (regular) array value: lengths along the first elements (and,
    /// for an empty array that knows them, the lengths of its absent elements).
    pub fn shape(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut v = self;
        loop {
            match v {
                Value::Array(a) => {
                    out.push(a.len());
                    match a.first() {
                        Some(x) => v = x,
                        None => break,
                    }
                }
                Value::Empty(s) => {
                    out.push(0);
                    out.extend(s.dims());
                    break;
                }
                _ => break,
            }
        }
        out
    }
    /// The value with every [`Value::Empty`] replaced by a plain empty array (the
    /// form outside the interpreter: the text format, `.npy` and compiled code's
    /// results do not keep the shape of an empty array's elements).
    pub fn plain(self) -> Value {
        match self {
            Value::Empty(_) => Value::array(Vec::new()),
            Value::Array(xs) if xs.first().is_some_and(|x| x.may_hold_empty()) => {
                Value::array(xs.iter().map(|x| x.clone().plain()).collect())
            }
            Value::Tuple(xs) if xs.iter().any(|x| x.may_hold_empty()) => {
                Value::tuple(xs.iter().map(|x| x.clone().plain()).collect())
            }
            v => v,
        }
    }
    fn may_hold_empty(&self) -> bool {
        matches!(self, Value::Array(_) | Value::Tuple(_) | Value::Empty(_))
    }
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::F64(_) => "an f64",
            Value::F32(_) => "an f32",
            Value::I64(_) => "an i64",
            Value::I32(_) => "an i32",
            Value::Bool(_) => "a bool",
            Value::I8(_) => "an i8",
            Value::I16(_) => "an i16",
            Value::U8(_) => "a u8",
            Value::U16(_) => "a u16",
            Value::U32(_) => "a u32",
            Value::U64(_) => "a u64",
            Value::Tuple(_) => "a tuple",
            Value::Array(_) | Value::Empty(_) => "an array",
        }
    }
}

/// Print a value in the text format.
pub fn format_value(v: &Value) -> String {
    let mut s = String::new();
    write_value(&mut s, v);
    s
}

fn write_value(s: &mut String, v: &Value) {
    match v {
        Value::F64(x) => s.push_str(&float_text(*x)),
        Value::F32(x) => {
            s.push_str(&f32_text(*x));
            s.push_str("f32");
        }
        Value::I64(x) => {
            let _ = write!(s, "{x}");
        }
        Value::Bool(b) => {
            let _ = write!(s, "{b}");
        }
        Value::I32(_)
        | Value::I8(_)
        | Value::I16(_)
        | Value::U8(_)
        | Value::U16(_)
        | Value::U32(_)
        | Value::U64(_) => {
            let c = v.to_const().unwrap_or(Const::I32(0));
            let _ = write!(s, "{}{}", c.as_int().unwrap_or(0), c.prim().name());
        }
        Value::Tuple(xs) => {
            s.push('(');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_value(s, x);
            }
            s.push(')');
        }
        Value::Array(xs) => {
            s.push('[');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_value(s, x);
            }
            s.push(']');
        }
        Value::Empty(_) => s.push_str("[]"),
    }
}

/// `v`, a value of type `ty`, in the text format: as [`format_value`], but
/// where the type is a record (whose value is the tuple of its fields sorted
/// by name), as the record `{x = 1.0, y = 2.0}`.
pub fn format_value_as(v: &Value, ty: &Type) -> String {
    let mut s = String::new();
    write_value_as(&mut s, v, ty);
    s
}

fn write_value_as(s: &mut String, v: &Value, ty: &Type) {
    match (v, ty) {
        (Value::Tuple(xs), Type::Record(fs)) if xs.len() == fs.len() => {
            s.push('{');
            for (i, (x, (n, t))) in xs.iter().zip(fs).enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(n);
                s.push_str(" = ");
                write_value_as(s, x, t);
            }
            s.push('}');
        }
        (Value::Tuple(xs), Type::Tuple(ts)) if xs.len() == ts.len() => {
            s.push('(');
            for (i, (x, t)) in xs.iter().zip(ts).enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_value_as(s, x, t);
            }
            s.push(')');
        }
        (Value::Array(xs), Type::Array(_, e)) => {
            s.push('[');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_value_as(s, x, e);
            }
            s.push(']');
        }
        _ => write_value(s, v),
    }
}

/// A value that failed to parse or did not match its expected type.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueError {
    /// Byte offset in the text, if it came from text.
    pub offset: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Untyped value syntax.
#[derive(Debug, Clone)]
enum VTree {
    Num(String, usize),
    Bool(bool, usize),
    List(Vec<VTree>, usize),
    Tuple(Vec<VTree>, usize),
    /// `{x = 1.0, y = 2.0}`: its fields in source order.
    Record(Vec<(String, VTree)>, usize),
}

impl VTree {
    fn offset(&self) -> usize {
        match self {
            VTree::Num(_, o)
            | VTree::Bool(_, o)
            | VTree::List(_, o)
            | VTree::Tuple(_, o)
            | VTree::Record(_, o) => *o,
        }
    }
    fn describe(&self) -> String {
        match self {
            VTree::Num(t, _) => format!("the number `{t}`"),
            VTree::Bool(b, _) => format!("`{b}`"),
            VTree::List(xs, _) => format!("an array of {} elements", xs.len()),
            VTree::Tuple(xs, _) => format!("a tuple of {} components", xs.len()),
            VTree::Record(fs, _) => format!(
                "a record with field{} {}",
                if fs.len() == 1 { "" } else { "s" },
                fs.iter()
                    .map(|(n, _)| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

struct VParser<'t> {
    text: &'t str,
    pos: usize,
    depth: usize,
}

impl<'t> VParser<'t> {
    fn skip_ws(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() {
            if b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            } else if self.text[self.pos..].starts_with("--") || b[self.pos] == b'#' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }
    fn err<T>(&self, msg: String) -> Result<T, ValueError> {
        Err(ValueError {
            offset: Some(self.pos),
            message: msg,
        })
    }
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }
    fn tree(&mut self) -> Result<VTree, ValueError> {
        self.skip_ws();
        self.depth += 1;
        if self.depth > 200 {
            return self.err("value nested too deeply".into());
        }
        let start = self.pos;
        let r = match self.peek() {
            None => self.err("expected a value, found the end of the input".into()),
            Some(b'{') => self.record(start),
            Some(b'[') | Some(b'(') => {
                let open = self.peek();
                self.pos += 1;
                let close = if open == Some(b'[') { b']' } else { b')' };
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(close) {
                    self.pos += 1;
                } else {
                    loop {
                        items.push(self.tree()?);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(c) if c == close => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return self.err(format!(
                                    "expected `,` or `{}` in the {}",
                                    close as char,
                                    if close == b']' { "array" } else { "tuple" }
                                ));
                            }
                        }
                    }
                }
                if close == b']' {
                    Ok(VTree::List(items, start))
                } else if items.len() == 1 {
                    Ok(items.pop().unwrap_or(VTree::Bool(false, start)))
                } else {
                    Ok(VTree::Tuple(items, start))
                }
            }
            Some(_) => {
                let b = self.text.as_bytes();
                while self.pos < b.len()
                    && (b[self.pos].is_ascii_alphanumeric() || b"._+-".contains(&b[self.pos]))
                {
                    // a sign is only part of a number at the start or after an exponent
                    if (b[self.pos] == b'+' || b[self.pos] == b'-')
                        && self.pos > start
                        && !matches!(b[self.pos - 1], b'e' | b'E')
                    {
                        break;
                    }
                    self.pos += 1;
                }
                let word = &self.text[start..self.pos];
                match word {
                    "" => {
                        let c = self.text[self.pos..].chars().next().unwrap_or(' ');
                        self.err(format!("unexpected character `{c}` in a value"))
                    }
                    "true" => Ok(VTree::Bool(true, start)),
                    "false" => Ok(VTree::Bool(false, start)),
                    w => Ok(VTree::Num(w.to_string(), start)),
                }
            }
        };
        self.depth -= 1;
        r
    }
}

impl VParser<'_> {
    /// `{x = 1.0, y = [2.0]}`: a record value, which is the tuple of its
    /// fields in the order of their names (how programs store records).
    fn record(&mut self, start: usize) -> Result<VTree, ValueError> {
        self.pos += 1;
        let mut fields: Vec<(String, VTree)> = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return self.err("a record value needs at least one field: `{x = 1.0}`".into());
        }
        loop {
            self.skip_ws();
            let b = self.text.as_bytes();
            let name_start = self.pos;
            while self.pos < b.len()
                && (b[self.pos].is_ascii_alphanumeric()
                    || b[self.pos] == b'_'
                    || b[self.pos] == b'\'')
            {
                self.pos += 1;
            }
            let name = self.text[name_start..self.pos].to_string();
            if name.is_empty() || !b[name_start].is_ascii_alphabetic() && b[name_start] != b'_' {
                self.pos = name_start;
                return self.err(
                    "expected a field name in the record value (`{x = 1.0, y = 2.0}`)".into(),
                );
            }
            if fields.iter().any(|(n, _)| *n == name) {
                self.pos = name_start;
                return self.err(format!("field `{name}` appears twice in the record value"));
            }
            self.skip_ws();
            if self.peek() != Some(b'=') {
                return self.err(format!("expected `=` after the field name `{name}`"));
            }
            self.pos += 1;
            let v = self.tree()?;
            fields.push((name, v));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return self.err("expected `,` or `}` in the record value".into()),
            }
        }
        Ok(VTree::Record(fields, start))
    }
}

/// Parse all values in a text (separated by white space).
fn parse_trees(text: &str) -> Result<Vec<VTree>, ValueError> {
    let mut p = VParser {
        text,
        pos: 0,
        depth: 0,
    };
    let mut out = Vec::new();
    loop {
        p.skip_ws();
        if p.pos >= text.len() {
            break;
        }
        out.push(p.tree()?);
    }
    Ok(out)
}

fn num(text: &str, p: PrimType, off: usize) -> Result<Value, ValueError> {
    let bad = |what: &str| ValueError {
        offset: Some(off),
        message: format!("expected {what}, found `{text}`"),
    };
    let (body, suffix) = split_suffix(text);
    if let Some(s) = suffix
        && s != p
    {
        return Err(ValueError {
            offset: Some(off),
            message: format!(
                "expected a value of type {}, found `{text}` (a {})",
                p.name(),
                s.name()
            ),
        });
    }
    let clean: String = body.chars().filter(|c| *c != '_').collect();
    let digits = clean.trim_start_matches(['-', '+']);
    let hex = digits.strip_prefix("0x");
    let is_int_text = match hex {
        Some(h) => !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()),
        None => !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()),
    };
    match p {
        PrimType::F64 | PrimType::F32 => {
            let c = match clean.as_str() {
                "inf" | "+inf" => "inf",
                "-inf" => "-inf",
                "nan" | "-nan" | "+nan" => "NaN",
                c => c,
            };
            let none = || bad(&format!("a number of type {}", p.name()));
            // an f32 is read as an f32 (reading an f64 and rounding it would round twice)
            Ok(if p == PrimType::F64 {
                Value::F64(c.parse::<f64>().map_err(|_| none())?)
            } else {
                Value::F32(c.parse::<f32>().map_err(|_| none())?)
            })
        }
        _ if p.is_int() => {
            if !is_int_text {
                return Err(bad(&format!("an integer of type {}", p.name())));
            }
            let v: i128 = match hex {
                Some(h) => {
                    let m = i128::from_str_radix(h, 16).map_err(|_| bad("an integer"))?;
                    if clean.starts_with('-') { -m } else { m }
                }
                None => clean.parse().map_err(|_| bad("an integer"))?,
            };
            Const::int(p, v)
                .map(Value::from_const)
                .ok_or_else(|| bad(&format!("an integer that fits in {}", p.name())))
        }
        _ => Err(bad("`true` or `false`")),
    }
}

fn split_suffix(text: &str) -> (&str, Option<PrimType>) {
    for p in PrimType::ALL {
        if p == PrimType::Bool {
            continue;
        }
        // (`0xf32` is a hex number, not 0x with a suffix)
        if let Some(b) = text.strip_suffix(p.name())
            && !b.is_empty()
            && !(p.is_float() && b.trim_start_matches(['-', '+']).starts_with("0x"))
        {
            return (b, Some(p));
        }
    }
    (text, None)
}

fn convert(t: &VTree, ty: &Type) -> Result<Value, ValueError> {
    let mismatch = |t: &VTree| ValueError {
        offset: Some(t.offset()),
        message: format!(
            "expected a value of type {}, found {}",
            user_type_to_string(ty),
            t.describe()
        ),
    };
    match (ty, t) {
        // a record's value is the tuple of its fields sorted by name; its
        // field names are checked where the type has them
        (Type::Record(fs), VTree::Record(xs, off)) => {
            let names = |fs: &[(String, Type)]| {
                fs.iter()
                    .map(|(n, _)| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            for (n, x) in xs {
                if !fs.iter().any(|(f, _)| f == n) {
                    return Err(ValueError {
                        offset: Some(x.offset()),
                        message: format!(
                            "the record type {} has no field `{n}` (its fields are {})",
                            user_type_to_string(ty),
                            names(fs)
                        ),
                    });
                }
            }
            let mut out = Vec::new();
            for (f, ft) in fs {
                let Some((_, x)) = xs.iter().find(|(n, _)| n == f) else {
                    return Err(ValueError {
                        offset: Some(*off),
                        message: format!(
                            "the record value has no field `{f}` (a value of type {} needs {})",
                            user_type_to_string(ty),
                            names(fs)
                        ),
                    });
                };
                out.push(convert(x, ft)?);
            }
            Ok(Value::tuple(out))
        }
        (Type::Record(fs), VTree::Tuple(xs, _)) if fs.len() == xs.len() => Ok(Value::tuple(
            xs.iter()
                .zip(fs)
                .map(|(x, (_, t))| convert(x, t))
                .collect::<Result<_, _>>()?,
        )),
        (Type::Record(fs), x) if fs.len() == 1 && !matches!(x, VTree::Tuple(..)) => {
            Ok(Value::tuple(vec![convert(x, &fs[0].1)?]))
        }
        // without the record type (a tuple type): the fields in name order
        (Type::Tuple(ts), VTree::Record(xs, _)) if ts.len() == xs.len() => {
            let mut sorted: Vec<&(String, VTree)> = xs.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(Value::tuple(
                sorted
                    .into_iter()
                    .zip(ts)
                    .map(|((_, x), t)| convert(x, t))
                    .collect::<Result<_, _>>()?,
            ))
        }
        (Type::Prim(PrimType::Bool), VTree::Bool(b, _)) => Ok(Value::Bool(*b)),
        (Type::Prim(p), VTree::Num(text, off)) => num(text, *p, *off),
        (Type::Tuple(ts), VTree::Tuple(xs, _)) if ts.len() == xs.len() => Ok(Value::tuple(
            xs.iter()
                .zip(ts)
                .map(|(x, t)| convert(x, t))
                .collect::<Result<_, _>>()?,
        )),
        (Type::Array(size, elem), VTree::List(xs, off)) => {
            if let Size::Const(c) = size
                && *c as usize != xs.len()
            {
                return Err(ValueError {
                    offset: Some(*off),
                    message: format!(
                        "size mismatch: expected an array of {c} elements, found {}",
                        xs.len()
                    ),
                });
            }
            let vals: Vec<Value> = xs
                .iter()
                .map(|x| convert(x, elem))
                .collect::<Result<_, _>>()?;
            if let Some(first) = vals.first() {
                let s0 = first.shape();
                for (x, v) in xs.iter().zip(&vals) {
                    if v.shape() != s0 {
                        return Err(ValueError {
                            offset: Some(x.offset()),
                            message: format!(
                                "irregular array: this element has shape {:?} but the first has shape {:?} (arrays must be rectangular)",
                                v.shape(),
                                s0
                            ),
                        });
                    }
                }
            }
            Ok(Value::array(vals))
        }
        _ => Err(mismatch(t)),
    }
}

/// Parse values for the given types from text. `what` names each value for messages.
pub fn parse_values(text: &str, types: &[(String, Type)]) -> Result<Vec<Value>, ValueError> {
    let trees = parse_trees(text)?;
    if trees.len() != types.len() {
        return Err(ValueError {
            offset: None,
            message: format!(
                "expected {} value(s) ({}), found {}",
                types.len(),
                types
                    .iter()
                    .map(|(n, t)| format!("{n}: {}", user_type_to_string(t)))
                    .collect::<Vec<_>>()
                    .join(", "),
                trees.len()
            ),
        });
    }
    trees
        .iter()
        .zip(types)
        .map(|(t, (n, ty))| {
            convert(t, ty).map_err(|e| ValueError {
                offset: e.offset,
                message: format!("{n}: {}", e.message),
            })
        })
        .collect()
}

/// Parse one value of a type.
pub fn parse_value(text: &str, ty: &Type) -> Result<Value, ValueError> {
    let mut v = parse_values(text, &[("value".to_string(), ty.clone())])?;
    v.pop().ok_or(ValueError {
        offset: None,
        message: "no value".into(),
    })
}

/// Count the values in a text without types (for splitting inputs).
pub fn count_values(text: &str) -> Result<usize, ValueError> {
    parse_trees(text).map(|t| t.len())
}

/// Does a value have the given type (sizes checked where constant)?
pub fn check_type(v: &Value, ty: &Type) -> Result<(), String> {
    match (v, ty) {
        (Value::F64(_), Type::Prim(PrimType::F64))
        | (Value::F32(_), Type::Prim(PrimType::F32))
        | (Value::I64(_), Type::Prim(PrimType::I64))
        | (Value::I32(_), Type::Prim(PrimType::I32))
        | (Value::Bool(_), Type::Prim(PrimType::Bool))
        | (Value::I8(_), Type::Prim(PrimType::I8))
        | (Value::I16(_), Type::Prim(PrimType::I16))
        | (Value::U8(_), Type::Prim(PrimType::U8))
        | (Value::U16(_), Type::Prim(PrimType::U16))
        | (Value::U32(_), Type::Prim(PrimType::U32))
        | (Value::U64(_), Type::Prim(PrimType::U64)) => Ok(()),
        (Value::Tuple(xs), Type::Tuple(ts)) if xs.len() == ts.len() => {
            xs.iter().zip(ts).try_for_each(|(x, t)| check_type(x, t))
        }
        (Value::Tuple(xs), Type::Record(fs)) if xs.len() == fs.len() => xs
            .iter()
            .zip(fs)
            .try_for_each(|(x, (_, t))| check_type(x, t)),
        (Value::Array(xs), Type::Array(s, e)) => {
            if let Size::Const(c) = s
                && *c as usize != xs.len()
            {
                return Err(format!(
                    "size mismatch: expected {c} elements, found {}",
                    xs.len()
                ));
            }
            xs.iter().try_for_each(|x| check_type(x, e))
        }
        (Value::Empty(_), Type::Array(s, _)) => match s {
            Size::Const(c) if *c != 0 => {
                Err(format!("size mismatch: expected {c} elements, found 0"))
            }
            _ => Ok(()),
        },
        _ => Err(format!(
            "expected a value of type {}, found {}",
            user_type_to_string(ty),
            v.kind_name()
        )),
    }
}

/// Compare an actual against an expected value. Floats match within relative
/// tolerance `tol`: `|a - b| <= tol * max(1, |a|, |b|)`; NaN matches NaN.
/// Returns a description of the first difference.
pub fn compare(actual: &Value, expected: &Value, tol: f64) -> Result<(), String> {
    fn close(a: f64, b: f64, tol: f64) -> bool {
        if a.is_nan() || b.is_nan() {
            return a.is_nan() && b.is_nan();
        }
        if a == b {
            return true;
        }
        (a - b).abs() <= tol * 1f64.max(a.abs()).max(b.abs())
    }
    fn go(a: &Value, e: &Value, tol: f64, path: &mut Vec<usize>) -> Result<(), String> {
        let at = |path: &Vec<usize>| {
            if path.is_empty() {
                String::new()
            } else {
                format!(" at index {path:?}")
            }
        };
        match (a, e) {
            (Value::F64(x), Value::F64(y)) if close(*x, *y, tol) => Ok(()),
            (Value::F32(x), Value::F32(y)) if close(*x as f64, *y as f64, tol.max(1e-6)) => Ok(()),
            (Value::I64(x), Value::I64(y)) if x == y => Ok(()),
            (Value::I32(x), Value::I32(y)) if x == y => Ok(()),
            (x, y) if x.as_int().is_some() && x.prim() == y.prim() && x.as_int() == y.as_int() => {
                Ok(())
            }
            (Value::Bool(x), Value::Bool(y)) if x == y => Ok(()),
            (Value::Empty(_), _) | (_, Value::Empty(_))
                if a.array_len() == Some(0) && e.array_len() == Some(0) =>
            {
                Ok(())
            }
            (Value::Empty(_), Value::Array(_)) | (Value::Array(_), Value::Empty(_)) => {
                Err(format!(
                    "length {} differs from expected {}{}",
                    a.array_len().unwrap_or(0),
                    e.array_len().unwrap_or(0),
                    at(path)
                ))
            }
            (Value::Tuple(xs), Value::Tuple(ys)) | (Value::Array(xs), Value::Array(ys)) => {
                if xs.len() != ys.len() {
                    return Err(format!(
                        "length {} differs from expected {}{}",
                        xs.len(),
                        ys.len(),
                        at(path)
                    ));
                }
                for (i, (x, y)) in xs.iter().zip(ys.iter()).enumerate() {
                    path.push(i);
                    go(x, y, tol, path)?;
                    path.pop();
                }
                Ok(())
            }
            _ => Err(format!(
                "got {} but expected {}{}",
                format_value(a),
                format_value(e),
                at(path)
            )),
        }
    }
    go(actual, expected, tol, &mut Vec::new())
}
