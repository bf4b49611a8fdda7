//! The surface syntax tree. Every node carries its span.

use crate::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimType {
    F64,
    F32,
    I64,
    I32,
    Bool,
    I8,
    I16,
    U8,
    U16,
    U32,
    U64,
}

impl PrimType {
    /// Every scalar type.
    pub const ALL: [PrimType; 11] = [
        PrimType::F64,
        PrimType::F32,
        PrimType::I64,
        PrimType::I32,
        PrimType::Bool,
        PrimType::I8,
        PrimType::I16,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
    ];
    /// The integer types.
    pub const INTS: [PrimType; 8] = [
        PrimType::I8,
        PrimType::I16,
        PrimType::I32,
        PrimType::I64,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
    ];
    pub fn name(self) -> &'static str {
        match self {
            PrimType::F64 => "f64",
            PrimType::F32 => "f32",
            PrimType::I64 => "i64",
            PrimType::I32 => "i32",
            PrimType::Bool => "bool",
            PrimType::I8 => "i8",
            PrimType::I16 => "i16",
            PrimType::U8 => "u8",
            PrimType::U16 => "u16",
            PrimType::U32 => "u32",
            PrimType::U64 => "u64",
        }
    }
    pub fn from_name(s: &str) -> Option<PrimType> {
        PrimType::ALL.iter().copied().find(|p| p.name() == s)
    }
    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F64 | PrimType::F32)
    }
    pub fn is_int(self) -> bool {
        self.is_signed() || self.is_unsigned()
    }
    /// A signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64
        )
    }
    /// An unsigned integer type.
    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64
        )
    }
    /// The width in bits (bool: 8, its size in memory).
    pub fn bits(self) -> u32 {
        match self {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => 8,
            PrimType::I16 | PrimType::U16 => 16,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => 32,
            PrimType::I64 | PrimType::U64 | PrimType::F64 => 64,
        }
    }
    /// The least and greatest values of an integer type (None otherwise).
    pub fn int_range(self) -> Option<(i128, i128)> {
        let w = self.bits();
        if self.is_signed() {
            Some((-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1))
        } else if self.is_unsigned() {
            Some((0, (1i128 << w) - 1))
        } else {
            None
        }
    }
    /// `v` reduced modulo 2^width into an integer type's range (two's
    /// complement for the signed types); `v` itself for other types.
    pub fn wrap(self, v: i128) -> i128 {
        let w = self.bits();
        if !self.is_int() {
            return v;
        }
        let m = v & ((1i128 << w) - 1);
        if self.is_signed() && m >= 1i128 << (w - 1) {
            m - (1i128 << w)
        } else {
            m
        }
    }
}

/// A size in an array type.
#[derive(Clone, Debug, PartialEq)]
pub enum SizeExp {
    /// `[]`
    Any(Span),
    /// `[n]`
    Named(Ident),
    /// `[3]`
    Const(i64, Span),
    /// `[n + 1]`, `[k]` with `k` an `i64` parameter...: an `i64` expression,
    /// checked at run time.
    Expr(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeExp {
    Prim(PrimType, Span),
    Array(SizeExp, Box<TypeExp>, Span),
    Tuple(Vec<TypeExp>, Span),
    Fun(Vec<TypeExp>, Box<TypeExp>, Span),
    /// `*t`: a unique array (a parameter the function may consume, a result
    /// that aliases none of the arguments); the span is the whole type's.
    Unique(Box<TypeExp>, Span),
    /// `{x: f64, y: f64}`: a record type (fields in source order).
    Record(Vec<(Ident, TypeExp)>, Span),
    /// A type abbreviation's name (`vec3`), or a module's (`m.vec3`: the
    /// path's parts in order).
    Named(Vec<Ident>, Span),
}

impl TypeExp {
    pub fn span(&self) -> Span {
        match self {
            TypeExp::Prim(_, s)
            | TypeExp::Array(_, _, s)
            | TypeExp::Tuple(_, s)
            | TypeExp::Fun(_, _, s)
            | TypeExp::Unique(_, s)
            | TypeExp::Record(_, s)
            | TypeExp::Named(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Pat {
    Var(Ident, Option<TypeExp>),
    Wild(Span, Option<TypeExp>),
    Tuple(Vec<Pat>, Span),
    /// `{x, y = (a, b)}`: a record pattern (a field alone binds its name).
    Record(Vec<(Ident, Pat)>, Span),
}

impl Pat {
    pub fn span(&self) -> Span {
        match self {
            Pat::Var(i, _) => i.span,
            Pat::Wild(s, _) | Pat::Tuple(_, s) | Pat::Record(_, s) => *s,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Concat,
    /// `&`, `|`, `^`: bitwise and, or, exclusive or (integers).
    BitAnd,
    BitOr,
    BitXor,
    /// `<<`: shift left (a count outside `0..width` gives 0).
    Shl,
    /// `>>`: shift right, arithmetic on signed types, logical on unsigned.
    Shr,
    /// `>>>`: logical shift right (zero-filling) on every integer type.
    UShr,
}

impl BinOp {
    /// `& | ^ << >> >>>`: operators on integers only.
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr | BinOp::UShr
        )
    }
    /// `<< >> >>>`.
    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr | BinOp::UShr)
    }
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "**",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Concat => "++",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::UShr => ">>>",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    /// `!`: logical not of a bool, bitwise not of an integer.
    Not,
}

/// A views annotation (dps-views Fig. 4.6: the effect a primitive takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `#[view]`: a source view (read through an index function, never computed).
    View,
    /// `#[dest]`: a destination view (its pieces written straight into its result).
    Dest,
    /// `#[eager]`: computed into storage of its own.
    Eager,
}

impl Effect {
    pub fn from_name(s: &str) -> Option<Effect> {
        match s {
            "view" => Some(Effect::View),
            "dest" => Some(Effect::Dest),
            "eager" => Some(Effect::Eager),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Effect::View => "view",
            Effect::Dest => "dest",
            Effect::Eager => "eager",
        }
    }
}

/// One entry between `[` and `]` of an index expression.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexEntry {
    Index(Expr),
    /// `s:e` or `s:e:k` (start, end, step; each may be left out).
    Slice(
        Option<Box<Expr>>,
        Option<Box<Expr>>,
        Option<Box<Expr>>,
        Span,
    ),
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    For(Ident, Box<Expr>),
    /// `for x in xs`: once per element of `xs`, in order, `x` bound to it.
    ForIn(Box<Pat>, Box<Expr>),
    While(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Var(Ident),
    /// Integer literal with its optional suffix type.
    Int(i128, Option<PrimType>),
    Float(f64, Option<PrimType>),
    Bool(bool),
    Tuple(Vec<Expr>),
    /// `{x = 1.0, y = 2.0}`: a record (fields in source order; a field
    /// written alone, `{x, y}`, is `{x = x, y = y}`).
    Record(Vec<(Ident, Expr)>),
    /// `e.name`: a record's field, or a module's definition (`m.f`).
    Field(Box<Expr>, Ident),
    /// `r with x = v`, `r with pos.x = v`: the record `r` with a field
    /// (along the path) replaced.
    RecordUpdate(Box<Expr>, Vec<Ident>, Box<Expr>),
    ArrayLit(Vec<Expr>),
    /// `(+)` and friends.
    OpSection(BinOp),
    /// `(2.0 *)`: a left operator section, the function `\y -> 2.0 * y`.
    LeftSection(Box<Expr>, BinOp),
    /// `(* 2.0)`: a right operator section, the function `\x -> x * 2.0`.
    RightSection(BinOp, Box<Expr>),
    /// `f >-> g` (also written `g <-< f`): the composition `\x -> g (f x)`
    /// (the function applied first, then the second; the operator's span).
    Compose(Box<Expr>, Box<Expr>, Span),
    /// `let f (x: f64) y : f64 = body in e`: a local function, then `e`.
    LetFun(Box<LocalFun>, Box<Expr>),
    Index(Box<Expr>, Vec<IndexEntry>),
    Proj(Box<Expr>, usize, Span),
    Apply(Box<Expr>, Vec<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
    Unary(UnOp, Box<Expr>),
    Let(Pat, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Lambda(Vec<Pat>, Box<Expr>),
    Loop(Pat, Box<Expr>, LoopForm, Box<Expr>),
    /// `a with [i][j] = v`, `a with [i, j] = v`, `a with [s:e] = b`: `a`
    /// with the element, row or slice replaced (consumes `a`: an in-place
    /// write). The entries of all the brackets in order; the span is the
    /// brackets'.
    Update(Box<Expr>, Vec<IndexEntry>, Span, Box<Expr>),
    /// `#[view] e`, `#[dest] e`, `#[eager] e`: how the array primitive `e`
    /// is realised (dps-views ch. 4: a source view, a destination view, or
    /// computed into storage of its own); the span is the annotation's.
    Effect(Effect, Span, Box<Expr>),
    /// `e :> t`: `e` with the sizes `t` names (each checked at run time
    /// against `e`'s own, error E0902 where they differ).
    Coerce(Box<Expr>, Box<TypeExp>),
    /// A placeholder for a sub-expression that failed to parse.
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// `let f [n] (x: [n]f64) y : f64 = body`: a local function (inlined where
/// it is called; its parameters may be untyped).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalFun {
    pub name: Ident,
    pub size_params: Vec<Ident>,
    pub params: Vec<Pat>,
    pub ret: Option<TypeExp>,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub pat: Pat,
    pub ty: TypeExp,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Def {
    pub name: Ident,
    pub entry: bool,
    pub size_params: Vec<Ident>,
    pub params: Vec<Param>,
    pub ret: Option<TypeExp>,
    /// The existential sizes of the result type (`: ?[k].([k]f64, [k]i64)`):
    /// sizes the body determines, equal wherever the result type names them.
    pub exists: Vec<Ident>,
    pub body: Expr,
    pub span: Span,
}

/// `type name = t`: a type abbreviation.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    pub name: Ident,
    pub ty: TypeExp,
    pub span: Span,
}

/// `import "path"` (its definitions and types in scope) or `module m =
/// import "path"` (in scope as `m.name`).
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// The path as written (relative to the importing file, without `.weir`;
    /// `std/...` names the standard library).
    pub path: String,
    pub path_span: Span,
    pub module: Option<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub defs: Vec<Def>,
    pub types: Vec<TypeDef>,
    pub imports: Vec<Import>,
}
