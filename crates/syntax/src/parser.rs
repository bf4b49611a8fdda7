//! Hand-written recursive-descent / precedence-climbing parser.
//!
//! Errors never abort the whole file: a definition that fails to parse is reported
//! and skipped up to the next `def`/`entry`, so one run reports every broken
//! definition. Nesting is bounded ([`MAX_DEPTH`]) so that no input can exhaust the stack.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::{Tok, Token, lex};
use crate::source::{FileId, Span};

/// Maximum nesting of expressions, types and patterns (including operator chains).
pub const MAX_DEPTH: usize = 400;

/// The most elements an array literal may hold, with those of the literals
/// nested in it (E0028): a literal costs memory and time per element in every
/// stage, and large data is better read as an input.
pub const MAX_LITERAL: usize = 100_000;

type PResult<T> = Result<T, Diagnostic>;

/// Parse a whole file. Returns the definitions that parsed and all errors.
pub fn parse_file(file: FileId, text: &str) -> (Program, Vec<Diagnostic>) {
    let toks = lex(file, text);
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        literal: None,
    };
    let mut prog = Program::default();
    let mut errors = Vec::new();
    loop {
        match p.peek() {
            Tok::Eof => break,
            Tok::Def | Tok::Entry => {
                let start = p.pos;
                match p.def() {
                    Ok(d) => prog.defs.push(d),
                    Err(e) => {
                        errors.push(e);
                        p.depth = 0;
                        p.literal = None;
                        p.skip_to_def();
                        // (the definition is kept, its body an error, so
                        // that its uses are not reported as unknown names)
                        if let Some(t) = p.toks.get(start + 1)
                            && let Tok::Ident(name) = &t.tok
                        {
                            let span = t.span;
                            prog.defs.push(Def {
                                name: Ident {
                                    name: name.clone(),
                                    span,
                                },
                                entry: false,
                                size_params: Vec::new(),
                                params: Vec::new(),
                                ret: None,
                                exists: Vec::new(),
                                body: Expr {
                                    kind: ExprKind::Error,
                                    span,
                                },
                                span,
                            });
                        }
                    }
                }
            }
            Tok::Type => match p.type_def() {
                Ok(t) => prog.types.push(t),
                Err(e) => {
                    errors.push(e);
                    p.depth = 0;
                    p.literal = None;
                    p.skip_to_def();
                }
            },
            Tok::Import | Tok::Module => match p.import() {
                Ok(i) => prog.imports.push(i),
                Err(e) => {
                    errors.push(e);
                    p.depth = 0;
                    p.literal = None;
                    p.skip_to_def();
                }
            },
            _ => {
                let t = p.cur().clone();
                let e = if let Tok::Error(_) = t.tok {
                    bad_char(&t)
                } else {
                    Diagnostic::new(
                        "E0001",
                        t.span,
                        format!("expected a definition, found {}", t.tok.describe()),
                    )
                    .with_label("a top-level item starts with `def`, `entry`, `type`, `import` or `module`")
                    .with_help("write `def name (x: f64) : f64 = ...`; did a previous definition end too early?")
                };
                errors.push(e);
                p.bump();
                p.skip_to_def();
            }
        }
    }
    (prog, errors)
}

fn bad_char(t: &Token) -> Diagnostic {
    Diagnostic::new(
        "E0002",
        t.span,
        format!("unexpected character `{}`", t.tok.text().escape_debug()),
    )
    .with_label("no Weir token starts with this character")
    .with_help("remove it; comments start with `--`")
}

/// What is being nested, for the E0004 message.
#[derive(Clone, Copy)]
enum Nest {
    Expr,
    Type,
    Pat,
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// In an array literal: the elements met so far in the outermost one.
    literal: Option<usize>,
}

fn is_binop(t: &Tok) -> Option<(BinOp, u8, bool)> {
    // (operator, precedence, right-associative): as Python's, with `&&`,
    // `||` below the comparisons and `++` between the shifts and `+`
    Some(match t {
        Tok::OrOr => (BinOp::Or, 1, false),
        Tok::AndAnd => (BinOp::And, 2, false),
        Tok::EqEq => (BinOp::Eq, 3, false),
        Tok::NotEq => (BinOp::Ne, 3, false),
        Tok::Lt => (BinOp::Lt, 3, false),
        Tok::Le => (BinOp::Le, 3, false),
        Tok::Gt => (BinOp::Gt, 3, false),
        Tok::Ge => (BinOp::Ge, 3, false),
        Tok::Bar => (BinOp::BitOr, 4, false),
        Tok::Caret => (BinOp::BitXor, 5, false),
        Tok::Amp => (BinOp::BitAnd, 6, false),
        Tok::Shl => (BinOp::Shl, 7, false),
        Tok::Shr => (BinOp::Shr, 7, false),
        Tok::UShr => (BinOp::UShr, 7, false),
        Tok::PlusPlus => (BinOp::Concat, 8, true),
        Tok::Plus => (BinOp::Add, 9, false),
        Tok::Minus => (BinOp::Sub, 9, false),
        Tok::Star => (BinOp::Mul, 10, false),
        Tok::Slash => (BinOp::Div, 10, false),
        Tok::Percent => (BinOp::Rem, 10, false),
        Tok::StarStar => (BinOp::Pow, 11, true),
        _ => return None,
    })
}

/// The precedence of the operators that bind more tightly than a unary
/// minus (`**`: `-x ** 2.0` is `-(x ** 2.0)`).
fn above_negation() -> u8 {
    is_binop(&Tok::StarStar).map_or(u8::MAX, |b| b.1)
}

/// A form that is a function (`|>` and `<|` apply it to one more argument).
fn is_function_form(k: &ExprKind) -> bool {
    matches!(
        k,
        ExprKind::Var(_)
            // a module's definition, `x |> m.f`
            | ExprKind::Field(..)
            | ExprKind::OpSection(_)
            | ExprKind::LeftSection(..)
            | ExprKind::RightSection(..)
            | ExprKind::Lambda(..)
            | ExprKind::Compose(..)
    )
}

/// `f <| x`: `f x`; `f a <| x` is `f a x`.
fn apply_left(f: Expr, x: Expr, op_span: Span) -> PResult<Expr> {
    let span = f.span.to(x.span);
    let kind = match f.kind {
        ExprKind::Apply(g, mut args) => {
            args.push(x);
            ExprKind::Apply(g, args)
        }
        k if is_function_form(&k) => ExprKind::Apply(
            Box::new(Expr {
                kind: k,
                span: f.span,
            }),
            vec![x],
        ),
        _ => {
            return Err(Diagnostic::new(
                "E0009",
                f.span,
                "the left side of `<|` must be a function or a call",
            )
            .with_secondary(op_span, "application")
            .with_label("not a function")
            .with_help("write `f a <| x` for `f a x`"));
        }
    };
    Ok(Expr { kind, span })
}

/// `x |> f a`: `f a x`.
fn pipe_into(x: Expr, f: Expr, op_span: Span) -> PResult<Expr> {
    let span = x.span.to(f.span);
    match f.kind {
        ExprKind::Apply(g, mut args) => {
            args.push(x);
            Ok(Expr {
                kind: ExprKind::Apply(g, args),
                span,
            })
        }
        ref k if is_function_form(k) => Ok(Expr {
            kind: ExprKind::Apply(Box::new(f), vec![x]),
            span,
        }),
        _ => Err(Diagnostic::new(
            "E0009",
            f.span,
            "the right side of `|>` must be a function call",
        )
        .with_secondary(op_span, "pipe")
        .with_label("not a function application")
        .with_help("write `x |> f a` for `f a x`")),
    }
}

impl Parser {
    fn cur(&self) -> &Token {
        let i = self.pos.min(self.toks.len() - 1);
        &self.toks[i]
    }
    fn peek(&self) -> &Tok {
        &self.cur().tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        let i = (self.pos + k).min(self.toks.len() - 1);
        &self.toks[i].tok
    }
    fn span(&self) -> Span {
        self.cur().span
    }
    fn prev_span(&self) -> Span {
        if self.pos == 0 {
            self.span()
        } else {
            self.toks[(self.pos - 1).min(self.toks.len() - 1)].span
        }
    }
    fn bump(&mut self) -> Token {
        let t = self.cur().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }
    fn skip_to_def(&mut self) {
        while !self.at_item() {
            self.bump();
        }
    }
    /// At the start of a top-level item (or the end of the file)?
    fn at_item(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Def | Tok::Entry | Tok::Type | Tok::Import | Tok::Module | Tok::Eof
        )
    }

    /// `type name = t`
    fn type_def(&mut self) -> PResult<TypeDef> {
        let start = self.span();
        self.bump();
        let name = self.ident("a type name").map_err(|d| {
            d.with_help("a type abbreviation reads `type vec3 = {x: f64, y: f64, z: f64}`")
        })?;
        self.expect(&Tok::Eq, "after the type's name")?;
        let ty = self.type_exp()?;
        let span = start.to(self.prev_span());
        if !self.at_item() {
            return Err(self
                .unexpected("the end of the type abbreviation")
                .with_help("a type abbreviation reads `type name = t`"));
        }
        Ok(TypeDef { name, ty, span })
    }

    /// `import "path"` or `module m = import "path"`
    fn import(&mut self) -> PResult<Import> {
        let start = self.span();
        let module = if self.eat(&Tok::Module) {
            let m = self
                .ident("a module name")
                .map_err(|d| d.with_help("a module reads `module m = import \"path\"`"))?;
            self.expect(&Tok::Eq, "after the module's name")?;
            Some(m)
        } else {
            None
        };
        self.expect(&Tok::Import, "before the imported file's path")
            .map_err(|d| d.with_help("a module reads `module m = import \"path\"`"))?;
        let t = self.bump();
        let Tok::Str(path) = t.tok else {
            return Err(Diagnostic::new(
                "E0017",
                t.span,
                format!("expected a file path in quotes, found {}", t.tok.describe()),
            )
            .with_label("not a path")
            .with_help(
                "write `import \"path/to/file\"` (relative to this file, without `.weir`)",
            ));
        };
        Ok(Import {
            path,
            path_span: t.span,
            module,
            span: start.to(t.span),
        })
    }

    fn unexpected(&self, what: &str) -> Diagnostic {
        let t = self.cur();
        if let Tok::Error(_) = t.tok {
            return bad_char(t);
        }
        Diagnostic::new(
            "E0003",
            t.span,
            format!("expected {what}, found {}", t.tok.describe()),
        )
        .with_label(format!("expected {what} here"))
    }
    fn expect(&mut self, t: &Tok, ctx: &str) -> PResult<Token> {
        if self.peek() == t {
            Ok(self.bump())
        } else {
            let mut d = self.unexpected(&format!("`{}` {ctx}", t.text()));
            d = d.with_help(match t {
                Tok::RParen => "check that every `(` has a matching `)`".to_string(),
                Tok::RBracket => "check that every `[` has a matching `]`".to_string(),
                Tok::In => "a `let` binding is followed by `in` and the expression that uses it"
                    .to_string(),
                Tok::Then => "write `if condition then a else b`".to_string(),
                Tok::Else => "every `if` needs an `else` branch: `if c then a else b`".to_string(),
                Tok::Eq => "a definition reads `def name (x: t) : result_type = body`".to_string(),
                Tok::Arrow => "a lambda reads `\\x y -> body`".to_string(),
                _ => format!("insert `{}`", t.text()),
            });
            Err(d)
        }
    }
    /// Enter one level of nesting of an expression.
    fn enter(&mut self) -> PResult<()> {
        self.enter_a(Nest::Expr)
    }
    /// Enter one level of nesting; every recursive step of the parser goes through
    /// here, so no input can nest more than [`MAX_DEPTH`] levels (whatever mixes
    /// expressions, types and patterns), and the parser's work stays linear.
    fn enter_a(&mut self, what: Nest) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let (noun, help) = match what {
                Nest::Expr => (
                    "expression",
                    "split the expression into several `let` bindings or definitions",
                ),
                Nest::Type => (
                    "type",
                    "types, patterns and the expressions around them count together; use fewer dimensions or components",
                ),
                Nest::Pat => (
                    "pattern",
                    "patterns and the expressions around them count together; split the nesting into several `let` bindings or definitions",
                ),
            };
            return Err(
                Diagnostic::new("E0004", self.span(), format!("{noun} nested too deeply"))
                    .with_label(format!("nesting exceeds {MAX_DEPTH} levels here"))
                    .with_help(help),
            );
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => {
                let t = self.bump();
                Ok(Ident { name, span: t.span })
            }
            _ => Err(self.unexpected(what)),
        }
    }

    // ---------------------------------------------------------------- definitions

    fn def(&mut self) -> PResult<Def> {
        let start = self.span();
        let entry = matches!(self.bump().tok, Tok::Entry);
        let name = self.ident("a definition name").map_err(|d| {
            d.with_help("a definition reads `def name (x: t) : result_type = body`")
        })?;
        let mut size_params = Vec::new();
        while self.peek() == &Tok::LBracket {
            self.bump();
            let id = self.ident("a size parameter name").map_err(|d| {
                d.with_help("size parameters are names in brackets, as in `def f [n] (a: [n]f64)`")
            })?;
            self.expect(&Tok::RBracket, "to close the size parameter")?;
            size_params.push(id);
        }
        let mut params = Vec::new();
        loop {
            match self.peek() {
                Tok::LParen => {
                    let pstart = self.span();
                    self.bump();
                    // `(x: t)`, or `(x: t, y: u)`: one parameter, a tuple of
                    // typed components
                    let mut parts = Vec::new();
                    loop {
                        let pat = self.pattern()?;
                        if self.peek() != &Tok::Colon {
                            return Err(self
                                .unexpected("`:` and the parameter's type")
                                .with_help("parameters of definitions need a type: `(x: f64)`"));
                        }
                        self.bump();
                        let ty = self.type_exp()?;
                        parts.push((pat, ty));
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(&Tok::RParen, "to close the parameter")?;
                    let span = pstart.to(self.prev_span());
                    let (pat, ty) = if parts.len() == 1 {
                        parts.pop().ok_or_else(|| self.unexpected("a parameter"))?
                    } else {
                        let (pats, tys): (Vec<Pat>, Vec<TypeExp>) = parts.into_iter().unzip();
                        (Pat::Tuple(pats, span), TypeExp::Tuple(tys, span))
                    };
                    params.push(Param { pat, ty, span });
                }
                Tok::Ident(_) => {
                    let id = self.ident("a parameter")?;
                    return Err(Diagnostic::new(
                        "E0005",
                        id.span,
                        format!("parameter `{}` has no type", id.name),
                    )
                    .with_label("untyped parameter")
                    .with_help(format!(
                        "write `({}: f64)` (or whatever its type is)",
                        id.name
                    )));
                }
                _ => break,
            }
        }
        let mut exists = Vec::new();
        let ret = if self.eat(&Tok::Colon) {
            if self.eat(&Tok::Question) {
                loop {
                    self.expect(&Tok::LBracket, "before an existential size's name")
                        .map_err(|d| {
                            d.with_help(
                                "an existential result type reads `?[k].[k]f64`: sizes the body determines",
                            )
                        })?;
                    let id = self.ident("an existential size name").map_err(|d| {
                        d.with_help("an existential result type reads `?[k].[k]f64`")
                    })?;
                    self.expect(&Tok::RBracket, "to close the existential size")?;
                    exists.push(id);
                    if self.peek() != &Tok::LBracket {
                        break;
                    }
                }
                self.expect(&Tok::Dot, "after the existential sizes")
                    .map_err(|d| d.with_help("an existential result type reads `?[k].[k]f64`"))?;
            }
            Some(self.type_exp()?)
        } else {
            None
        };
        self.expect(&Tok::Eq, "before the definition's body")?;
        let body = self.expr()?;
        let span = start.to(self.prev_span());
        if !self.at_item() {
            return Err(self.unexpected("the end of the definition").with_help(
                "a definition's body is one expression; is an operator or `in` missing?",
            ));
        }
        Ok(Def {
            name,
            entry,
            size_params,
            params,
            ret,
            exists,
            body,
            span,
        })
    }

    // ---------------------------------------------------------------- types

    /// A type, possibly a function type `t1 -> t2 -> r` (its parts are atoms, so
    /// nesting is counted by [`Parser::type_atom`]).
    fn type_exp(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        let first = self.type_atom()?;
        if self.peek() != &Tok::Arrow {
            return Ok(first);
        }
        let mut parts = vec![first];
        while self.eat(&Tok::Arrow) {
            parts.push(self.type_atom()?);
        }
        let ret = parts.pop().unwrap_or(TypeExp::Tuple(vec![], start));
        Ok(TypeExp::Fun(
            parts,
            Box::new(ret),
            start.to(self.prev_span()),
        ))
    }

    fn type_atom(&mut self) -> PResult<TypeExp> {
        self.enter_a(Nest::Type)?;
        let r = self.type_atom_inner();
        self.leave();
        r
    }

    fn type_atom_inner(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Ident(name) => match PrimType::from_name(&name) {
                Some(p) => {
                    self.bump();
                    Ok(TypeExp::Prim(p, start))
                }
                None => {
                    // a type abbreviation, or a module's (`m.t`)
                    let mut path = vec![self.ident("a type")?];
                    while self.peek() == &Tok::Dot
                        && self.cur().span.start == self.prev_span().end
                        && matches!(self.peek_at(1), Tok::Ident(_))
                    {
                        self.bump();
                        path.push(self.ident("a type name")?);
                    }
                    Ok(TypeExp::Named(path, start.to(self.prev_span())))
                }
            },
            Tok::LBrace => {
                self.bump();
                let mut fields = Vec::new();
                if self.peek() != &Tok::RBrace {
                    loop {
                        let f = self.ident("a field name").map_err(|d| {
                            d.with_help("a record type reads `{x: f64, y: f64}`")
                        })?;
                        self.expect(&Tok::Colon, "after the field's name")?;
                        let t = self.type_exp()?;
                        fields.push((f, t));
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                }
                self.expect(&Tok::RBrace, "to close the record type")?;
                Ok(TypeExp::Record(fields, start.to(self.prev_span())))
            }
            Tok::Star => {
                self.bump();
                let t = self.type_atom()?;
                Ok(TypeExp::Unique(Box::new(t), start.to(self.prev_span())))
            }
            Tok::LBracket => {
                self.bump();
                let size = match self.peek().clone() {
                    Tok::RBracket => SizeExp::Any(self.span()),
                    Tok::Ident(_) | Tok::Int(_) | Tok::LParen | Tok::Minus
                        if !matches!(self.peek_at(1), Tok::RBracket) =>
                    {
                        let e = self.expr()?;
                        SizeExp::Expr(Box::new(e))
                    }
                    Tok::Ident(_) => SizeExp::Named(self.ident("a size")?),
                    Tok::Int(text) => {
                        let t = self.bump();
                        match parse_int(&text) {
                            Some((v, None)) | Some((v, Some(PrimType::I64))) if (0..=i64::MAX as i128).contains(&v) => {
                                SizeExp::Const(v as i64, t.span)
                            }
                            _ => {
                                return Err(Diagnostic::new("E0007", t.span, format!("invalid array size `{text}`"))
                                    .with_label("sizes are non-negative i64 constants or size parameters")
                                    .with_help("write a size like `[3]` or `[n]`"));
                            }
                        }
                    }
                    _ => {
                        return Err(self
                            .unexpected("a size (a name, a constant, or nothing) after `[`")
                            .with_help("a size in a type is a name (`[n]`), a non-negative integer (`[3]`), or left out (`[]`)"));
                    }
                };
                if !matches!(size, SizeExp::Any(_)) && self.peek() != &Tok::RBracket {
                    return Err(self
                        .unexpected("`]`")
                        .with_help("a size in a type is a name, a constant or an i64 expression: `[n]f64`, `[3]f64`, `[n + 1]f64`, `[]f64`"));
                }
                self.expect(&Tok::RBracket, "to close the array size")?;
                let elem = self.type_atom()?;
                Ok(TypeExp::Array(size, Box::new(elem), start.to(self.prev_span())))
            }
            Tok::LParen => {
                self.bump();
                let mut tys = vec![self.type_exp()?];
                while self.eat(&Tok::Comma) {
                    tys.push(self.type_exp()?);
                }
                self.expect(&Tok::RParen, "to close the type")?;
                if tys.len() == 1 {
                    Ok(tys.pop().unwrap_or(TypeExp::Tuple(vec![], start)))
                } else {
                    Ok(TypeExp::Tuple(tys, start.to(self.prev_span())))
                }
            }
            _ => Err(self
                .unexpected("a type")
                .with_help("types are f64, f32, i64, i32, bool, `[n]t`, `(t1, t2)`, `{x: t1, y: t2}`, a `type` name or `t1 -> t2`")),
        }
    }

    // ---------------------------------------------------------------- patterns

    fn pattern(&mut self) -> PResult<Pat> {
        self.enter_a(Nest::Pat)?;
        let r = self.pattern_inner();
        self.leave();
        r
    }

    fn pattern_inner(&mut self) -> PResult<Pat> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Ident(name) => {
                self.bump();
                if name == "_" {
                    Ok(Pat::Wild(start, None))
                } else {
                    Ok(Pat::Var(Ident { name, span: start }, None))
                }
            }
            Tok::LParen => {
                self.bump();
                // `(p)`, `(p: t)`, `(p, q, ...)` with any component typed
                let mut pats = Vec::new();
                loop {
                    let p = self.pattern()?;
                    pats.push(if self.eat(&Tok::Colon) {
                        let ty = self.type_exp()?;
                        annotate(p, ty)?
                    } else {
                        p
                    });
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                self.expect(&Tok::RParen, "to close the pattern")?;
                if pats.len() == 1 {
                    Ok(pats.pop().unwrap_or(Pat::Wild(start, None)))
                } else {
                    Ok(Pat::Tuple(pats, start.to(self.prev_span())))
                }
            }
            Tok::LBrace => {
                self.bump();
                let mut fields = Vec::new();
                if self.peek() != &Tok::RBrace {
                    loop {
                        let f = self.ident("a field name").map_err(|d| {
                            d.with_help("a record pattern reads `{x, y}` or `{x = a, y = b}`")
                        })?;
                        let p = if self.eat(&Tok::Eq) {
                            self.pattern()?
                        } else if self.eat(&Tok::Colon) {
                            let t = self.type_exp()?;
                            Pat::Var(f.clone(), Some(t))
                        } else {
                            Pat::Var(f.clone(), None)
                        };
                        fields.push((f, p));
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                }
                self.expect(&Tok::RBrace, "to close the record pattern")?;
                Ok(Pat::Record(fields, start.to(self.prev_span())))
            }
            _ => Err(self
                .unexpected("a pattern (a name, `_`, a tuple or a record of patterns)")
                .with_help("bind a name, as in `let x = ...` or `\\x -> ...`")),
        }
    }

    // ---------------------------------------------------------------- expressions

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.expr_inner();
        self.leave();
        r
    }

    fn expr_inner(&mut self) -> PResult<Expr> {
        let e = self.binary(0)?;
        if self.peek() == &Tok::With {
            return self.updates(e);
        }
        // `e :> t`: a size coercion
        if self.peek() == &Tok::Colon && self.peek_at(1) == &Tok::Gt {
            self.bump();
            self.bump();
            let t = self.type_exp()?;
            let span = e.span.to(t.span());
            return Ok(Expr {
                kind: ExprKind::Coerce(Box::new(e), Box::new(t)),
                span,
            });
        }
        Ok(e)
    }

    /// `e with [i] = v with [j] = w`, which is `(e with [i] = v) with [j] =
    /// w` (out of line: `expr_inner` is on the path of every nesting level).
    /// Each `with` of a chain, and each field of a path, is a level of
    /// nesting (the tree is nested as deeply, and later stages recurse on it).
    #[inline(never)]
    fn updates(&mut self, e: Expr) -> PResult<Expr> {
        let saved = self.depth;
        let r = self.updates_chain(e);
        self.depth = saved;
        r
    }

    fn updates_chain(&mut self, mut e: Expr) -> PResult<Expr> {
        while self.peek() == &Tok::With {
            self.enter()?;
            self.bump();
            if let Tok::Ident(_) = self.peek() {
                // `r with x.y = v`: a record's field
                let mut path = vec![self.ident("a field name")?];
                while self.eat(&Tok::Dot) {
                    self.enter()?;
                    path.push(self.ident("a field name")?);
                }
                self.expect(&Tok::Eq, "after the field of `with`")?;
                let v = self.binary(0)?;
                let span = e.span.to(v.span);
                e = Expr {
                    kind: ExprKind::RecordUpdate(Box::new(e), path, Box::new(v)),
                    span,
                };
                continue;
            }
            let (entries, ispan) = self.update_entries()?;
            if self.peek() == &Tok::Dot {
                // `a with [i].x = v`: a field of an element, which is
                // `a with [i] = (a[i] with x = v)`
                e = self.element_field_update(e, entries, ispan)?;
                continue;
            }
            self.expect(&Tok::Eq, "after the indices of `with`")?;
            let v = self.binary(0)?;
            let span = e.span.to(v.span);
            e = Expr {
                kind: ExprKind::Update(Box::new(e), entries, ispan, Box::new(v)),
                span,
            };
        }
        Ok(e)
    }

    /// The rest of `a with [i].x.y = v` after the brackets.
    #[inline(never)]
    fn element_field_update(
        &mut self,
        e: Expr,
        entries: Vec<IndexEntry>,
        ispan: Span,
    ) -> PResult<Expr> {
        if let Some(IndexEntry::Slice(.., sp)) =
            entries.iter().find(|x| matches!(x, IndexEntry::Slice(..)))
        {
            return Err(Diagnostic::new(
                "E0018",
                *sp,
                "a field can be updated only in one element, not in a slice",
            )
            .with_label("a slice")
            .with_help("index one element: `a with [i].x = v`; for many, `map` over the slice"));
        }
        let mut path = Vec::new();
        while self.eat(&Tok::Dot) {
            self.enter()?;
            path.push(self.ident("a field name")?);
        }
        self.expect(&Tok::Eq, "after the field of `with`")?;
        let v = self.binary(0)?;
        let span = e.span.to(v.span);
        let elem = Expr {
            kind: ExprKind::Index(Box::new(e.clone()), entries.clone()),
            span: e.span.to(ispan),
        };
        let newv = Expr {
            kind: ExprKind::RecordUpdate(Box::new(elem), path, Box::new(v)),
            span,
        };
        Ok(Expr {
            kind: ExprKind::Update(Box::new(e), entries, ispan, Box::new(newv)),
            span,
        })
    }

    /// `[i][j]` or `[i, j]` or `[s:e]` after `with` (or after the name in
    /// `let a[i] = v`): the entries of every bracket in order, and their span.
    fn update_entries(&mut self) -> PResult<(Vec<IndexEntry>, Span)> {
        let start = self.span();
        if self.peek() != &Tok::LBracket {
            return Err(self.unexpected("`[` or a field name").with_help(
                "an update reads `a with [i] = v`, `a with [i][j] = v`, `a with [s:e] = b` or `r with x = v`",
            ));
        }
        let mut entries = Vec::new();
        while self.eat(&Tok::LBracket) {
            self.enter()?;
            let r = self.index_entries();
            self.leave();
            entries.extend(r?);
            self.expect(&Tok::RBracket, "to close the index")?;
        }
        Ok((entries, start.to(self.prev_span())))
    }

    /// Precedence climbing. Level 0 takes in the pipes and compositions
    /// (`<|`, then `|>`, then `>->`/`<-<`, all looser than every binary operator).
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let lhs = self.unary()?;
        let saved = self.depth;
        let result = if min_prec == 0 {
            self.pipes_rest(lhs, 0)
        } else {
            self.binary_rest(lhs, min_prec)
        };
        self.depth = saved;
        result
    }

    /// After an operand, its binary operators and then the loosest ones:
    /// `f <| x` (level 0,
    /// right-associative: `f x`, and `f a <| x` is `f a x`), `x |> f a`
    /// (level 1: `f a x`), `f >-> g` and `g <-< f` (level 2: `f` first, then
    /// `g`). (Out of line and after the operand: not on the path of every
    /// nesting level.)
    #[inline(never)]
    fn pipes_rest(&mut self, lhs: Expr, min: u8) -> PResult<Expr> {
        let mut lhs = self.binary_rest(lhs, 1)?;
        loop {
            let level = match self.peek() {
                Tok::PipeLeft => 0,
                Tok::Pipe => 1,
                Tok::ComposeRight | Tok::ComposeLeft => 2,
                _ => break,
            };
            if level < min {
                break;
            }
            let op = self.bump();
            self.enter()?;
            let rhs = self.unary()?;
            let rhs = self.pipes_rest(rhs, if level == 0 { 0 } else { level + 1 })?;
            let span = lhs.span.to(rhs.span);
            lhs = match level {
                0 => apply_left(lhs, rhs, op.span)?,
                1 => pipe_into(lhs, rhs, op.span)?,
                _ => {
                    let (first, then) = if op.tok == Tok::ComposeLeft {
                        (rhs, lhs)
                    } else {
                        (lhs, rhs)
                    };
                    Expr {
                        kind: ExprKind::Compose(Box::new(first), Box::new(then), op.span),
                        span,
                    }
                }
            };
        }
        Ok(lhs)
    }

    fn binary_rest(&mut self, mut lhs: Expr, min_prec: u8) -> PResult<Expr> {
        {
            while let Some((op, prec, right)) = is_binop(self.peek()) {
                if prec < min_prec.max(1) {
                    break;
                }
                // `(a +)`: a left section, whose operand ends here
                if self.peek_at(1) == &Tok::RParen {
                    if min_prec > 1 {
                        // `(a + b *)`: `*` would take `b` alone
                        return Err(Diagnostic::new(
                            "E0025",
                            self.span(),
                            format!(
                                "ambiguous operator section: `{}` binds more tightly than the operator before it",
                                op.symbol()
                            ),
                        )
                        .with_label("the section's operator")
                        .with_help(format!(
                            "put the operand in parentheses, as in `((a + b) {})`, or write a lambda",
                            op.symbol()
                        )));
                    }
                    break;
                }
                let op_span = self.span();
                self.bump();
                self.enter()?;
                let rhs = self.binary(if right { prec } else { prec + 1 })?;
                if prec == 3 && is_binop(self.peek()).map(|b| b.1) == Some(3) {
                    return Err(Diagnostic::new(
                        "E0010",
                        self.span(),
                        "comparison operators cannot be chained",
                    )
                    .with_label("second comparison")
                    .with_help("use `&&`: write `a < b && b < c`"));
                }
                let span = lhs.span.to(rhs.span);
                lhs = Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs), op_span),
                    span,
                };
            }
            Ok(lhs)
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek() {
            Tok::Minus | Tok::Bang => {
                let op = if self.peek() == &Tok::Minus {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                self.bump();
                self.enter()?;
                // a `-` written before a literal is part of it (`-128i8` is
                // the least i8); before anything else, even a literal in
                // parentheses or with a sign of its own (`-(-128i8)`, `- -128i8`),
                // it is the (wrapping) negation
                let literal = matches!(self.peek(), Tok::Int(_) | Tok::Float(_));
                let literal_span = self.span();
                let mut e = self.unary();
                // `-x ** y` is `-(x ** y)`: `**` binds more tightly than a
                // minus (and the folding below sees the whole operand)
                if op == UnOp::Neg
                    && let Ok(x) = e
                {
                    e = self.negation_operand(x);
                }
                self.leave();
                let e = e?;
                // fold negative literals
                let span = start.to(e.span);
                let fold = literal && e.span == literal_span;
                Ok(match (op, e.kind) {
                    (UnOp::Neg, ExprKind::Int(v, s)) if fold => Expr {
                        kind: ExprKind::Int(-v, s),
                        span,
                    },
                    (UnOp::Neg, ExprKind::Float(v, s)) if fold => Expr {
                        kind: ExprKind::Float(-v, s),
                        span,
                    },
                    (op, kind) => Expr {
                        kind: ExprKind::Unary(op, Box::new(Expr { kind, span: e.span })),
                        span,
                    },
                })
            }
            Tok::Let | Tok::If | Tok::Backslash | Tok::Loop => self.prefix_form(),
            Tok::HashBracket => self.annotated(start),
            _ => self.application(),
        }
    }

    /// `#[view] e`, `#[dest] e`, `#[eager] e` (out of line: `unary` is on
    /// the path of every nesting level, and this frame is large).
    #[inline(never)]
    fn annotated(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let name = self.ident("an annotation name").map_err(|d| {
            d.with_help("an annotation reads `#[view] e`, `#[dest] e` or `#[eager] e`")
        })?;
        let close = self.expect(&Tok::RBracket, "to close the annotation")?;
        let attr_span = start.to(close.span);
        let Some(effect) = Effect::from_name(&name.name) else {
            return Err(Diagnostic::new(
                "E0015",
                name.span,
                format!("unknown annotation `#[{}]`", name.name),
            )
            .with_label("not an annotation")
            .with_help("the annotations are `#[view]` (a source view), `#[dest]` (written in place into its result) and `#[eager]` (computed into storage of its own)"));
        };
        self.enter()?;
        let e = self.unary();
        self.leave();
        let e = e?;
        let span = start.to(e.span);
        Ok(Expr {
            kind: ExprKind::Effect(effect, attr_span, Box::new(e)),
            span,
        })
    }

    /// `let a[i] = v in body`: sugar for `let a = a with [i] = v in body`.
    #[inline(never)]
    fn let_update(&mut self, start: Span) -> PResult<Expr> {
        let name = self.ident("a name")?;
        let (entries, ispan) = self.update_entries()?;
        self.expect(&Tok::Eq, "after the indices of `let`")?;
        let v = self.expr()?;
        let body = if self.peek() == &Tok::Let {
            self.expr()?
        } else {
            self.expect(&Tok::In, "after the bound expression")?;
            self.expr()?
        };
        let arr = Expr {
            kind: ExprKind::Var(name.clone()),
            span: name.span,
        };
        let uspan = name.span.to(v.span);
        let rhs = Expr {
            kind: ExprKind::Update(Box::new(arr), entries, ispan, Box::new(v)),
            span: uspan,
        };
        let span = start.to(body.span);
        Ok(Expr {
            kind: ExprKind::Let(Pat::Var(name, None), Box::new(rhs), Box::new(body)),
            span,
        })
    }

    /// `let`, `if`, lambda and `loop`: they extend as far to the right as possible.
    fn prefix_form(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek() {
            Tok::Let => {
                self.bump();
                // `let f x = ...`, `let f (x: f64) = ...`, `let f [n] (a: [n]f64) = ...`
                if let Tok::Ident(name) = self.peek()
                    && name != "_"
                    && match self.peek_at(1) {
                        Tok::Ident(_) | Tok::LParen | Tok::LBrace => true,
                        Tok::LBracket => self.size_params_then_param(),
                        _ => false,
                    }
                {
                    return self.let_fun(start);
                }
                if let (Tok::Ident(_), Tok::LBracket) = (self.peek(), self.peek_at(1)) {
                    return self.let_update(start);
                }
                let mut pat = self.pattern()?;
                if self.eat(&Tok::Colon) {
                    let ty = self.type_exp()?;
                    pat = match pat {
                        Pat::Var(i, _) => Pat::Var(i, Some(ty)),
                        Pat::Wild(s, _) => Pat::Wild(s, Some(ty)),
                        p => {
                            return Err(Diagnostic::new(
                                "E0008",
                                p.span(),
                                "type annotations on tuple patterns are not supported",
                            )
                            .with_label("annotate the components instead")
                            .with_help("write `let ((a: f64), (b: f64)) = ...`"));
                        }
                    };
                }
                self.expect(&Tok::Eq, "after the bound pattern")?;
                let rhs = self.expr()?;
                let body = if self.peek() == &Tok::Let {
                    self.expr()?
                } else {
                    self.expect(&Tok::In, "after the bound expression")?;
                    self.expr()?
                };
                let span = start.to(body.span);
                Ok(Expr {
                    kind: ExprKind::Let(pat, Box::new(rhs), Box::new(body)),
                    span,
                })
            }
            Tok::If => {
                self.bump();
                let c = self.expr()?;
                self.expect(&Tok::Then, "after the condition")?;
                let a = self.expr()?;
                self.expect(&Tok::Else, "after the `then` branch")?;
                let b = self.expr()?;
                let span = start.to(b.span);
                Ok(Expr {
                    kind: ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                    span,
                })
            }
            Tok::Backslash => {
                self.bump();
                let mut params = Vec::new();
                while self.peek() != &Tok::Arrow {
                    if !matches!(self.peek(), Tok::Ident(_) | Tok::LParen | Tok::LBrace) {
                        return Err(self
                            .unexpected("a lambda parameter or `->`")
                            .with_help("a lambda reads `\\x y -> body` or `\\(x: f64) -> body`"));
                    }
                    params.push(self.pattern()?);
                }
                if params.is_empty() {
                    return Err(Diagnostic::new(
                        "E0011",
                        start.to(self.span()),
                        "a lambda needs at least one parameter",
                    )
                    .with_label("no parameters")
                    .with_help("write `\\x -> body`"));
                }
                self.expect(&Tok::Arrow, "after the lambda's parameters")?;
                let body = self.expr()?;
                let span = start.to(body.span);
                Ok(Expr {
                    kind: ExprKind::Lambda(params, Box::new(body)),
                    span,
                })
            }
            _ => {
                // loop
                self.bump();
                let pat = self.pattern()?;
                // `loop a for ...` is `loop a = a for ...`, and `loop (a, b)
                // for ...` is `loop (a, b) = (a, b) for ...` (Futhark's form)
                let init = match (pat_as_expr(&pat), self.peek()) {
                    (Some(e), Tok::For | Tok::While) => e,
                    _ => {
                        self.expect(&Tok::Eq, "after the loop's state pattern")
                            .map_err(|d| {
                                d.with_help("a loop reads `loop x = init for i < n do body`")
                            })?;
                        self.expr()?
                    }
                };
                let form = match self.peek() {
                    Tok::For => {
                        self.bump();
                        let at = self.pos;
                        let x = self.pattern();
                        if let (Ok(x), Tok::In) = (&x, self.peek()) {
                            let x = x.clone();
                            self.bump();
                            let xs = self.nested_binary()?;
                            LoopForm::ForIn(Box::new(x), Box::new(xs))
                        } else {
                            // `for i < n`: the counter is a name
                            self.pos = at;
                            let i = self.ident("the loop counter name")?;
                            self.expect(&Tok::Lt, "after the loop counter")
                                .map_err(|d| {
                                    d.with_help("a counted loop reads `for i < n`, a loop over an array's elements `for x in xs`")
                                })?;
                            let n = self.nested_binary()?;
                            LoopForm::For(i, Box::new(n))
                        }
                    }
                    Tok::While => {
                        self.bump();
                        LoopForm::While(Box::new(self.nested_binary()?))
                    }
                    _ => {
                        return Err(self
                            .unexpected("`for` or `while`")
                            .with_help("a loop reads `loop x = init for i < n do body` or `loop x = init while cond do body`"));
                    }
                };
                self.expect(&Tok::Do, "before the loop body")?;
                let body = self.expr()?;
                let span = start.to(body.span);
                Ok(Expr {
                    kind: ExprKind::Loop(pat, Box::new(init), form, Box::new(body)),
                    span,
                })
            }
        }
    }

    /// `(.0)`, `(.x)`, `(.0.1)`, `(.pos.x)` after the `(`: the function that
    /// takes those fields of its argument.
    fn projection_section(&mut self, start: Span) -> PResult<Expr> {
        let param = Ident {
            name: "r".to_string(),
            span: self.span(),
        };
        let mut e = Expr {
            kind: ExprKind::Var(param.clone()),
            span: param.span,
        };
        while self.eat(&Tok::Dot) {
            let t = self.bump();
            let span = e.span.to(t.span);
            let fields: Vec<usize> = match &t.tok {
                Tok::Ident(name) => {
                    e = Expr {
                        kind: ExprKind::Field(
                            Box::new(e),
                            Ident {
                                name: name.clone(),
                                span: t.span,
                            },
                        ),
                        span,
                    };
                    continue;
                }
                Tok::Int(s) if s.chars().all(|c| c.is_ascii_digit()) => {
                    vec![s.parse().unwrap_or(usize::MAX)]
                }
                Tok::Float(s) if s.chars().all(|c| c.is_ascii_digit() || c == '.') => s
                    .split('.')
                    .map(|x| x.parse().unwrap_or(usize::MAX))
                    .collect(),
                _ => {
                    return Err(Diagnostic::new(
                        "E0003",
                        t.span,
                        "expected a field (a number or a name) after `.`",
                    )
                    .with_label("not a field")
                    .with_help(
                        "a projection section reads `(.0)` or `(.name)`: the function `\\r -> r.0`",
                    ));
                }
            };
            for k in fields {
                e = Expr {
                    kind: ExprKind::Proj(Box::new(e), k, t.span),
                    span,
                };
            }
        }
        let close = self.expect(&Tok::RParen, "to close the projection section")?;
        let span = start.to(close.span);
        Ok(Expr {
            kind: ExprKind::Lambda(vec![Pat::Var(param, None)], Box::new(e)),
            span,
        })
    }

    /// An operator expression one level deeper (a loop's count or condition,
    /// which may itself be a loop: `loop x = 0 for i < loop ...`).
    fn nested_binary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.binary(1);
        self.leave();
        r
    }

    fn starts_atom(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Ident(_)
                | Tok::Int(_)
                | Tok::Float(_)
                | Tok::True
                | Tok::False
                | Tok::LParen
                | Tok::LBracket
                | Tok::LBrace
        )
    }

    fn application(&mut self) -> PResult<Expr> {
        let f = self.postfix()?;
        let mut args = Vec::new();
        while self.starts_atom() {
            args.push(self.postfix()?);
        }
        // a trailing lambda needs no parentheses: `build n \i -> a[i]`
        if self.peek() == &Tok::Backslash {
            args.push(self.prefix_form()?);
        }
        if args.is_empty() {
            return Ok(f);
        }
        let span = f.span.to(args.last().map(|a| a.span).unwrap_or(f.span));
        Ok(Expr {
            kind: ExprKind::Apply(Box::new(f), args),
            span,
        })
    }

    /// `(* 2.0)` after its `(`: a right section. Its operand binds as the
    /// operator's right operand would (`(* a + b)` is ambiguous: E0025).
    #[inline(never)]
    fn right_section(&mut self, start: Span, op: BinOp, prec: u8, right: bool) -> PResult<Expr> {
        self.bump();
        self.enter()?;
        let operand = self.binary(if right { prec } else { prec + 1 });
        self.leave();
        let operand = operand?;
        if let Some((next, ..)) = is_binop(self.peek()) {
            return Err(Diagnostic::new(
                "E0025",
                self.span(),
                format!(
                    "ambiguous operator section: `{}` binds less tightly than the section's `{}`",
                    next.symbol(),
                    op.symbol()
                ),
            )
            .with_secondary(operand.span, "the operand so far")
            .with_label("ends the section's operand")
            .with_help(format!(
                "put the operand in parentheses, as in `({} (a {} b))`, or write a lambda",
                op.symbol(),
                next.symbol()
            )));
        }
        let close = self.expect(&Tok::RParen, "to close the operator section")?;
        Ok(Expr {
            kind: ExprKind::RightSection(op, Box::new(operand)),
            span: start.to(close.span),
        })
    }

    /// `(2.0 *)` at its operator: a left section of the operand parsed.
    #[inline(never)]
    fn left_section(&mut self, start: Span, mut items: Vec<Expr>) -> Expr {
        let op = is_binop(&self.bump().tok).map_or(BinOp::Add, |b| b.0);
        let close = self.bump();
        let operand = items.pop().unwrap_or(Expr {
            kind: ExprKind::Error,
            span: start,
        });
        Expr {
            kind: ExprKind::LeftSection(Box::new(operand), op),
            span: start.to(close.span),
        }
    }

    /// The operand of a unary minus: what follows, with the operators that
    /// bind more tightly than the minus (`**`: `-x ** 2.0` is `-(x ** 2.0)`).
    #[inline(never)]
    fn negation_operand(&mut self, e: Expr) -> PResult<Expr> {
        let saved = self.depth;
        let r = self.binary_rest(e, above_negation());
        self.depth = saved;
        r
    }

    /// After `let NAME`: sizes in brackets (`[n]`) and then a parameter, so
    /// a local function (`let f [n] (a: [n]f64) = ...`), not an update
    /// (`let a[i] = v`).
    fn size_params_then_param(&self) -> bool {
        let mut k = 1;
        while self.peek_at(k) == &Tok::LBracket
            && matches!(self.peek_at(k + 1), Tok::Ident(_))
            && self.peek_at(k + 2) == &Tok::RBracket
        {
            k += 3;
        }
        k > 1 && matches!(self.peek_at(k), Tok::Ident(_) | Tok::LParen | Tok::LBrace)
    }

    /// `let f [n] (x: [n]f64) y : t = body in e` (after `let`): a local function.
    #[inline(never)]
    fn let_fun(&mut self, start: Span) -> PResult<Expr> {
        let name = self.ident("a function name")?;
        let mut size_params = Vec::new();
        while self.peek() == &Tok::LBracket {
            self.bump();
            let id = self.ident("a size parameter name").map_err(|d| {
                d.with_help(
                    "size parameters are names in brackets, as in `let f [n] (a: [n]f64) = ...`",
                )
            })?;
            self.expect(&Tok::RBracket, "to close the size parameter")?;
            size_params.push(id);
        }
        let mut params = Vec::new();
        while matches!(self.peek(), Tok::Ident(_) | Tok::LParen | Tok::LBrace) {
            params.push(self.pattern()?);
        }
        let ret = if self.eat(&Tok::Colon) {
            Some(self.type_exp()?)
        } else {
            None
        };
        self.expect(&Tok::Eq, "before the local function's body")
            .map_err(|d| {
                d.with_help("a local function reads `let f (x: f64) y : f64 = body in e`")
            })?;
        let body = self.expr()?;
        let rest = if self.peek() == &Tok::Let {
            self.expr()?
        } else {
            self.expect(&Tok::In, "after the local function's body")?;
            self.expr()?
        };
        let span = start.to(rest.span);
        Ok(Expr {
            kind: ExprKind::LetFun(
                Box::new(LocalFun {
                    name,
                    size_params,
                    params,
                    ret,
                    body,
                }),
                Box::new(rest),
            ),
            span,
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let e = self.atom()?;
        let mut extra = 0;
        let r = self.postfix_rest(e, &mut extra);
        self.depth -= extra.min(self.depth);
        r
    }

    fn postfix_rest(&mut self, mut e: Expr, extra: &mut usize) -> PResult<Expr> {
        {
            loop {
                let adjacent = self.cur().span.start == e.span.end;
                match self.peek() {
                    Tok::LBracket if adjacent => {
                        self.bump();
                        *extra += 1;
                        self.enter()?;
                        let entries = self.index_entries()?;
                        let close = self.expect(&Tok::RBracket, "to close the index")?;
                        let span = e.span.to(close.span);
                        e = Expr {
                            kind: ExprKind::Index(Box::new(e), entries),
                            span,
                        };
                    }
                    Tok::Dot if adjacent => {
                        self.bump();
                        let t = self.bump();
                        // `f64.pi`, `f32.inf`, ...: the float types' constants (any
                        // other `f64.NAME` is a member of the built-in module `f64`,
                        // resolved with the other modules' members)
                        if let (ExprKind::Var(ty), Tok::Ident(c)) = (&e.kind, &t.tok)
                            && (ty.name == "f64" || ty.name == "f32")
                        {
                            let single = ty.name == "f32";
                            if let Some(v) = float_constant(c, single) {
                                let span = e.span.to(t.span);
                                let suffix = if single { PrimType::F32 } else { PrimType::F64 };
                                e = Expr {
                                    kind: ExprKind::Float(v, Some(suffix)),
                                    span,
                                };
                                continue;
                            }
                        }
                        // `i64.highest`, `u8.lowest`, `i32.num_bits`: the
                        // integer types' constants
                        if let (ExprKind::Var(ty), Tok::Ident(c)) = (&e.kind, &t.tok)
                            && let Some(p) = PrimType::from_name(&ty.name)
                            && let Some(v) = int_constant(c, p)
                        {
                            let span = e.span.to(t.span);
                            // (`num_bits` is an i32, as in Futhark)
                            let p = if c == "num_bits" { PrimType::I32 } else { p };
                            e = Expr {
                                kind: ExprKind::Int(v, Some(p)),
                                span,
                            };
                            continue;
                        }
                        if let Tok::Ident(name) = &t.tok {
                            *extra += 1;
                            self.enter()?;
                            let span = e.span.to(t.span);
                            e = Expr {
                                kind: ExprKind::Field(
                                    Box::new(e),
                                    Ident {
                                        name: name.clone(),
                                        span: t.span,
                                    },
                                ),
                                span,
                            };
                            continue;
                        }
                        let fields: Vec<usize> = match &t.tok {
                            Tok::Int(s) if s.chars().all(|c| c.is_ascii_digit()) => match s.parse()
                            {
                                Ok(v) => vec![v],
                                Err(_) => vec![usize::MAX],
                            },
                            Tok::Float(s) if s.chars().all(|c| c.is_ascii_digit() || c == '.') => s
                                .split('.')
                                .map(|x| x.parse().unwrap_or(usize::MAX))
                                .collect(),
                            // (`1...n`, `0..<n`: Futhark's ranges)
                            Tok::Dot => {
                                return Err(Diagnostic::new(
                                    "E0012",
                                    e.span.to(t.span),
                                    "Weir has no range expressions (`a..b`, `a...b`, `a..<b`)",
                                )
                                .with_label("a range")
                                .with_help("write `iota n` for 0, 1, ..., n-1, and `map (+ a) (iota (b - a))` for a, a+1, ..., b-1"));
                            }
                            _ => {
                                return Err(Diagnostic::new(
                                    "E0012",
                                    t.span,
                                    format!(
                                        "expected a field name or a tuple component number after `.`, found {}",
                                        t.tok.describe()
                                    ),
                                )
                                .with_label("not a field number")
                                .with_help("tuple components are numbered from 0: `t.0`, `t.1`"));
                            }
                        };
                        for f in fields {
                            *extra += 1;
                            self.enter()?;
                            let span = e.span.to(t.span);
                            e = Expr {
                                kind: ExprKind::Proj(Box::new(e), f, t.span),
                                span,
                            };
                        }
                    }
                    _ => break,
                }
            }
            Ok(e)
        }
    }

    /// The elements of an array literal, counted toward [`MAX_LITERAL`]
    /// (E0028 at the literal, at `start`, past it).
    fn literal_items(&mut self, start: Span) -> PResult<Vec<Expr>> {
        let mut items = Vec::new();
        if self.peek() == &Tok::RBracket {
            return Ok(items);
        }
        loop {
            let n = self.literal.unwrap_or(0) + 1;
            self.literal = Some(n);
            if n > MAX_LITERAL {
                return Err(Diagnostic::new("E0028", start, "array literal too large")
                    .with_label(format!("more than {MAX_LITERAL} elements (with the literals in it)"))
                    .with_help("large data is read, not compiled: make it a parameter of the entry and pass it as a value or a .npy file"));
            }
            items.push(self.expr()?);
            if !self.eat(&Tok::Comma) {
                return Ok(items);
            }
        }
    }

    fn index_entries(&mut self) -> PResult<Vec<IndexEntry>> {
        let mut entries = Vec::new();
        loop {
            let start = self.span();
            let first = if self.peek() == &Tok::Colon {
                None
            } else {
                Some(self.expr()?)
            };
            if self.eat(&Tok::Colon) {
                let end = if matches!(self.peek(), Tok::Comma | Tok::RBracket | Tok::Colon) {
                    None
                } else {
                    Some(self.expr()?)
                };
                let step = if self.eat(&Tok::Colon) {
                    Some(Box::new(self.expr()?))
                } else {
                    None
                };
                entries.push(IndexEntry::Slice(
                    first.map(Box::new),
                    end.map(Box::new),
                    step,
                    start.to(self.prev_span()),
                ));
            } else if let Some(e) = first {
                entries.push(IndexEntry::Index(e));
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        Ok(entries)
    }

    fn atom(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Ident(name) => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Var(Ident { name, span: start }),
                    span: start,
                })
            }
            Tok::Int(text) => {
                self.bump();
                match parse_int(&text) {
                    Some((v, s)) => Ok(Expr {
                        kind: ExprKind::Int(v, s),
                        span: start,
                    }),
                    None => Err(Diagnostic::new(
                        "E0013",
                        start,
                        format!("invalid integer literal `{text}`"),
                    )
                    .with_label("too large or malformed")
                    .with_help("integers must fit in 64 bits")),
                }
            }
            Tok::Float(text) => {
                self.bump();
                match parse_float(&text) {
                    Some((v, s)) => Ok(Expr {
                        kind: ExprKind::Float(v, s),
                        span: start,
                    }),
                    None => Err(Diagnostic::new(
                        "E0013",
                        start,
                        format!("invalid float literal `{text}`"),
                    )
                    .with_label("malformed")
                    .with_help("write floats like `1.0`, `2.5e-3` or `1.0f32`")),
                }
            }
            Tok::True | Tok::False => {
                let b = self.peek() == &Tok::True;
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Bool(b),
                    span: start,
                })
            }
            Tok::LParen => {
                self.bump();
                // operator section
                if let Some((op, _, _)) = is_binop(self.peek())
                    && self.peek_at(1) == &Tok::RParen
                {
                    {
                        self.bump();
                        let close = self.bump();
                        return Ok(Expr {
                            kind: ExprKind::OpSection(op),
                            span: start.to(close.span),
                        });
                    }
                }
                // `(* 2.0)`: a right section (`(- x)` is a negation)
                if let Some((op, prec, right)) = is_binop(self.peek())
                    && op != BinOp::Sub
                {
                    return self.right_section(start, op, prec, right);
                }
                // `(.0)`, `(.x)`, `(.pos.x)`: a projection section, the
                // function `\r -> r.0`
                if self.peek() == &Tok::Dot {
                    return self.projection_section(start);
                }
                if self.peek() == &Tok::RParen {
                    return Err(Diagnostic::new(
                        "E0014",
                        start.to(self.span()),
                        "empty parentheses `()` are not a value",
                    )
                    .with_label("Weir has no unit value")
                    .with_help("remove the parentheses"));
                }
                let mut items = vec![self.expr()?];
                // `(2.0 *)`: a left section (the operand stopped before `* )`)
                if is_binop(self.peek()).is_some() && self.peek_at(1) == &Tok::RParen {
                    return Ok(self.left_section(start, items));
                }
                while self.eat(&Tok::Comma) {
                    items.push(self.expr()?);
                }
                let close = self.expect(&Tok::RParen, "to close the parenthesis")?;
                let span = start.to(close.span);
                if items.len() == 1 {
                    let mut e = items.pop().unwrap_or(Expr {
                        kind: ExprKind::Error,
                        span,
                    });
                    e.span = span;
                    Ok(e)
                } else {
                    Ok(Expr {
                        kind: ExprKind::Tuple(items),
                        span,
                    })
                }
            }
            Tok::LBrace => {
                self.bump();
                let mut fields = Vec::new();
                if self.peek() != &Tok::RBrace {
                    loop {
                        let f = self
                            .ident("a field name")
                            .map_err(|d| d.with_help("a record reads `{x = 1.0, y = 2.0}`"))?;
                        let v = if self.eat(&Tok::Eq) {
                            self.expr()?
                        } else {
                            Expr {
                                kind: ExprKind::Var(f.clone()),
                                span: f.span,
                            }
                        };
                        fields.push((f, v));
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                }
                let close = self.expect(&Tok::RBrace, "to close the record")?;
                Ok(Expr {
                    kind: ExprKind::Record(fields),
                    span: start.to(close.span),
                })
            }
            Tok::LBracket => {
                self.bump();
                // the elements of the outermost literal and those nested in it
                let outer = self.literal.is_none();
                if outer {
                    self.literal = Some(0);
                }
                let r = self.literal_items(start);
                if outer {
                    self.literal = None;
                }
                let items = r?;
                let close = self.expect(&Tok::RBracket, "to close the array literal")?;
                Ok(Expr {
                    kind: ExprKind::ArrayLit(items),
                    span: start.to(close.span),
                })
            }
            Tok::In | Tok::Then | Tok::Else | Tok::Do => {
                Err(self.unexpected("an expression").with_help(format!(
                    "`{}` cannot start an expression; is something missing before it?",
                    self.peek().text()
                )))
            }
            Tok::Str(_) => Err(self
                .unexpected("an expression")
                .with_help("Weir has no string values; a string is only the path of an `import`")),
            Tok::Def | Tok::Entry | Tok::Type | Tok::Import | Tok::Module | Tok::Eof => {
                Err(self.unexpected("an expression").with_help(
                    "the definition ends before its expression is complete: finish the expression (an operand after an operator, a body after `=` or `in`)",
                ))
            }
            _ => Err(self
                .unexpected("an expression")
                .with_help("an expression starts with a name, a literal, `(`, `[`, `\\`, `-`, `!`, `if`, `let` or `loop`")),
        }
    }
}

/// Parse an integer literal's text: digits with `_`, optional `0x`, optional
/// suffix (`i8` .. `i64`, `u8` .. `u64`).
pub fn parse_int(text: &str) -> Option<(i128, Option<PrimType>)> {
    let mut body = text;
    let mut suffix = None;
    for p in PrimType::INTS {
        // (a hex digit never is `i` or `u`, so the suffix is unambiguous)
        if let Some(b) = text.strip_suffix(p.name()) {
            body = b;
            suffix = Some(p);
            break;
        }
    }
    let clean: String = body.chars().filter(|c| *c != '_').collect();
    let v = if let Some(h) = clean.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else {
        clean.parse::<i128>().ok()?
    };
    if v > u64::MAX as i128 {
        return None;
    }
    Some((v, suffix))
}

/// Parse a float literal's text, with optional `f32`/`f64` suffix.
pub fn parse_float(text: &str) -> Option<(f64, Option<PrimType>)> {
    let (body, suffix) = if let Some(b) = text.strip_suffix("f64") {
        (b, Some(PrimType::F64))
    } else if let Some(b) = text.strip_suffix("f32") {
        (b, Some(PrimType::F32))
    } else {
        (text, None)
    };
    let clean: String = body.chars().filter(|c| *c != '_').collect();
    clean.parse::<f64>().ok().map(|v| (v, suffix))
}

/// The constants of the float types (`f64.pi`, `f32.inf`, ...).
pub const FLOAT_CONSTANTS: [&str; 8] = [
    "inf", "nan", "pi", "e", "highest", "lowest", "epsilon", "smallest",
];

/// The constants of the integer types (`i64.highest`, `u8.lowest`, ...).
pub const INT_CONSTANTS: [&str; 3] = ["highest", "lowest", "num_bits"];

/// The value of the integer type `p`'s constant `name`, or None (also for
/// a type that is not an integer type).
fn int_constant(name: &str, p: PrimType) -> Option<i128> {
    let (bits, signed): (u32, bool) = match p {
        PrimType::I8 => (8, true),
        PrimType::I16 => (16, true),
        PrimType::I32 => (32, true),
        PrimType::I64 => (64, true),
        PrimType::U8 => (8, false),
        PrimType::U16 => (16, false),
        PrimType::U32 => (32, false),
        PrimType::U64 => (64, false),
        _ => return None,
    };
    Some(match (name, signed) {
        ("highest", true) => (1i128 << (bits - 1)) - 1,
        ("lowest", true) => -(1i128 << (bits - 1)),
        ("highest", false) => (1i128 << bits) - 1,
        ("lowest", false) => 0,
        ("num_bits", _) => i128::from(bits),
        _ => return None,
    })
}

/// The value of a float type's constant `name` (of `f32` when `single`,
/// exactly representable there), or None.
fn float_constant(name: &str, single: bool) -> Option<f64> {
    Some(if single {
        f64::from(match name {
            "inf" => f32::INFINITY,
            "nan" => f32::NAN,
            "pi" => std::f32::consts::PI,
            "e" => std::f32::consts::E,
            "highest" => f32::MAX,
            "lowest" => f32::MIN,
            "epsilon" => f32::EPSILON,
            "smallest" => f32::MIN_POSITIVE,
            _ => return None,
        })
    } else {
        match name {
            "inf" => f64::INFINITY,
            "nan" => f64::NAN,
            "pi" => std::f64::consts::PI,
            "e" => std::f64::consts::E,
            "highest" => f64::MAX,
            "lowest" => f64::MIN,
            "epsilon" => f64::EPSILON,
            "smallest" => f64::MIN_POSITIVE,
            _ => return None,
        }
    })
}

/// `p: t`: the type on a name or `_`, and on the components of a tuple or
/// record pattern where `t` is written as a tuple or record type of the same
/// shape (`((a, b): (f64, i64))`).
fn annotate(p: Pat, ty: TypeExp) -> PResult<Pat> {
    match (p, ty) {
        (Pat::Var(i, _), ty) => Ok(Pat::Var(i, Some(ty))),
        (Pat::Wild(s, _), ty) => Ok(Pat::Wild(s, Some(ty))),
        (Pat::Tuple(ps, s), TypeExp::Tuple(ts, _)) if ps.len() == ts.len() => Ok(Pat::Tuple(
            ps.into_iter()
                .zip(ts)
                .map(|(p, t)| annotate(p, t))
                .collect::<PResult<Vec<Pat>>>()?,
            s,
        )),
        (Pat::Record(fs, s), TypeExp::Record(ts, _))
            if fs.len() == ts.len()
                && fs
                    .iter()
                    .all(|(f, _)| ts.iter().any(|(g, _)| g.name == f.name)) =>
        {
            let mut out = Vec::new();
            for (f, p) in fs {
                let t = ts
                    .iter()
                    .find(|(g, _)| g.name == f.name)
                    .map(|(_, t)| t.clone())
                    .ok_or_else(|| annotation_mismatch(&p))?;
                out.push((f, annotate(p, t)?));
            }
            Ok(Pat::Record(out, s))
        }
        (p, _) => Err(annotation_mismatch(&p)),
    }
}

fn annotation_mismatch(p: &Pat) -> Diagnostic {
    Diagnostic::new(
        "E0008",
        p.span(),
        "the type of this pattern must be written as a tuple or record type of the same shape",
    )
    .with_label("this pattern's shape")
    .with_help("write `((a, b): (f64, i64))`, or annotate the components: `((a: f64), (b: i64))`")
}

/// A loop's state pattern read as its initial value (`loop (a, b) for ...`):
/// names, and tuples and records of them.
fn pat_as_expr(p: &Pat) -> Option<Expr> {
    let kind = match p {
        Pat::Var(id, _) => ExprKind::Var(id.clone()),
        Pat::Tuple(ps, _) => ExprKind::Tuple(ps.iter().map(pat_as_expr).collect::<Option<_>>()?),
        Pat::Record(fs, _) => ExprKind::Record(
            fs.iter()
                .map(|(f, p)| Some((f.clone(), pat_as_expr(p)?)))
                .collect::<Option<_>>()?,
        ),
        Pat::Wild(..) => return None,
    };
    Some(Expr {
        kind,
        span: p.span(),
    })
}
