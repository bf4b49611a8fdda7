//! Finishing a checked definition: resolve inference variables (defaulting integer
//! literals to i64 and float literals to f64), turn literal temporaries back into
//! constants, and make sure every size names a variable in scope.

use crate::elab::{Checker, Failed};
use crate::infer::Kind;
use std::collections::{HashMap, HashSet};
use weir_ir::*;
use weir_syntax::Diagnostic;

pub fn zonk_def(ck: &mut Checker, def: &mut FunDef) -> Result<(), Failed> {
    let mut z = Z {
        ck,
        lits: HashMap::new(),
        failed: false,
    };
    let span = def.span;
    for p in &mut def.params {
        p.1 = z.ty(&p.1, span);
    }
    def.ret = z.ty(&def.ret, span);
    z.body(&mut def.body);
    if z.failed {
        return Err(Failed);
    }
    let lits = std::mem::take(&mut z.lits);
    let mut s = S {
        lits: &lits,
        scope: HashSet::new(),
    };
    for sp in &def.size_params {
        s.scope.insert(sp.clone());
    }
    for p in &mut def.params {
        s.scope.insert(p.0.clone());
    }
    for p in &mut def.params {
        p.1 = s.ty(&p.1);
    }
    def.ret = s.ty(&def.ret);
    s.body(&mut def.body);
    Ok(())
}

struct Z<'c, 'a> {
    ck: &'c mut Checker<'a>,
    lits: HashMap<Name, Const>,
    failed: bool,
}

impl Z<'_, '_> {
    fn ty(&mut self, t: &Type, span: Span) -> Type {
        let t = self.ck.infer.resolve(t);
        self.default(&t, span)
    }

    fn default(&mut self, t: &Type, span: Span) -> Type {
        match t {
            Type::Infer(v) => match self.ck.infer.kind_of(*v) {
                Kind::Int => Type::I64,
                Kind::Float => Type::F64,
                _ => {
                    if !self.failed {
                        let sp = self.ck.var_span(*v).unwrap_or(span);
                        self.ck.report(
                            Diagnostic::new("E0209", sp, "cannot infer the type of this expression")
                                .with_label("type unknown")
                                .with_help("add a type annotation, e.g. `let x: []f64 = []` or `\\(x: f64) -> ...`"),
                        );
                    }
                    self.failed = true;
                    Type::F64
                }
            },
            Type::Array(s, e) => Type::array(
                if matches!(s, Size::Infer(_)) {
                    Size::Unknown
                } else {
                    s.clone()
                },
                self.default(e, span),
            ),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.default(t, span)).collect()),
            Type::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.default(t, span)))
                    .collect(),
            ),
            Type::Fun(ps, r) => Type::Fun(
                ps.iter().map(|t| self.default(t, span)).collect(),
                Box::new(self.default(r, span)),
            ),
            t => t.clone(),
        }
    }

    fn body(&mut self, b: &mut Body) {
        let mut kept = Vec::with_capacity(b.stmts.len());
        for mut st in std::mem::take(&mut b.stmts) {
            st.ty = self.ty(&st.ty, st.span);
            if st.var.starts_with("lit_")
                && let Exp::Atom(Atom::Const(c)) = &st.exp
            {
                let c = match (c, &st.ty) {
                    (c, Type::Prim(p)) if p.is_int() => {
                        let v = c.as_int().unwrap_or(0);
                        match Const::int(*p, v) {
                            Some(x) => x,
                            None => {
                                self.ck.report(crate::elab::out_of_range(v, *p, st.span));
                                self.failed = true;
                                Const::zero(*p)
                            }
                        }
                    }
                    (Const::F64(v), Type::Prim(PrimType::F32)) => Const::F32(*v as f32),
                    (c, _) => *c,
                };
                self.lits.insert(st.var.clone(), c);
                continue;
            }
            self.exp(&mut st.exp, st.span);
            kept.push(st);
        }
        b.stmts = kept;
    }

    fn lambda(&mut self, l: &mut Lambda, span: Span) {
        for p in &mut l.params {
            p.1 = self.ty(&p.1, span);
        }
        l.ret = self.ty(&l.ret, span);
        self.body(&mut l.body);
    }

    fn args<'a>(&mut self, args: impl IntoIterator<Item = ArgMut<'a>>, span: Span) {
        for a in args {
            if let ArgMut::Fun(Fun::Lambda(l)) = a {
                self.lambda(l, span);
            }
        }
    }

    fn exp(&mut self, e: &mut Exp, span: Span) {
        match e {
            Exp::If(_, t, f) => {
                self.body(t);
                self.body(f);
            }
            Exp::Call(_, args) => self.args(args.iter_mut().map(Arg::as_arg_mut), span),
            Exp::Prim(p) => self.args(p.args_mut(), span),
            Exp::Loop {
                state, form, body, ..
            } => {
                state.1 = self.ty(&state.1, span);
                if let LoopForm::While(c) = form {
                    self.body(c);
                }
                self.body(body);
            }
            _ => {}
        }
    }
}

/// Substitution of literal constants, and scope repair of sizes.
struct S<'l> {
    lits: &'l HashMap<Name, Const>,
    scope: HashSet<Name>,
}

impl S<'_> {
    fn atom(&self, a: &mut Atom) {
        if let Atom::Var(v) = a
            && let Some(c) = self.lits.get(v)
        {
            *a = Atom::Const(*c);
        }
    }
    fn ty(&self, t: &Type) -> Type {
        match t {
            Type::Array(s, e) => {
                let s = match s {
                    Size::Var(v) => match self.lits.get(v) {
                        Some(Const::I64(c)) if *c >= 0 => Size::Const(*c),
                        Some(_) => Size::Unknown,
                        None if self.scope.contains(v) => s.clone(),
                        None => Size::Unknown,
                    },
                    s => s.clone(),
                };
                Type::array(s, self.ty(e))
            }
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.ty(t)).collect()),
            Type::Record(fs) => {
                Type::Record(fs.iter().map(|(n, t)| (n.clone(), self.ty(t))).collect())
            }
            Type::Fun(ps, r) => Type::Fun(
                ps.iter().map(|t| self.ty(t)).collect(),
                Box::new(self.ty(r)),
            ),
            t => t.clone(),
        }
    }
    fn body(&mut self, b: &mut Body) {
        let added: Vec<Name> = Vec::new();
        let mut added = added;
        for st in &mut b.stmts {
            self.exp(&mut st.exp);
            st.ty = self.ty(&st.ty);
            self.scope.insert(st.var.clone());
            added.push(st.var.clone());
        }
        self.atom(&mut b.result);
        for a in added {
            self.scope.remove(&a);
        }
    }
    fn arg(&mut self, a: ArgMut<'_>) {
        match a {
            ArgMut::Atom(a) => self.atom(a),
            ArgMut::Fun(Fun::Lambda(l)) => self.lambda(l),
            ArgMut::Fun(Fun::Var(_)) => {}
        }
    }
    fn lambda(&mut self, l: &mut Lambda) {
        for p in &mut l.params {
            p.1 = self.ty(&p.1);
            self.scope.insert(p.0.clone());
        }
        self.body(&mut l.body);
        l.ret = self.ty(&l.ret);
        for p in &l.params {
            self.scope.remove(&p.0);
        }
    }
    fn exp(&mut self, e: &mut Exp) {
        match e {
            Exp::Atom(a)
            | Exp::Un(_, a)
            | Exp::Convert(_, a)
            | Exp::Proj(a, _)
            | Exp::Dim(a, _) => self.atom(a),
            Exp::CheckSize(c) => {
                self.atom(&mut c.got);
                self.atom(&mut c.want);
            }
            Exp::Check(c) => c.args.iter_mut().for_each(|a| self.atom(a)),
            Exp::Bin(_, a, b) | Exp::Index(a, b) => {
                self.atom(a);
                self.atom(b);
            }
            Exp::Slice(a, b, c) => {
                self.atom(a);
                self.atom(b);
                self.atom(c);
            }
            Exp::Math(_, xs) | Exp::Tuple(xs) | Exp::ArrayLit(xs) | Exp::Apply(_, xs) => {
                xs.iter_mut().for_each(|a| self.atom(a))
            }
            Exp::If(c, t, f) => {
                self.atom(c);
                self.body(t);
                self.body(f);
            }
            Exp::Call(_, args) => {
                for a in args {
                    self.arg(a.as_arg_mut());
                }
            }
            Exp::Prim(p) => {
                for a in p.args_mut() {
                    self.arg(a);
                }
            }
            Exp::Loop {
                state,
                init,
                form,
                body,
            } => {
                self.atom(init);
                state.1 = self.ty(&state.1);
                self.scope.insert(state.0.clone());
                match form {
                    LoopForm::For(i, n) => {
                        self.atom(n);
                        self.scope.insert(i.clone());
                    }
                    LoopForm::While(c) => self.body(c),
                }
                self.body(body);
                self.scope.remove(&state.0);
                if let LoopForm::For(i, _) = form {
                    self.scope.remove(i);
                }
            }
        }
    }
}
