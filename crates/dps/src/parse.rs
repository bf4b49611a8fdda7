//! The text form of the DPS IR ([`crate::print`]) read back, so that tests
//! can be written as DPS IR (a rule applied to hand-written IR) and print →
//! parse → print is checked stable on every program the translation makes
//! (`crates/driver/tests/dps.rs`).
//!
//! What the text form does not show comes back as a default: source spans
//! (the function's, a check's, a buffer's), the message of a size check (a
//! parsed `check a == b` reports "size mismatch" with placeholder names),
//! and the spans of a destination's dims.

use crate::ir::*;
use weir_ir::parse::{Cursor, ParseError, R};
use weir_ir::{CheckKind, SizeCheck};
use weir_syntax::lexer::Tok;

/// Parse a program in the DPS IR text form.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let mut p = Parser {
        c: Cursor::new(text),
        text,
    };
    let mut prog = Program::default();
    while p.c.peek() != &Tok::Eof {
        prog.funs.push(p.fun()?);
    }
    Ok(prog)
}

struct Parser<'a> {
    c: Cursor,
    text: &'a str,
}

fn is_word(t: &Tok, w: &str) -> bool {
    // (`with` is a keyword of the source language, a word here)
    matches!(t, Tok::Ident(s) if s == w) || (matches!(t, Tok::With) && w == "with")
}

impl Parser<'_> {
    fn word(&mut self, w: &str) -> R<()> {
        if is_word(self.c.peek(), w) {
            self.c.bump();
            Ok(())
        } else {
            self.c.err(format!("expected `{w}`"))
        }
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.c.peek() == t {
            self.c.bump();
            true
        } else {
            false
        }
    }

    fn prim(&mut self) -> R<PrimType> {
        let s = self.c.ident()?;
        match PrimType::from_name(&s) {
            Some(p) => Ok(p),
            None => self.c.err(format!("`{s}` is not a type")),
        }
    }

    /// `[]..[]p`: (element, rank).
    fn array_type(&mut self) -> R<(PrimType, usize)> {
        let mut rank = 0;
        while self.c.peek() == &Tok::LBracket && self.c.peek_at(1) == &Tok::RBracket {
            self.c.bump();
            self.c.bump();
            rank += 1;
        }
        Ok((self.prim()?, rank))
    }

    fn usize(&mut self) -> R<usize> {
        match self.c.atom()? {
            Atom::Const(Const::I64(k)) => match usize::try_from(k) {
                Ok(k) => Ok(k),
                Err(_) => self.c.err("expected a number"),
            },
            _ => self.c.err("expected a number"),
        }
    }

    fn names_until(&mut self, close: &Tok) -> R<Vec<Name>> {
        let mut v = Vec::new();
        if self.c.peek() != close {
            v.push(self.c.ident()?);
            while self.eat(&Tok::Comma) {
                v.push(self.c.ident()?);
            }
        }
        self.c.expect(close)?;
        Ok(v)
    }

    fn fun(&mut self) -> R<Fun> {
        let entry = match self.c.peek() {
            Tok::Entry => true,
            t if is_word(t, "fun") => false,
            _ => return self.c.err("expected `fun` or `entry`"),
        };
        self.c.bump();
        let name = self.c.ident()?;
        let mut dests = Vec::new();
        let mut params = Vec::new();
        while self.eat(&Tok::LParen) {
            let n = self.c.ident()?;
            self.c.expect(&Tok::Colon)?;
            if is_word(self.c.peek(), "dest") {
                self.c.bump();
                let shape = weir_shape::parse::shape(&mut self.c)?;
                let elem = self.prim()?;
                let unbounded = is_word(self.c.peek(), "unbounded");
                if unbounded {
                    self.c.bump();
                }
                dests.push(DestParam {
                    name: n,
                    elem,
                    spans: vec![Span::default(); shape.len()],
                    shape,
                    unbounded,
                });
            } else {
                let (p, r) = self.array_type()?;
                let ty = if r == 0 {
                    DType::Scalar(p)
                } else {
                    DType::Array(p, r)
                };
                params.push(Param { name: n, ty });
            }
            self.c.expect(&Tok::RParen)?;
        }
        self.c.expect(&Tok::Arrow)?;
        self.c.expect(&Tok::LParen)?;
        let mut results = Vec::new();
        while self.c.peek() != &Tok::RParen {
            if !results.is_empty() {
                self.c.expect(&Tok::Comma)?;
            }
            results.push(if is_word(self.c.peek(), "dest") {
                self.c.bump();
                ResultPart::Dest(self.usize()?)
            } else if is_word(self.c.peek(), "size") {
                self.c.bump();
                self.word("of")?;
                self.word("dest")?;
                let dest = self.usize()?;
                self.c.expect(&Tok::Ident("dim".into()))?;
                let dim = self.usize()?;
                ResultPart::Size { dest, dim }
            } else {
                ResultPart::Scalar(self.prim()?)
            });
        }
        self.c.expect(&Tok::RParen)?;
        let body = self.braced_block()?;
        Ok(Fun {
            name,
            entry,
            dests,
            params,
            results,
            body,
            span: Span::default(),
        })
    }

    /// `{ stmts [yield atoms] }`
    fn braced_block(&mut self) -> R<Block> {
        self.c.expect(&Tok::LBrace)?;
        self.c.deeper()?;
        let r = self.block_inner();
        self.c.shallower();
        let b = r?;
        self.c.expect(&Tok::RBrace)?;
        Ok(b)
    }

    fn block_inner(&mut self) -> R<Block> {
        let mut b = Block::default();
        loop {
            match self.c.peek() {
                Tok::RBrace => return Ok(b),
                t if is_word(t, "yield") => {
                    self.c.bump();
                    b.results.push(self.c.atom()?);
                    while self.eat(&Tok::Comma) {
                        b.results.push(self.c.atom()?);
                    }
                    return Ok(b);
                }
                _ => b.stmts.push(self.stmt()?),
            }
        }
    }

    /// `{ stmts }` with no results (a `for` body).
    fn braced_stmts(&mut self) -> R<Vec<Stmt>> {
        let b = self.braced_block()?;
        if !b.results.is_empty() {
            return self.c.err("a `for` body yields nothing");
        }
        Ok(b.stmts)
    }

    /// `(o: t, ...) =` before a compound statement.
    fn outs(&mut self) -> R<Vec<(Name, PrimType)>> {
        let mut v = Vec::new();
        if self.c.peek() != &Tok::LParen {
            return Ok(v);
        }
        self.c.bump();
        loop {
            let n = self.c.ident()?;
            self.c.expect(&Tok::Colon)?;
            v.push((n, self.prim()?));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.c.expect(&Tok::RParen)?;
        self.c.expect(&Tok::Eq)?;
        Ok(v)
    }

    /// `[a, b]` after `unless build`, or nothing.
    fn unless_build(&mut self) -> R<Vec<Atom>> {
        if !is_word(self.c.peek(), "unless") || self.c.at_line_start(self.text) {
            return Ok(Vec::new());
        }
        self.c.bump();
        self.word("build")?;
        self.c.expect(&Tok::LBracket)?;
        let v = self.c.atoms_until(&Tok::RBracket)?;
        for w in ["fails", "in", "its", "first", "row"] {
            if w == "in" {
                self.c.expect(&Tok::In)?;
            } else {
                self.word(w)?;
            }
        }
        Ok(v)
    }

    fn stmt(&mut self) -> R<Stmt> {
        let span = Span::default();
        let outs = self.outs()?;
        let head = self.c.peek().clone();
        if !outs.is_empty() && !matches!(&head, Tok::If | Tok::Loop) {
            let compound = ["alloc", "fold", "reduce", "call"];
            if !compound.iter().any(|w| is_word(&head, w)) {
                return self.c.err("expected a statement with results");
            }
        }
        match head {
            Tok::Let => {
                self.c.bump();
                let var = self.c.ident()?;
                self.c.expect(&Tok::Colon)?;
                let ty = self.prim()?;
                self.c.expect(&Tok::Eq)?;
                let exp = self.sexp()?;
                Ok(Stmt::Let { var, ty, exp, span })
            }
            Tok::For => {
                self.c.bump();
                let i = self.c.ident()?;
                self.c.expect(&Tok::Lt)?;
                let n = self.c.atom()?;
                let body = self.braced_stmts()?;
                Ok(Stmt::For { i, n, body })
            }
            Tok::If => {
                self.c.bump();
                let cond = self.c.atom()?;
                let then = self.braced_block()?;
                self.c.expect(&Tok::Else)?;
                let els = self.braced_block()?;
                Ok(Stmt::If {
                    outs,
                    cond,
                    then,
                    els,
                })
            }
            Tok::Loop => {
                self.c.bump();
                self.loop_stmt(outs)
            }
            Tok::Ident(w) => self.word_stmt(&w, outs),
            _ => self.c.err("expected a statement"),
        }
    }

    fn word_stmt(&mut self, w: &str, outs: Vec<(Name, PrimType)>) -> R<Stmt> {
        let span = Span::default();
        match w {
            "check" => {
                self.c.bump();
                let got = self.c.atom()?;
                self.c.expect(&Tok::EqEq)?;
                let want = self.c.atom()?;
                Ok(Stmt::Check {
                    check: Check {
                        got: got.clone(),
                        want: want.clone(),
                        message: SizeCheck {
                            got,
                            want,
                            callee: "?".into(),
                            param: "?".into(),
                            size: "?".into(),
                        },
                    },
                    span,
                })
            }
            "assert_split" | "assert_stride" | "assert_slide" | "assert_rows"
            | "assert_regular" | "assert_allocated" | "assert_grown" | "assert_fits" => {
                self.c.bump();
                let guard = match w {
                    "assert_split" => Guard::Split {
                        k: self.c.atom()?,
                        len: self.c.atom()?,
                    },
                    "assert_stride" => Guard::Stride { k: self.c.atom()? },
                    "assert_slide" => Guard::Slide {
                        w: self.c.atom()?,
                        s: self.c.atom()?,
                        len: self.c.atom()?,
                    },
                    "assert_rows" => Guard::DestRows {
                        dest: self.c.ident()?,
                        rows: self.c.atom()?,
                    },
                    "assert_regular" => {
                        let at = self.c.atom()?;
                        let first = self.c.atom()?;
                        let got = self.c.atom()?;
                        self.c.expect(&Tok::LBracket)?;
                        let inner = self.c.atoms_until(&Tok::RBracket)?;
                        Guard::Irregular {
                            at,
                            first,
                            got,
                            inner,
                        }
                    }
                    "assert_fits" => {
                        self.c.expect(&Tok::LBracket)?;
                        let got = self.c.atoms_until(&Tok::RBracket)?;
                        self.c.expect(&Tok::LBracket)?;
                        let want = self.c.atoms_until(&Tok::RBracket)?;
                        Guard::Fits { got, want }
                    }
                    "assert_allocated" => {
                        let dest = self.c.ident()?;
                        Guard::DestReady {
                            dest,
                            build: self.unless_build()?,
                        }
                    }
                    _ => {
                        let dest = self.c.ident()?;
                        Guard::Grown {
                            dest,
                            build: self.unless_build()?,
                        }
                    }
                };
                Ok(Stmt::Guard { guard, span })
            }
            _ if CheckKind::from_name(w).is_some() => {
                let Some(kind) = CheckKind::from_name(w) else {
                    return self.c.err("expected a check");
                };
                self.c.bump();
                let mut args = Vec::new();
                for _ in 0..kind.arity() {
                    args.push(self.c.atom()?);
                }
                let what = if kind.has_what() {
                    self.c.ident()?
                } else {
                    String::new()
                };
                Ok(Stmt::Guard {
                    guard: Guard::Core(weir_ir::Check { kind, args, what }),
                    span,
                })
            }
            "view" => {
                self.c.bump();
                let var = self.c.ident()?;
                self.c.expect(&Tok::Colon)?;
                let (elem, rank) = self.array_type()?;
                self.c.expect(&Tok::Eq)?;
                let view =
                    if is_word(self.c.peek(), "reshape") && self.c.peek_at(1) == &Tok::LBracket {
                        self.c.bump();
                        self.c.bump();
                        let ds = self.c.atoms_until(&Tok::RBracket)?;
                        View::Reshape(self.c.ident()?, ds)
                    } else if is_word(self.c.peek(), "transpose")
                        && matches!(self.c.peek_at(1), Tok::Ident(_))
                    {
                        self.c.bump();
                        View::Transpose(self.c.ident()?)
                    } else if is_word(self.c.peek(), "placed")
                        && matches!(self.c.peek_at(1), Tok::Ident(_))
                    {
                        self.c.bump();
                        let part = self.c.ident()?;
                        self.c.expect(&Tok::LBracket)?;
                        let lo = self.c.atom()?;
                        self.c.expect(&Tok::Colon)?;
                        let hi = self.c.atom()?;
                        self.c.expect(&Tok::RBracket)?;
                        self.c.expect(&Tok::In)?;
                        View::Placed {
                            part,
                            lo,
                            hi,
                            root: self.c.ident()?,
                        }
                    } else if is_word(self.c.peek(), "reverse")
                        && matches!(self.c.peek_at(1), Tok::Ident(_))
                    {
                        self.c.bump();
                        View::Reverse(self.c.ident()?)
                    } else if is_word(self.c.peek(), "replicate")
                        && !matches!(self.c.peek_at(1), Tok::LBracket)
                    {
                        self.c.bump();
                        let n = self.c.atom()?;
                        View::Replicate(n, self.c.ident()?)
                    } else if is_word(self.c.peek(), "stride")
                        && !matches!(self.c.peek_at(1), Tok::LBracket)
                    {
                        self.c.bump();
                        let k = self.c.atom()?;
                        View::Stride(k, self.c.ident()?)
                    } else {
                        let x = self.c.ident()?;
                        if self.eat(&Tok::LBracket) {
                            let lo = self.c.atom()?;
                            if self.eat(&Tok::Colon) {
                                let hi = self.c.atom()?;
                                self.c.expect(&Tok::RBracket)?;
                                View::Slice(x, lo, hi)
                            } else {
                                self.c.expect(&Tok::RBracket)?;
                                View::Row(x, lo)
                            }
                        } else {
                            View::Alias(x)
                        }
                    };
                Ok(Stmt::View {
                    var,
                    elem,
                    rank,
                    view,
                    span,
                })
            }
            "alloc" => {
                self.c.bump();
                let mut bufs = Vec::new();
                while self.c.peek() != &Tok::LBrace {
                    if !bufs.is_empty() {
                        self.c.expect(&Tok::Comma)?;
                    }
                    let var = self.c.ident()?;
                    self.c.expect(&Tok::Colon)?;
                    self.c.expect(&Tok::LBracket)?;
                    let dims = self.c.atoms_until(&Tok::RBracket)?;
                    let elem = self.prim()?;
                    let mut when = Vec::new();
                    if self.eat(&Tok::If) {
                        when.push(self.c.atom()?);
                        while self.eat(&Tok::Comma) {
                            when.push(self.c.atom()?);
                        }
                        self.c.expect(&Tok::Gt)?;
                        if self.c.atom()? != Atom::Const(Const::I64(0)) {
                            return self.c.err("expected `> 0`");
                        }
                    }
                    let grown = is_word(self.c.peek(), "grown");
                    if grown {
                        self.c.bump();
                    }
                    bufs.push(Buf {
                        var,
                        elem,
                        dims,
                        span,
                        when,
                        grown,
                    });
                }
                let body = self.braced_block()?;
                Ok(Stmt::Alloc { outs, bufs, body })
            }
            "copy" => {
                self.c.bump();
                let dest = self.c.ident()?;
                self.c.expect(&Tok::Colon)?;
                self.c.expect(&Tok::Eq)?;
                let src = self.c.ident()?;
                Ok(Stmt::Copy { dest, src, span })
            }
            "fold" => {
                self.c.bump();
                self.c.expect(&Tok::LParen)?;
                let mut acc = Vec::new();
                while self.c.peek() != &Tok::RParen {
                    if !acc.is_empty() {
                        self.c.expect(&Tok::Comma)?;
                    }
                    let n = self.c.ident()?;
                    self.c.expect(&Tok::Colon)?;
                    acc.push((n, self.prim()?));
                }
                self.c.expect(&Tok::RParen)?;
                self.c.expect(&Tok::Eq)?;
                self.c.expect(&Tok::LParen)?;
                let init = self.c.atoms_until(&Tok::RParen)?;
                self.c.expect(&Tok::For)?;
                let i = self.c.ident()?;
                self.c.expect(&Tok::Lt)?;
                let n = self.c.atom()?;
                let body = self.braced_block()?;
                Ok(Stmt::Fold {
                    outs,
                    acc,
                    init,
                    i,
                    n,
                    body,
                })
            }
            "reduce" => {
                self.c.bump();
                self.c.expect(&Tok::LParen)?;
                let a = self.names_until(&Tok::RParen)?;
                self.c.expect(&Tok::LParen)?;
                let b = self.names_until(&Tok::RParen)?;
                self.word("ne")?;
                self.c.expect(&Tok::LParen)?;
                let ne = self.c.atoms_until(&Tok::RParen)?;
                self.c.expect(&Tok::For)?;
                let i = self.c.ident()?;
                self.c.expect(&Tok::Lt)?;
                let n = self.c.atom()?;
                let elem = self.braced_block()?;
                self.word("with")?;
                let body = self.braced_block()?;
                Ok(Stmt::Reduce {
                    outs,
                    ne,
                    i,
                    n,
                    elem,
                    op: RedOp { a, b, body },
                })
            }
            "grow" => {
                self.c.bump();
                let dest = self.c.ident()?;
                self.word("to")?;
                let rows = self.c.atom()?;
                self.word("rows")?;
                let mut hint = None;
                if self.c.peek() == &Tok::LParen
                    && is_word(self.c.peek_at(1), "first")
                    && !self.c.at_line_start(self.text)
                {
                    self.c.bump();
                    self.c.bump();
                    hint = Some(self.c.atom()?);
                    self.c.expect(&Tok::RParen)?;
                }
                let mut soft = Vec::new();
                if is_word(self.c.peek(), "soft") && !self.c.at_line_start(self.text) {
                    self.c.bump();
                    self.c.expect(&Tok::LBracket)?;
                    soft = self.c.atoms_until(&Tok::RBracket)?;
                }
                Ok(Stmt::Grow {
                    dest,
                    rows,
                    hint,
                    soft,
                    span,
                })
            }
            "call" => {
                self.c.bump();
                let fun = self.c.ident()?;
                self.c.expect(&Tok::LBracket)?;
                let dests = self.names_until(&Tok::RBracket)?;
                // (the arguments run to the end of the line)
                let mut args = Vec::new();
                while !self.c.at_line_start(self.text)
                    && !matches!(self.c.peek(), Tok::Eof | Tok::RBrace)
                {
                    args.push(self.c.atom()?);
                }
                Ok(Stmt::Call {
                    outs,
                    fun,
                    dests,
                    args,
                    span,
                })
            }
            _ => {
                // `dest[idx] := val`
                let dest = self.c.ident()?;
                self.c.expect(&Tok::LBracket)?;
                let idx = self.c.atoms_until(&Tok::RBracket)?;
                self.c.expect(&Tok::Colon)?;
                self.c.expect(&Tok::Eq)?;
                let val = self.c.atom()?;
                Ok(Stmt::Store {
                    dest,
                    idx,
                    val,
                    span,
                })
            }
        }
    }

    fn loop_stmt(&mut self, outs: Vec<(Name, PrimType)>) -> R<Stmt> {
        self.c.expect(&Tok::LParen)?;
        let mut scalars = Vec::new();
        let mut arrays = Vec::new();
        while self.c.peek() != &Tok::RParen {
            if !(scalars.is_empty() && arrays.is_empty()) {
                self.c.expect(&Tok::Comma)?;
            }
            let var = self.c.ident()?;
            if self.eat(&Tok::Arrow) {
                let next = self.c.ident()?;
                self.c.expect(&Tok::Colon)?;
                self.c.expect(&Tok::LBracket)?;
                let dims = self.c.atoms_until(&Tok::RBracket)?;
                let elem = self.prim()?;
                self.c.expect(&Tok::In)?;
                let out = self.c.ident()?;
                let mut in_place = false;
                let grow = if is_word(self.c.peek(), "grows") {
                    self.c.bump();
                    self.word("to")?;
                    Some(self.c.ident()?)
                } else {
                    if self.c.peek() == &Tok::In {
                        self.c.bump();
                        self.word("place")?;
                        in_place = true;
                    }
                    None
                };
                arrays.push(ArrState {
                    var,
                    next,
                    out,
                    elem,
                    dims,
                    span: Span::default(),
                    grow,
                    in_place,
                });
            } else {
                self.c.expect(&Tok::Colon)?;
                let p = self.prim()?;
                self.c.expect(&Tok::Eq)?;
                scalars.push((var, p, self.c.atom()?));
            }
        }
        self.c.expect(&Tok::RParen)?;
        let form = if self.eat(&Tok::For) {
            let i = self.c.ident()?;
            self.c.expect(&Tok::Lt)?;
            LoopForm::For(i, self.c.atom()?)
        } else {
            self.c.expect(&Tok::While)?;
            LoopForm::While(Block::default())
        };
        self.c.expect(&Tok::LBrace)?;
        let form = match form {
            LoopForm::While(_) => {
                self.word("cond")?;
                LoopForm::While(self.braced_block()?)
            }
            f => f,
        };
        self.c.deeper()?;
        let body = self.block_inner();
        self.c.shallower();
        let body = body?;
        self.c.expect(&Tok::RBrace)?;
        Ok(Stmt::Loop {
            outs,
            scalars,
            arrays,
            form,
            body,
        })
    }

    fn sexp(&mut self) -> R<SExp> {
        let head = self.c.peek().clone();
        if let Tok::Ident(w) = &head {
            let next_is_operand = !self.next_on_new_line()
                && matches!(
                    self.c.peek_at(1),
                    Tok::Ident(_)
                        | Tok::Int(_)
                        | Tok::Float(_)
                        | Tok::True
                        | Tok::False
                        | Tok::Minus
                );
            match w.as_str() {
                "load_or_0" => {
                    self.c.bump();
                    let arr = self.c.ident()?;
                    self.c.expect(&Tok::LBracket)?;
                    return Ok(SExp::LoadOr0(arr, self.c.atoms_until(&Tok::RBracket)?));
                }
                "dim" if next_is_operand => {
                    self.c.bump();
                    let arr = self.c.ident()?;
                    return Ok(SExp::Dim(arr, self.usize()?));
                }
                "div0" | "rem0" if next_is_operand => {
                    self.c.bump();
                    let x = self.c.atom()?;
                    let y = self.c.atom()?;
                    return Ok(if w == "div0" {
                        SExp::DivOr0(x, y)
                    } else {
                        SExp::RemOr0(x, y)
                    });
                }
                _ => {}
            }
            if next_is_operand {
                if let Some(p) = PrimType::from_name(w) {
                    self.c.bump();
                    return Ok(SExp::Convert(p, self.c.atom()?));
                }
                if let Some(m) = MathFn::from_name(w) {
                    self.c.bump();
                    let mut xs = Vec::new();
                    for _ in 0..m.arity() {
                        xs.push(self.c.atom()?);
                    }
                    return Ok(SExp::Math(m, xs));
                }
            }
            if self.c.peek_at(1) == &Tok::LBracket && !self.next_on_new_line() {
                let arr = self.c.ident()?;
                self.c.bump();
                return Ok(SExp::Load(arr, self.c.atoms_until(&Tok::RBracket)?));
            }
        }
        if head == Tok::Bang {
            self.c.bump();
            return Ok(SExp::Un(UnOp::Not, self.c.atom()?));
        }
        if head == Tok::Minus && matches!(self.c.peek_at(1), Tok::Ident(_)) {
            // (`-x`; `-1i64` is a constant)
            let special = matches!(self.c.peek_at(1), Tok::Ident(s) if s.starts_with("inf") || s.starts_with("nan"));
            if !special {
                self.c.bump();
                return Ok(SExp::Un(UnOp::Neg, self.c.atom()?));
            }
        }
        let x = self.c.atom()?;
        if self.c.at_line_start(self.text) {
            return Ok(SExp::Atom(x));
        }
        let Some(op) = weir_ir::parse::bin_of(self.c.peek()) else {
            return Ok(SExp::Atom(x));
        };
        self.c.bump();
        Ok(SExp::Bin(op, x, self.c.atom()?))
    }

    /// Does the token after the current one start a new line?
    fn next_on_new_line(&self) -> bool {
        self.c.next_at_line_start(self.text)
    }
}
