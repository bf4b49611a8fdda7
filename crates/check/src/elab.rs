//! Elaboration of the AST into the core IR, with type and size inference.
//!
//! Each definition is checked in order (so no definition can call itself or a later
//! one: F-tilde has no recursion). Expressions are flattened into A-normal form as
//! they are checked: every sub-result becomes a [`Stmt`] in the current block.

use crate::infer::{Infer, Kind, UnifyError};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use weir_ir::*;
use weir_syntax::ast::{self, Expr, ExprKind, IndexEntry, Pat, SizeExp, TypeExp};
use weir_syntax::{Diagnostic, Span};

/// A failed elaboration; the diagnostic has been recorded.
pub struct Failed;
type R<T> = Result<T, Failed>;

mod limits;
mod records;
mod update;
pub use limits::{MAX_RANK, MAX_TYPE_SIZE};
pub use records::{check_type_defs, erase_records};

/// The type abbreviations, expanded (those whose expansion succeeded), those
/// whose expansion failed, and those defined in terms of themselves.
#[derive(Default)]
pub struct Abbrevs {
    pub expanded: HashMap<String, Type>,
    /// Those whose expansion failed, with the error a use reports.
    pub failed: HashMap<String, Diagnostic>,
    pub cyclic: HashSet<String>,
}

/// The checked signature of a top-level definition.
#[derive(Clone, Debug)]
pub struct DefSig {
    pub core: Name,
    pub size_params: Vec<Name>,
    pub params: Vec<(Name, Type)>,
    pub ret: Type,
    pub span: Span,
}

#[derive(Clone)]
enum Binding {
    Var(Atom, Type),
    /// `let f x = e`, `let f = \x -> e`, `let f = (* 2.0)`: expanded at each
    /// use in the scope where it was defined (the scope it captured).
    LocalFun(LocalFn, Rc<Vec<(String, Binding)>>),
}

/// What a local function is.
#[derive(Clone)]
enum LocalFn {
    /// Parameters and a body: `let f (x: f64) y : f64 = e`, `let f = \x y -> e`.
    Def(Rc<ast::LocalFun>),
    /// Another function form: `let f = (* 2.0)`, `let h = f >-> g`.
    Alias(Rc<Expr>),
}

/// Where a name is used, for the "did you mean" of an unknown name: only
/// names of the fitting kind are suggested.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    /// Applied to arguments, or passed where a function is expected.
    Function,
    /// Used as a value.
    Value,
}

/// The builtins with four and five arrays (`map4`, `zip5`, `unzip4`, ...):
/// elaborated into a `build` over the index space, what the optimizer
/// lowers `map3`, `zip3` and `unzip3` into (so they fuse alike).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wide {
    Map(usize),
    Zip(usize),
    Unzip(usize),
}

impl Wide {
    const NAMES: [&'static str; 6] = ["map4", "map5", "zip4", "zip5", "unzip4", "unzip5"];

    fn from_name(name: &str) -> Option<Wide> {
        Some(match name {
            "map4" => Wide::Map(4),
            "map5" => Wide::Map(5),
            "zip4" => Wide::Zip(4),
            "zip5" => Wide::Zip(5),
            "unzip4" => Wide::Unzip(4),
            "unzip5" => Wide::Unzip(5),
            _ => return None,
        })
    }
}

/// An argument that is either still syntax or already elaborated.
#[derive(Clone)]
enum In<'e> {
    Ast(&'e Expr),
    Ready(Atom, Type, Span),
}

impl In<'_> {
    fn span(&self) -> Span {
        match self {
            In::Ast(e) => e.span,
            In::Ready(_, _, s) => *s,
        }
    }
}

pub struct Checker<'a> {
    pub infer: Infer,
    pub defs: &'a HashMap<String, DefSig>,
    /// All names of top-level definitions, for "defined later" errors.
    pub later: &'a HashMap<String, Span>,
    /// Top-level definitions that failed to check (an error was reported):
    /// a use of one is not reported again as an unknown name.
    pub broken: HashSet<String>,
    pub current: String,
    scope: Vec<(String, Binding)>,
    blocks: Vec<Vec<Stmt>>,
    counter: &'a mut u32,
    pub diags: Vec<Diagnostic>,
    /// Spans of inference variables, for "cannot infer" errors.
    var_spans: HashMap<u32, Span>,
    /// The `i64` parameters of the definition being checked: names a
    /// signature's sizes may use (checked at run time, see `runtime_sizes`).
    value_sizes: HashSet<String>,
    /// The source text of the size expressions of annotations, by the
    /// variable that holds their value (for messages).
    size_texts: HashMap<Name, String>,
    /// The variables of the statements the checker made (not named by the
    /// program), so that no message names one.
    temps: HashSet<Name>,
    /// The views annotations met (`#[view] e`, ...): the span of the
    /// statement annotated and the effect asked for.
    pub effects: Vec<(Span, weir_ir::Effect)>,
    /// The type abbreviations (`type t = ...`) by their full name (`m.t`
    /// for a module's).
    pub types: &'a HashMap<String, ast::TypeDef>,
    /// The abbreviations expanded so far (all of them, once, before any
    /// definition is checked: [`Checker::resolve_abbreviations`]).
    pub abbrevs: &'a Abbrevs,
    /// The abbreviations this checker expanded (while resolving them all).
    memo: HashMap<String, Type>,
    memo_failed: HashMap<String, Diagnostic>,
    /// The abbreviations being expanded (to report one that names itself).
    expanding_types: Vec<String>,
    /// The local functions being expanded (innermost last): a use of one
    /// of them that is not in scope is recursion.
    expanding: Vec<String>,
    /// Statements emitted inside expansions of local functions in this
    /// definition, against [`MAX_EXPANDED_STMTS`].
    expanded: usize,
    /// The call that started the current expansion of local functions (the
    /// outermost one).
    expansion_root: Option<Span>,
}

/// The most statements the expansions of local functions may add to one
/// definition (error E0421 beyond): each call of a local function is its
/// body, so a chain of local functions each calling the one before twice
/// doubles at each link. Real programs stay far below (the largest example
/// expands to under 1,000 statements).
pub const MAX_EXPANDED_STMTS: usize = 50_000;

/// An index or a slice (with its step, if any) of [`Checker::index_at`],
/// its operands elaborated.
enum Entry {
    Index(Atom),
    Slice(Atom, Atom, Option<Atom>),
}

/// The size of `a[s:e]` of an array of size `size` (`open`: `e` was left
/// out, so it is the length).
fn slice_size(s: &Atom, e: &Atom, size: Size, open: bool) -> Size {
    match (s, e) {
        // (a difference past i64 is no static size: the slice's check reports it)
        (Atom::Const(Const::I64(x)), Atom::Const(Const::I64(y))) if y >= x => {
            y.checked_sub(*x).map_or(Size::Unknown, Size::Const)
        }
        (Atom::Const(Const::I64(0)), _) if open => size,
        _ => Size::Unknown,
    }
}

/// A size of a signature checked at run time: where it is (the component of a
/// tuple type, the dim) and its `i64` expression.
struct RuntimeSize {
    comp: Option<usize>,
    dim: usize,
    exp: Expr,
}

/// `t` with the sizes named `names` written `[]` (existential sizes: the
/// body determines them).
fn erase_sizes(t: &TypeExp, names: &[ast::Ident]) -> TypeExp {
    match t {
        TypeExp::Array(SizeExp::Named(id), e, sp) if names.iter().any(|k| k.name == id.name) => {
            TypeExp::Array(SizeExp::Any(id.span), Box::new(erase_sizes(e, names)), *sp)
        }
        TypeExp::Array(sz, e, sp) => {
            TypeExp::Array(sz.clone(), Box::new(erase_sizes(e, names)), *sp)
        }
        TypeExp::Tuple(ts, sp) => {
            TypeExp::Tuple(ts.iter().map(|x| erase_sizes(x, names)).collect(), *sp)
        }
        TypeExp::Fun(ps, r, sp) => TypeExp::Fun(
            ps.iter().map(|x| erase_sizes(x, names)).collect(),
            Box::new(erase_sizes(r, names)),
            *sp,
        ),
        TypeExp::Record(fs, sp) => TypeExp::Record(
            fs.iter()
                .map(|(n, x)| (n.clone(), erase_sizes(x, names)))
                .collect(),
            *sp,
        ),
        TypeExp::Prim(..) | TypeExp::Named(..) => t.clone(),
        TypeExp::Unique(e, sp) => TypeExp::Unique(Box::new(erase_sizes(e, names)), *sp),
    }
}

/// The source form of a size expression, for messages.
fn size_text(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Var(id) => id.name.clone(),
        ExprKind::Int(v, _) => v.to_string(),
        ExprKind::Binary(op, a, b, _) => {
            let side = |x: &Expr| match x.kind {
                ExprKind::Binary(..) => format!("({})", size_text(x)),
                _ => size_text(x),
            };
            format!("{} {} {}", side(a), op.symbol(), side(b))
        }
        ExprKind::Unary(ast::UnOp::Neg, a) => format!("-{}", size_text(a)),
        ExprKind::Apply(f, xs) => {
            let mut out = size_text(f);
            for x in xs {
                match x.kind {
                    ExprKind::Var(_) | ExprKind::Int(..) => {
                        out.push(' ');
                        out.push_str(&size_text(x));
                    }
                    _ => out.push_str(&format!(" ({})", size_text(x))),
                }
            }
            out
        }
        ExprKind::Proj(a, k, _) => format!("{}.{k}", size_text(a)),
        _ => "...".into(),
    }
}

fn is_reserved(name: &str) -> bool {
    Builtin::from_surface_name(name).is_some()
        || Wide::from_name(name).is_some()
        || MathFn::from_name(name).is_some()
        || PrimType::from_name(name).is_some()
}

fn ordinal(i: usize) -> String {
    match i + 1 {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        n => format!("{n}th"),
    }
}

/// Edit distance with adjacent transpositions (optimal string alignment:
/// `cuont` is one edit from `count`), for "did you mean" suggestions.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows i-2, i-1 and i of the table
    let mut prev2: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j - 1] + cost).min(prev[j] + 1).min(cur[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

impl<'a> Checker<'a> {
    pub fn new(
        defs: &'a HashMap<String, DefSig>,
        later: &'a HashMap<String, Span>,
        types: &'a HashMap<String, ast::TypeDef>,
        abbrevs: &'a Abbrevs,
        counter: &'a mut u32,
    ) -> Self {
        Checker {
            infer: Infer::default(),
            defs,
            later,
            broken: HashSet::new(),
            current: String::new(),
            scope: Vec::new(),
            blocks: vec![Vec::new()],
            counter,
            diags: Vec::new(),
            var_spans: HashMap::new(),
            value_sizes: HashSet::new(),
            size_texts: HashMap::new(),
            temps: HashSet::new(),
            effects: Vec::new(),
            types,
            abbrevs,
            memo: HashMap::new(),
            memo_failed: HashMap::new(),
            expanding_types: Vec::new(),
            expanding: Vec::new(),
            expanded: 0,
            expansion_root: None,
        }
    }

    // ------------------------------------------------------------ utilities

    fn fail<T>(&mut self, d: Diagnostic) -> R<T> {
        self.diags.push(d);
        Err(Failed)
    }

    fn fresh_name(&mut self, base: &str) -> Name {
        *self.counter += 1;
        format!("{}_{}", base, self.counter)
    }

    fn emit(&mut self, base: &str, ty: Type, exp: Exp, span: Span) -> Atom {
        if !self.expanding.is_empty() {
            self.expanded += 1;
        }
        let var = self.fresh_name(base);
        self.temps.insert(var.clone());
        if let Some(b) = self.blocks.last_mut() {
            b.push(Stmt {
                var: var.clone(),
                ty,
                exp,
                span,
            });
        }
        Atom::Var(var)
    }

    fn push_block(&mut self) {
        self.blocks.push(Vec::new());
    }

    /// Close a block with its result; sizes naming variables local to the block are
    /// forgotten in the returned type.
    fn pop_block(&mut self, result: Atom, ty: &Type, locals: &[Name]) -> (Body, Type) {
        let stmts = self.blocks.pop().unwrap_or_default();
        let mut local: HashSet<&str> = stmts.iter().map(|s| s.var.as_str()).collect();
        local.extend(locals.iter().map(|s| s.as_str()));
        let ty = forget(&self.infer.resolve(ty), &local);
        (Body { stmts, result }, ty)
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.clone())
    }

    fn show(&self, t: &Type) -> String {
        self.infer.show(t)
    }

    fn mismatch(&mut self, e: UnifyError, span: Span, ctx: &str) -> Diagnostic {
        self.mismatch_of(e, span, ctx, None)
    }

    /// As [`Checker::mismatch`]; `found` is the expression whose type was
    /// found (at `span`), named in the help's conversion where it is short.
    fn mismatch_of(
        &mut self,
        e: UnifyError,
        span: Span,
        ctx: &str,
        found: Option<&Expr>,
    ) -> Diagnostic {
        match e {
            UnifyError::Size(a, b) => {
                let (sa, sb) = (self.describe_size(&a), self.describe_size(&b));
                let label = if sa.starts_with('`') && sb.starts_with('`') {
                    format!("size {sa} here, but {sb} is required")
                } else {
                    format!("this has {sa}, but {sb} is required")
                };
                // (two sizes computed alike, `iota (n + 1)` twice, read the same)
                let differ = if sa == sb {
                    ", computed separately, are not known to be the same size"
                } else {
                    " are different sizes"
                };
                Diagnostic::new("E0301", span, format!("size mismatch {ctx}: {sa} and {sb}{differ}"))
                    .with_label(label)
                    .with_help("the sizes must be the same size parameter or constant; if they are equal at run time, use the same size parameter for both (e.g. `[n]`), or a slice to make them equal")
            }
            UnifyError::Type(a, b) => {
                let (sa, sb) = (self.show(&a), self.show(&b));
                Diagnostic::new(
                    "E0201",
                    span,
                    format!("type mismatch {ctx}: expected {sb}, found {sa}"),
                )
                .with_label(format!("this has type {sa}"))
                .with_help(conversion_help(
                    &self.infer.resolve(&a),
                    &self.infer.resolve(&b),
                    found.and_then(operand_text).as_deref(),
                ))
            }
            UnifyError::Kind(k, t, var_found) => {
                let st = self.show(&t);
                let scalar = matches!(self.infer.resolve(&t), Type::Prim(_));
                let (found, expected) = if var_found {
                    (k.describe().to_string(), st.clone())
                } else {
                    (st.clone(), k.describe().to_string())
                };
                Diagnostic::new("E0202", span, format!("type mismatch {ctx}: expected {expected}, found {found}"))
                    .with_label(format!("this is {found}"))
                    .with_help(match (k, var_found) {
                        _ if !scalar && matches!(self.infer.resolve(&t), Type::Array(..)) => format!(
                            "{st} is an array, but {} is a scalar; to apply the operation to each element of an array, use `map` (e.g. `map (\\x -> x * 2.0) xs`)",
                            k.describe()
                        ),
                        _ if !scalar => format!("{st} is not a scalar, but {} is", k.describe()),
                        (Kind::Float, true) => format!("float literals like `1.0` are floats; to get {st}, convert: `{st} x`"),
                        (Kind::Int, true) => format!("integer literals like `1` are integers; write a float literal like `2.0` where {st} is needed"),
                        (Kind::Float, false) => "this needs a float (f64 or f32); convert: `f64 x`".to_string(),
                        (Kind::Int, false) => "this needs an integer; convert: `i64 x`".to_string(),
                        (Kind::Num, _) => "arithmetic needs numbers (f64, f32, or an integer type: i8, i16, i32, i64, u8, u16, u32, u64)".to_string(),
                        _ => "check the types of the operands".to_string(),
                    })
            }
        }
    }

    /// An index or a loop bound: an `i64`, or a value of another integer
    /// type converted to `i64` (`a[i]` with `i: i32`; a `u64` beyond
    /// `i64`'s range is out of bounds as a negative index is).
    fn integer_as_i64(&mut self, a: Atom, t: &Type, span: Span, ctx: &str) -> R<Atom> {
        match self.infer.resolve(t) {
            Type::Prim(p) if p != PrimType::I64 && p.is_int() => {
                Ok(self.emit("t", Type::I64, Exp::Convert(PrimType::I64, a), span))
            }
            _ => {
                self.unify_at(t, &Type::I64, span, ctx)?;
                Ok(a)
            }
        }
    }

    /// An index expression, as an `i64` ([`Self::integer_as_i64`]).
    fn index_exp(&mut self, i: &Expr) -> R<Atom> {
        let (ia, it) = self.expr(i, Some(&Type::I64))?;
        self.integer_as_i64(ia, &it, i.span, "in the index (indices are integers)")
    }

    fn unify_at(&mut self, found: &Type, expected: &Type, span: Span, ctx: &str) -> R<()> {
        match self.infer.unify(found, expected) {
            Ok(()) => Ok(()),
            Err(e) => {
                let d = self.mismatch(e, span, ctx);
                self.fail(d)
            }
        }
    }

    /// [`Checker::unify_at`] at the expression `e` (whose type is `found`):
    /// a conversion in the help names it.
    fn unify_expr(&mut self, found: &Type, expected: &Type, e: &Expr, ctx: &str) -> R<()> {
        match self.infer.unify(found, expected) {
            Ok(()) => Ok(()),
            Err(err) => {
                let d = self.mismatch_of(err, e.span, ctx, Some(e));
                self.fail(d)
            }
        }
    }

    /// The size denoted by an `i64` atom (for `build n`, `iota n`, ...).
    /// A size in the user's words, for a message: the size expression the
    /// program wrote (`` `n + 1` ``, remembered where a builtin's count or an
    /// annotation's size was elaborated), a name (`` `n` ``), a constant, or,
    /// for a size the compiler computed with no source text, "a size computed
    /// by the program" (never a compiler temporary's name).
    fn describe_size(&self, sz: &Size) -> String {
        match self.infer.size(sz) {
            Size::Var(v) => match self.size_texts.get(&v) {
                Some(t) if !t.contains("...") => format!("`{t}`"),
                _ if self.temps.contains(&v) => "a size computed by the program".to_string(),
                _ => format!("`{}`", display_name(&v)),
            },
            s => format!("`{}`", self.infer.show_size(&s)),
        }
    }

    /// The size an `i64` argument of a builtin gives an array (`iota (n +
    /// 1)`), remembering the argument's source text for messages.
    fn size_of_arg(&mut self, a: &Atom, arg: &In) -> Size {
        if let (Atom::Var(v), In::Ast(e)) = (a, arg)
            && !matches!(e.kind, ExprKind::Var(_))
            && !self.size_texts.contains_key(v)
        {
            self.size_texts.insert(v.clone(), size_text(e));
        }
        self.size_of_atom(a)
    }

    fn size_of_atom(&self, a: &Atom) -> Size {
        match a {
            Atom::Const(Const::I64(c)) if *c >= 0 => Size::Const(*c),
            Atom::Var(v) => Size::Var(v.clone()),
            _ => Size::Unknown,
        }
    }

    fn expect_array(&mut self, t: &Type, span: Span, what: &str) -> R<(Size, Type)> {
        match self.infer.shallow(t) {
            Type::Array(s, e) => Ok((self.infer.size(&s), *e)),
            Type::Infer(v) if self.infer.kind_of(v) == Kind::Any => {
                let s = self.infer.fresh_size();
                let e = self.infer.fresh(Kind::Any);
                let arr = Type::array(s.clone(), e.clone());
                self.unify_at(t, &arr, span, what)?;
                Ok((s, e))
            }
            other => {
                let so = self.show(&other);
                self.fail(
                    Diagnostic::new(
                        "E0203",
                        span,
                        format!("{what} needs an array, but this has type {so}"),
                    )
                    .with_label(format!("type {so}, not an array"))
                    .with_help("pass an array here"),
                )
            }
        }
    }

    fn generalize(&self, t: &Type) -> Type {
        generalize(&self.infer.resolve(t))
    }

    // ------------------------------------------------------------ types from syntax

    /// Convert a type expression. `size_env` names the sizes allowed (size parameters);
    /// when `None`, sizes are looked up as `i64` variables in scope.
    fn type_exp(
        &mut self,
        t: &TypeExp,
        size_env: Option<&HashMap<String, Name>>,
        allow_fun: bool,
    ) -> R<Type> {
        match t {
            TypeExp::Unique(_, sp) => self.fail(
                Diagnostic::new("E0420", *sp, "`*` (a unique array) is allowed only on a definition's parameter and result types")
                    .with_label("unique type here")
                    .with_help("write `*[n]f64` on a parameter the definition may update in place, or on its result; remove it elsewhere"),
            ),
            TypeExp::Prim(p, _) => Ok(Type::Prim(*p)),
            TypeExp::Named(path, sp) => self.named_type(path, *sp),
            TypeExp::Record(fields, _) => {
                self.no_duplicate_field(fields, "", "each field of a record has a name of its own")?;
                let mut out: Vec<(Name, Type)> = Vec::new();
                for (f, t) in fields {
                    out.push((f.name.clone(), self.type_exp(t, size_env, false)?));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(Type::Record(out))
            }
            TypeExp::Array(sz, e, asp) => {
                let size = match sz {
                    SizeExp::Any(_) => Size::Unknown,
                    SizeExp::Const(c, _) => Size::Const(*c),
                    // checked at run time (`runtime_sizes`)
                    SizeExp::Expr(_) if size_env.is_some() => Size::Unknown,
                    SizeExp::Expr(e) => {
                        let (a, t) = self.expr(e, Some(&Type::I64))?;
                        self.unify_at(&t, &Type::I64, e.span, "in an array size (an i64)")?;
                        if let Atom::Var(v) = &a {
                            self.size_texts.insert(v.clone(), size_text(e));
                        }
                        self.size_of_atom(&a)
                    }
                    SizeExp::Named(id) => match size_env {
                        Some(env) => match env.get(&id.name) {
                            Some(core) => Size::Var(core.clone()),
                            None if self.value_sizes.contains(&id.name) => Size::Unknown,
                            None => {
                                return self.fail(
                                    Diagnostic::new("E0302", id.span, format!("unknown size `{}`", id.name))
                                        .with_label("not a size parameter or an i64 parameter of this definition")
                                        .with_help(format!(
                                            "declare it after the function name: `def f [{}] ...`, take it as a parameter `({}: i64)`, or write `[]` for a size that is not named",
                                            id.name, id.name
                                        )),
                                );
                            }
                        },
                        None => match self.lookup(&id.name) {
                            Some(Binding::Var(a, ty)) if self.infer.resolve(&ty) == Type::I64 => {
                                self.size_of_atom(&a)
                            }
                            _ => {
                                return self.fail(
                                    Diagnostic::new("E0302", id.span, format!("unknown size `{}`", id.name))
                                        .with_label("no i64 variable of this name is in scope")
                                        .with_help("sizes in annotations must be size parameters or i64 variables in scope; write `[]` for an unnamed size"),
                                );
                            }
                        },
                    },
                };
                let e = self.type_exp(e, size_env, false)?;
                let t = Type::array(size, e);
                self.within_limits(&t, *asp, "this array type")?;
                Ok(t)
            }
            TypeExp::Tuple(ts, _) => {
                let mut out = Vec::new();
                for t in ts {
                    out.push(self.type_exp(t, size_env, false)?);
                }
                Ok(Type::Tuple(out))
            }
            TypeExp::Fun(ps, r, span) => {
                if !allow_fun {
                    return self.fail(
                        Diagnostic::new("E0401", *span, "function types are only allowed as parameter types")
                            .with_label("a function type here")
                            .with_help("Weir functions cannot be stored in arrays or tuples, or returned (F-tilde restriction); take the function as a parameter instead"),
                    );
                }
                let mut out = Vec::new();
                for p in ps {
                    out.push(self.type_exp(p, size_env, false)?);
                }
                if let TypeExp::Fun(_, _, s) = &**r {
                    return self.fail(
                        Diagnostic::new(
                            "E0402",
                            *s,
                            "a function parameter cannot return a function",
                        )
                        .with_label("function result")
                        .with_help(
                            "write the function type with all its arguments: `f64 -> f64 -> f64`",
                        ),
                    );
                }
                let r = self.type_exp(r, size_env, false)?;
                Ok(Type::Fun(out, Box::new(r)))
            }
        }
    }

    // ------------------------------------------------------------ patterns

    /// Bind a pattern to an elaborated value.
    fn bind_pat(&mut self, pat: &Pat, atom: Atom, ty: Type, span: Span) -> R<()> {
        match pat {
            Pat::Wild(_, ann) => {
                if let Some(a) = ann {
                    let at = self.type_exp(a, None, false)?;
                    self.unify_at(&ty, &at, a.span(), "in the annotation")?;
                }
                Ok(())
            }
            Pat::Var(id, ann) => {
                if is_reserved(&id.name) {
                    return self.fail(
                        Diagnostic::new(
                            "E0101",
                            id.span,
                            format!("`{}` is a builtin and cannot be rebound", id.name),
                        )
                        .with_label("reserved name")
                        .with_help("choose another name"),
                    );
                }
                if let Some(a) = ann {
                    let at = self.type_exp(a, None, false)?;
                    self.unify_at(
                        &ty,
                        &at,
                        id.span,
                        &format!("in the annotation of `{}`", id.name),
                    )?;
                }
                // Give a fresh temporary the user's name.
                let atom = match &atom {
                    Atom::Var(v) if v.starts_with("t_") => {
                        let new = self.fresh_name(&id.name);
                        let renamed = self
                            .blocks
                            .last_mut()
                            .and_then(|b| b.last_mut())
                            .filter(|s| &s.var == v)
                            .map(|s| s.var = new.clone())
                            .is_some();
                        if renamed { Atom::Var(new) } else { atom }
                    }
                    _ => atom,
                };
                self.scope.push((id.name.clone(), Binding::Var(atom, ty)));
                Ok(())
            }
            Pat::Tuple(ps, pspan) => {
                let t = self.infer.shallow(&ty);
                let comps = match t {
                    Type::Tuple(cs) if cs.len() == ps.len() => cs,
                    Type::Infer(v) if self.infer.kind_of(v) == Kind::Any => {
                        let cs: Vec<Type> =
                            ps.iter().map(|_| self.infer.fresh(Kind::Any)).collect();
                        self.unify_at(&ty, &Type::Tuple(cs.clone()), *pspan, "in the pattern")?;
                        cs
                    }
                    other => {
                        let so = self.show(&other);
                        return self.fail(
                            Diagnostic::new(
                                "E0204",
                                *pspan,
                                format!(
                                    "this pattern has {} components but the value has type {so}",
                                    ps.len()
                                ),
                            )
                            .with_label("tuple pattern")
                            .with_help("match the number of components of the tuple"),
                        );
                    }
                };
                for (i, (p, ct)) in ps.iter().zip(comps).enumerate() {
                    let a = self.emit("t", ct.clone(), Exp::Proj(atom.clone(), i), span);
                    self.bind_pat(p, a, ct, span)?;
                }
                Ok(())
            }
            Pat::Record(fields, pspan) => self.bind_record_pat(fields, *pspan, atom, ty, span),
        }
    }

    // ------------------------------------------------------------ definitions

    pub fn def(&mut self, d: &ast::Def) -> R<(FunDef, DefSig)> {
        self.current = d.name.name.clone();
        let mut size_env = HashMap::new();
        let mut size_params = Vec::new();
        for s in &d.size_params {
            if size_env.contains_key(&s.name) {
                return self.fail(
                    Diagnostic::new(
                        "E0102",
                        s.span,
                        format!("size parameter `{}` is declared twice", s.name),
                    )
                    .with_label("second declaration")
                    .with_help("remove one of them"),
                );
            }
            let core = self.fresh_name(&s.name);
            size_env.insert(s.name.clone(), core.clone());
            size_params.push(core.clone());
            self.scope
                .push((s.name.clone(), Binding::Var(Atom::Var(core), Type::I64)));
        }
        self.value_sizes = d
            .params
            .iter()
            .filter_map(|p| match (&p.pat, &p.ty) {
                (Pat::Var(id, _), TypeExp::Prim(PrimType::I64, _))
                    if !size_env.contains_key(&id.name) =>
                {
                    Some(id.name.clone())
                }
                _ => None,
            })
            .collect();
        let mut params = Vec::new();
        let mut param_pats = Vec::new();
        let mut seen = HashSet::new();
        let mut param_checks = Vec::new();
        for p in &d.params {
            let ty = self.type_exp(&p.ty, Some(&size_env), true)?;
            for rs in self.runtime_sizes(&p.ty, &size_env)? {
                if rs.comp.is_some() {
                    return self.fail(
                        Diagnostic::new(
                            "E0305",
                            rs.exp.span,
                            "a size checked at run time inside a tuple parameter is not supported",
                        )
                        .with_label("inside a tuple")
                        .with_help("take the array as a parameter of its own, or name the size with a size parameter `[n]`"),
                    );
                }
                param_checks.push((params.len(), p.pat.clone(), rs));
            }
            if d.entry && ty.has_fun() {
                return self.fail(
                    Diagnostic::new("E0403", p.ty.span(), "entry points cannot take functions")
                        .with_label("function-typed parameter")
                        .with_help("entry points are called with data; make this a `def` and call it from an entry"),
                );
            }
            let core = match &p.pat {
                Pat::Var(id, _) => {
                    if !seen.insert(id.name.clone()) {
                        return self.fail(
                            Diagnostic::new(
                                "E0103",
                                id.span,
                                format!("parameter `{}` is declared twice", id.name),
                            )
                            .with_label("second declaration")
                            .with_help("rename one of the parameters"),
                        );
                    }
                    self.fresh_name(&id.name)
                }
                _ => self.fresh_name("p"),
            };
            params.push((core.clone(), ty.clone()));
            param_pats.push((p.pat.clone(), core, ty, p.span));
        }
        // every size parameter must be determined by a (non-function) parameter
        for (s, core) in d.size_params.iter().zip(&size_params) {
            if !params.iter().any(|(_, t)| !t.is_fun() && mentions(t, core)) {
                return self.fail(
                    Diagnostic::new(
                        "E0303",
                        s.span,
                        format!(
                            "size parameter `{}` is not used by any parameter's type",
                            s.name
                        ),
                    )
                    .with_label("cannot be determined from the arguments")
                    .with_help(format!(
                        "use it in a parameter type, e.g. `(a: [{}]f64)`, or remove it",
                        s.name
                    )),
                );
            }
        }
        // Existential sizes (`?[k].[k]f64`): where the result type names
        // each, and the type with them as `[]` (checked equal at the end).
        let exists = self.existentials(d, &size_env)?;
        let ret_t = d.ret.as_ref().map(|t| erase_sizes(t, &d.exists));
        let ret_checks = match &ret_t {
            Some(t) => self.runtime_sizes(t, &size_env)?,
            None => vec![],
        };
        let ret = match &ret_t {
            Some(t) => {
                if let TypeExp::Fun(_, _, s) = t {
                    return self.fail(
                        Diagnostic::new("E0404", *s, "definitions cannot return functions")
                            .with_label("function result type")
                            .with_help("F-tilde restriction: take the extra arguments as parameters of this definition instead"),
                    );
                }
                Some(self.type_exp(t, Some(&size_env), false)?)
            }
            None => None,
        };
        for (pat, core, ty, span) in &param_pats {
            if let Type::Fun(..) = ty
                && let Pat::Var(id, _) = pat
            {
                self.scope.push((
                    id.name.clone(),
                    Binding::Var(Atom::Var(core.clone()), ty.clone()),
                ));
                continue;
            }
            self.bind_pat(pat, Atom::Var(core.clone()), ty.clone(), *span)?;
        }
        self.value_sizes.clear();
        // Sizes of the parameters that are expressions: checked on entry.
        for (k, pat, rs) in &param_checks {
            let Some((core, _)) = params.get(*k) else {
                continue;
            };
            let name = match pat {
                Pat::Var(id, _) => id.name.clone(),
                _ => format!("#{}", k + 1),
            };
            let got = self.emit(
                "n",
                Type::I64,
                Exp::Dim(Atom::Var(core.clone()), rs.dim),
                rs.exp.span,
            );
            self.size_check(got, rs, &d.name.name, &name)?;
        }
        let (atom, bty) = self.expr(&d.body, ret.as_ref())?;
        // Sizes of the result that are expressions: checked at the end.
        for rs in &ret_checks {
            let part = match rs.comp {
                Some(c) => {
                    let t = match self.infer.resolve(&bty) {
                        Type::Tuple(ts) => ts.get(c).cloned().unwrap_or(Type::I64),
                        Type::Record(fs) => fs.get(c).map(|f| f.1.clone()).unwrap_or(Type::I64),
                        t => t,
                    };
                    self.emit("r", t, Exp::Proj(atom.clone(), c), rs.exp.span)
                }
                None => atom.clone(),
            };
            let got = self.emit("n", Type::I64, Exp::Dim(part, rs.dim), rs.exp.span);
            self.size_check(got, rs, &d.name.name, "result")?;
        }
        // Each existential size is the same wherever the result names it:
        // every occurrence is checked against the first, at the end.
        for (k, occ) in &exists {
            let mut first: Option<Atom> = None;
            for (comp, dim, span) in occ {
                let part = match comp {
                    Some(c) => {
                        let t = match self.infer.resolve(&bty) {
                            Type::Tuple(ts) => ts.get(*c).cloned().unwrap_or(Type::I64),
                            Type::Record(fs) => {
                                fs.get(*c).map(|f| f.1.clone()).unwrap_or(Type::I64)
                            }
                            t => t,
                        };
                        self.emit("r", t, Exp::Proj(atom.clone(), *c), *span)
                    }
                    None => atom.clone(),
                };
                let got = self.emit("n", Type::I64, Exp::Dim(part, *dim), *span);
                match &first {
                    None => first = Some(got),
                    Some(want) => self.emit_size_check(
                        got,
                        want.clone(),
                        &d.name.name,
                        "result",
                        k.clone(),
                        *span,
                    ),
                }
            }
        }
        let ret = match ret {
            Some(r) => {
                let what = format!(
                    "between the body of `{}` and its declared result type",
                    d.name.name
                );
                let span = d.ret.as_ref().map(|t| t.span()).unwrap_or(d.body.span);
                if let Err(e) = self.infer.unify(&bty, &r) {
                    let diag = self
                        .mismatch_of(e, d.body.span, &what, Some(&d.body))
                        .with_secondary(span, "declared here");
                    return self.fail(diag);
                }
                r
            }
            None => bty,
        };
        if self.infer.resolve(&ret).has_fun() {
            return self.fail(
                Diagnostic::new("E0404", d.body.span, "definitions cannot return functions")
                    .with_label("this returns a function")
                    .with_help(
                        "F-tilde restriction: take the extra arguments as parameters instead",
                    ),
            );
        }
        let stmts = self.blocks.pop().unwrap_or_default();
        let mut def = FunDef {
            name: d.name.name.clone(),
            entry: d.entry,
            size_params: size_params.clone(),
            params: params.clone(),
            ret,
            body: Body {
                stmts,
                result: atom,
            },
            span: d.span,
        };
        crate::zonk::zonk_def(self, &mut def)?;
        let sig = DefSig {
            core: def.name.clone(),
            size_params,
            params: def.params.clone(),
            ret: def.ret.clone(),
            span: d.span,
        };
        // the signature keeps its records (callers read their fields); the
        // core IR has tuples
        erase_records(&mut def);
        Ok((def, sig))
    }

    /// The sizes of a signature's type that are checked at run time: size
    /// expressions (`[n + 1]`) and names of `i64` parameters (`[k]`), in an
    /// array type or in the arrays of a tuple type.
    /// The existential sizes of `d`'s result type, each with where the type
    /// names it: (tuple component, dim, span), in order. Each must be new (not
    /// a size parameter, an `i64` parameter or another existential), named
    /// at least once, and not inside an array of tuples or a nested tuple.
    #[allow(clippy::type_complexity)]
    fn existentials(
        &mut self,
        d: &ast::Def,
        size_env: &HashMap<String, Name>,
    ) -> R<Vec<(String, Vec<(Option<usize>, usize, Span)>)>> {
        fn walk(
            t: &TypeExp,
            comp: Option<usize>,
            dim: usize,
            k: &str,
            out: &mut Vec<(Option<usize>, usize, Span)>,
            nested: &mut Option<Span>,
        ) {
            match t {
                TypeExp::Array(sz, e, _) => {
                    if let SizeExp::Named(id) = sz
                        && id.name == k
                    {
                        out.push((comp, dim, id.span));
                    }
                    walk(e, comp, dim + 1, k, out, nested);
                }
                TypeExp::Tuple(ts, _) if comp.is_none() && dim == 0 => {
                    for (i, t) in ts.iter().enumerate() {
                        walk(t, Some(i), 0, k, out, nested);
                    }
                }
                TypeExp::Tuple(ts, _) => {
                    let mut inner = Vec::new();
                    for t in ts {
                        walk(t, Some(0), 1, k, &mut inner, nested);
                    }
                    if let Some(r) = inner.first() {
                        nested.get_or_insert(r.2);
                    }
                }
                TypeExp::Record(fs, sp) => {
                    let ts = sorted_fields(fs);
                    walk(&TypeExp::Tuple(ts, *sp), comp, dim, k, out, nested);
                }
                TypeExp::Unique(e, _) => walk(e, comp, dim, k, out, nested),
                TypeExp::Prim(..) | TypeExp::Fun(..) | TypeExp::Named(..) => {}
            }
        }
        let mut v: Vec<(String, Vec<(Option<usize>, usize, Span)>)> = Vec::new();
        for id in &d.exists {
            let clash = if size_env.contains_key(&id.name) {
                Some("a size parameter")
            } else if self.value_sizes.contains(&id.name) {
                Some("an `i64` parameter")
            } else if v.iter().any(|(k, _)| *k == id.name) {
                Some("another existential size")
            } else {
                None
            };
            if let Some(what) = clash {
                return self.fail(
                    Diagnostic::new(
                        "E0306",
                        id.span,
                        format!("existential size `{}` has the name of {what}", id.name),
                    )
                    .with_label("declared here")
                    .with_help(
                        "an existential size is determined by the body; give it a name of its own, or use the size that is already named",
                    ),
                );
            }
            let mut occ = Vec::new();
            let mut nested = None;
            if let Some(t) = &d.ret {
                walk(t, None, 0, &id.name, &mut occ, &mut nested);
            }
            if let Some(span) = nested {
                return self.fail(
                    Diagnostic::new(
                        "E0305",
                        span,
                        "an existential size inside an array of tuples or a nested tuple is not supported",
                    )
                    .with_label("here")
                    .with_help("write `[]` there, or return the components as a tuple of arrays"),
                );
            }
            if occ.is_empty() {
                return self.fail(
                    Diagnostic::new(
                        "E0307",
                        id.span,
                        format!(
                            "existential size `{}` is not used in the result type",
                            id.name
                        ),
                    )
                    .with_label("declared here")
                    .with_help(format!(
                        "use it in the result type, as in `?[{0}].[{0}]f64`, or remove it",
                        id.name
                    )),
                );
            }
            v.push((id.name.clone(), occ));
        }
        Ok(v)
    }

    fn runtime_sizes(
        &mut self,
        t: &TypeExp,
        size_env: &HashMap<String, Name>,
    ) -> R<Vec<RuntimeSize>> {
        fn walk(
            t: &TypeExp,
            comp: Option<usize>,
            dim: usize,
            env: &HashMap<String, Name>,
            values: &HashSet<String>,
            out: &mut Vec<RuntimeSize>,
            nested: &mut Option<Span>,
        ) {
            match t {
                TypeExp::Array(sz, e, _) => {
                    let exp = match sz {
                        SizeExp::Expr(e) => Some((**e).clone()),
                        SizeExp::Named(id)
                            if !env.contains_key(&id.name) && values.contains(&id.name) =>
                        {
                            Some(Expr {
                                kind: ExprKind::Var(id.clone()),
                                span: id.span,
                            })
                        }
                        _ => None,
                    };
                    if let Some(exp) = exp {
                        out.push(RuntimeSize { comp, dim, exp });
                    }
                    walk(e, comp, dim + 1, env, values, out, nested);
                }
                TypeExp::Tuple(ts, _) if comp.is_none() && dim == 0 => {
                    for (i, t) in ts.iter().enumerate() {
                        walk(t, Some(i), 0, env, values, out, nested);
                    }
                }
                TypeExp::Tuple(ts, _) => {
                    // sizes inside an array of tuples, or a nested tuple
                    let mut inner = Vec::new();
                    for t in ts {
                        walk(t, Some(0), 1, env, values, &mut inner, nested);
                    }
                    if let Some(r) = inner.first() {
                        nested.get_or_insert(r.exp.span);
                    }
                }
                TypeExp::Record(fs, sp) => {
                    let ts = sorted_fields(fs);
                    walk(
                        &TypeExp::Tuple(ts, *sp),
                        comp,
                        dim,
                        env,
                        values,
                        out,
                        nested,
                    );
                }
                TypeExp::Unique(e, _) => walk(e, comp, dim, env, values, out, nested),
                TypeExp::Prim(..) | TypeExp::Fun(..) | TypeExp::Named(..) => {}
            }
        }
        let mut out = Vec::new();
        let mut nested = None;
        walk(
            t,
            None,
            0,
            size_env,
            &self.value_sizes,
            &mut out,
            &mut nested,
        );
        if let Some(span) = nested {
            return self.fail(
                Diagnostic::new(
                    "E0305",
                    span,
                    "a size checked at run time inside an array of tuples or a nested tuple is not supported",
                )
                .with_label("here")
                .with_help("name the size with a size parameter `[n]`, or write `[]`"),
            );
        }
        Ok(out)
    }

    /// The sizes an annotation names (`let b: [n]f64 = e`) where the value's
    /// own size is not known statically: checked at run time, one check per
    /// dim, at the annotation.
    fn annotation_checks(
        &mut self,
        a: &Atom,
        t: &Type,
        ann: &Type,
        dim: usize,
        span: Span,
    ) -> R<()> {
        let t = self.infer.resolve(t);
        let ann = self.infer.resolve(ann);
        if let (Type::Array(st, et), Type::Array(sa, ea)) = (&t, &ann) {
            let want = match sa {
                Size::Var(v) => Some((
                    Atom::Var(v.clone()),
                    self.size_texts
                        .get(v)
                        .cloned()
                        .unwrap_or_else(|| display_name(v).to_string()),
                )),
                Size::Const(c) => Some((Atom::Const(Const::I64(*c)), c.to_string())),
                _ => None,
            };
            if let Some((want, text)) = want
                && matches!(st, Size::Unknown)
            {
                let got = self.emit("n", Type::I64, Exp::Dim(a.clone(), dim), span);
                let callee = self.current.clone();
                self.emit_size_check(got, want, &callee, "annotation", text, span);
            }
            self.annotation_checks(a, et, ea, dim + 1, span)?;
        }
        Ok(())
    }

    /// `e :> t`: `e` with the sizes `t` names, each checked at run time
    /// against `e`'s own (where `t` names one); the rest of the type must be
    /// `e`'s.
    fn coerce(&mut self, inner: &Expr, te: &TypeExp, span: Span) -> R<(Atom, Type)> {
        let ann = self.type_exp(te, None, false)?;
        let (a, t) = self.expr(inner, None)?;
        self.no_fun(&t, inner.span)?;
        let erase = |t: &Type| {
            let mut t = t.clone();
            weir_ir::visit::map_sizes(&mut t, &mut |s| *s = Size::Unknown);
            t
        };
        let (t, ann) = (self.infer.resolve(&t), self.infer.resolve(&ann));
        self.unify_expr(&erase(&t), &erase(&ann), inner, "in a size coercion `:>`")?;
        self.coerce_checks(&a, &t, &ann, 0, te.span());
        Ok((self.emit("t", ann.clone(), Exp::Atom(a), span), ann))
    }

    /// The run-time checks of `a :> ann` (`a: t`), dim `dim` and inward: one
    /// per size `ann` names that `t` does not name the same.
    fn coerce_checks(&mut self, a: &Atom, t: &Type, ann: &Type, dim: usize, span: Span) {
        let (Type::Array(st, et), Type::Array(sa, ea)) = (t, ann) else {
            return;
        };
        let want = match sa {
            Size::Var(v) => Some((
                Atom::Var(v.clone()),
                self.size_texts
                    .get(v)
                    .cloned()
                    .unwrap_or_else(|| display_name(v).to_string()),
            )),
            Size::Const(c) => Some((Atom::Const(Const::I64(*c)), c.to_string())),
            _ => None,
        };
        if let Some((want, text)) = want
            && st != sa
        {
            let got = self.emit("n", Type::I64, Exp::Dim(a.clone(), dim), span);
            let callee = self.current.clone();
            self.emit_size_check(got, want, &callee, "annotation", text, span);
        }
        self.coerce_checks(a, et, ea, dim + 1, span);
    }

    /// The operator argument of a reduction over elements of type `el`: a
    /// function `el -> el -> el`.
    fn operator(&mut self, a: &In, el: &Type, what: &str, name: &str) -> R<Fun> {
        let (f, r) = self.fun_arg(a, &[el.clone(), el.clone()], what)?;
        self.unify_at(
            &r,
            el,
            a.span(),
            &format!("in the result of the operator of `{name}`"),
        )?;
        Ok(f)
    }

    /// One run-time size check `got == want`, with the message of `param`
    /// (a parameter's name, `result` or `annotation`).
    fn emit_size_check(
        &mut self,
        got: Atom,
        want: Atom,
        callee: &str,
        param: &str,
        size: String,
        span: Span,
    ) {
        self.emit(
            "chk",
            Type::I64,
            Exp::CheckSize(Box::new(SizeCheck {
                got,
                want,
                callee: callee.to_string(),
                param: param.to_string(),
                size,
            })),
            span,
        );
    }

    /// `got` (a dim of a parameter or of the result) must equal the value of
    /// the size expression `rs`: one run-time check, at the expression.
    fn size_check(&mut self, got: Atom, rs: &RuntimeSize, callee: &str, param: &str) -> R<()> {
        let (want, t) = self.expr(&rs.exp, Some(&Type::I64))?;
        self.unify_at(
            &t,
            &Type::I64,
            rs.exp.span,
            "in an array size (sizes are i64)",
        )?;
        self.emit_size_check(got, want, callee, param, size_text(&rs.exp), rs.exp.span);
        Ok(())
    }

    pub fn var_span(&self, v: u32) -> Option<Span> {
        self.var_spans.get(&v).copied()
    }

    pub fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    // ------------------------------------------------------------ annotations

    /// `#[view] e`, `#[dest] e`, `#[eager] e`: `e` must elaborate to a
    /// primitive that can take the effect (dps-views Fig. 4.6); the
    /// statement is recorded with it.
    #[inline(never)]
    fn effect(
        &mut self,
        effect: ast::Effect,
        attr: Span,
        inner: &Expr,
        expected: Option<&Type>,
    ) -> R<(Atom, Type)> {
        use weir_ir::Effect as E;
        let (at, ty) = self.expr(inner, expected)?;
        let (want, allowed): (E, &[Builtin]) = match effect {
            ast::Effect::View => (
                E::Source,
                &[Builtin::Transpose, Builtin::Reverse, Builtin::Replicate],
            ),
            ast::Effect::Dest => (E::Dest, &[Builtin::Concat, Builtin::Pad, Builtin::Rotate]),
            ast::Effect::Eager => (
                E::Eager,
                &[
                    Builtin::Transpose,
                    Builtin::Reverse,
                    Builtin::Replicate,
                    Builtin::Concat,
                    Builtin::Pad,
                    Builtin::Rotate,
                ],
            ),
        };
        let found = match &at {
            Atom::Var(v) => self
                .blocks
                .last()
                .and_then(|b| b.iter().rev().find(|s| &s.var == v))
                .and_then(|s| match &s.exp {
                    // (a replicate of an array: scalars have no memory to view)
                    Exp::Prim(Prim::Replicate { .. }) if effect == ast::Effect::View => {
                        let el = match self.infer.shallow(&s.ty) {
                            Type::Array(_, el) => Some(self.infer.shallow(&el)),
                            _ => None,
                        };
                        matches!(el, Some(Type::Array(..))).then_some(s.span)
                    }
                    Exp::Prim(p) if allowed.contains(&p.builtin()) => Some(s.span),
                    _ => None,
                }),
            Atom::Const(_) => None,
        };
        let Some(stmt_span) = found else {
            let what = match effect {
                ast::Effect::View => "a `transpose`, a `reverse` or a `replicate` of an array",
                ast::Effect::Dest => "a `++`, a `concat`, a `pad` or a `rotate`",
                ast::Effect::Eager => {
                    "a `transpose`, a `reverse`, a `replicate`, a `++`, a `concat`, a `pad` or a `rotate`"
                }
            };
            return self.fail(
                Diagnostic::new(
                    "E0601",
                    inner.span,
                    format!("`#[{}]` annotates {what}, not this expression", effect.name()),
                )
                .with_label("not a primitive this annotation applies to")
                .with_secondary(attr, "the annotation")
                .with_help("`#[view]` applies to `transpose`, `reverse` and `replicate` of an array, `#[dest]` to `++`, `concat`, `pad` and `rotate`, `#[eager]` to all of them; an annotation covers the application that follows it, so an operator's operands need parentheses: `#[dest] (a ++ b)`"),
            );
        };
        self.effects.push((stmt_span, want));
        Ok((at, ty))
    }

    // ------------------------------------------------------------ expressions

    /// Elaborate `e`; its type must be within the limits on types
    /// ([`limits`]: built by expressions, a type can grow past what the
    /// syntax bounds).
    pub fn expr(&mut self, e: &Expr, expected: Option<&Type>) -> R<(Atom, Type)> {
        let r = self.expr_kind(e, expected)?;
        self.within_limits(&r.1, e.span, "the value of this expression")?;
        Ok(r)
    }

    fn expr_kind(&mut self, e: &Expr, expected: Option<&Type>) -> R<(Atom, Type)> {
        let span = e.span;
        match &e.kind {
            ExprKind::Error => Err(Failed),
            ExprKind::Effect(effect, attr, inner) => self.effect(*effect, *attr, inner, expected),
            ExprKind::Coerce(inner, te) => self.coerce(inner, te, span),
            ExprKind::Var(id) => self.var(id),
            ExprKind::Int(v, suffix) => self.int_lit(*v, *suffix, expected, span),
            ExprKind::Float(v, suffix) => self.float_lit(*v, *suffix, expected, span),
            ExprKind::Bool(b) => Ok((Atom::Const(Const::Bool(*b)), Type::BOOL)),
            ExprKind::Tuple(es) => {
                let mut atoms = Vec::new();
                let mut tys = Vec::new();
                let exp_comps = expected.map(|t| self.infer.shallow(t));
                for (i, e) in es.iter().enumerate() {
                    let ex = match &exp_comps {
                        Some(Type::Tuple(cs)) if cs.len() == es.len() => Some(cs[i].clone()),
                        _ => None,
                    };
                    let (a, t) = self.expr(e, ex.as_ref())?;
                    self.no_fun(&t, e.span)?;
                    atoms.push(a);
                    tys.push(t);
                }
                let ty = Type::Tuple(tys);
                Ok((self.emit("t", ty.clone(), Exp::Tuple(atoms), span), ty))
            }
            ExprKind::ArrayLit(es) => {
                let exp_elem = expected.and_then(|t| match self.infer.shallow(t) {
                    Type::Array(_, e) => Some(*e),
                    _ => None,
                });
                let mut atoms = Vec::new();
                let mut elem: Option<Type> = exp_elem.clone();
                for e in es {
                    let (a, t) = self.expr(e, elem.as_ref())?;
                    self.no_fun(&t, e.span)?;
                    elem = Some(match elem {
                        None => t,
                        Some(prev) => match self.infer.join(&t, &prev) {
                            Ok(j) => j,
                            Err(err) => {
                                let d = self.mismatch(err, e.span, "between the elements of the array literal");
                                return self.fail(d);
                            }
                        },
                    });
                    atoms.push(a);
                }
                let elem = match elem {
                    Some(t) => t,
                    None => {
                        let t = self.infer.fresh(Kind::Any);
                        if let Type::Infer(v) = t {
                            self.var_spans.insert(v, span);
                        }
                        t
                    }
                };
                let ty = Type::array(Size::Const(atoms.len() as i64), elem);
                Ok((self.emit("t", ty.clone(), Exp::ArrayLit(atoms), span), ty))
            }
            ExprKind::OpSection(op) => self.fail(
                Diagnostic::new("E0405", span, format!("the operator section `({})` is a function, not a value", op.symbol()))
                    .with_label("used as a value")
                    .with_help("pass it to a function, as in `reduce (+) 0.0 xs`, or apply it: `(+) a b`"),
            ),
            ExprKind::LeftSection(_, op) | ExprKind::RightSection(op, _) => {
                let (shown, example) = match &e.kind {
                    ExprKind::LeftSection(..) => (format!("(... {})", op.symbol()), format!("(2.0 {}) x", op.symbol())),
                    _ => (format!("({} ...)", op.symbol()), format!("({} 2.0) x", op.symbol())),
                };
                self.fail(
                    Diagnostic::new("E0405", span, format!("the operator section `{shown}` is a function, not a value"))
                        .with_label("used as a value")
                        .with_help(format!("pass it to a function, as in `map ({} 2.0) xs`, or apply it: `{example}` (functions cannot be stored or returned); if an operand is missing, write it: `(a {} b)`", op.symbol(), op.symbol())),
                )
            }
            ExprKind::Compose(..) => self.fail(
                Diagnostic::new("E0426", span, "a composition of functions is a function, not a value")
                    .with_label("composition used as a value")
                    .with_help("apply it, as in `(f >-> g) x`, or pass it as an argument: `map (f >-> g) xs`; functions cannot be stored or returned"),
            ),
            ExprKind::LetFun(d, rest) => {
                let mark = self.scope.len();
                let r = self
                    .bind_local_fun(&d.name, LocalFn::Def(Rc::new((**d).clone())))
                    .and_then(|_| self.expr(rest, expected));
                self.scope.truncate(mark);
                r
            }
            ExprKind::Index(a, entries) => self.index(a, entries, span),
            ExprKind::Update(a, entries, ispan, v) => self.update(a, entries, *ispan, v, span),
            ExprKind::Proj(a, i, fspan) => {
                let (at, ty) = self.expr(a, None)?;
                match self.infer.shallow(&ty) {
                    Type::Tuple(cs) if *i < cs.len() => {
                        let ct = cs[*i].clone();
                        Ok((self.emit("t", ct.clone(), Exp::Proj(at, *i), span), ct))
                    }
                    Type::Tuple(cs) => self.fail(
                        Diagnostic::new("E0205", *fspan, format!("tuple has {} components; there is no component {i}", cs.len()))
                            .with_label("no such component")
                            .with_help(format!("components are numbered 0 to {}", cs.len() - 1)),
                    ),
                    Type::Infer(_) => self.fail(
                        Diagnostic::new("E0206", a.span, "the type of this value is not known yet, so `.N` cannot be checked")
                            .with_label("type unknown here")
                            .with_help("add a type annotation, e.g. `\\(p: (f64, f64)) -> p.0`"),
                    ),
                    other => {
                        let so = self.show(&other);
                        self.fail(
                            Diagnostic::new("E0205", *fspan, format!("`.{i}` needs a tuple, but the value has type {so}"))
                                .with_label("not a tuple")
                                .with_help("only tuples have numbered components"),
                        )
                    }
                }
            }
            ExprKind::Apply(f, args) => {
                let ins: Vec<In> = args.iter().map(In::Ast).collect();
                self.apply(f, &ins, span, expected)
            }
            ExprKind::Binary(op, a, b, op_span) => {
                if matches!(op, ast::BinOp::And | ast::BinOp::Or) {
                    return self.short_circuit(*op, a, b, span);
                }
                self.binary(*op, &In::Ast(a), &In::Ast(b), *op_span, span, expected)
            }
            ExprKind::Unary(op, a) => {
                let (at, ty) = self.expr(a, expected)?;
                let k = match op {
                    ast::UnOp::Neg => Kind::Num,
                    ast::UnOp::Not => Kind::Scalar,
                };
                if *op == ast::UnOp::Not {
                    // logical not of a bool, bitwise not of an integer
                    let int = match self.infer.shallow(&ty) {
                        Type::Prim(p) => p.is_int(),
                        Type::Infer(v) => self.infer.kind_of(v) == Kind::Int,
                        _ => false,
                    };
                    if !int && let Err(e) = self.infer.unify(&ty, &Type::BOOL) {
                        let d = self
                            .mismatch(e, a.span, "in the operand of `!`")
                            .with_help("`!` is the logical not of a bool and the bitwise not of an integer (i8, i16, i32, i64, u8, u16, u32, u64); for a float, compare: `x == 0.0`");
                        return self.fail(d);
                    }
                } else if let Err(err) = self.infer.constrain(&ty, k) {
                    let d = self.mismatch(err, a.span, "in the operand of `-`");
                    return self.fail(d);
                }
                let op = match op {
                    ast::UnOp::Neg => UnOp::Neg,
                    ast::UnOp::Not => UnOp::Not,
                };
                Ok((self.emit("t", ty.clone(), Exp::Un(op, at), span), ty))
            }
            ExprKind::Let(pat, rhs, body) => {
                let mark = self.scope.len();
                if let Pat::Var(id, None) = pat
                    && let Some(lf) = local_fn_of(id, rhs)
                {
                    self.bind_local_fun(id, lf)?;
                } else {
                    let ann = match pat {
                        Pat::Var(_, Some(t)) => Some(self.type_exp(t, None, false)?),
                        _ => None,
                    };
                    let (a, t) = self.expr(rhs, ann.as_ref())?;
                    self.no_fun(&t, rhs.span)?;
                    if let (Some(ann), Pat::Var(_, Some(te))) = (&ann, pat) {
                        self.annotation_checks(&a, &t, ann, 0, te.span())?;
                    }
                    self.bind_pat(pat, a, t, rhs.span)?;
                }
                let r = self.expr(body, expected);
                self.scope.truncate(mark);
                r
            }
            ExprKind::If(c, a, b) => {
                let (ca, ct) = self.expr(c, Some(&Type::BOOL))?;
                self.unify_expr(&ct, &Type::BOOL, c, "in the condition of `if`")?;
                let mark = self.scope.len();
                self.push_block();
                let ra = self.expr(a, expected);
                self.scope.truncate(mark);
                let (aa, at) = match ra {
                    Ok(x) => x,
                    Err(f) => {
                        self.blocks.pop();
                        return Err(f);
                    }
                };
                let (ba, at) = self.pop_block(aa, &at, &[]);
                self.push_block();
                let rb = self.expr(b, Some(&at));
                self.scope.truncate(mark);
                let (ab, bt) = match rb {
                    Ok(x) => x,
                    Err(f) => {
                        self.blocks.pop();
                        return Err(f);
                    }
                };
                let (bb, bt) = self.pop_block(ab, &bt, &[]);
                self.no_fun(&at, a.span)?;
                let ty = match self.infer.join(&bt, &at) {
                    Ok(t) => t,
                    Err(err) => {
                        let d = self
                            .mismatch(err, b.span, "between the branches of `if`")
                            .with_secondary(a.span, "the `then` branch");
                        return self.fail(d);
                    }
                };
                Ok((self.emit("t", ty.clone(), Exp::If(ca, ba, bb), span), ty))
            }
            ExprKind::Lambda(..) => self.fail(
                Diagnostic::new("E0406", span, "a lambda is a function, not a value")
                    .with_label("lambda used as a value")
                    .with_help("pass it as an argument (`map (\\x -> x + 1.0) xs`) or bind it with `let f = \\x -> ... in`; functions cannot be stored or returned"),
            ),
            ExprKind::Loop(pat, init, form, body) => self.loop_(pat, init, form, body, span),
            ExprKind::Record(fields) => self.record(fields, span, expected),
            ExprKind::Field(e, name) => self.record_field(e, name, span),
            ExprKind::RecordUpdate(r, path, v) => self.record_update(r, path, v, span),
        }
    }

    fn no_fun(&mut self, t: &Type, span: Span) -> R<()> {
        if self.infer.resolve(t).has_fun() {
            return self.fail(
                Diagnostic::new(
                    "E0407",
                    span,
                    "functions cannot be stored in tuples, arrays or variables",
                )
                .with_label("a function value")
                .with_help("pass functions directly as arguments"),
            );
        }
        Ok(())
    }

    fn int_lit(
        &mut self,
        v: i128,
        suffix: Option<PrimType>,
        expected: Option<&Type>,
        span: Span,
    ) -> R<(Atom, Type)> {
        let target = match suffix {
            Some(p) => Some(p),
            None => expected
                .and_then(|t| self.infer.shallow(t).prim())
                .filter(|p| p.is_int()),
        };
        match target {
            Some(p) => {
                let c = match int_const(v, p) {
                    Some(c) => c,
                    None => return self.fail(out_of_range(v, p, span)),
                };
                Ok((Atom::Const(c), Type::Prim(p)))
            }
            None => {
                let t = self.infer.fresh(Kind::Int);
                if let Type::Infer(var) = t {
                    self.var_spans.insert(var, span);
                }
                // an i64 until the type is known (a u64 beyond i64's range:
                // defaulting to i64 reports it out of range)
                let c = match i64::try_from(v) {
                    Ok(x) => Const::I64(x),
                    Err(_) => match u64::try_from(v) {
                        Ok(x) => Const::U64(x),
                        Err(_) => return self.fail(out_of_range(v, PrimType::I64, span)),
                    },
                };
                Ok((
                    self.emit("lit", t.clone(), Exp::Atom(Atom::Const(c)), span),
                    t,
                ))
            }
        }
    }

    fn float_lit(
        &mut self,
        v: f64,
        suffix: Option<PrimType>,
        expected: Option<&Type>,
        span: Span,
    ) -> R<(Atom, Type)> {
        let target = match suffix {
            Some(p) => Some(p),
            None => expected
                .and_then(|t| self.infer.shallow(t).prim())
                .filter(|p| p.is_float()),
        };
        match target {
            Some(PrimType::F32) => {
                Ok((Atom::Const(Const::F32(v as f32)), Type::Prim(PrimType::F32)))
            }
            Some(_) => Ok((Atom::Const(Const::F64(v)), Type::F64)),
            None => {
                let t = self.infer.fresh(Kind::Float);
                if let Type::Infer(var) = t {
                    self.var_spans.insert(var, span);
                }
                Ok((
                    self.emit(
                        "lit",
                        t.clone(),
                        Exp::Atom(Atom::Const(Const::F64(v))),
                        span,
                    ),
                    t,
                ))
            }
        }
    }

    fn var(&mut self, id: &ast::Ident) -> R<(Atom, Type)> {
        match self.lookup(&id.name) {
            Some(Binding::Var(a, t)) => {
                if t.is_fun() {
                    return self.fail(
                        Diagnostic::new("E0408", id.span, format!("`{}` is a function and can only be called or passed as an argument", id.name))
                            .with_label("function used as a value")
                            .with_help(format!("call it with all its arguments: `{} x`", id.name)),
                    );
                }
                return Ok((a, t));
            }
            Some(Binding::LocalFun(..)) => {
                return self.fail(
                    Diagnostic::new(
                        "E0408",
                        id.span,
                        format!(
                            "`{}` is a function and can only be called or passed as an argument",
                            id.name
                        ),
                    )
                    .with_label("function used as a value")
                    .with_help(format!("call it with all its arguments: `{} x`", id.name)),
                );
            }
            None => {}
        }
        if let Some(sig) = self.defs.get(&id.name).cloned() {
            if sig.params.is_empty() {
                let ty = sig.ret.clone();
                return Ok((
                    self.emit(
                        "t",
                        ty.clone(),
                        Exp::Call(sig.core.clone(), vec![]),
                        id.span,
                    ),
                    ty,
                ));
            }
            return self.fail(
                Diagnostic::new("E0409", id.span, format!("`{}` takes {} argument(s) and is used without them", id.name, sig.params.len()))
                    .with_label("not applied")
                    .with_help("Weir has no partial application or function values: call it with all its arguments, or pass it directly as an argument to a function"),
            );
        }
        if is_reserved(&id.name) {
            return self.fail(
                Diagnostic::new("E0409", id.span, format!("the builtin `{}` is used without its arguments", id.name))
                    .with_label("not applied")
                    .with_help("apply it to all its arguments (see docs/language.md §5), or pass it as a function argument"),
            );
        }
        Err(self.unbound(id, Position::Value))
    }

    fn unbound(&mut self, id: &ast::Ident, pos: Position) -> Failed {
        if let Some(k) = self.expanding.iter().rposition(|n| n == &id.name) {
            let through = match &self.expanding[k + 1..] {
                [] => String::new(),
                via => format!(" through `{}`", via.join("`, `")),
            };
            self.diags.push(
                Diagnostic::new("E0410", id.span, format!("the local function `{}` calls itself{through}: recursion is not allowed", id.name))
                    .with_label("recursive use")
                    .with_help("Weir (like F-tilde) has no recursion, in local functions either; iterate with `loop` (or `ifold`, `build`, `map`)"),
            );
            return Failed;
        }
        if id.name == self.current {
            self.diags.push(
                Diagnostic::new("E0410", id.span, format!("`{}` calls itself: recursion is not allowed", id.name))
                    .with_label("recursive use")
                    .with_help("Weir (like F-tilde) has no general recursion; use `loop`, `ifold`, `build` or `map` to iterate"),
            );
            return Failed;
        }
        if self.broken.contains(&id.name) {
            return Failed;
        }
        if self.later.contains_key(&id.name) {
            self.diags.push(
                Diagnostic::new("E0411", id.span, format!("`{}` is defined later in the file", id.name))
                    .with_label("used before its definition")
                    .with_help("move its definition above this one; definitions may only use earlier definitions (this rules out recursion)"),
            );
            return Failed;
        }
        // names of the kind the position needs: functions where one is
        // applied or passed, values elsewhere
        let function = pos == Position::Function;
        let mut candidates: Vec<String> = self
            .scope
            .iter()
            .filter(|(_, b)| match b {
                Binding::LocalFun(..) => function,
                Binding::Var(_, t) => self.infer.resolve(t).is_fun() == function,
            })
            .map(|(n, _)| n.clone())
            .collect();
        candidates.extend(
            self.defs
                .iter()
                .filter(|(_, sig)| sig.params.is_empty() != function)
                .map(|(n, _)| n.clone()),
        );
        if function {
            candidates.extend(Builtin::ALL.iter().map(|b| b.name().to_string()));
            candidates.extend(Wide::NAMES.iter().map(|n| n.to_string()));
            candidates.extend(MathFn::ALL.iter().map(|b| b.name().to_string()));
            candidates.extend(["f64", "f32", "i64", "i32", "bool"].map(String::from));
        }
        // Close in spelling: one edit in a short name, two from six letters
        // on (`inf` is not a misspelt `min`).
        let most = (id.name.chars().count() / 3).clamp(1, 2);
        let best = candidates
            .iter()
            .map(|c| (distance(c, &id.name), c))
            .filter(|(d, c)| *d <= most && *d < c.len())
            .min();
        let constant = match id.name.as_str() {
            "inf" | "infinity" | "Infinity" => Some("inf"),
            "nan" | "NaN" | "NAN" => Some("nan"),
            "pi" | "PI" => Some("pi"),
            _ => None,
        };
        let help = match (constant, best) {
            (Some(c), _) => {
                format!("the float constants are qualified by their type: `f64.{c}` (or `f32.{c}`)")
            }
            (None, Some((_, c))) => format!("did you mean `{c}`?"),
            (None, None) => {
                "define it with `let`, as a parameter, or as an earlier `def`".to_string()
            }
        };
        self.diags.push(
            Diagnostic::new("E0104", id.span, format!("unknown name `{}`", id.name))
                .with_label("not in scope")
                .with_help(help),
        );
        Failed
    }

    fn short_circuit(&mut self, op: ast::BinOp, a: &Expr, b: &Expr, span: Span) -> R<(Atom, Type)> {
        let (aa, at) = self.expr(a, Some(&Type::BOOL))?;
        self.unify_at(
            &at,
            &Type::BOOL,
            a.span,
            &format!("in the left operand of `{}`", op.symbol()),
        )?;
        let mark = self.scope.len();
        self.push_block();
        let r = self.expr(b, Some(&Type::BOOL));
        self.scope.truncate(mark);
        let (ba, bt) = match r {
            Ok(x) => x,
            Err(f) => {
                self.blocks.pop();
                return Err(f);
            }
        };
        let (body_b, _) = self.pop_block(ba, &bt, &[]);
        self.unify_at(
            &bt,
            &Type::BOOL,
            b.span,
            &format!("in the right operand of `{}`", op.symbol()),
        )?;
        let other = Body {
            stmts: vec![],
            result: Atom::Const(Const::Bool(op == ast::BinOp::Or)),
        };
        let exp = if op == ast::BinOp::And {
            Exp::If(aa, body_b, other)
        } else {
            Exp::If(aa, other, body_b)
        };
        Ok((self.emit("t", Type::BOOL, exp, span), Type::BOOL))
    }

    fn arg_in(&mut self, a: &In, expected: Option<&Type>) -> R<(Atom, Type)> {
        match a {
            In::Ast(e) => {
                let r = self.expr(e, expected)?;
                self.no_fun(&r.1, e.span)?;
                Ok(r)
            }
            In::Ready(a, t, _) => Ok((a.clone(), t.clone())),
        }
    }

    /// The help of a type mismatch between the operands `a` (of type `at`)
    /// and `b` (of type `bt`) of a binary operator, where both are scalars:
    /// the conversion that fits. An integer mixed with a float is converted
    /// to the float type (`x * k` with `k: i64` and `k * x` alike: `f64 k`);
    /// else the operand whose type differs from what the context expects;
    /// else the right operand, to the left's type.
    fn operand_conversion(
        &self,
        a: &In,
        at: &Type,
        b: &In,
        bt: &Type,
        expected: Option<&Type>,
    ) -> Option<String> {
        let (Type::Prim(pa), Type::Prim(pb)) = (self.infer.resolve(at), self.infer.resolve(bt))
        else {
            return None;
        };
        if pa == pb {
            return None;
        }
        let context = match expected.map(|t| self.infer.resolve(t)) {
            Some(Type::Prim(p)) => Some(p),
            _ => None,
        };
        let left = if pa.is_int() && pb.is_float() {
            true
        } else if pa.is_float() && pb.is_int() {
            false
        } else {
            context == Some(pb)
        };
        let (to, operand) = if left { (pb, a) } else { (pa, b) };
        let which = if left {
            "the left operand"
        } else {
            "the right operand"
        };
        let to = to.name();
        Some(match operand {
            In::Ast(e) => match operand_text(e) {
                Some(t) => format!("convert {which} explicitly: `{to} {t}`"),
                None => format!("convert {which} explicitly: `{to} (...)`"),
            },
            // (an operator section's operands: elements of arrays, values
            // the program did not write here)
            In::Ready(..) => {
                format!("convert the values of {which} explicitly: each `v` as `{to} v`")
            }
        })
    }

    fn binary(
        &mut self,
        op: ast::BinOp,
        a: &In,
        b: &In,
        op_span: Span,
        span: Span,
        expected: Option<&Type>,
    ) -> R<(Atom, Type)> {
        use ast::BinOp as B;
        if op == B::Concat {
            return self.builtin(Builtin::Concat, &[a.clone(), b.clone()], span, op_span);
        }
        let arith =
            matches!(op, B::Add | B::Sub | B::Mul | B::Div | B::Rem | B::Pow) || op.is_bitwise();
        let (aa, at) = self.arg_in(a, if arith { expected } else { None })?;
        let (ba, bt) = self.arg_in(b, Some(&at))?;
        let ctx = format!("between the operands of `{}`", op.symbol());
        if let Err(e) = self.infer.unify(&bt, &at) {
            let mut d = self
                .mismatch(e, b.span(), &ctx)
                .with_secondary(a.span(), "left operand");
            if let Some(h) = self.operand_conversion(a, &at, b, &bt, expected) {
                d = d.with_help(h);
            }
            if op.is_bitwise() {
                d = d.with_note(format!(
                    "both operands of `{}` have one integer type{}",
                    op.symbol(),
                    if op.is_shift() {
                        ", the shift count too"
                    } else {
                        ""
                    }
                ));
            }
            return self.fail(d);
        }
        let (kind, result) = match op {
            B::And | B::Or => {
                self.unify_at(
                    &at,
                    &Type::BOOL,
                    a.span(),
                    &format!("in the operands of `{}`", op.symbol()),
                )?;
                (Kind::Scalar, Type::BOOL)
            }
            B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge => (Kind::Scalar, Type::BOOL),
            op if op.is_bitwise() => (Kind::Int, at.clone()),
            _ => (Kind::Num, at.clone()),
        };
        if let Err(e) = self.infer.constrain(&at, kind) {
            let mut d = self.mismatch(
                e,
                a.span(),
                &format!("in the operands of `{}`", op.symbol()),
            );
            if op.is_bitwise() {
                d = d.with_note(format!(
                    "`{}` works on integers (i8, i16, i32, i64, u8, u16, u32, u64), both of the same type",
                    op.symbol()
                ));
            }
            return self.fail(d);
        }
        let iop = match op {
            B::Add => BinOp::Add,
            B::Sub => BinOp::Sub,
            B::Mul => BinOp::Mul,
            B::Div => BinOp::Div,
            B::Rem => BinOp::Rem,
            B::Pow => BinOp::Pow,
            B::Eq => BinOp::Eq,
            B::Ne => BinOp::Ne,
            B::Lt => BinOp::Lt,
            B::Le => BinOp::Le,
            B::Gt => BinOp::Gt,
            B::Ge => BinOp::Ge,
            B::And => BinOp::And,
            B::Or => BinOp::Or,
            B::Concat => BinOp::Concat,
            B::BitAnd => BinOp::BitAnd,
            B::BitOr => BinOp::BitOr,
            B::BitXor => BinOp::BitXor,
            B::Shl => BinOp::Shl,
            B::Shr => BinOp::Shr,
            B::UShr => BinOp::UShr,
        };
        Ok((
            self.emit("t", result.clone(), Exp::Bin(iop, aa, ba), span),
            result,
        ))
    }

    /// `a[e0, e1, ...]`: each entry an index (the dimension goes) or a slice
    /// (it stays), in any order. Entries are elaborated left to right, each
    /// where it is applied. On the first dimension left: `a[i]`, `a[s:e]`.
    /// On a later one, `p` dimensions in (those kept by slices before it):
    /// the second dimension through a `transpose` (`(transpose a)[i]`,
    /// `transpose ((transpose a)[s:e])`: views of `a` where the views decision
    /// keeps them, a column or a block of columns), a deeper one by a `map`
    /// over the rows after a check of the index or slice against that
    /// dimension (so an index out of bounds is an error also where there is
    /// no row).
    #[inline(never)]
    fn index(&mut self, a: &Expr, entries: &[IndexEntry], span: Span) -> R<(Atom, Type)> {
        let (mut arr, mut ty) = self.expr(a, None)?;
        // the dims kept so far (by slices), in front of the one indexed next
        let mut p = 0usize;
        for (k, entry) in entries.iter().enumerate() {
            let espan = match entry {
                IndexEntry::Index(i) => i.span,
                IndexEntry::Slice(_, _, _, s) => *s,
            };
            // the type at dimension p
            let mut at = ty.clone();
            for _ in 0..p {
                let (_, e) = self.expect_array(&at, a.span, "indexing")?;
                at = e;
            }
            if k > 0 && !matches!(self.infer.shallow(&at), Type::Array(..) | Type::Infer(_)) {
                // (each entry before this one used a dimension)
                let dims = k;
                return self.fail(
                    Diagnostic::new(
                        "E0210",
                        espan,
                        format!("too many indices: the array has {dims} dimension(s)"),
                    )
                    .with_label("extra index")
                    .with_help("remove the extra index"),
                );
            }
            if p > 0 {
                match entry {
                    IndexEntry::Slice(None, None, None, _) => {
                        self.expect_array(&at, a.span, "indexing")?;
                    }
                    IndexEntry::Index(i) => {
                        let ia = self.index_exp(i)?;
                        (arr, ty) = self.index_at(arr, ty, p, Entry::Index(ia), span)?;
                        continue;
                    }
                    IndexEntry::Slice(s, e, k, sspan) => {
                        let end = Exp::Dim(arr.clone(), p);
                        let (sa, ea) = self.slice_bounds(s, e, *sspan, end, span)?;
                        let ka = self.step(k)?;
                        (arr, ty) = self.index_at(arr, ty, p, Entry::Slice(sa, ea, ka), span)?;
                    }
                }
                p += 1;
                continue;
            }
            let (size, elem) = self.expect_array(&ty, a.span, "indexing")?;
            match entry {
                IndexEntry::Index(i) => {
                    let ia = self.index_exp(i)?;
                    arr = self.emit("t", elem.clone(), Exp::Index(arr, ia), span);
                    ty = elem;
                }
                IndexEntry::Slice(s, e, k, sspan) => {
                    let end = Exp::Prim(Prim::Length { a: arr.clone() });
                    let (sa, ea) = self.slice_bounds(s, e, *sspan, end, span)?;
                    let t = Type::array(slice_size(&sa, &ea, size, e.is_none()), elem.clone());
                    arr = self.emit("t", t.clone(), Exp::Slice(arr, sa, ea), span);
                    ty = t;
                    if let Some(k) = self.step(k)? {
                        ty = Type::array(Size::Unknown, elem);
                        arr =
                            self.emit("t", ty.clone(), Exp::Prim(Prim::Stride { k, a: arr }), span);
                    }
                    p = 1;
                }
            }
        }
        Ok((arr, ty))
    }

    /// The bounds of a slice `s:e`, elaborated (`i64`s): `s` defaults to 0,
    /// `e` to `end` (the dimension's size).
    fn slice_bounds(
        &mut self,
        s: &Option<Box<Expr>>,
        e: &Option<Box<Expr>>,
        sspan: Span,
        end: Exp,
        span: Span,
    ) -> R<(Atom, Atom)> {
        let (sa, st) = match s {
            Some(s) => self.expr(s, Some(&Type::I64))?,
            None => (Atom::Const(Const::I64(0)), Type::I64),
        };
        let sa = self.integer_as_i64(
            sa,
            &st,
            s.as_ref().map(|s| s.span).unwrap_or(sspan),
            "in the slice start",
        )?;
        let (ea, et) = match e {
            Some(e) => self.expr(e, Some(&Type::I64))?,
            None => (self.emit("t", Type::I64, end, span), Type::I64),
        };
        let ea = self.integer_as_i64(
            ea,
            &et,
            e.as_ref().map(|e| e.span).unwrap_or(sspan),
            "in the slice end",
        )?;
        Ok((sa, ea))
    }

    /// The step of a slice `s:e:k`, elaborated (an `i64`).
    fn step(&mut self, k: &Option<Box<Expr>>) -> R<Option<Atom>> {
        let Some(k) = k else { return Ok(None) };
        let (ka, kt) = self.expr(k, Some(&Type::I64))?;
        self.unify_at(&kt, &Type::I64, k.span, "in the slice step (steps are i64)")?;
        Ok(Some(ka))
    }

    /// Index or slice dimension `p >= 1` of `arr` (see [`Checker::index`]).
    #[inline(never)]
    fn index_at(
        &mut self,
        arr: Atom,
        ty: Type,
        p: usize,
        entry: Entry,
        span: Span,
    ) -> R<(Atom, Type)> {
        let (d0, e0) = self.expect_array(&ty, span, "indexing")?;
        let (d1, e1) = self.expect_array(&e0, span, "indexing")?;
        // (a column, `a[s:e, j]`, is a row of the transpose; a block,
        // `a[s:e, s2:e2]`, is a map over its rows as for a deeper dimension:
        // its reads `b[i][j]` are `a[s + i][s2 + j]`, along the rows of `a`,
        // where a transposed block read by a map over rows was built whole,
        // transposed, every time)
        if p == 1 && matches!(entry, Entry::Index(_)) {
            let tt = Type::array(d1.clone(), Type::array(d0.clone(), e1.clone()));
            let t = self.emit("t", tt, Exp::Prim(Prim::Transpose { a: arr }), span);
            return Ok(match entry {
                Entry::Index(i) => {
                    let rt = Type::array(d0, e1);
                    (self.emit("t", rt.clone(), Exp::Index(t, i), span), rt)
                }
                Entry::Slice(s, e, k) => {
                    let st = Type::array(
                        slice_size(&s, &e, d1, false),
                        Type::array(d0.clone(), e1.clone()),
                    );
                    let mut u = self.emit("t", st.clone(), Exp::Slice(t, s, e), span);
                    let Type::Array(mut n, _) = st else {
                        return Err(Failed);
                    };
                    if let Some(k) = k {
                        n = Size::Unknown;
                        let kt = Type::array(n.clone(), Type::array(d0.clone(), e1.clone()));
                        u = self.emit("t", kt, Exp::Prim(Prim::Stride { k, a: u }), span);
                    }
                    let rt = Type::array(d0, Type::Array(n, Box::new(e1)));
                    (
                        self.emit("t", rt.clone(), Exp::Prim(Prim::Transpose { a: u }), span),
                        rt,
                    )
                }
            });
        }
        // a deeper dimension: checked against its size, then a map over the rows
        let n = self.emit("t", Type::I64, Exp::Dim(arr.clone(), p), span);
        let (kind, args) = match &entry {
            Entry::Index(i) => (CheckKind::Index, vec![i.clone(), n]),
            Entry::Slice(s, e, _) => (CheckKind::Slice, vec![s.clone(), e.clone(), n]),
        };
        self.emit(
            "chk",
            Type::I64,
            Exp::Check(Box::new(Check::new(kind, args, ""))),
            span,
        );
        let mark = self.scope.len();
        let (row, ix, lo, hi) = ("row'", "ix'", "lo'", "hi'");
        let var = |name: &str| Expr {
            kind: ExprKind::Var(ast::Ident {
                name: name.to_string(),
                span,
            }),
            span,
        };
        let mut inner: Vec<IndexEntry> = (0..p - 1)
            .map(|_| IndexEntry::Slice(None, None, None, span))
            .collect();
        match entry {
            Entry::Index(i) => {
                self.scope
                    .push((ix.to_string(), Binding::Var(i, Type::I64)));
                inner.push(IndexEntry::Index(var(ix)));
            }
            Entry::Slice(s, e, k) => {
                self.scope
                    .push((lo.to_string(), Binding::Var(s, Type::I64)));
                self.scope
                    .push((hi.to_string(), Binding::Var(e, Type::I64)));
                let step = k.map(|k| {
                    self.scope
                        .push(("step'".to_string(), Binding::Var(k, Type::I64)));
                    Box::new(var("step'"))
                });
                inner.push(IndexEntry::Slice(
                    Some(Box::new(var(lo))),
                    Some(Box::new(var(hi))),
                    step,
                    span,
                ));
            }
        }
        let lambda = Expr {
            kind: ExprKind::Lambda(
                vec![Pat::Var(
                    ast::Ident {
                        name: row.to_string(),
                        span,
                    },
                    None,
                )],
                Box::new(Expr {
                    kind: ExprKind::Index(Box::new(var(row)), inner),
                    span,
                }),
            ),
            span,
        };
        let r = self.builtin(
            Builtin::Map,
            &[In::Ast(&lambda), In::Ready(arr, ty, span)],
            span,
            span,
        );
        self.scope.truncate(mark);
        r
    }

    // ------------------------------------------------------------ application

    fn arity_error(&mut self, what: &str, want: usize, got: usize, span: Span) -> Failed {
        let help = if got < want {
            "pass all the arguments: a call with fewer (a partial application) is a function, allowed only where a function is expected, as in `map (f x) ys`"
        } else {
            "too many arguments: functions cannot return functions, so every call takes exactly the declared arguments"
        };
        self.diags.push(
            Diagnostic::new(
                "E0412",
                span,
                format!("{what} takes {want} argument(s) but is given {got}"),
            )
            .with_label(format!("{got} argument(s)"))
            .with_help(help),
        );
        Failed
    }

    fn apply(
        &mut self,
        f: &Expr,
        args: &[In],
        span: Span,
        expected: Option<&Type>,
    ) -> R<(Atom, Type)> {
        match &f.kind {
            ExprKind::Var(id) => {
                match self.lookup(&id.name) {
                    Some(Binding::Var(Atom::Var(core), t)) => {
                        let Type::Fun(ps, r) = self.infer.shallow(&t) else {
                            let st = self.show(&t);
                            return self.fail(
                                Diagnostic::new("E0413", id.span, format!("`{}` has type {st} and cannot be called", id.name))
                                    .with_label("not a function")
                                    .with_help("to index an array write `a[i]` with no space before `[`"),
                            );
                        };
                        if ps.len() != args.len() {
                            return Err(self.arity_error(&format!("`{}`", id.name), ps.len(), args.len(), span));
                        }
                        let mut atoms = Vec::new();
                        for (i, (p, a)) in ps.iter().zip(args).enumerate() {
                            let (at, ty) = self.arg_in(a, Some(p))?;
                            let ctx = format!("in the {} argument of `{}`", ordinal(i), id.name);
                            match a {
                                In::Ast(e) => self.unify_expr(&ty, p, e, &ctx)?,
                                In::Ready(..) => self.unify_at(&ty, p, a.span(), &ctx)?,
                            }
                            atoms.push(at);
                        }
                        let r = *r;
                        return Ok((self.emit("t", r.clone(), Exp::Apply(core, atoms), span), r));
                    }
                    Some(Binding::Var(..)) => {
                        return self.fail(
                            Diagnostic::new("E0413", id.span, format!("`{}` is not a function", id.name))
                                .with_label("not a function")
                                .with_help("to index an array write `a[i]` with no space before `[`"),
                        );
                    }
                    Some(Binding::LocalFun(lf, captured)) => {
                        return self.local_fun_call(&id.name, &lf, captured.to_vec(), args, span);
                    }
                    None => {}
                }
                if let Some(sig) = self.defs.get(&id.name).cloned() {
                    return self.call_def(&id.name, &sig, args, span);
                }
                if let Some(b) = Builtin::from_surface_name(&id.name) {
                    return self.builtin(b, args, span, id.span);
                }
                if let Some(w) = Wide::from_name(&id.name) {
                    return self.wide(w, &id.name, args, span);
                }
                if let Some(m) = MathFn::from_name(&id.name) {
                    return self.math(m, args, span, expected);
                }
                if let Some(p) = PrimType::from_name(&id.name) {
                    if args.len() != 1 {
                        return Err(self.arity_error(&format!("the conversion `{}`", id.name), 1, args.len(), span));
                    }
                    let (a, t) = self.arg_in(&args[0], None)?;
                    if let Err(e) = self.infer.constrain(&t, Kind::Scalar) {
                        let d = self.mismatch(e, args[0].span(), &format!("in the argument of `{}`", id.name));
                        return self.fail(d);
                    }
                    let ty = Type::Prim(p);
                    return Ok((self.emit("t", ty.clone(), Exp::Convert(p, a), span), ty));
                }
                Err(self.unbound(id, Position::Function))
            }
            ExprKind::OpSection(op) => {
                if args.len() != 2 {
                    return Err(self.arity_error(&format!("`({})`", op.symbol()), 2, args.len(), span));
                }
                if matches!(op, ast::BinOp::And | ast::BinOp::Or)
                    && let (In::Ast(a), In::Ast(b)) = (&args[0], &args[1]) {
                        return self.short_circuit(*op, a, b, span);
                    }
                self.binary(*op, &args[0], &args[1], f.span, span, expected)
            }
            ExprKind::LeftSection(a, op) | ExprKind::RightSection(op, a) => {
                let left = matches!(f.kind, ExprKind::LeftSection(..));
                if args.len() != 1 {
                    let shown = if left {
                        format!("the operator section `(... {})`", op.symbol())
                    } else {
                        format!("the operator section `({} ...)`", op.symbol())
                    };
                    return Err(self.arity_error(&shown, 1, args.len(), span));
                }
                let operand = In::Ast(a);
                let (x, y) = if left { (&operand, &args[0]) } else { (&args[0], &operand) };
                if matches!(op, ast::BinOp::And | ast::BinOp::Or)
                    && let (In::Ast(x), In::Ast(y)) = (x, y)
                {
                    return self.short_circuit(*op, x, y, span);
                }
                self.binary(*op, x, y, f.span, span, expected)
            }
            ExprKind::Compose(first, then, op_span) => {
                let sym = compose_symbol(first, *op_span);
                self.compose_operand(first, *op_span, sym)?;
                self.compose_operand(then, *op_span, sym)?;
                let (r, t) = self.apply_fn(first, args, span, None)?;
                self.apply_fn(then, &[In::Ready(r, t, first.span)], span, expected)
            }
            ExprKind::Lambda(pats, body) => {
                let d = ast::LocalFun {
                    name: ast::Ident {
                        name: "lambda".into(),
                        span: f.span,
                    },
                    size_params: vec![],
                    params: pats.clone(),
                    ret: None,
                    body: (**body).clone(),
                };
                self.local_def_call(None, &d, self.scope.clone(), args, span)
            }
            ExprKind::Apply(..) => self.fail(
                Diagnostic::new("E0414", f.span, "the result of a call is applied to more arguments")
                    .with_label("this call does not return a function")
                    .with_help("functions cannot return functions; pass all arguments in one call"),
            ),
            _ => self.fail(
                Diagnostic::new("E0413", f.span, "this expression is not a function and cannot be applied")
                    .with_label("not a function")
                    .with_help("to index an array write `a[i]` with no space before `[`; to build a tuple write `(a, b)`"),
            ),
        }
    }

    /// Apply a function form to `args`, where a partial application
    /// (`map f`, `add 1.0`) takes the arguments after its own: the operands
    /// of a composition, a function passed as an argument.
    fn apply_fn<'e>(
        &mut self,
        f: &'e Expr,
        args: &[In<'e>],
        span: Span,
        expected: Option<&Type>,
    ) -> R<(Atom, Type)> {
        match &f.kind {
            ExprKind::Apply(g, given) => {
                let mut all: Vec<In> = given.iter().map(In::Ast).collect();
                all.extend(args.iter().cloned());
                self.apply_fn(g, &all, span, expected)
            }
            _ => self.apply(f, args, span, expected),
        }
    }

    /// An operand of `>->`/`<-<` must be a function form: a name that is
    /// not a value, a lambda, a section, a composition, or a partial
    /// application of one.
    fn compose_operand(&mut self, e: &Expr, op_span: Span, sym: &str) -> R<()> {
        let mut head = e;
        while let ExprKind::Apply(g, _) = &head.kind {
            head = g;
        }
        let function = match &head.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Binding::Var(_, t)) => self.infer.resolve(&t).is_fun(),
                Some(Binding::LocalFun(..)) => true,
                None => self
                    .defs
                    .get(&id.name)
                    .is_none_or(|sig| !sig.params.is_empty()),
            },
            ExprKind::OpSection(_)
            | ExprKind::LeftSection(..)
            | ExprKind::RightSection(..)
            | ExprKind::Lambda(..)
            | ExprKind::Compose(..) => true,
            _ => false,
        };
        if function {
            return Ok(());
        }
        self.fail(
            Diagnostic::new("E0425", e.span, format!("the operands of `{sym}` must be functions, but this is a value"))
                .with_label("not a function")
                .with_secondary(op_span, "composition")
                .with_help("compose functions: names of definitions, builtins or local functions, lambdas, sections such as `(* 2.0)`, or partial applications such as `map f`; to apply a function to a value write `f x` or `x |> f`"),
        )
    }

    /// Bind a local function (`let f x = e`, `let f = \x -> e`, `let f = (* 2.0)`)
    /// in the current scope.
    fn bind_local_fun(&mut self, id: &ast::Ident, lf: LocalFn) -> R<()> {
        if is_reserved(&id.name) {
            return self.fail(
                Diagnostic::new(
                    "E0101",
                    id.span,
                    format!("`{}` is a builtin and cannot be rebound", id.name),
                )
                .with_label("reserved name")
                .with_help("choose another name"),
            );
        }
        if let LocalFn::Def(d) = &lf {
            let mut seen = HashSet::new();
            for sp in &d.size_params {
                if !seen.insert(sp.name.as_str()) {
                    return self.fail(
                        Diagnostic::new(
                            "E0102",
                            sp.span,
                            format!("size parameter `{}` is declared twice", sp.name),
                        )
                        .with_label("second declaration")
                        .with_help("remove one of them"),
                    );
                }
                if size_param_position(d, &sp.name).is_none() {
                    return self.fail(
                        Diagnostic::new(
                            "E0303",
                            sp.span,
                            format!(
                                "size parameter `{}` is not used by any parameter's type",
                                sp.name
                            ),
                        )
                        .with_label("cannot be determined from the arguments")
                        .with_help(format!(
                            "use it in the type of a parameter, as in `(a: [{}]f64)`, or remove it",
                            sp.name
                        )),
                    );
                }
            }
        }
        // shared, not copied: a chain of local functions each capturing
        // the ones before stays linear in size
        let captured = Rc::new(self.scope.clone());
        self.scope
            .push((id.name.clone(), Binding::LocalFun(lf, captured)));
        Ok(())
    }

    /// Inline a local function at its call site: its body (or function
    /// form) in the scope it was defined in, the arguments evaluated here.
    fn local_fun_call(
        &mut self,
        name: &str,
        lf: &LocalFn,
        captured: Vec<(String, Binding)>,
        args: &[In],
        span: Span,
    ) -> R<(Atom, Type)> {
        self.expansion_budget(name, span)?;
        match lf {
            LocalFn::Def(d) => self.local_def_call(Some(name), d, captured, args, span),
            LocalFn::Alias(e) => {
                let mut ready = Vec::new();
                for a in args {
                    let (at, t) = self.arg_in(a, None)?;
                    ready.push(In::Ready(at, t, a.span()));
                }
                let saved = std::mem::replace(&mut self.scope, captured);
                self.expanding.push(name.to_string());
                let out = self.apply_fn(e, &ready, span, None);
                self.expanding.pop();
                self.scope = saved;
                out
            }
        }
    }

    /// E0421 where the expansions of local functions have made the
    /// definition too large ([`MAX_EXPANDED_STMTS`]): checked at each
    /// expansion, so the work stays bounded whatever the program.
    fn expansion_budget(&mut self, name: &str, span: Span) -> R<()> {
        if self.expanding.is_empty() {
            self.expansion_root = Some(span);
        }
        if self.expanded <= MAX_EXPANDED_STMTS {
            return Ok(());
        }
        let current = self.current.clone();
        let mut d = Diagnostic::new(
                "E0421",
                span,
                format!(
                    "program too large: expanding the local functions of `{current}` at their calls makes more than {MAX_EXPANDED_STMTS} statements"
                ),
            )
            .with_label(format!("this call of `{name}` is past the limit"))
            .with_help("a local function is copied at every call, so local functions calling each other several times grow exponentially; make the repeated ones top-level `def`s (a `def` stays one function in the compiled code)");
        if let Some(root) = self.expansion_root.filter(|r| *r != span) {
            d = d.with_secondary(root, "expanded from this call");
        }
        self.fail(d)
    }

    /// Inline a local function with parameters (or a directly applied
    /// lambda) at its call site.
    fn local_def_call(
        &mut self,
        local: Option<&str>,
        d: &ast::LocalFun,
        captured: Vec<(String, Binding)>,
        args: &[In],
        span: Span,
    ) -> R<(Atom, Type)> {
        let name = local.unwrap_or("lambda");
        if d.params.len() != args.len() {
            return Err(self.arity_error(&format!("`{name}`"), d.params.len(), args.len(), span));
        }
        let mut ready = Vec::new();
        for a in args {
            let (at, t) = self.arg_in(a, None)?;
            ready.push((at, t, a.span()));
        }
        let saved = std::mem::replace(&mut self.scope, captured);
        let mark = self.expanding.len();
        self.expanding.extend(local.map(String::from));
        let out = self.local_def_body(name, d, ready, span);
        self.expanding.truncate(mark);
        self.scope = saved;
        out
    }

    /// The body of a local function, its parameters bound to `ready`: its
    /// size parameters are the sizes of the arguments where the parameters'
    /// types name them; annotations of the parameters and the result are
    /// checked as a typed `let`'s (at run time where a size is not known).
    fn local_def_body(
        &mut self,
        name: &str,
        d: &ast::LocalFun,
        ready: Vec<(Atom, Type, Span)>,
        span: Span,
    ) -> R<(Atom, Type)> {
        for sp in &d.size_params {
            let Some((j, k)) = size_param_position(d, &sp.name) else {
                return Err(Failed);
            };
            let (a, t, aspan) = ready[j].clone();
            let what = format!(
                "the {} argument of `{name}` (its type names the size `{}`)",
                ordinal(j),
                sp.name
            );
            let mut at = t;
            let mut size = Size::Unknown;
            for _ in 0..=k {
                let (s, e) = self.expect_array(&at, aspan, &what)?;
                size = s;
                at = e;
            }
            let n = match self.infer.size(&size) {
                Size::Var(v) => Atom::Var(v),
                Size::Const(c) => Atom::Const(Const::I64(c)),
                _ => self.emit(&sp.name, Type::I64, Exp::Dim(a, k), span),
            };
            self.scope
                .push((sp.name.clone(), Binding::Var(n, Type::I64)));
        }
        for (p, (a, t, _)) in d.params.iter().zip(ready) {
            if let Pat::Var(_, Some(te)) | Pat::Wild(_, Some(te)) = p {
                let ann = self.type_exp(te, None, false)?;
                self.annotation_checks(&a, &t, &ann, 0, te.span())?;
            }
            self.bind_pat(p, a, t, span)?;
        }
        let ann = match &d.ret {
            Some(te) => Some(self.type_exp(te, None, false)?),
            None => None,
        };
        let (a, t) = self.expr(&d.body, ann.as_ref())?;
        self.no_fun(&t, d.body.span)?;
        if let (Some(ann), Some(te)) = (&ann, &d.ret) {
            self.annotation_checks(&a, &t, ann, 0, te.span())?;
            self.unify_expr(
                &t,
                ann,
                &d.body,
                &format!("between the body of `{name}` and its declared result type"),
            )?;
        }
        Ok((a, t))
    }

    fn call_def(&mut self, name: &str, sig: &DefSig, args: &[In], span: Span) -> R<(Atom, Type)> {
        if sig.params.len() != args.len() {
            return Err(self.arity_error(&format!("`{name}`"), sig.params.len(), args.len(), span));
        }
        let mut subst = HashMap::new();
        for s in &sig.size_params {
            subst.insert(s.clone(), self.infer.fresh_size());
        }
        let params: Vec<Type> = sig
            .params
            .iter()
            .map(|(_, t)| subst_sizes(t, &subst))
            .collect();
        let mut out: Vec<Option<Arg>> = vec![None; args.len()];
        // values first, so that lambdas see known parameter types
        for (i, (p, a)) in params.iter().zip(args).enumerate() {
            if p.is_fun() {
                continue;
            }
            let (at, ty) = self.arg_in(a, Some(p))?;
            let ctx = format!("in the {} argument of `{name}`", ordinal(i));
            match a {
                // The argument as written names the conversion in the help.
                In::Ast(e) => self.unify_expr(&ty, p, e, &ctx)?,
                In::Ready(..) => self.unify_at(&ty, p, a.span(), &ctx)?,
            }
            out[i] = Some(Arg::Atom(at));
        }
        for (i, (p, a)) in params.iter().zip(args).enumerate() {
            if let Type::Fun(ps, r) = p {
                let (f, rt) =
                    self.fun_arg(a, ps, &format!("the {} argument of `{name}`", ordinal(i)))?;
                self.unify_at(
                    &rt,
                    r,
                    a.span(),
                    &format!("in the result of the function passed to `{name}`"),
                )?;
                out[i] = Some(Arg::Fun(f));
            }
        }
        let ret = subst_sizes(&sig.ret, &subst);
        let ret = self.infer.resolve(&ret);
        let ret = unknown_infer_sizes(&ret);
        let args: Vec<Arg> = out.into_iter().flatten().collect();
        Ok((
            self.emit("t", ret.clone(), Exp::Call(sig.core.clone(), args), span),
            ret,
        ))
    }

    /// Elaborate a function argument against the expected parameter types.
    fn fun_arg(&mut self, a: &In, params: &[Type], what: &str) -> R<(Fun, Type)> {
        let e = match a {
            In::Ast(e) => *e,
            In::Ready(_, _, s) => {
                return self.fail(
                    Diagnostic::new("E0415", *s, format!("{what} must be a function"))
                        .with_label("a value")
                        .with_help("pass a lambda such as `\\x -> x + 1.0`"),
                );
            }
        };
        let span = e.span;
        match &e.kind {
            ExprKind::Lambda(pats, body) => self.lambda(pats, body, params, self.scope.clone(), what, span),
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Binding::LocalFun(LocalFn::Def(d), captured))
                    if d.size_params.is_empty() && d.ret.is_none() =>
                {
                    self.expansion_budget(&id.name, span)?;
                    self.expanding.push(id.name.clone());
                    let r = self.lambda(&d.params, &d.body, params, captured.to_vec(), what, span);
                    self.expanding.pop();
                    r
                }
                Some(Binding::LocalFun(..)) => self.eta(e, params, what, span),
                Some(Binding::Var(Atom::Var(core), t)) if t.is_fun() => {
                    let ft = Type::Fun(params.to_vec(), Box::new(self.infer.fresh(Kind::Any)));
                    if let Type::Fun(ps, _) = self.infer.shallow(&t)
                        && ps.len() != params.len() {
                            return Err(self.arity_error(&format!("`{}`", id.name), ps.len(), params.len(), span));
                        }
                    self.unify_at(&t, &ft, span, &format!("in {what}"))?;
                    let Type::Fun(_, r) = self.infer.resolve(&t) else {
                        return Err(Failed);
                    };
                    Ok((Fun::Var(core), *r))
                }
                Some(Binding::Var(_, t)) => {
                    let st = self.show(&t);
                    self.fail(
                        Diagnostic::new("E0415", span, format!("{what} must be a function, but `{}` has type {st}", id.name))
                            .with_label("not a function")
                            .with_help("pass a lambda such as `\\x -> x + 1.0`"),
                    )
                }
                None => self.eta(e, params, what, span),
            },
            // a section, a composition, a partial application (`map f`, `add 1.0`)
            ExprKind::OpSection(_)
            | ExprKind::LeftSection(..)
            | ExprKind::RightSection(..)
            | ExprKind::Compose(..)
            | ExprKind::Apply(..) => self.eta(e, params, what, span),
            _ => self.fail(
                Diagnostic::new("E0415", span, format!("{what} must be a function"))
                    .with_label("not a function")
                    .with_help("pass a lambda such as `\\x -> x + 1.0`, a definition's name, or an operator like `(+)`"),
            ),
        }
    }

    /// Eta-expand a named definition, builtin, conversion or operator into a lambda.
    fn eta(&mut self, f: &Expr, params: &[Type], what: &str, span: Span) -> R<(Fun, Type)> {
        let mut names = Vec::new();
        let mut ins = Vec::new();
        for p in params {
            let n = self.fresh_name("x");
            names.push((n.clone(), p.clone()));
            ins.push(In::Ready(Atom::Var(n), p.clone(), span));
        }
        if let ExprKind::Var(id) = &f.kind {
            let known = self.defs.contains_key(&id.name)
                || is_reserved(&id.name)
                || matches!(self.lookup(&id.name), Some(Binding::LocalFun(..)));
            if !known {
                return Err(self.unbound(id, Position::Function));
            }
        }
        let _ = what;
        self.push_block();
        let r = self.apply_fn(f, &ins, span, None);
        let (atom, ty) = match r {
            Ok(x) => x,
            Err(e) => {
                self.blocks.pop();
                return Err(e);
            }
        };
        let locals: Vec<Name> = names.iter().map(|(n, _)| n.clone()).collect();
        let (body, ret) = self.pop_block(atom, &ty, &locals);
        Ok((
            Fun::Lambda(Box::new(Lambda {
                params: names,
                ret: ret.clone(),
                body,
            })),
            ret,
        ))
    }

    fn lambda(
        &mut self,
        pats: &[Pat],
        body: &Expr,
        params: &[Type],
        scope: Vec<(String, Binding)>,
        what: &str,
        span: Span,
    ) -> R<(Fun, Type)> {
        if pats.len() != params.len() {
            return self.fail(
                Diagnostic::new(
                    "E0417",
                    span,
                    format!(
                        "this lambda takes {} parameter(s), but {what} is called with {}",
                        pats.len(),
                        params.len()
                    ),
                )
                .with_label(format!("{} parameter(s)", pats.len()))
                .with_help(format!("write a lambda with {} parameter(s)", params.len())),
            );
        }
        let saved = std::mem::replace(&mut self.scope, scope);
        self.push_block();
        let mut names = Vec::new();
        let mut r = Ok(());
        for (p, t) in pats.iter().zip(params) {
            let n = match p {
                Pat::Var(id, _) => self.fresh_name(&id.name),
                _ => self.fresh_name("p"),
            };
            names.push((n.clone(), t.clone()));
            if r.is_ok() {
                r = self.bind_pat(p, Atom::Var(n), t.clone(), p.span());
            }
        }
        let res = r.and_then(|_| self.expr(body, None));
        self.scope = saved;
        let (atom, ty) = match res {
            Ok(x) => x,
            Err(e) => {
                self.blocks.pop();
                return Err(e);
            }
        };
        if self.infer.resolve(&ty).has_fun() {
            self.blocks.pop();
            return self.fail(
                Diagnostic::new("E0418", body.span, "a lambda cannot return a function")
                    .with_label("returns a function")
                    .with_help("F-tilde restriction: give the lambda all the parameters at once"),
            );
        }
        let locals: Vec<Name> = names.iter().map(|(n, _)| n.clone()).collect();
        let (b, ret) = self.pop_block(atom, &ty, &locals);
        Ok((
            Fun::Lambda(Box::new(Lambda {
                params: names,
                ret: ret.clone(),
                body: b,
            })),
            ret,
        ))
    }

    fn math(
        &mut self,
        m: MathFn,
        args: &[In],
        span: Span,
        expected: Option<&Type>,
    ) -> R<(Atom, Type)> {
        if args.len() != m.arity() {
            return Err(self.arity_error(&format!("`{}`", m.name()), m.arity(), args.len(), span));
        }
        // (the result of `popc`, `clz`, `ctz` is an i32 whatever the argument)
        let (a0, t0) = self.arg_in(&args[0], if m.bit_count() { None } else { expected })?;
        let kind = if m.bit_count() {
            Kind::Int
        } else if m.allows_int() {
            Kind::Num
        } else {
            Kind::Float
        };
        if let Err(e) = self.infer.constrain(&t0, kind) {
            let d = self
                .mismatch(
                    e,
                    args[0].span(),
                    &format!("in the argument of `{}`", m.name()),
                )
                .with_note(format!(
                    "`{}` works on {}",
                    m.name(),
                    if m.bit_count() {
                        "integers (i8, i16, i32, i64, u8, u16, u32, u64)"
                    } else if m.allows_int() {
                        "numbers"
                    } else {
                        "floats (f64, f32)"
                    }
                ));
            return self.fail(d);
        }
        let mut atoms = vec![a0];
        for (i, a) in args.iter().enumerate().skip(1) {
            let (ai, ti) = self.arg_in(a, Some(&t0))?;
            self.unify_at(
                &ti,
                &t0,
                a.span(),
                &format!("in the {} argument of `{}`", ordinal(i), m.name()),
            )?;
            atoms.push(ai);
        }
        let rt = if m.bit_count() {
            Type::Prim(PrimType::I32)
        } else {
            t0
        };
        Ok((self.emit("t", rt.clone(), Exp::Math(m, atoms), span), rt))
    }

    // ------------------------------------------------------------ builtins

    fn builtin(&mut self, b: Builtin, args: &[In], span: Span, name_span: Span) -> R<(Atom, Type)> {
        use Builtin::*;
        let kinds = b.arg_kinds();
        if args.len() != kinds.len() {
            return Err(self.arity_error(
                &format!("`{}`", b.name()),
                kinds.len(),
                args.len(),
                span,
            ));
        }
        let _ = name_span;
        let name = b.name();
        // elaborate value arguments first
        let mut vals: Vec<Option<(Atom, Type)>> = vec![None; args.len()];
        for (i, (k, a)) in kinds.iter().zip(args).enumerate() {
            if k.is_none() {
                let exp = match (b, i) {
                    (
                        Build | Iota | Replicate | Split | Rotate | Stride | Unflatten | Slide
                        | Pad,
                        0,
                    )
                    | (Unflatten | Slide | Pad, 1)
                    | (IFold, 2)
                    | (IReduce, 2)
                    | (IReduceByIndex, 3) => Some(Type::I64),
                    _ => None,
                };
                let r = self.arg_in(a, exp.as_ref())?;
                if let Some(e) = exp {
                    self.unify_at(
                        &r.1,
                        &e,
                        a.span(),
                        &format!("in the {} argument of `{name}`", ordinal(i)),
                    )?;
                }
                vals[i] = Some(r);
            }
        }
        let v = |i: usize| -> (Atom, Type) {
            vals[i]
                .clone()
                .unwrap_or((Atom::Const(Const::Bool(false)), Type::BOOL))
        };
        let what = |i: usize| format!("the {} argument of `{name}`", ordinal(i));
        let mut fun_args: Vec<Option<Fun>> = vec![None; args.len()];
        let ret: Type = match b {
            Build => {
                let (n, _) = v(0);
                let (f, r) = self.fun_arg(&args[1], &[Type::I64], &what(1))?;
                fun_args[1] = Some(f);
                Type::array(self.size_of_arg(&n, &args[0]), r)
            }
            IFold => {
                let (_, init_t) = v(1);
                let g = self.generalize(&init_t);
                let (f, r) = self.fun_arg(&args[0], &[g.clone(), Type::I64], &what(0))?;
                fun_args[0] = Some(f);
                self.loop_result(&init_t, &g, &r, args[0].span(), "ifold")?
            }
            Fold => {
                let (_, init_t) = v(1);
                let (_, el) = self.expect_array(&v(2).1, args[2].span(), name)?;
                let g = self.generalize(&init_t);
                let (f, r) = self.fun_arg(&args[0], &[g.clone(), el], &what(0))?;
                fun_args[0] = Some(f);
                self.loop_result(&init_t, &g, &r, args[0].span(), "fold")?
            }
            Length => {
                self.expect_array(&v(0).1, args[0].span(), name)?;
                Type::I64
            }
            Map | Map2 | Map3 => {
                let n = args.len() - 1;
                let mut els = Vec::new();
                let mut size: Option<Size> = None;
                for (i, a) in args.iter().enumerate().skip(1) {
                    let (s, el) = self.expect_array(&v(i).1, a.span(), name)?;
                    size = Some(self.same_size(size, s, a.span(), name, i)?);
                    els.push(el);
                }
                debug_assert_eq!(els.len(), n);
                let (f, r) = self.fun_arg(&args[0], &els, &what(0))?;
                fun_args[0] = Some(f);
                Type::array(size.unwrap_or(Size::Unknown), r)
            }
            Zip | Zip3 => {
                let mut els = Vec::new();
                let mut size: Option<Size> = None;
                for (i, a) in args.iter().enumerate() {
                    let (s, el) = self.expect_array(&v(i).1, a.span(), name)?;
                    size = Some(self.same_size(size, s, a.span(), name, i)?);
                    els.push(el);
                }
                Type::array(size.unwrap_or(Size::Unknown), Type::Tuple(els))
            }
            Unzip | Unzip3 => {
                let (s, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                let k = if b == Unzip { 2 } else { 3 };
                let comps: Vec<Type> = (0..k).map(|_| self.infer.fresh(Kind::Any)).collect();
                self.unify_at(
                    &el,
                    &Type::Tuple(comps.clone()),
                    args[0].span(),
                    &format!("in the argument of `{name}` (an array of {k}-tuples)"),
                )?;
                Type::Tuple(
                    comps
                        .into_iter()
                        .map(|c| Type::array(s.clone(), self.infer.resolve(&c)))
                        .collect(),
                )
            }
            Scatter => {
                let (s, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                let (ni, it) = self.expect_array(&v(1).1, args[1].span(), name)?;
                self.unify_at(
                    &it,
                    &Type::I64,
                    args[1].span(),
                    "in the indices of `scatter` (i64)",
                )?;
                let (nv, vt) = self.expect_array(&v(2).1, args[2].span(), name)?;
                self.same_size(Some(ni), nv, args[2].span(), name, 2)?;
                self.unify_at(
                    &vt,
                    &el,
                    args[2].span(),
                    "between the values of `scatter` and the elements of its destination",
                )?;
                Type::array(s, el)
            }
            ReduceByIndex => {
                let (s, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                self.unify_at(
                    &v(2).1,
                    &el,
                    args[2].span(),
                    "between the neutral element and the elements of `reduce_by_index`",
                )?;
                let (ni, it) = self.expect_array(&v(3).1, args[3].span(), name)?;
                self.unify_at(
                    &it,
                    &Type::I64,
                    args[3].span(),
                    "in the indices of `reduce_by_index` (i64)",
                )?;
                let (nv, vt) = self.expect_array(&v(4).1, args[4].span(), name)?;
                self.same_size(Some(ni), nv, args[4].span(), name, 4)?;
                self.unify_at(
                    &vt,
                    &el,
                    args[4].span(),
                    "between the values of `reduce_by_index` and the elements of its destination",
                )?;
                fun_args[1] = Some(self.operator(&args[1], &el, &what(1), name)?);
                Type::array(s, el)
            }
            IReduceByIndex => {
                let (s, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                self.unify_at(
                    &v(2).1,
                    &el,
                    args[2].span(),
                    "between the neutral element and the elements of `ireduce_by_index`",
                )?;
                let (g, gr) = self.fun_arg(&args[4], &[Type::I64], &what(4))?;
                fun_args[4] = Some(g);
                self.unify_at(
                    &gr,
                    &Type::Tuple(vec![Type::I64, el.clone()]),
                    args[4].span(),
                    "in the result of the generator of `ireduce_by_index` (an index and a value)",
                )?;
                fun_args[1] = Some(self.operator(&args[1], &el, &what(1), name)?);
                Type::array(s, el)
            }
            Reduce | Scan => {
                let (s, el) = self.expect_array(&v(2).1, args[2].span(), name)?;
                self.unify_at(
                    &v(1).1,
                    &el,
                    args[1].span(),
                    &format!("between the neutral element and the elements of `{name}`"),
                )?;
                fun_args[0] = Some(self.operator(&args[0], &el, &what(0), name)?);
                if b == Reduce { el } else { Type::array(s, el) }
            }
            IReduce => {
                let (_, ne_t) = v(1);
                let (g, e) = self.fun_arg(&args[3], &[Type::I64], &what(3))?;
                fun_args[3] = Some(g);
                self.unify_at(
                    &e,
                    &ne_t,
                    args[3].span(),
                    "between the neutral element and the generated elements of `ireduce`",
                )?;
                fun_args[0] = Some(self.operator(&args[0], &ne_t, &what(0), name)?);
                ne_t
            }
            Filter => {
                let (_, el) = self.expect_array(&v(1).1, args[1].span(), name)?;
                let (f, r) = self.fun_arg(&args[0], std::slice::from_ref(&el), &what(0))?;
                fun_args[0] = Some(f);
                self.unify_at(
                    &r,
                    &Type::BOOL,
                    args[0].span(),
                    "in the result of the predicate of `filter`",
                )?;
                Type::array(Size::Unknown, el)
            }
            Partition | Partition2 => {
                let k = if b == Partition { 1 } else { 2 };
                let (_, el) = self.expect_array(&v(k).1, args[k].span(), name)?;
                for j in 0..k {
                    let (f, r) = self.fun_arg(&args[j], std::slice::from_ref(&el), &what(j))?;
                    fun_args[j] = Some(f);
                    self.unify_at(
                        &r,
                        &Type::BOOL,
                        args[j].span(),
                        &format!("in the result of a predicate of `{name}`"),
                    )?;
                }
                Type::Tuple(vec![Type::array(Size::Unknown, el); k + 1])
            }
            Iota => Type::array(self.size_of_arg(&v(0).0, &args[0]), Type::I64),
            Replicate => {
                let (x, t) = v(1);
                let _ = x;
                Type::array(self.size_of_arg(&v(0).0, &args[0]), t)
            }
            Concat => {
                let (s1, e1) = self.expect_array(&v(0).1, args[0].span(), name)?;
                let (s2, e2) = self.expect_array(&v(1).1, args[1].span(), name)?;
                let e = match self.infer.join(&e2, &e1) {
                    Ok(e) => e,
                    Err(err) => {
                        let d = self.mismatch(err, args[1].span(), "between the operands of `++`");
                        return self.fail(d);
                    }
                };
                let size = match (self.infer.size(&s1), self.infer.size(&s2)) {
                    // (a sum past i64 is no static size: run time reports it)
                    (Size::Const(a), Size::Const(c)) => {
                        a.checked_add(c).map_or(Size::Unknown, Size::Const)
                    }
                    _ => Size::Unknown,
                };
                Type::array(size, e)
            }
            Split => {
                let (_, el) = self.expect_array(&v(1).1, args[1].span(), name)?;
                Type::Tuple(vec![
                    Type::array(self.size_of_arg(&v(0).0, &args[0]), el.clone()),
                    Type::array(Size::Unknown, el),
                ])
            }
            Flatten => {
                let (s1, row) = self.expect_array(&v(0).1, args[0].span(), name)?;
                let (s2, el) =
                    self.expect_array(&row, args[0].span(), "flatten (an array of arrays)")?;
                let size = match (self.infer.size(&s1), self.infer.size(&s2)) {
                    // (a product past i64 is no static size: run time reports it)
                    (Size::Const(a), Size::Const(c)) => {
                        a.checked_mul(c).map_or(Size::Unknown, Size::Const)
                    }
                    _ => Size::Unknown,
                };
                Type::array(size, el)
            }
            Unflatten => {
                let (_, el) = self.expect_array(&v(2).1, args[2].span(), name)?;
                let rows = self.size_of_arg(&v(0).0, &args[0]);
                Type::array(rows, Type::array(self.size_of_arg(&v(1).0, &args[1]), el))
            }
            Transpose => {
                let (s1, row) = self.expect_array(&v(0).1, args[0].span(), name)?;
                let (s2, el) =
                    self.expect_array(&row, args[0].span(), "transpose (an array of arrays)")?;
                Type::array(s2, Type::array(s1, el))
            }
            Slide => {
                let (_, el) = self.expect_array(&v(2).1, args[2].span(), name)?;
                Type::array(
                    Size::Unknown,
                    Type::array(self.size_of_arg(&v(0).0, &args[0]), el),
                )
            }
            Reverse => {
                let (s, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                Type::array(s, el)
            }
            Rotate => {
                let (s, el) = self.expect_array(&v(1).1, args[1].span(), name)?;
                Type::array(s, el)
            }
            Stride => {
                let (_, el) = self.expect_array(&v(1).1, args[1].span(), name)?;
                Type::array(Size::Unknown, el)
            }
            Gather => {
                let (_, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                let (s, it) = self.expect_array(&v(1).1, args[1].span(), name)?;
                self.unify_at(
                    &it,
                    &Type::I64,
                    args[1].span(),
                    "in the indices of `gather` (i64)",
                )?;
                Type::array(s, el)
            }
            Pad => {
                let (_, el) = self.expect_array(&v(3).1, args[3].span(), name)?;
                self.unify_at(
                    &v(2).1,
                    &el,
                    args[2].span(),
                    "between the padding value and the array elements",
                )?;
                Type::array(Size::Unknown, el)
            }
            Copy => {
                self.expect_array(&v(0).1, args[0].span(), name)?;
                v(0).1
            }
            Update | Update2 | Update3 | UpdateSlice | UpdateSlice2 => {
                // written `a with [i] = v`, never called by name
                let d = Diagnostic::new(
                    "E0000",
                    span,
                    format!("internal error: `{name}` called by name"),
                )
                .with_help("this is a bug in Weir: please report it with this program");
                return self.fail(d);
            }
            ArgMax | ArgMin => {
                let (_, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                if let Err(e) = self.infer.constrain(&el, Kind::Num) {
                    let d =
                        self.mismatch(e, args[0].span(), &format!("in the elements of `{name}`"));
                    return self.fail(d);
                }
                Type::I64
            }
            Sum | Product | Maximum | Minimum => {
                let (_, el) = self.expect_array(&v(0).1, args[0].span(), name)?;
                if let Err(e) = self.infer.constrain(&el, Kind::Num) {
                    let d =
                        self.mismatch(e, args[0].span(), &format!("in the elements of `{name}`"));
                    return self.fail(d);
                }
                el
            }
        };
        let out_args: Vec<Arg> = (0..args.len())
            .map(|i| match fun_args[i].take() {
                Some(f) => Arg::Fun(f),
                None => Arg::Atom(v(i).0),
            })
            .collect();
        // the checks above gave every builtin its operands: a mismatch here is
        // a bug of the elaborator, reported as an internal error
        let p = match Prim::from_args(b, out_args) {
            Ok(p) => p,
            Err(e) => {
                let d = Diagnostic::new("E0000", span, format!("internal error: {e}"))
                    .with_help("this is a bug in Weir: please report it with this program");
                return self.fail(d);
            }
        };
        Ok((self.emit("t", ret.clone(), Exp::Prim(p), span), ret))
    }

    /// `map4 f a b c d`, `zip5 a b c d e`, `unzip4 a`, ...: a `build` over
    /// the index space, `build n (\i -> f a[i] b[i] c[i] d[i])`, with the
    /// lengths checked equal (statically where they are known, else at run
    /// time) as for `map3`.
    #[inline(never)]
    fn wide(&mut self, w: Wide, name: &str, args: &[In], span: Span) -> R<(Atom, Type)> {
        let want = match w {
            Wide::Map(k) => k + 1,
            Wide::Zip(k) => k,
            Wide::Unzip(_) => 1,
        };
        if args.len() != want {
            return Err(self.arity_error(&format!("`{name}`"), want, args.len(), span));
        }
        let first = usize::from(matches!(w, Wide::Map(_)));
        let mut arrays = Vec::new();
        let mut els = Vec::new();
        let mut size: Option<Size> = None;
        for (i, a) in args.iter().enumerate().skip(first) {
            let (at, t) = self.arg_in(a, None)?;
            let (s, el) = self.expect_array(&t, a.span(), name)?;
            size = Some(self.same_size(size, s, a.span(), name, i)?);
            arrays.push((at, t));
            els.push(el);
        }
        let size = size.map(|s| self.infer.size(&s)).unwrap_or(Size::Unknown);
        // the length: the size known statically, else the first array's
        let (n, from) = match &size {
            Size::Var(v) => (Atom::Var(v.clone()), None),
            Size::Const(c) => (Atom::Const(Const::I64(*c)), None),
            _ => {
                let n = self.emit("n", Type::I64, Exp::Dim(arrays[0].0.clone(), 0), span);
                (n, Some(0))
            }
        };
        // every other length, where not known equal to it (as the optimizer
        // checks those of `map3`)
        for (k, (a, t)) in arrays.iter().enumerate() {
            if from == Some(k) {
                continue;
            }
            let got = match self.infer.resolve(t) {
                Type::Array(Size::Var(v), _) => Atom::Var(v),
                Type::Array(Size::Const(c), _) => Atom::Const(Const::I64(c)),
                _ => self.emit("n", Type::I64, Exp::Dim(a.clone(), 0), span),
            };
            if got != n {
                self.emit_size_check(
                    got,
                    n.clone(),
                    name,
                    &format!("arg{}", k + 1),
                    "n".into(),
                    span,
                );
            }
        }
        let elements = |ck: &mut Self, i: &Atom| -> Vec<Atom> {
            arrays
                .iter()
                .zip(&els)
                .map(|((a, _), el)| {
                    ck.emit("x", el.clone(), Exp::Index(a.clone(), i.clone()), span)
                })
                .collect()
        };
        let build = |ck: &mut Self, i: Name, body: Body, ret: Type| -> (Atom, Type) {
            let ty = Type::array(size.clone(), ret.clone());
            let exp = Exp::Prim(Prim::Build {
                n: n.clone(),
                f: Fun::Lambda(Box::new(Lambda {
                    params: vec![(i, Type::I64)],
                    ret,
                    body,
                })),
            });
            (ck.emit("t", ty.clone(), exp, span), ty)
        };
        match w {
            Wide::Map(_) => {
                let (f, r) =
                    self.fun_arg(&args[0], &els, &format!("the first argument of `{name}`"))?;
                let i = self.fresh_name("i");
                self.push_block();
                let xs = elements(self, &Atom::Var(i.clone()));
                let result = match f {
                    Fun::Lambda(l) => {
                        // the function inlined: its parameters are the elements
                        let Lambda { params, body, .. } = *l;
                        if let Some(b) = self.blocks.last_mut() {
                            for ((p, pt), x) in params.into_iter().zip(xs) {
                                b.push(Stmt {
                                    var: p,
                                    ty: pt,
                                    exp: Exp::Atom(x),
                                    span,
                                });
                            }
                            b.extend(body.stmts);
                        }
                        body.result
                    }
                    Fun::Var(g) => self.emit("t", r.clone(), Exp::Apply(g, xs), span),
                };
                let (body, r) = self.pop_block(result, &r, std::slice::from_ref(&i));
                Ok(build(self, i, body, r))
            }
            Wide::Zip(_) => {
                let i = self.fresh_name("i");
                self.push_block();
                let xs = elements(self, &Atom::Var(i.clone()));
                let tt = Type::Tuple(els.clone());
                let t = self.emit("t", tt.clone(), Exp::Tuple(xs), span);
                let (body, tt) = self.pop_block(t, &tt, std::slice::from_ref(&i));
                Ok(build(self, i, body, tt))
            }
            Wide::Unzip(k) => {
                let comps: Vec<Type> = (0..k).map(|_| self.infer.fresh(Kind::Any)).collect();
                self.unify_at(
                    &els[0],
                    &Type::Tuple(comps.clone()),
                    args[0].span(),
                    &format!("in the argument of `{name}` (an array of {k}-tuples)"),
                )?;
                let mut outs = Vec::new();
                let mut tys = Vec::new();
                for (j, c) in comps.iter().enumerate() {
                    let c = self.infer.resolve(c);
                    let i = self.fresh_name("i");
                    self.push_block();
                    let x = elements(self, &Atom::Var(i.clone())).remove(0);
                    let y = self.emit("y", c.clone(), Exp::Proj(x, j), span);
                    let (body, c) = self.pop_block(y, &c, std::slice::from_ref(&i));
                    let (u, ut) = build(self, i, body, c);
                    outs.push(u);
                    tys.push(ut);
                }
                let ty = Type::Tuple(tys);
                Ok((self.emit("t", ty.clone(), Exp::Tuple(outs), span), ty))
            }
        }
    }

    fn same_size(
        &mut self,
        prev: Option<Size>,
        s: Size,
        span: Span,
        name: &str,
        i: usize,
    ) -> R<Size> {
        let Some(p) = prev else { return Ok(s) };
        if let Err(e) = self.infer.unify_size(&s, &p) {
            let d = self.mismatch(
                e,
                span,
                &format!("in the {} argument of `{name}`", ordinal(i)),
            );
            return self.fail(d);
        }
        let p = self.infer.size(&p);
        Ok(if p == Size::Unknown {
            self.infer.size(&s)
        } else {
            p
        })
    }

    /// The type of a loop/fold result: the initial type if the body preserves its sizes,
    /// else the generalised one.
    fn loop_result(
        &mut self,
        init: &Type,
        general: &Type,
        body: &Type,
        span: Span,
        what: &str,
    ) -> R<Type> {
        if let Err(e) = self.infer.unify(body, general) {
            let d = self.mismatch(
                e,
                span,
                &format!("between the state of `{what}` and what its body returns"),
            );
            return self.fail(d);
        }
        let ri = self.infer.resolve(init);
        let rb = self.infer.resolve(body);
        Ok(if ri == rb { ri } else { generalize(&ri) })
    }

    fn loop_(
        &mut self,
        pat: &Pat,
        init: &Expr,
        form: &ast::LoopForm,
        body: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let ann = match pat {
            Pat::Var(_, Some(t)) => Some(self.type_exp(t, None, false)?),
            _ => None,
        };
        let (ia, it) = self.expr(init, ann.as_ref())?;
        self.no_fun(&it, init.span)?;
        let g = match &ann {
            Some(a) => {
                self.unify_at(
                    &it,
                    a,
                    init.span,
                    "between the loop's initial value and its annotation",
                )?;
                a.clone()
            }
            None => self.generalize(&it),
        };
        let state_name = match pat {
            Pat::Var(id, _) => self.fresh_name(&id.name),
            _ => self.fresh_name("state"),
        };
        let mark = self.scope.len();
        let form_ir = match form {
            ast::LoopForm::For(i, n) => {
                let (na, nt) = self.expr(n, Some(&Type::I64))?;
                // (a bound of another integer type: the counter has its type)
                let it = match self.infer.resolve(&nt) {
                    Type::Prim(p) if p.is_int() => p,
                    _ => PrimType::I64,
                };
                let na = self.integer_as_i64(na, &nt, n.span, "in the loop bound (an integer)")?;
                let iname = self.fresh_name(&i.name);
                Some((iname, na, Counter::Named(i.name.clone(), it)))
            }
            ast::LoopForm::ForIn(x, xs) => {
                let (xa, xt) = self.expr(xs, None)?;
                let (_, elem) = self.expect_array(&xt, xs.span, "a `for x in xs` loop")?;
                let na = self.emit(
                    "n",
                    Type::I64,
                    Exp::Prim(Prim::Length { a: xa.clone() }),
                    xs.span,
                );
                let iname = self.fresh_name("i");
                Some((iname, na, Counter::Elem(x, xa, elem)))
            }
            ast::LoopForm::While(_) => None,
        };
        // bind the state pattern (inside the body blocks)
        let bind_state = |this: &mut Self| -> R<()> {
            let pat_plain = strip_ann(pat);
            this.bind_pat(&pat_plain, Atom::Var(state_name.clone()), g.clone(), span)
        };
        let cond_body = match form {
            ast::LoopForm::While(c) => {
                self.push_block();
                let r = bind_state(self).and_then(|_| self.expr(c, Some(&Type::BOOL)));
                self.scope.truncate(mark);
                let (ca, ct) = match r {
                    Ok(x) => x,
                    Err(e) => {
                        self.blocks.pop();
                        return Err(e);
                    }
                };
                self.unify_at(&ct, &Type::BOOL, c.span, "in the loop condition")?;
                let (b, _) = self.pop_block(ca, &ct, std::slice::from_ref(&state_name));
                Some(b)
            }
            _ => None,
        };
        self.push_block();
        let mut locals = vec![state_name.clone()];
        let mut bind_elem = None;
        if let Some((iname, _, counter)) = &form_ir {
            let i = Atom::Var(iname.clone());
            match counter {
                Counter::Named(src, it) => {
                    let (atom, ty) = if *it == PrimType::I64 {
                        (i, Type::I64)
                    } else {
                        let t = Type::Prim(*it);
                        (self.emit("t", t.clone(), Exp::Convert(*it, i), span), t)
                    };
                    self.scope.push((src.clone(), Binding::Var(atom, ty)));
                }
                Counter::Elem(x, xa, elem) => {
                    let e = self.emit("x", elem.clone(), Exp::Index(xa.clone(), i), x.span());
                    bind_elem = Some((*x, e, elem.clone()));
                }
            }
            locals.push(iname.clone());
        }
        let r = bind_state(self)
            .and_then(|_| match &bind_elem {
                Some((x, e, t)) => self.bind_pat(x, e.clone(), t.clone(), x.span()),
                None => Ok(()),
            })
            .and_then(|_| self.expr(body, Some(&g)));
        self.scope.truncate(mark);
        let (ba, bt) = match r {
            Ok(x) => x,
            Err(e) => {
                self.blocks.pop();
                return Err(e);
            }
        };
        let (b, bt) = self.pop_block(ba, &bt, &locals);
        let result = self.loop_result(&it, &g, &bt, body.span, "loop")?;
        let form = match (form_ir, cond_body) {
            (Some((iname, na, _)), _) => LoopForm::For(iname, na),
            (None, Some(c)) => LoopForm::While(c),
            (None, None) => return Err(Failed),
        };
        let g = self.infer.resolve(&g);
        let exp = Exp::Loop {
            state: (state_name, g),
            init: ia,
            form,
            body: b,
        };
        Ok((self.emit("t", result.clone(), exp, span), result))
    }
}

/// How a counted loop's body sees its counter: by the name written (`for
/// i < n`, with the bound's integer type), or as the element of the array it
/// indexes (`for x in xs`: a pattern, the array, the element type).
enum Counter<'a> {
    Named(Name, PrimType),
    Elem(&'a Pat, Atom, Type),
}

/// A record type's field types in the order of its tuple (sorted by name).
fn sorted_fields(fs: &[(ast::Ident, TypeExp)]) -> Vec<TypeExp> {
    let mut v: Vec<&(ast::Ident, TypeExp)> = fs.iter().collect();
    v.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    v.into_iter().map(|(_, t)| t.clone()).collect()
}

fn strip_ann(p: &Pat) -> Pat {
    match p {
        Pat::Var(i, _) => Pat::Var(i.clone(), None),
        Pat::Wild(s, _) => Pat::Wild(*s, None),
        Pat::Tuple(ps, s) => Pat::Tuple(ps.iter().map(strip_ann).collect(), *s),
        Pat::Record(fs, s) => Pat::Record(
            fs.iter().map(|(n, p)| (n.clone(), strip_ann(p))).collect(),
            *s,
        ),
    }
}

fn int_const(v: i128, p: PrimType) -> Option<Const> {
    Const::int(p, v)
}

/// E0208: an integer literal outside its type's range.
pub(crate) fn out_of_range(v: i128, p: PrimType, span: Span) -> Diagnostic {
    let (lo, hi) = p.int_range().unwrap_or((i64::MIN.into(), i64::MAX.into()));
    Diagnostic::new(
        "E0208",
        span,
        format!("integer literal {v} does not fit in {}", p.name()),
    )
    .with_label("out of range")
    .with_help(if p.is_unsigned() && v < 0 {
        format!(
            "{} holds {lo} to {hi}, no negative values; a conversion wraps: `{} ({v})`",
            p.name(),
            p.name()
        )
    } else if p == PrimType::I64 || p == PrimType::U64 {
        format!(
            "{} holds {lo} to {hi}; integers are at most 64 bits: use a float literal for larger values",
            p.name()
        )
    } else {
        format!(
            "{} holds {lo} to {hi}; use a wider type (`...i64`) or a value in range",
            p.name()
        )
    })
}

/// The help of a type mismatch: `found` is the type of the expression whose
/// source form is `what` (where it is short: [`operand_text`]), `expected`
/// the type the context needs, so the conversion suggested is of that
/// expression into that type (`f64 k`).
fn conversion_help(found: &Type, expected: &Type, what: Option<&str>) -> String {
    match (found, expected) {
        (Type::Prim(a), Type::Prim(b)) if a != b => match what {
            Some(w) => format!("convert explicitly: `{} {w}`", b.name()),
            None => format!(
                "convert the expression marked here explicitly: `{} (...)`",
                b.name()
            ),
        },
        (Type::Array(..), Type::Prim(_)) => {
            "this is an array; index it (`a[i]`) or reduce it (`sum a`)".into()
        }
        (Type::Prim(_), Type::Array(..)) => "a scalar was given where an array is needed".into(),
        (Type::Array(..), Type::Array(..)) => match (elem_of(found), elem_of(expected)) {
            // Arrays of the same rank whose elements differ: convert each
            // element (`map f64 b`, or `map (map f64) m` for a matrix).
            (Some((a, r)), Some((b, q))) if a != b && r == q => {
                let mut f = b.name().to_string();
                for _ in 1..r {
                    f = format!("(map {f})");
                }
                let w = what
                    .map(|w| w.to_string())
                    .unwrap_or_else(|| "(...)".to_string());
                format!("convert each element explicitly: `map {f} {w}`")
            }
            _ => "make both sides have the same type".into(),
        },
        _ => "make both sides have the same type".into(),
    }
}

/// The element type and rank of an array of a primitive type.
fn elem_of(t: &Type) -> Option<(PrimType, usize)> {
    let (mut t, mut r) = (t, 0);
    while let Type::Array(_, e) = t {
        t = e;
        r += 1;
    }
    match t {
        Type::Prim(p) => Some((*p, r)),
        _ => None,
    }
}

/// The source form of a short expression (a name, a literal, a field, an
/// application or an operation of those), as the operand of a conversion
/// (`k`, `(x + 1)`, `(g x)`); `None` for anything longer or more complex,
/// which a help does not spell out.
fn operand_text(e: &Expr) -> Option<String> {
    fn go(e: &Expr, depth: usize) -> Option<(String, bool)> {
        if depth > 3 {
            return None;
        }
        Some(match &e.kind {
            ExprKind::Var(id) => (id.name.clone(), false),
            ExprKind::Int(v, suffix) => (
                format!("{v}{}", suffix.map(|p| p.name()).unwrap_or("")),
                *v < 0,
            ),
            ExprKind::Float(v, suffix) if v.is_finite() => (
                format!("{v:?}{}", suffix.map(|p| p.name()).unwrap_or("")),
                *v < 0.0,
            ),
            ExprKind::Bool(b) => (b.to_string(), false),
            ExprKind::Field(r, f) => {
                let (r, compound) = go(r, depth + 1)?;
                if compound {
                    return None;
                }
                (format!("{r}.{}", f.name), false)
            }
            ExprKind::Apply(f, xs) => {
                let mut out = atomic(go(f, depth + 1)?);
                for x in xs {
                    out.push(' ');
                    out.push_str(&atomic(go(x, depth + 1)?));
                }
                (out, true)
            }
            ExprKind::Binary(op, a, b, _) => {
                let (a, b) = (go(a, depth + 1)?, go(b, depth + 1)?);
                (format!("{} {} {}", atomic(a), op.symbol(), atomic(b)), true)
            }
            _ => return None,
        })
    }
    /// Parenthesized where compound (an application, an operation, a negative literal).
    fn atomic((text, compound): (String, bool)) -> String {
        if compound { format!("({text})") } else { text }
    }
    let text = atomic(go(e, 0)?);
    (text.chars().count() <= 40).then_some(text)
}

/// Does a type mention a size variable?
fn mentions(t: &Type, v: &str) -> bool {
    match t {
        Type::Array(s, e) => matches!(s, Size::Var(x) if x == v) || mentions(e, v),
        Type::Tuple(ts) => ts.iter().any(|t| mentions(t, v)),
        Type::Record(fs) => fs.iter().any(|(_, t)| mentions(t, v)),
        Type::Fun(ps, r) => ps.iter().any(|t| mentions(t, v)) || mentions(r, v),
        _ => false,
    }
}

pub fn subst_sizes(t: &Type, m: &HashMap<Name, Size>) -> Type {
    match t {
        Type::Array(s, e) => {
            let s = match s {
                Size::Var(v) => m.get(v).cloned().unwrap_or_else(|| s.clone()),
                s => s.clone(),
            };
            Type::array(s, subst_sizes(e, m))
        }
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| subst_sizes(t, m)).collect()),
        Type::Record(fs) => Type::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), subst_sizes(t, m)))
                .collect(),
        ),
        Type::Fun(ps, r) => Type::Fun(
            ps.iter().map(|t| subst_sizes(t, m)).collect(),
            Box::new(subst_sizes(r, m)),
        ),
        t => t.clone(),
    }
}

fn unknown_infer_sizes(t: &Type) -> Type {
    match t {
        Type::Array(s, e) => Type::array(
            if matches!(s, Size::Infer(_)) {
                Size::Unknown
            } else {
                s.clone()
            },
            unknown_infer_sizes(e),
        ),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(unknown_infer_sizes).collect()),
        Type::Record(fs) => Type::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), unknown_infer_sizes(t)))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// All sizes unknown.
pub fn generalize(t: &Type) -> Type {
    match t {
        Type::Array(_, e) => Type::array(Size::Unknown, generalize(e)),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(generalize).collect()),
        Type::Record(fs) => {
            Type::Record(fs.iter().map(|(n, t)| (n.clone(), generalize(t))).collect())
        }
        t => t.clone(),
    }
}

/// Replace sizes naming the given variables by `Unknown`.
pub fn forget(t: &Type, local: &HashSet<&str>) -> Type {
    match t {
        Type::Array(s, e) => {
            let s = match s {
                Size::Var(v) if local.contains(v.as_str()) => Size::Unknown,
                s => s.clone(),
            };
            Type::array(s, forget(e, local))
        }
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| forget(t, local)).collect()),
        Type::Record(fs) => Type::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), forget(t, local)))
                .collect(),
        ),
        Type::Fun(ps, r) => Type::Fun(
            ps.iter().map(|t| forget(t, local)).collect(),
            Box::new(forget(r, local)),
        ),
        t => t.clone(),
    }
}

/// The local function a `let` binds, if its right side is a function form
/// (`let f = \x -> e`, `let f = (* 2.0)`, `let h = f >-> g`).
fn local_fn_of(id: &ast::Ident, rhs: &Expr) -> Option<LocalFn> {
    match &rhs.kind {
        ExprKind::Lambda(ps, body) => Some(LocalFn::Def(Rc::new(ast::LocalFun {
            name: id.clone(),
            size_params: vec![],
            params: ps.clone(),
            ret: None,
            body: (**body).clone(),
        }))),
        ExprKind::OpSection(_)
        | ExprKind::LeftSection(..)
        | ExprKind::RightSection(..)
        | ExprKind::Compose(..) => Some(LocalFn::Alias(Rc::new(rhs.clone()))),
        _ => None,
    }
}

/// Where the type of a local function's parameter names the size `name`:
/// the parameter and the dimension (of an annotated parameter's array type).
fn size_param_position(d: &ast::LocalFun, name: &str) -> Option<(usize, usize)> {
    for (j, p) in d.params.iter().enumerate() {
        let (Pat::Var(_, Some(t)) | Pat::Wild(_, Some(t))) = p else {
            continue;
        };
        let mut t = t;
        let mut k = 0;
        while let TypeExp::Array(sz, e, _) = t {
            if matches!(sz, SizeExp::Named(id) if id.name == name) {
                return Some((j, k));
            }
            t = e;
            k += 1;
        }
    }
    None
}

/// How a composition was written: `f >-> g` or `g <-< f` (`first` is `f`).
fn compose_symbol(first: &Expr, op_span: Span) -> &'static str {
    if first.span.start < op_span.start {
        ">->"
    } else {
        "<-<"
    }
}
