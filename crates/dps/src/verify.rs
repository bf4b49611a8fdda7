//! The DPS IR verifier: every variable is bound before use with the right kind
//! (scalar or array of the right rank), stores and loads index every dimension,
//! and `alloc` outs match their block's results. Runs after every DPS pass in
//! tests and debug builds.

use crate::ir::*;
use std::collections::HashMap;

type Env = HashMap<Name, DType>;

pub fn verify_program(p: &Program) -> Result<(), Vec<String>> {
    verify(p, true)
}

/// [`verify_program`] without the checks that strided arrays are used only
/// where they may be (the program before [`crate::materialize`]).
pub fn verify_unmaterialized(p: &Program) -> Result<(), Vec<String>> {
    verify(p, false)
}

fn verify(p: &Program, dense: bool) -> Result<(), Vec<String>> {
    let mut errs = Vec::new();
    for f in &p.funs {
        let mut env = Env::new();
        for d in &f.dests {
            env.insert(d.name.clone(), DType::Array(d.elem, d.shape.len()));
        }
        for q in &f.params {
            env.insert(q.name.clone(), q.ty);
        }
        let mut v = V {
            errs: &mut errs,
            fun: &f.name,
            strided: if dense {
                strided_views(&f.body.stmts)
            } else {
                Default::default()
            },
        };
        v.block(&mut env, &f.body);
        // (what the backend addresses as dense is, by the index-function
        // algebra, row-major)
        if dense {
            for e in crate::mem::check_dense(f) {
                v.err(e);
            }
        }
        let scalars = f
            .results
            .iter()
            .filter(|r| matches!(r, ResultPart::Scalar(_) | ResultPart::Size { .. }))
            .count();
        if scalars != f.body.results.len() {
            v.err(format!(
                "{} scalar results declared, the body yields {}",
                scalars,
                f.body.results.len()
            ));
        }
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

struct V<'a> {
    errs: &'a mut Vec<String>,
    fun: &'a str,
    /// The arrays that are not dense ([`strided_views`]): a reshape, a
    /// call, a loop's state storage and a growth need dense arrays.
    strided: std::collections::HashSet<Name>,
}

impl V<'_> {
    fn err(&mut self, m: String) {
        self.errs.push(format!("{}: {m}", self.fun));
    }
    fn scalar(&mut self, env: &Env, x: &Atom) {
        if let Atom::Var(n) = x {
            match env.get(n) {
                Some(DType::Scalar(_)) => {}
                Some(t) => self.err(format!("`{n}` is used as a scalar but is {t:?}")),
                None => self.err(format!("`{n}` is not bound")),
            }
        }
    }
    fn array(&mut self, env: &Env, n: &Name) -> Option<(PrimType, usize)> {
        match env.get(n) {
            Some(DType::Array(p, r)) => Some((*p, *r)),
            Some(t) => {
                self.err(format!("`{n}` is used as an array but is {t:?}"));
                None
            }
            None => {
                self.err(format!("array `{n}` is not bound"));
                None
            }
        }
    }
    /// `n` must be dense and row-major where it is used as `what`.
    fn dense(&mut self, n: &Name, what: &str) {
        if self.strided.contains(n) {
            self.err(format!(
                "`{n}`, which is not dense, is {what} (copy it into storage of its own first)"
            ));
        }
    }
    fn block(&mut self, env: &mut Env, b: &Block) {
        let saved = env.clone();
        self.stmts(env, &b.stmts);
        for r in &b.results {
            self.scalar(env, r);
        }
        *env = saved;
    }
    fn bind_outs(&mut self, env: &mut Env, outs: &[(Name, PrimType)], n: usize) {
        if outs.len() != n {
            self.err(format!("{} outs for {} results", outs.len(), n));
        }
        for (o, p) in outs {
            env.insert(o.clone(), DType::Scalar(*p));
        }
    }
    fn stmts(&mut self, env: &mut Env, ss: &[Stmt]) {
        for s in ss {
            self.stmt(env, s);
        }
    }
    fn stmt(&mut self, env: &mut Env, s: &Stmt) {
        match s {
            Stmt::Let { var, ty, exp, .. } => {
                match exp {
                    SExp::Atom(x) | SExp::Un(_, x) | SExp::Convert(_, x) => self.scalar(env, x),
                    SExp::Bin(_, x, y) | SExp::DivOr0(x, y) | SExp::RemOr0(x, y) => {
                        self.scalar(env, x);
                        self.scalar(env, y);
                    }
                    SExp::Math(_, xs) => xs.iter().for_each(|x| self.scalar(env, x)),
                    SExp::Load(a, idx) | SExp::LoadOr0(a, idx) => {
                        if let Some((_, r)) = self.array(env, a)
                            && r != idx.len()
                        {
                            self.err(format!(
                                "load from `{a}` (rank {r}) with {} indices",
                                idx.len()
                            ));
                        }
                        idx.iter().for_each(|x| self.scalar(env, x));
                    }
                    SExp::Dim(a, k) => {
                        if let Some((_, r)) = self.array(env, a)
                            && *k >= r
                        {
                            self.err(format!("dim {k} of `{a}` of rank {r}"));
                        }
                    }
                }
                env.insert(var.clone(), DType::Scalar(*ty));
            }
            Stmt::Check { check, .. } => {
                self.scalar(env, &check.got);
                self.scalar(env, &check.want);
            }
            Stmt::Guard { guard, .. } => {
                for x in guard_atoms(guard) {
                    self.scalar(env, x);
                }
                if let Guard::DestReady { dest, .. } | Guard::Grown { dest, .. } = guard {
                    self.array(env, dest);
                }
            }
            Stmt::View {
                var,
                elem,
                rank,
                view,
                ..
            } => {
                match view {
                    View::Alias(x) => {
                        if let Some((_, r)) = self.array(env, x)
                            && r != *rank
                        {
                            self.err(format!("alias `{var}` of rank {rank} of `{x}` of rank {r}"));
                        }
                    }
                    View::Row(x, i) => {
                        self.scalar(env, i);
                        if let Some((_, r)) = self.array(env, x)
                            && r != rank + 1
                        {
                            self.err(format!("row `{var}` of rank {rank} of `{x}` of rank {r}"));
                        }
                    }
                    View::Slice(x, lo, hi) => {
                        self.scalar(env, lo);
                        self.scalar(env, hi);
                        if let Some((_, r)) = self.array(env, x)
                            && r != *rank
                        {
                            self.err(format!("slice `{var}` of rank {rank} of `{x}` of rank {r}"));
                        }
                    }
                    View::Placed { part, lo, hi, root } => {
                        self.scalar(env, lo);
                        self.scalar(env, hi);
                        self.array(env, root);
                        if let Some((_, r)) = self.array(env, part)
                            && r != *rank
                        {
                            self.err(format!(
                                "placed `{var}` of rank {rank} of `{part}` of rank {r}"
                            ));
                        }
                    }
                    View::Transpose(x) => {
                        if let Some((_, r)) = self.array(env, x)
                            && (r != *rank || r < 2)
                        {
                            self.err(format!(
                                "transpose `{var}` of rank {rank} of `{x}` of rank {r}"
                            ));
                        }
                    }
                    View::Reverse(x) => {
                        if let Some((_, r)) = self.array(env, x)
                            && r != *rank
                        {
                            self.err(format!(
                                "reverse `{var}` of rank {rank} of `{x}` of rank {r}"
                            ));
                        }
                    }
                    View::Stride(k, x) => {
                        self.scalar(env, k);
                        if let Some((_, r)) = self.array(env, x)
                            && r != *rank
                        {
                            self.err(format!(
                                "stride `{var}` of rank {rank} of `{x}` of rank {r}"
                            ));
                        }
                    }
                    View::Replicate(n, x) => {
                        self.scalar(env, n);
                        if let Some((_, r)) = self.array(env, x)
                            && r + 1 != *rank
                        {
                            self.err(format!(
                                "replicate `{var}` of rank {rank} of `{x}` of rank {r}"
                            ));
                        }
                    }
                    View::Reshape(x, ds) => {
                        ds.iter().for_each(|d| self.scalar(env, d));
                        self.array(env, x);
                        if self.strided.contains(x) {
                            self.err(format!(
                                "reshape `{var}` of `{x}`, which is not dense (copy it first)"
                            ));
                        }
                        if ds.len() != *rank {
                            self.err(format!(
                                "reshape `{var}` of rank {rank} with {} dims",
                                ds.len()
                            ));
                        }
                    }
                }
                env.insert(var.clone(), DType::Array(*elem, *rank));
            }
            Stmt::Alloc { outs, bufs, body } => {
                for b in bufs {
                    b.dims.iter().for_each(|d| self.scalar(env, d));
                    b.when.iter().for_each(|d| self.scalar(env, d));
                }
                let mut inner = env.clone();
                for b in bufs {
                    inner.insert(b.var.clone(), DType::Array(b.elem, b.dims.len()));
                }
                self.block(&mut inner, body);
                self.bind_outs(env, outs, body.results.len());
            }
            Stmt::For { i, n, body } => {
                self.scalar(env, n);
                let mut inner = env.clone();
                inner.insert(i.clone(), DType::Scalar(PrimType::I64));
                self.stmts(&mut inner, body);
            }
            Stmt::Store { dest, idx, val, .. } => {
                if let Some((_, r)) = self.array(env, dest)
                    && r != idx.len()
                {
                    self.err(format!(
                        "store into `{dest}` (rank {r}) with {} indices",
                        idx.len()
                    ));
                }
                idx.iter().for_each(|x| self.scalar(env, x));
                self.scalar(env, val);
            }
            Stmt::Copy { dest, src, .. } => {
                let a = self.array(env, dest);
                let b = self.array(env, src);
                if let (Some((p, r)), Some((q, t))) = (a, b)
                    && (p != q || r != t)
                {
                    self.err(format!(
                        "copy of `{src}` into `{dest}`: different element types or ranks"
                    ));
                }
            }
            Stmt::If {
                outs,
                cond,
                then,
                els,
            } => {
                self.scalar(env, cond);
                self.block(&mut env.clone(), then);
                self.block(&mut env.clone(), els);
                if then.results.len() != els.results.len() {
                    self.err("`if` branches yield different numbers of results".into());
                }
                self.bind_outs(env, outs, then.results.len());
            }
            Stmt::Fold {
                outs,
                acc,
                init,
                i,
                n,
                body,
            } => {
                init.iter().for_each(|x| self.scalar(env, x));
                self.scalar(env, n);
                let mut inner = env.clone();
                for (a, p) in acc {
                    inner.insert(a.clone(), DType::Scalar(*p));
                }
                inner.insert(i.clone(), DType::Scalar(PrimType::I64));
                self.block(&mut inner, body);
                if body.results.len() != acc.len() || init.len() != acc.len() {
                    self.err("fold: accumulator, init and result counts differ".into());
                }
                self.bind_outs(env, outs, acc.len());
            }
            Stmt::Reduce {
                outs,
                ne,
                i,
                n,
                elem,
                op,
            } => {
                ne.iter().for_each(|x| self.scalar(env, x));
                self.scalar(env, n);
                let mut inner = env.clone();
                inner.insert(i.clone(), DType::Scalar(PrimType::I64));
                self.block(&mut inner, elem);
                let mut ob = env.clone();
                for (x, p) in op.a.iter().chain(&op.b).zip(outs.iter().chain(outs.iter())) {
                    ob.insert(x.clone(), DType::Scalar(p.1));
                }
                self.block(&mut ob, &op.body);
                self.bind_outs(env, outs, ne.len());
            }
            Stmt::Loop {
                outs,
                scalars,
                arrays,
                form,
                body,
            } => {
                let mut inner = env.clone();
                for (v, p, i) in scalars {
                    self.scalar(env, i);
                    inner.insert(v.clone(), DType::Scalar(*p));
                }
                for st in arrays {
                    st.dims.iter().for_each(|d| self.scalar(env, d));
                    self.array(env, &st.out);
                    self.dense(&st.out, "a loop's state storage");
                    inner.insert(st.var.clone(), DType::Array(st.elem, st.dims.len()));
                    inner.insert(st.next.clone(), DType::Array(st.elem, st.dims.len()));
                }
                match form {
                    LoopForm::For(i, n) => {
                        self.scalar(env, n);
                        inner.insert(i.clone(), DType::Scalar(PrimType::I64));
                    }
                    LoopForm::While(c) => {
                        self.block(&mut inner.clone(), c);
                        if c.results.len() != 1 {
                            self.err("while condition must yield one result".into());
                        }
                    }
                }
                self.block(&mut inner, body);
                if body.results.len() != scalars.len() {
                    self.err(
                        "loop body yields a different number of scalars than its state".into(),
                    );
                }
                self.bind_outs(env, outs, scalars.len());
                for st in arrays {
                    if let Some(fin) = &st.grow {
                        if grows(&body.stmts, &st.next, false) != Some(true) {
                            self.err(format!(
                                "growing loop state `{}`: a path through its body uses it before growing it, or never grows it",
                                st.next
                            ));
                        }
                        env.insert(fin.clone(), DType::Array(st.elem, st.dims.len()));
                    }
                }
            }
            Stmt::Grow {
                dest,
                rows,
                hint,
                soft,
                ..
            } => {
                self.array(env, dest);
                self.dense(dest, "grown storage");
                self.scalar(env, rows);
                if let Some(h) = hint {
                    self.scalar(env, h);
                }
                for x in soft {
                    self.scalar(env, x);
                }
            }
            Stmt::Call {
                outs, dests, args, ..
            } => {
                for d in dests {
                    self.array(env, d);
                    self.dense(d, "a call's destination");
                }
                for x in args {
                    if let Atom::Var(n) = x {
                        if !env.contains_key(n) {
                            self.err(format!("`{n}` is not bound"));
                        }
                        self.dense(n, "a call's argument");
                    }
                }
                for (o, p) in outs {
                    env.insert(o.clone(), DType::Scalar(*p));
                }
            }
        }
    }
}

/// On every path through `stmts`, is `next` grown ([`Stmt::Grow`]) before
/// any other statement mentions it? `Some(grown at the end)`, or `None` when
/// a path mentions it first. (The body grows it where it first writes it,
/// which may be inside an `alloc` scope or an `if` branch.)
fn grows(stmts: &[Stmt], next: &str, mut grown: bool) -> Option<bool> {
    for s in stmts {
        match s {
            Stmt::Grow { dest, .. } if dest == next => grown = true,
            _ if !mentions(std::slice::from_ref(s), next) => {}
            Stmt::Alloc { body, .. } if !stmt_uses(s).iter().any(|u| u.as_str() == next) => {
                grown = grows(&body.stmts, next, grown)?;
            }
            Stmt::If { then, els, .. } if !stmt_uses(s).iter().any(|u| u.as_str() == next) => {
                let t = grows(&then.stmts, next, grown)?;
                let e = grows(&els.stmts, next, grown)?;
                grown = t && e;
            }
            _ if grown => {}
            _ => return None,
        }
    }
    Some(grown)
}
