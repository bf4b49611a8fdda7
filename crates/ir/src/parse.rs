//! Parser for the text form printed by [`crate::print`]. Used by tests (print → parse
//! → print must be stable) and by `weir dev` to read hand-written IR.

use crate::*;
use weir_syntax::FileId;
use weir_syntax::lexer::{Tok, Token, lex};
use weir_syntax::parser::{parse_float, parse_int};

/// A parse error with the byte offset where it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

pub type R<T> = Result<T, ParseError>;

/// Parse a program in the IR text form.
pub fn parse_program(text: &str) -> R<Program> {
    let mut p = P::new(text);
    let mut prog = Program::default();
    while p.peek() != &Tok::Eof {
        prog.defs.push(p.fundef()?);
    }
    Ok(prog)
}

/// A token cursor over the IR text form, shared with the parsers of the
/// other IRs' text forms (the shape language, the DPS IR), which have the
/// same atoms, names and checks.
pub struct P {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

/// The cursor under its public name.
pub type Cursor = P;

const MAX_DEPTH: usize = 2000;

impl P {
    /// A cursor at the start of `text`.
    pub fn new(text: &str) -> P {
        P {
            toks: lex(FileId(0), text),
            pos: 0,
            depth: 0,
        }
    }
    /// Is there a line break between the previous token and this one?
    pub fn at_line_start(&self, text: &str) -> bool {
        let Some(prev) = self.pos.checked_sub(1).and_then(|k| self.toks.get(k)) else {
            return true;
        };
        let cur = &self.toks[self.pos.min(self.toks.len() - 1)];
        text.get(prev.span.end as usize..cur.span.start as usize)
            .is_some_and(|g| g.contains('\n'))
    }
    /// Is there a line break between this token and the next?
    pub fn next_at_line_start(&self, text: &str) -> bool {
        let last = self.toks.len() - 1;
        let cur = &self.toks[self.pos.min(last)];
        let next = &self.toks[(self.pos + 1).min(last)];
        text.get(cur.span.end as usize..next.span.start as usize)
            .is_some_and(|g| g.contains('\n'))
    }
    pub fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }
    pub fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }
    pub fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    pub fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        let off = self.toks[self.pos.min(self.toks.len() - 1)].span.start as usize;
        Err(ParseError {
            offset: off,
            message: format!("{} (found {})", msg.into(), self.peek().describe()),
        })
    }
    pub fn expect(&mut self, t: &Tok) -> R<()> {
        if self.peek() == t {
            self.bump();
            Ok(())
        } else {
            self.err(format!("expected `{}`", t.text()))
        }
    }
    pub fn ident(&mut self) -> R<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.err("expected a name"),
        }
    }
    pub fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        Ok(())
    }
    /// Leave a level entered with [`P::deeper`].
    pub fn shallower(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn fundef(&mut self) -> R<FunDef> {
        let entry = match self.bump() {
            Tok::Def => false,
            Tok::Entry => true,
            _ => return self.err("expected `def` or `entry`"),
        };
        let name = self.ident()?;
        let mut size_params = Vec::new();
        while self.peek() == &Tok::LBracket {
            self.bump();
            size_params.push(self.ident()?);
            self.expect(&Tok::RBracket)?;
        }
        let mut params = Vec::new();
        while self.peek() == &Tok::LParen {
            self.bump();
            let n = self.ident()?;
            self.expect(&Tok::Colon)?;
            let t = self.ty()?;
            self.expect(&Tok::RParen)?;
            params.push((n, t));
        }
        self.expect(&Tok::Colon)?;
        let ret = self.ty()?;
        self.expect(&Tok::Eq)?;
        let body = self.body()?;
        Ok(FunDef {
            name,
            entry,
            size_params,
            params,
            ret,
            body,
            span: Span::default(),
        })
    }

    pub fn ty(&mut self) -> R<Type> {
        self.deeper()?;
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    fn ty_inner(&mut self) -> R<Type> {
        match self.peek().clone() {
            Tok::Ident(s) => match PrimType::from_name(&s) {
                Some(p) => {
                    self.bump();
                    Ok(Type::Prim(p))
                }
                None => self.err("expected a type"),
            },
            Tok::LBracket => {
                self.bump();
                let size = match self.peek().clone() {
                    Tok::RBracket => Size::Unknown,
                    Tok::Int(t) => {
                        self.bump();
                        match parse_int(&t) {
                            Some((v, _)) if v >= 0 && v <= i64::MAX as i128 => {
                                Size::Const(v as i64)
                            }
                            _ => return self.err("bad size"),
                        }
                    }
                    Tok::Ident(s) => {
                        self.bump();
                        Size::Var(s)
                    }
                    _ => return self.err("expected a size"),
                };
                self.expect(&Tok::RBracket)?;
                Ok(Type::array(size, self.ty()?))
            }
            Tok::LParen => {
                self.bump();
                let first = self.ty()?;
                if self.peek() == &Tok::Arrow {
                    let mut parts = vec![first];
                    while self.peek() == &Tok::Arrow {
                        self.bump();
                        parts.push(self.ty()?);
                    }
                    self.expect(&Tok::RParen)?;
                    let ret = match parts.pop() {
                        Some(r) => r,
                        None => return self.err("bad function type"),
                    };
                    return Ok(Type::Fun(parts, Box::new(ret)));
                }
                let mut ts = vec![first];
                while self.peek() == &Tok::Comma {
                    self.bump();
                    ts.push(self.ty()?);
                }
                self.expect(&Tok::RParen)?;
                if ts.len() < 2 {
                    return self.err("a tuple type needs two or more components");
                }
                Ok(Type::Tuple(ts))
            }
            _ => self.err("expected a type"),
        }
    }

    fn body(&mut self) -> R<Body> {
        self.deeper()?;
        self.expect(&Tok::LBrace)?;
        let mut stmts = Vec::new();
        while self.peek() == &Tok::Let {
            self.bump();
            let var = self.ident()?;
            self.expect(&Tok::Colon)?;
            let ty = self.ty()?;
            self.expect(&Tok::Eq)?;
            let exp = self.exp()?;
            stmts.push(Stmt {
                var,
                ty,
                exp,
                span: Span::default(),
            });
        }
        self.expect(&Tok::In)?;
        let result = self.atom()?;
        self.expect(&Tok::RBrace)?;
        self.depth -= 1;
        Ok(Body { stmts, result })
    }

    fn starts_atom(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Int(_) | Tok::Float(_) | Tok::True | Tok::False | Tok::Minus | Tok::Ident(_)
        )
    }

    pub fn atom(&mut self) -> R<Atom> {
        let neg = if self.peek() == &Tok::Minus {
            self.bump();
            true
        } else {
            false
        };
        let tok = self.peek().clone();
        let c = match tok {
            Tok::True if !neg => Const::Bool(true),
            Tok::False if !neg => Const::Bool(false),
            Tok::Int(t) => match parse_int(&t) {
                Some((v, p)) => {
                    let v = if neg { -v } else { v };
                    let p = p.unwrap_or(PrimType::I64);
                    match Const::int(p, v) {
                        Some(c) => c,
                        None => return self.err(format!("{} constant out of range", p.name())),
                    }
                }
                None => return self.err("bad integer"),
            },
            Tok::Float(t) => match parse_float(&t) {
                Some((v, Some(PrimType::F32))) => {
                    Const::F32(if neg { -(v as f32) } else { v as f32 })
                }
                Some((v, _)) => Const::F64(if neg { -v } else { v }),
                None => return self.err("bad float"),
            },
            Tok::Ident(s) => {
                let special = match s.as_str() {
                    "inff64" => Some(Const::F64(f64::INFINITY)),
                    "nanf64" => Some(Const::F64(f64::NAN)),
                    "inff32" => Some(Const::F32(f32::INFINITY)),
                    "nanf32" => Some(Const::F32(f32::NAN)),
                    _ => None,
                };
                match special {
                    Some(Const::F64(v)) => Const::F64(if neg { -v } else { v }),
                    Some(Const::F32(v)) => Const::F32(if neg { -v } else { v }),
                    Some(c) => c,
                    None if !neg => {
                        self.bump();
                        return Ok(Atom::Var(s));
                    }
                    None => return self.err("expected a constant after `-`"),
                }
            }
            _ => return self.err("expected a variable or constant"),
        };
        self.bump();
        Ok(Atom::Const(c))
    }

    fn arg(&mut self) -> R<Arg> {
        if self.peek() == &Tok::LParen {
            if self.peek_at(1) == &Tok::Backslash {
                self.bump();
                self.bump();
                let mut params = Vec::new();
                while self.peek() == &Tok::LParen {
                    self.bump();
                    let n = self.ident()?;
                    self.expect(&Tok::Colon)?;
                    let t = self.ty()?;
                    self.expect(&Tok::RParen)?;
                    params.push((n, t));
                }
                self.expect(&Tok::Colon)?;
                let ret = self.ty()?;
                self.expect(&Tok::Arrow)?;
                let body = self.body()?;
                self.expect(&Tok::RParen)?;
                return Ok(Arg::Fun(Fun::Lambda(Box::new(Lambda {
                    params,
                    ret,
                    body,
                }))));
            }
            if matches!(self.peek_at(1), Tok::Ident(s) if s == "fn") {
                self.bump();
                self.bump();
                let v = self.ident()?;
                self.expect(&Tok::RParen)?;
                return Ok(Arg::Fun(Fun::Var(v)));
            }
            return self.err("expected an argument");
        }
        Ok(Arg::Atom(self.atom()?))
    }

    fn args(&mut self) -> R<Vec<Arg>> {
        let mut v = Vec::new();
        while self.starts_atom() || self.peek() == &Tok::LParen {
            if self.peek() == &Tok::Let {
                break;
            }
            v.push(self.arg()?);
        }
        Ok(v)
    }

    pub fn atoms_until(&mut self, close: &Tok) -> R<Vec<Atom>> {
        let mut v = Vec::new();
        if self.peek() != close {
            v.push(self.atom()?);
            while self.peek() == &Tok::Comma {
                self.bump();
                v.push(self.atom()?);
            }
        }
        self.expect(close)?;
        Ok(v)
    }

    fn exp(&mut self) -> R<Exp> {
        match self.peek().clone() {
            Tok::If => {
                self.bump();
                let c = self.atom()?;
                self.expect(&Tok::Then)?;
                let t = self.body()?;
                self.expect(&Tok::Else)?;
                let f = self.body()?;
                return Ok(Exp::If(c, t, f));
            }
            Tok::Loop => {
                self.bump();
                self.expect(&Tok::LParen)?;
                let n = self.ident()?;
                self.expect(&Tok::Colon)?;
                let t = self.ty()?;
                self.expect(&Tok::RParen)?;
                self.expect(&Tok::Eq)?;
                let init = self.atom()?;
                let form = match self.bump() {
                    Tok::For => {
                        let i = self.ident()?;
                        self.expect(&Tok::Lt)?;
                        LoopForm::For(i, self.atom()?)
                    }
                    Tok::While => LoopForm::While(self.body()?),
                    _ => return self.err("expected `for` or `while`"),
                };
                self.expect(&Tok::Do)?;
                let body = self.body()?;
                return Ok(Exp::Loop {
                    state: (n, t),
                    init,
                    form,
                    body,
                });
            }
            Tok::LParen => {
                self.bump();
                let xs = self.atoms_until(&Tok::RParen)?;
                return Ok(Exp::Tuple(xs));
            }
            Tok::LBracket => {
                self.bump();
                let xs = self.atoms_until(&Tok::RBracket)?;
                return Ok(Exp::ArrayLit(xs));
            }
            Tok::Ident(s)
                if ["call", "apply", "neg", "not", "dim", "assert_size"].contains(&s.as_str())
                    || CheckKind::from_name(&s).is_some()
                    || PrimType::from_name(&s).is_some()
                    || MathFn::from_name(&s).is_some()
                    || Builtin::from_name(&s).is_some() =>
            {
                if s == "call" || s == "apply" {
                    self.bump();
                    let f = self.ident()?;
                    let args = self.args()?;
                    if s == "call" {
                        return Ok(Exp::Call(f, args));
                    }
                    let mut atoms = Vec::new();
                    for a in args {
                        match a {
                            Arg::Atom(a) => atoms.push(a),
                            Arg::Fun(_) => return self.err("`apply` takes only atoms"),
                        }
                    }
                    return Ok(Exp::Apply(f, atoms));
                }
                if s == "dim" {
                    self.bump();
                    let a = self.atom()?;
                    return match self.bump() {
                        Tok::Int(t) => match t.parse::<usize>() {
                            Ok(k) => Ok(Exp::Dim(a, k)),
                            Err(_) => self.err("bad dimension"),
                        },
                        _ => self.err("expected a dimension number"),
                    };
                }
                if s == "assert_size" {
                    self.bump();
                    let got = self.atom()?;
                    let want = self.atom()?;
                    let callee = self.ident()?;
                    let param = self.ident()?;
                    let size = self.ident()?;
                    return Ok(Exp::CheckSize(Box::new(SizeCheck {
                        got,
                        want,
                        callee,
                        param,
                        size,
                    })));
                }
                if let Some(kind) = CheckKind::from_name(&s) {
                    self.bump();
                    let mut args = Vec::new();
                    for _ in 0..kind.arity() {
                        args.push(self.atom()?);
                    }
                    let what = if kind.has_what() {
                        self.ident()?
                    } else {
                        String::new()
                    };
                    return Ok(Exp::Check(Box::new(Check { kind, args, what })));
                }
                if s == "neg" || s == "not" {
                    self.bump();
                    let a = self.atom()?;
                    return Ok(Exp::Un(if s == "neg" { UnOp::Neg } else { UnOp::Not }, a));
                }
                if let Some(p) = PrimType::from_name(&s) {
                    self.bump();
                    return Ok(Exp::Convert(p, self.atom()?));
                }
                if let Some(m) = MathFn::from_name(&s) {
                    self.bump();
                    let mut xs = Vec::new();
                    for _ in 0..m.arity() {
                        xs.push(self.atom()?);
                    }
                    return Ok(Exp::Math(m, xs));
                }
                if let Some(b) = Builtin::from_name(&s) {
                    self.bump();
                    let args = self.args()?;
                    return match Prim::from_args(b, args) {
                        Ok(p) => Ok(Exp::Prim(p)),
                        Err(e) => self.err(e.to_string()),
                    };
                }
            }
            _ => {}
        }
        let a = self.atom()?;
        match self.peek().clone() {
            Tok::Dot => {
                self.bump();
                match self.bump() {
                    Tok::Int(t) => match t.parse::<usize>() {
                        Ok(i) => Ok(Exp::Proj(a, i)),
                        Err(_) => self.err("bad field"),
                    },
                    _ => self.err("expected a field number"),
                }
            }
            Tok::LBracket => {
                self.bump();
                let i = self.atom()?;
                if self.peek() == &Tok::Colon {
                    self.bump();
                    let e = self.atom()?;
                    self.expect(&Tok::RBracket)?;
                    return Ok(Exp::Slice(a, i, e));
                }
                self.expect(&Tok::RBracket)?;
                Ok(Exp::Index(a, i))
            }
            t => {
                if let Some(op) = bin_of(&t) {
                    self.bump();
                    let b = self.atom()?;
                    return Ok(Exp::Bin(op, a, b));
                }
                Ok(Exp::Atom(a))
            }
        }
    }
}

/// The binary operator a token stands for (shared with the DPS parser).
pub fn bin_of(t: &Tok) -> Option<BinOp> {
    Some(match t {
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Rem,
        Tok::StarStar => BinOp::Pow,
        Tok::EqEq => BinOp::Eq,
        Tok::NotEq => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::AndAnd => BinOp::And,
        Tok::OrOr => BinOp::Or,
        Tok::PlusPlus => BinOp::Concat,
        Tok::Amp => BinOp::BitAnd,
        Tok::Bar => BinOp::BitOr,
        Tok::Caret => BinOp::BitXor,
        Tok::Shl => BinOp::Shl,
        Tok::Shr => BinOp::Shr,
        Tok::UShr => BinOp::UShr,
        _ => return None,
    })
}
