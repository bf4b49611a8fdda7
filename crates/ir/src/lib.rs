//! The Weir core IR: typed, A-normal form, unique names.
//!
//! Every intermediate result is bound by a [`Stmt`] to a name that is unique in its
//! function; operands are [`Atom`]s (variables or constants). Functions appear only
//! as arguments ([`Arg::Fun`]): lambdas or function-typed parameters. The IR has a
//! text form ([`print`]), a parser for it ([`parse`]) and a [`verify`] pass.

pub mod parse;
pub mod prim;
pub mod print;
pub mod verify;
pub mod visit;

pub use prim::{ArgMut, ArgRef, ArityError, Prim};
pub use weir_syntax::Span;
pub use weir_syntax::ast::{BinOp, PrimType, UnOp};

/// A variable name. Unique within its function (the elaborator appends `_N`).
pub type Name = String;

/// The source name of a core name, for messages (`x_12` → `x`).
pub fn display_name(core: &str) -> &str {
    match core.rfind('_') {
        Some(i)
            if i > 0 && i + 1 < core.len() && core[i + 1..].chars().all(|c| c.is_ascii_digit()) =>
        {
            &core[..i]
        }
        _ => core,
    }
}

/// A size in an array type.
#[derive(Clone, Debug, PartialEq)]
pub enum Size {
    Const(i64),
    /// An `i64` variable in scope (a size parameter or a local).
    Var(Name),
    /// Not known statically; checked at run time where it matters.
    Unknown,
    /// An inference variable (only during type checking; never in a finished program).
    Infer(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Prim(PrimType),
    Array(Size, Box<Type>),
    Tuple(Vec<Type>),
    /// A record `{x: f64, y: f64}`: its fields sorted by name. Only the
    /// checker sees records; elaboration stores each as the tuple of its
    /// fields in that order, so no finished program contains one.
    Record(Vec<(Name, Type)>),
    Fun(Vec<Type>, Box<Type>),
    /// An inference variable (only during type checking).
    Infer(u32),
}

impl Type {
    pub const F64: Type = Type::Prim(PrimType::F64);
    pub const I64: Type = Type::Prim(PrimType::I64);
    pub const BOOL: Type = Type::Prim(PrimType::Bool);

    pub fn array(size: Size, elem: Type) -> Type {
        Type::Array(size, Box::new(elem))
    }
    pub fn elem(&self) -> Option<&Type> {
        match self {
            Type::Array(_, e) => Some(e),
            _ => None,
        }
    }
    pub fn prim(&self) -> Option<PrimType> {
        match self {
            Type::Prim(p) => Some(*p),
            _ => None,
        }
    }
    /// Rank (number of array dimensions) of the type.
    pub fn rank(&self) -> usize {
        match self {
            Type::Array(_, e) => 1 + e.rank(),
            _ => 0,
        }
    }
    pub fn is_fun(&self) -> bool {
        matches!(self, Type::Fun(..))
    }
    /// Does the type contain a function type anywhere?
    pub fn has_fun(&self) -> bool {
        match self {
            Type::Fun(..) => true,
            Type::Array(_, e) => e.has_fun(),
            Type::Tuple(ts) => ts.iter().any(|t| t.has_fun()),
            _ => false,
        }
    }
    /// Same type ignoring sizes.
    pub fn same_shape(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Prim(a), Type::Prim(b)) => a == b,
            (Type::Array(_, a), Type::Array(_, b)) => a.same_shape(b),
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_shape(y))
            }
            (Type::Fun(a, r), Type::Fun(b, s)) => {
                a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| x.same_shape(y))
                    && r.same_shape(s)
            }
            (Type::Infer(a), Type::Infer(b)) => a == b,
            _ => false,
        }
    }
}

/// Scalar constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
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
}

impl Const {
    pub fn prim(self) -> PrimType {
        match self {
            Const::F64(_) => PrimType::F64,
            Const::F32(_) => PrimType::F32,
            Const::I64(_) => PrimType::I64,
            Const::I32(_) => PrimType::I32,
            Const::Bool(_) => PrimType::Bool,
            Const::I8(_) => PrimType::I8,
            Const::I16(_) => PrimType::I16,
            Const::U8(_) => PrimType::U8,
            Const::U16(_) => PrimType::U16,
            Const::U32(_) => PrimType::U32,
            Const::U64(_) => PrimType::U64,
        }
    }
    /// The value of an integer constant (None for floats and bools).
    pub fn as_int(self) -> Option<i128> {
        Some(match self {
            Const::I64(v) => v.into(),
            Const::I32(v) => v.into(),
            Const::I8(v) => v.into(),
            Const::I16(v) => v.into(),
            Const::U8(v) => v.into(),
            Const::U16(v) => v.into(),
            Const::U32(v) => v.into(),
            Const::U64(v) => v.into(),
            Const::F64(_) | Const::F32(_) | Const::Bool(_) => return None,
        })
    }
    /// The constant `v` of integer type `p`, if it is in `p`'s range.
    pub fn int(p: PrimType, v: i128) -> Option<Const> {
        let (lo, hi) = p.int_range()?;
        if v < lo || v > hi {
            return None;
        }
        Some(Const::wrapping(p, v))
    }
    /// `v` modulo 2^width as a constant of integer type `p` (two's
    /// complement); for a float type, `v` rounded; for bool, `v != 0`.
    pub fn wrapping(p: PrimType, v: i128) -> Const {
        let w = p.wrap(v);
        match p {
            PrimType::I64 => Const::I64(w as i64),
            PrimType::I32 => Const::I32(w as i32),
            PrimType::I8 => Const::I8(w as i8),
            PrimType::I16 => Const::I16(w as i16),
            PrimType::U8 => Const::U8(w as u8),
            PrimType::U16 => Const::U16(w as u16),
            PrimType::U32 => Const::U32(w as u32),
            PrimType::U64 => Const::U64(w as u64),
            PrimType::F64 => Const::F64(v as f64),
            PrimType::F32 => Const::F32(v as f32),
            PrimType::Bool => Const::Bool(v != 0),
        }
    }
    /// 0 of a type (`false`, `0.0`).
    pub fn zero(p: PrimType) -> Const {
        Const::wrapping(p, 0)
    }
    /// 1 of a type (`true`, `1.0`).
    pub fn one(p: PrimType) -> Const {
        Const::wrapping(p, 1)
    }
    /// The least value of a numeric type (`-inf` for floats): the neutral
    /// element of `max`.
    pub fn lowest(p: PrimType) -> Const {
        match p {
            PrimType::F64 => Const::F64(f64::NEG_INFINITY),
            PrimType::F32 => Const::F32(f32::NEG_INFINITY),
            PrimType::Bool => Const::Bool(false),
            _ => Const::wrapping(p, p.int_range().map_or(0, |r| r.0)),
        }
    }
    /// The greatest value of a numeric type (`inf` for floats): the neutral
    /// element of `min`.
    pub fn highest(p: PrimType) -> Const {
        match p {
            PrimType::F64 => Const::F64(f64::INFINITY),
            PrimType::F32 => Const::F32(f32::INFINITY),
            PrimType::Bool => Const::Bool(true),
            _ => Const::wrapping(p, p.int_range().map_or(0, |r| r.1)),
        }
    }
    /// Is it a zero (of any numeric type, `-0.0` included)?
    pub fn is_zero(self) -> bool {
        match self {
            Const::F64(v) => v == 0.0,
            Const::F32(v) => v == 0.0,
            Const::Bool(_) => false,
            c => c.as_int() == Some(0),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    Var(Name),
    Const(Const),
}

/// Scalar math functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Tan,
    Tanh,
    Abs,
    Floor,
    Ceil,
    Lgamma,
    Atan2,
    Pow,
    Min,
    Max,
    /// `popc x`: the number of one bits (an integer; the result is i32).
    Popc,
    /// `clz x`: leading zero bits (the width for 0; i32).
    Clz,
    /// `ctz x`: trailing zero bits (the width for 0; i32).
    Ctz,
}

impl MathFn {
    pub const ALL: [MathFn; 18] = [
        MathFn::Sqrt,
        MathFn::Exp,
        MathFn::Log,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Tan,
        MathFn::Tanh,
        MathFn::Abs,
        MathFn::Floor,
        MathFn::Ceil,
        MathFn::Lgamma,
        MathFn::Atan2,
        MathFn::Pow,
        MathFn::Min,
        MathFn::Max,
        MathFn::Popc,
        MathFn::Clz,
        MathFn::Ctz,
    ];
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Sqrt => "sqrt",
            MathFn::Exp => "exp",
            MathFn::Log => "log",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Tan => "tan",
            MathFn::Tanh => "tanh",
            MathFn::Abs => "abs",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Lgamma => "lgamma",
            MathFn::Atan2 => "atan2",
            MathFn::Pow => "pow",
            MathFn::Min => "min",
            MathFn::Max => "max",
            MathFn::Popc => "popc",
            MathFn::Clz => "clz",
            MathFn::Ctz => "ctz",
        }
    }
    pub fn from_name(s: &str) -> Option<MathFn> {
        MathFn::ALL.iter().copied().find(|m| m.name() == s)
    }
    pub fn arity(self) -> usize {
        match self {
            MathFn::Atan2 | MathFn::Pow | MathFn::Min | MathFn::Max => 2,
            _ => 1,
        }
    }
    /// Works on integers too (otherwise floats only).
    pub fn allows_int(self) -> bool {
        matches!(self, MathFn::Abs | MathFn::Min | MathFn::Max) || self.bit_count()
    }
    /// `popc`, `clz`, `ctz`: on integers only, and their result is an i32.
    pub fn bit_count(self) -> bool {
        matches!(self, MathFn::Popc | MathFn::Clz | MathFn::Ctz)
    }
    /// The result type of the function on arguments of type `p`.
    pub fn result(self, p: PrimType) -> PrimType {
        if self.bit_count() { PrimType::I32 } else { p }
    }
}

/// Array builtins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Build,
    IFold,
    Length,
    Map,
    Map2,
    Map3,
    Zip,
    Zip3,
    Unzip,
    Unzip3,
    Fold,
    Reduce,
    Scan,
    Filter,
    /// `partition p a`: `(filter p a, filter (not p) a)` in one pass.
    Partition,
    /// `partition2 p q a`: the elements satisfying `p`, those satisfying `q`
    /// but not `p`, and the rest (`q` is tested only where `p` fails).
    Partition2,
    Iota,
    Replicate,
    Concat,
    Split,
    Flatten,
    Unflatten,
    Transpose,
    Slide,
    Reverse,
    Rotate,
    /// `stride k a`: every `k`-th element of `a` from the first
    /// (`a[0], a[k], ...`: `(n + k - 1) / k` of them; `k >= 1`).
    Stride,
    Gather,
    Pad,
    Sum,
    Product,
    Maximum,
    Minimum,
    /// `ireduce op ne n (\i -> e)`: associative reduction of `e` over `i` in `0..n`
    /// (the fused form of `reduce op ne (build n f)`; `op` must be associative with
    /// neutral element `ne`, so a backend may reorder it).
    IReduce,
    /// `scatter dest is vs`: `dest` with `dest[is[j]] = vs[j]` for every `j` whose
    /// index is in bounds (in order: the last write to an index wins).
    Scatter,
    /// `reduce_by_index dest op ne is vs`: `dest` with `dest[is[j]] = op dest[is[j]] vs[j]`
    /// for every `j` whose index is in bounds, in order of `j`.
    ReduceByIndex,
    /// `ireduce_by_index dest op ne m (\j -> (ix, v))`: `dest` with
    /// `dest[ix] = op dest[ix] v` for every `j` in `0..m` whose `ix` is in bounds,
    /// in order of `j` (the fused form of `reduce_by_index`: the indices and
    /// values are generated, not read from arrays).
    IReduceByIndex,
    /// `argmax a`: the index of the first greatest element (NaN elements are
    /// ignored), -1 when there is none.
    ArgMax,
    /// `argmin a`: the index of the first least element (NaN elements are
    /// ignored), -1 when there is none.
    ArgMin,
    /// `copy a`: `a` itself, in storage of its own (what a program writes to
    /// update an array it may not consume: the copy aliases nothing).
    Copy,
    /// `update a i v`: `a` with `a[i] = v` (`a with [i] = v`); `v` is an
    /// element or a row. Consumes `a` (the uniqueness checker of the front
    /// end), so compiled code writes `v` in place.
    Update,
    /// `update2 a i j v`: `a with [i][j] = v`.
    Update2,
    /// `update3 a i j k v`: `a with [i][j][k] = v`.
    Update3,
    /// `update_slice a s e b`: `a with [s:e] = b` (`b` has `e - s` rows).
    UpdateSlice,
    /// `update_slice2 a i s e b`: `a with [i][s:e] = b`.
    UpdateSlice2,
}

impl Builtin {
    pub const ALL: [Builtin; 45] = [
        Builtin::Build,
        Builtin::IFold,
        Builtin::Length,
        Builtin::Map,
        Builtin::Map2,
        Builtin::Map3,
        Builtin::Zip,
        Builtin::Zip3,
        Builtin::Unzip,
        Builtin::Unzip3,
        Builtin::Fold,
        Builtin::Reduce,
        Builtin::Scan,
        Builtin::Filter,
        Builtin::Partition,
        Builtin::Partition2,
        Builtin::Iota,
        Builtin::Replicate,
        Builtin::Concat,
        Builtin::Split,
        Builtin::Flatten,
        Builtin::Unflatten,
        Builtin::Transpose,
        Builtin::Slide,
        Builtin::Reverse,
        Builtin::Rotate,
        Builtin::Stride,
        Builtin::Gather,
        Builtin::Pad,
        Builtin::Sum,
        Builtin::Product,
        Builtin::Maximum,
        Builtin::Minimum,
        Builtin::IReduce,
        Builtin::Scatter,
        Builtin::ReduceByIndex,
        Builtin::IReduceByIndex,
        Builtin::ArgMax,
        Builtin::ArgMin,
        Builtin::Copy,
        Builtin::Update,
        Builtin::Update2,
        Builtin::Update3,
        Builtin::UpdateSlice,
        Builtin::UpdateSlice2,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Build => "build",
            Builtin::IFold => "ifold",
            Builtin::Length => "length",
            Builtin::Map => "map",
            Builtin::Map2 => "map2",
            Builtin::Map3 => "map3",
            Builtin::Zip => "zip",
            Builtin::Zip3 => "zip3",
            Builtin::Unzip => "unzip",
            Builtin::Unzip3 => "unzip3",
            Builtin::Fold => "fold",
            Builtin::Reduce => "reduce",
            Builtin::Scan => "scan",
            Builtin::Filter => "filter",
            Builtin::Partition => "partition",
            Builtin::Partition2 => "partition2",
            Builtin::Iota => "iota",
            Builtin::Replicate => "replicate",
            Builtin::Concat => "concat",
            Builtin::Split => "split",
            Builtin::Flatten => "flatten",
            Builtin::Unflatten => "unflatten",
            Builtin::Transpose => "transpose",
            Builtin::Slide => "slide",
            Builtin::Reverse => "reverse",
            Builtin::Rotate => "rotate",
            Builtin::Stride => "stride",
            Builtin::Gather => "gather",
            Builtin::Pad => "pad",
            Builtin::Sum => "sum",
            Builtin::Product => "product",
            Builtin::Maximum => "maximum",
            Builtin::Minimum => "minimum",
            Builtin::IReduce => "ireduce",
            Builtin::Scatter => "scatter",
            Builtin::ReduceByIndex => "reduce_by_index",
            Builtin::IReduceByIndex => "ireduce_by_index",
            Builtin::ArgMax => "argmax",
            Builtin::ArgMin => "argmin",
            Builtin::Copy => "copy",
            Builtin::Update => "update",
            Builtin::Update2 => "update2",
            Builtin::Update3 => "update3",
            Builtin::UpdateSlice => "update_slice",
            Builtin::UpdateSlice2 => "update_slice2",
        }
    }
    /// The name of what the program wrote, for messages: the builtins the
    /// compiler makes of others by theirs (`ireduce` is what the optimizer
    /// makes of `sum`/`reduce`, `ireduce_by_index` of `reduce_by_index`),
    /// the in-place updates (`update`, `update_slice`, ...) by `with`, which
    /// is how they are written; every other builtin by its name.
    pub fn source_name(self) -> &'static str {
        match self {
            Builtin::IReduce => "reduce",
            Builtin::IReduceByIndex => "reduce_by_index",
            b if b.is_update() => "with",
            b => b.name(),
        }
    }
    pub fn from_name(s: &str) -> Option<Builtin> {
        if s == "join" {
            return Some(Builtin::Flatten);
        }
        Builtin::ALL.iter().copied().find(|b| b.name() == s)
    }
    /// The builtins a program names (the in-place updates are written `a with
    /// [i] = v`, never by name, so their names stay free for programs).
    pub fn from_surface_name(s: &str) -> Option<Builtin> {
        Builtin::from_name(s).filter(|b| !b.is_update())
    }
    /// An in-place update (`a with [..] = v`): consumes its first operand.
    pub fn is_update(self) -> bool {
        matches!(
            self,
            Builtin::Update
                | Builtin::Update2
                | Builtin::Update3
                | Builtin::UpdateSlice
                | Builtin::UpdateSlice2
        )
    }
    /// The counted loop a builtin runs, if it runs one over an index space:
    /// `(count, lambda, param)`, the positions of the count argument, of the
    /// lambda that is the loop's body, and of that lambda's index parameter.
    /// (`build n f`, `ifold f init n`, `ireduce op ne n g`,
    /// `ireduce_by_index dest op ne m g`.)
    pub fn index_loop(self) -> Option<(usize, usize, usize)> {
        match self {
            Builtin::Build => Some((0, 1, 0)),
            Builtin::IFold => Some((2, 0, 1)),
            Builtin::IReduce => Some((2, 3, 0)),
            Builtin::IReduceByIndex => Some((3, 4, 0)),
            _ => None,
        }
    }
}

/// A function argument: a lambda, or a variable of function type (a parameter).
#[derive(Clone, Debug, PartialEq)]
pub enum Fun {
    /// (boxed: a function operand is the size of a name, so expressions with
    /// several stay small)
    Lambda(Box<Lambda>),
    Var(Name),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<(Name, Type)>,
    pub ret: Type,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Atom(Atom),
    Fun(Fun),
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    /// `for counter < bound`
    For(Name, Atom),
    /// `while cond` (the condition sees the state)
    While(Body),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    Atom(Atom),
    Bin(BinOp, Atom, Atom),
    Un(UnOp, Atom),
    Convert(PrimType, Atom),
    Math(MathFn, Vec<Atom>),
    Tuple(Vec<Atom>),
    Proj(Atom, usize),
    ArrayLit(Vec<Atom>),
    /// `a[i]` (one dimension)
    Index(Atom, Atom),
    /// `a[s:e]`
    Slice(Atom, Atom, Atom),
    If(Atom, Body, Body),
    /// Call of a top-level definition.
    Call(Name, Vec<Arg>),
    /// Call of a function-typed parameter.
    Apply(Name, Vec<Atom>),
    /// A builtin applied to its operands (one typed constructor per builtin).
    Prim(Prim),
    /// `dim a k`: the size of dimension `k` of array `a` (`i64`).
    Dim(Atom, usize),
    /// A size check made explicit (from inlining a call with size parameters, or
    /// from lowering a builtin that needs equal lengths). Evaluates to `got` when
    /// `got == want`, and is a run-time error otherwise. Never removed unless proved.
    CheckSize(Box<SizeCheck>),
    /// Any other run-time check made explicit by the optimizer (bounds, a nonzero
    /// divisor, a non-negative count, `unflatten`'s element count, a regular row):
    /// what remains of a statement whose value is dead but whose check must still
    /// happen, or the bounds check of a read that fusion replaced. Evaluates to its
    /// first operand when the check passes, and is a run-time error otherwise.
    Check(Box<Check>),
    Loop {
        state: (Name, Type),
        init: Atom,
        form: LoopForm,
        body: Body,
    },
}

/// `assert_size got want callee param size`: the check behind [`Exp::CheckSize`]; the
/// names say which call, parameter and size name the message reports.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeCheck {
    pub got: Atom,
    pub want: Atom,
    pub callee: Name,
    pub param: Name,
    pub size: Name,
}

impl SizeCheck {
    /// The message of a check of a builtin's operands, in the words of the
    /// source: `param` is then `argK` (`map2 f a b`, `zip3 a b c`, ...: the
    /// K-th array, checked against the length the arrays share) or `values`
    /// (`reduce_by_index`: the values against the indices), names
    /// no parameter of a function has (those end in `_N`). `got` and `want`
    /// are the texts of the two sizes, in that order in the message (the C
    /// lowering passes them so). `None`
    /// where `param` names a function's parameter (or is `annotation`,
    /// `result`, `dest`).
    pub fn operand_message(&self, got: &str, want: &str) -> Option<String> {
        if self.param == "with" {
            // (`size` is the dimension's number, from 1)
            return Some(format!(
                "size mismatch: `with` writes a value whose dimension {} has size {got} into a place where it has size {want}",
                self.size
            ));
        }
        if self.param == "values" {
            return Some(format!(
                "size mismatch: `{}` of {got} values and {want} indices",
                self.callee
            ));
        }
        let k: usize = self.param.strip_prefix("arg")?.parse().ok()?;
        let ord = match k {
            1 => "first".to_string(),
            2 => "second".to_string(),
            3 => "third".to_string(),
            4 => "fourth".to_string(),
            5 => "fifth".to_string(),
            k => format!("{k}th"),
        };
        Some(format!(
            "size mismatch: the {ord} array given to `{}` has length {got}, but the first has length {want}",
            self.callee
        ))
    }

    /// The run-time error message for the given values.
    pub fn message(&self, got: i64, want: i64) -> String {
        if let Some(m) = self.operand_message(&got.to_string(), &want.to_string()) {
            return m;
        }
        if self.param == "annotation" {
            format!(
                "size mismatch: the value has size {got}, but its annotation says `{}` = {want}",
                display_name(&self.size)
            )
        } else if self.param == "result" {
            format!(
                "size mismatch: `{}` returns an array of size {got}, but its declared result type says `{}` = {want}",
                self.callee,
                display_name(&self.size)
            )
        } else {
            format!(
                "size mismatch in the call of `{}`: parameter `{}` needs size `{}` = {want}, but the argument has size {got}",
                self.callee,
                display_name(&self.param),
                display_name(&self.size)
            )
        }
    }
}

/// The kinds of [`Check`], with their text form and operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckKind {
    /// `assert_index i n`: `0 <= i < n` (a read `a[i]` of an array of length `n`).
    Index,
    /// `assert_slice s e n`: `0 <= s <= e <= n` (a slice `a[s:e]`, `split`).
    Slice,
    /// `assert_nonzero d`: `d != 0` (integer division or remainder by `d`; `d` is
    /// an `i64` or an `i32`).
    NonZero,
    /// `assert_nonneg n what`: `n >= 0` (the count given to the builtin `what`;
    /// the message is the interpreter's for `what`).
    NonNeg,
    /// `assert_unflatten n m len`: `unflatten n m` of an array of length `len`
    /// (`n >= 0`, `m >= 0`, `n * m = len` without overflow).
    Unflatten,
    /// `assert_same got want what`: `got == want`, the size of a row against the
    /// size of the first row (a regular array made by `what`; `literal`: an array
    /// literal).
    Same,
    /// `assert_step k`: `k >= 1` (the step of `stride k a`).
    Step,
}

impl CheckKind {
    pub const ALL: [CheckKind; 7] = [
        CheckKind::Index,
        CheckKind::Slice,
        CheckKind::NonZero,
        CheckKind::NonNeg,
        CheckKind::Unflatten,
        CheckKind::Same,
        CheckKind::Step,
    ];
    /// The keyword of the text form.
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::Index => "assert_index",
            CheckKind::Slice => "assert_slice",
            CheckKind::NonZero => "assert_nonzero",
            CheckKind::NonNeg => "assert_nonneg",
            CheckKind::Unflatten => "assert_unflatten",
            CheckKind::Same => "assert_same",
            CheckKind::Step => "assert_step",
        }
    }
    pub fn from_name(s: &str) -> Option<CheckKind> {
        CheckKind::ALL.iter().copied().find(|k| k.name() == s)
    }
    /// The number of atom operands.
    pub fn arity(self) -> usize {
        match self {
            CheckKind::NonZero | CheckKind::NonNeg | CheckKind::Step => 1,
            CheckKind::Index | CheckKind::Same => 2,
            CheckKind::Slice | CheckKind::Unflatten => 3,
        }
    }
    /// Does the text form end with a name (`what`)?
    pub fn has_what(self) -> bool {
        matches!(self, CheckKind::NonNeg | CheckKind::Same)
    }
}

/// A check of [`Exp::Check`]: `kind args.. [what]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub kind: CheckKind,
    /// `kind.arity()` atoms.
    pub args: Vec<Atom>,
    /// The builtin named in the message (`NonNeg`, `Same`); empty otherwise.
    pub what: Name,
}

impl Check {
    pub fn new(kind: CheckKind, args: Vec<Atom>, what: &str) -> Check {
        Check {
            kind,
            args,
            what: what.to_string(),
        }
    }

    /// The interpreter's word for the count of a builtin in "`what` given a
    /// negative WORD (n)": `count` for `replicate`, `padding` for `pad`, else
    /// `size`.
    pub fn count_word(what: &str) -> &'static str {
        match what {
            "replicate" => "count",
            "pad" => "padding",
            _ => "size",
        }
    }

    /// Run the check on the operands' values: `Err(message)` when it fails. The
    /// messages are the interpreter's for the statement the check stands for, so
    /// an error keeps its kind (docs/language.md §6).
    pub fn run(&self, v: &[i64]) -> Result<(), String> {
        let at = |k: usize| v.get(k).copied().unwrap_or(0);
        let word = Check::count_word(&self.what);
        let negative = |n: i64| format!("`{}` given a negative {word} ({n})", self.what);
        match self.kind {
            CheckKind::Index => {
                let (i, n) = (at(0), at(1));
                if i < 0 || i >= n {
                    return Err(format!(
                        "index out of bounds: index {i} in an array of length {n}"
                    ));
                }
            }
            CheckKind::Slice => {
                let (s, e, n) = (at(0), at(1), at(2));
                if s < 0 || e < s || e > n {
                    return Err(format!(
                        "slice [{s}:{e}] out of bounds for an array of length {n}"
                    ));
                }
            }
            CheckKind::NonZero => {
                if at(0) == 0 {
                    return Err("integer division by zero".into());
                }
            }
            CheckKind::Step => {
                if at(0) < 1 {
                    return Err(format!(
                        "invalid argument: stride needs a step of at least 1 (got {})",
                        at(0)
                    ));
                }
            }
            CheckKind::NonNeg => {
                if at(0) < 0 {
                    return Err(negative(at(0)));
                }
            }
            CheckKind::Unflatten => {
                let (n, m, len) = (at(0), at(1), at(2));
                if n < 0 || m < 0 {
                    let bad = if n < 0 { n } else { m };
                    return Err(format!("`unflatten` given a negative size ({bad})"));
                }
                if n.checked_mul(m) != Some(len) {
                    return Err(format!(
                        "size mismatch: unflatten {n} {m} of an array of length {len}"
                    ));
                }
            }
            CheckKind::Same => {
                let (got, want) = (at(0), at(1));
                if got != want {
                    let what = if self.what == "literal" {
                        "an array literal".to_string()
                    } else {
                        format!("`{}`", self.what)
                    };
                    return Err(format!(
                        "size mismatch: {what} produced an irregular array (a row of size {got} where the first row has size {want})"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `let var: ty = exp`
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub var: Name,
    pub ty: Type,
    pub exp: Exp,
    pub span: Span,
}

/// A sequence of statements and a result.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub stmts: Vec<Stmt>,
    pub result: Atom,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunDef {
    pub name: Name,
    pub entry: bool,
    pub size_params: Vec<Name>,
    pub params: Vec<(Name, Type)>,
    pub ret: Type,
    pub body: Body,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub defs: Vec<FunDef>,
    /// The views annotations of the source (`#[view]`, `#[dest]`,
    /// `#[eager]`), by the span of the statement they annotate (every copy
    /// of it an inlining makes keeps that span), and those the views
    /// decision adds (`--views=none` makes every `concat` and `pad`
    /// [`Effect::Eager`]). Non-semantic: the interpreter ignores them, and
    /// they are not part of the text form; they say how a primitive is
    /// realised in memory (dps-views ch. 4).
    pub effects: Vec<(Span, Effect)>,
    /// The parameter and result types of the entries whose types hold
    /// records, as written (the core IR has the records' tuples): for
    /// printing results and naming them. Non-semantic, like `effects`.
    pub surface: std::collections::HashMap<Name, (Vec<Type>, Type)>,
}

/// How an array primitive is realised (dps-views Fig. 4.6: the effect type
/// it takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// A source view (S): read through an index function over its
    /// argument's memory, never computed (`transpose`, `reverse`).
    Source,
    /// A destination view (D): its pieces are written straight into its
    /// result (`concat`, `pad`).
    Dest,
    /// Eager (E): computed into storage of its own.
    Eager,
}

impl Effect {
    /// The annotation that asks for it.
    pub fn annotation(self) -> &'static str {
        match self {
            Effect::Source => "#[view]",
            Effect::Dest => "#[dest]",
            Effect::Eager => "#[eager]",
        }
    }
}

impl Program {
    pub fn find(&self, name: &str) -> Option<&FunDef> {
        self.defs.iter().find(|d| d.name == name)
    }
    pub fn entries(&self) -> impl Iterator<Item = &FunDef> {
        self.defs.iter().filter(|d| d.entry)
    }
    /// The effect asked for the statement of span `span`, if any (the last
    /// one recorded wins).
    pub fn effect_at(&self, span: Span) -> Option<Effect> {
        self.effects
            .iter()
            .rev()
            .find(|(s, _)| *s == span)
            .map(|(_, e)| *e)
    }
}
