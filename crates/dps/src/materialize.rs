//! Materialisation of strided arrays where a dense one is needed (dps-views
//! Fig. 4.7, *Materialize*): a transpose or a reverse is a source view, an
//! index function over its source's memory ([`View::Transpose`],
//! [`View::Reverse`]), and so are the rows and slices of one
//! ([`strided_views`]). Most consumers read them through their strides; two
//! need dense row-major memory, and get a copy:
//!
//! | rule | effect |
//! | --- | --- |
//! | `dense-reshape` | a reshape (`flatten`, `unflatten`) of a strided array reshapes a dense copy of it: an `alloc` scope of the copy around the rest of the block |
//! | `dense-call` | a strided array passed to a function is copied first: an `alloc` scope of the copy around the call (functions take dense arguments) |
//!
//! Part of the translation (the lowering to C needs it), run on every
//! function after it is translated; the verifier rejects a reshape or a call
//! of a strided array.

use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// A rule: name, what it does, and the rewrite of one function (applied
/// once at a time: whether it changed anything).
pub type Rule = (&'static str, &'static str, fn(&mut Fun) -> bool);

pub const RULES: &[Rule] = &[
    (
        "dense-reshape",
        "reshape a dense copy of a strided array (an alloc scope around the rest of the block)",
        dense_reshape,
    ),
    (
        "dense-call",
        "pass a dense copy of a strided array to a function (an alloc scope around the call)",
        dense_call,
    ),
];

/// Apply the rules until none applies (each application removes one use of
/// a strided array where a dense one is needed, and makes none).
pub fn run(f: &mut Fun) {
    loop {
        let mut changed = false;
        for (_, _, rule) in RULES {
            while rule(f) {
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// What a rewrite needs to know about a function: its strided arrays, the
/// rank and element of every array, the type of every scalar, and the names
/// taken (for fresh ones).
struct Env {
    strided: HashSet<Name>,
    arrays: HashMap<Name, (PrimType, usize)>,
    scalars: HashMap<Name, PrimType>,
    taken: HashSet<Name>,
    fresh: usize,
}

impl Env {
    fn of(f: &Fun) -> Env {
        let mut e = Env {
            strided: strided_views(&f.body.stmts),
            arrays: HashMap::new(),
            scalars: HashMap::new(),
            taken: HashSet::new(),
            fresh: 0,
        };
        for d in &f.dests {
            e.arrays.insert(d.name.clone(), (d.elem, d.shape.len()));
        }
        for p in &f.params {
            match p.ty {
                DType::Scalar(t) => e.scalars.insert(p.name.clone(), t),
                DType::Array(t, r) => e.arrays.insert(p.name.clone(), (t, r)).map(|_| t),
            };
        }
        e.collect(&f.body.stmts);
        e.taken.extend(e.arrays.keys().cloned());
        e.taken.extend(e.scalars.keys().cloned());
        e
    }

    fn collect(&mut self, stmts: &[Stmt]) {
        let sc = |e: &mut Env, xs: &[(Name, PrimType)]| {
            for (n, t) in xs {
                e.scalars.insert(n.clone(), *t);
            }
        };
        for s in stmts {
            match s {
                Stmt::Let { var, ty, .. } => {
                    self.scalars.insert(var.clone(), *ty);
                }
                Stmt::View {
                    var, elem, rank, ..
                } => {
                    self.arrays.insert(var.clone(), (*elem, *rank));
                }
                Stmt::Alloc { outs, bufs, .. } => {
                    sc(self, outs);
                    for b in bufs {
                        self.arrays.insert(b.var.clone(), (b.elem, b.dims.len()));
                    }
                }
                Stmt::For { i, .. } => {
                    self.scalars.insert(i.clone(), PrimType::I64);
                }
                Stmt::If { outs, .. } | Stmt::Call { outs, .. } => sc(self, outs),
                Stmt::Fold { outs, acc, i, .. } => {
                    sc(self, outs);
                    sc(self, acc);
                    self.scalars.insert(i.clone(), PrimType::I64);
                }
                Stmt::Reduce {
                    outs, i, op, ne, ..
                } => {
                    sc(self, outs);
                    self.scalars.insert(i.clone(), PrimType::I64);
                    let tys: Vec<PrimType> = ne.iter().map(|a| self.prim(a)).collect();
                    for (n, t) in op.a.iter().chain(&op.b).zip(tys.iter().chain(&tys)) {
                        self.scalars.insert(n.clone(), *t);
                    }
                }
                Stmt::Loop {
                    outs,
                    scalars,
                    arrays,
                    form,
                    ..
                } => {
                    sc(self, outs);
                    for (n, t, _) in scalars {
                        self.scalars.insert(n.clone(), *t);
                    }
                    for st in arrays {
                        let r = st.dims.len();
                        for n in [&st.var, &st.next].into_iter().chain(&st.grow) {
                            self.arrays.insert(n.clone(), (st.elem, r));
                        }
                    }
                    if let LoopForm::For(i, _) = form {
                        self.scalars.insert(i.clone(), PrimType::I64);
                    }
                }
                Stmt::Check { .. }
                | Stmt::Guard { .. }
                | Stmt::Store { .. }
                | Stmt::Copy { .. }
                | Stmt::Grow { .. } => {}
            }
            for b in nested_blocks(s) {
                self.collect(b);
            }
        }
    }

    fn prim(&self, a: &Atom) -> PrimType {
        match a {
            Atom::Const(c) => c.prim(),
            Atom::Var(v) => self.scalars.get(v).copied().unwrap_or(PrimType::I64),
        }
    }

    fn fresh(&mut self, base: &str) -> Name {
        loop {
            self.fresh += 1;
            let n = format!("{base}m{}", self.fresh);
            if self.taken.insert(n.clone()) {
                return n;
            }
        }
    }

    /// A dense copy of the strided array `x`: the statements reading its
    /// dims (before the scope), the buffer, and the copy (inside it).
    fn dense_copy(&mut self, x: &Name, span: Span) -> (Vec<Stmt>, Buf, Stmt) {
        let (elem, rank) = self.arrays.get(x).copied().unwrap_or((PrimType::F64, 1));
        let mut pre = Vec::new();
        let mut dims = Vec::new();
        for k in 0..rank {
            let d = self.fresh("d");
            pre.push(Stmt::Let {
                var: d.clone(),
                ty: PrimType::I64,
                exp: SExp::Dim(x.clone(), k),
                span,
            });
            dims.push(Atom::Var(d));
        }
        let var = self.fresh("dense");
        let buf = Buf {
            var: var.clone(),
            elem,
            dims,
            span,
            when: vec![],
            grown: false,
        };
        let copy = Stmt::Copy {
            dest: var,
            src: x.clone(),
            span,
        };
        (pre, buf, copy)
    }
}

/// A rewrite of the statement at an index of a list (with its block's
/// results, where the list is a block's).
type Fix<'a> = dyn FnMut(&mut Vec<Stmt>, Option<&mut Vec<Atom>>, usize, &mut Env) + 'a;

/// Find the first statement list (with its block's results, if it has a
/// block) holding a statement `want` selects, and rewrite it with `fix`.
fn rewrite(f: &mut Fun, want: &dyn Fn(&Stmt, &Env) -> bool, fix: &mut Fix) -> bool {
    let mut env = Env::of(f);
    fn go(
        stmts: &mut Vec<Stmt>,
        results: Option<&mut Vec<Atom>>,
        env: &mut Env,
        want: &dyn Fn(&Stmt, &Env) -> bool,
        fix: &mut Fix,
    ) -> bool {
        if let Some(i) = stmts.iter().position(|s| want(s, env)) {
            fix(stmts, results, i, env);
            return true;
        }
        for s in stmts.iter_mut() {
            let done = match s {
                Stmt::For { body, .. } => go(body, None, env, want, fix),
                _ => {
                    let mut blocks = nested_block_results_mut(s);
                    blocks.iter_mut().any(|b| {
                        let Block { stmts, results } = &mut **b;
                        go(stmts, Some(results), env, want, fix)
                    })
                }
            };
            if done {
                return true;
            }
        }
        false
    }
    let Block { stmts, results } = &mut f.body;
    go(stmts, Some(results), &mut env, want, fix)
}

/// The blocks nested directly in `s` (not a `for` body, which has no results).
fn nested_block_results_mut(s: &mut Stmt) -> Vec<&mut Block> {
    match s {
        Stmt::Alloc { body, .. } | Stmt::Fold { body, .. } => vec![body],
        Stmt::If { then, els, .. } => vec![then, els],
        Stmt::Reduce { elem, op, .. } => vec![elem, &mut op.body],
        Stmt::Loop { form, body, .. } => {
            let mut v = vec![body];
            if let LoopForm::While(c) = form {
                v.push(c);
            }
            v
        }
        _ => vec![],
    }
}

fn dense_reshape(f: &mut Fun) -> bool {
    rewrite(
        f,
        &|s, env| matches!(s, Stmt::View { view: View::Reshape(x, _), .. } if env.strided.contains(x)),
        &mut |stmts, results, i, env| {
            let rest = stmts.split_off(i);
            let mut rest = rest.into_iter();
            let Some(Stmt::View {
                var,
                elem,
                rank,
                view: View::Reshape(x, ds),
                span,
            }) = rest.next()
            else {
                return;
            };
            let (pre, buf, copy) = env.dense_copy(&x, span);
            let mut inner = vec![
                copy,
                Stmt::View {
                    var,
                    elem,
                    rank,
                    view: View::Reshape(buf.var.clone(), ds),
                    span,
                },
            ];
            inner.extend(rest);
            stmts.extend(pre);
            let (outs, inner_results) = match results {
                Some(r) => {
                    let outs: Vec<(Name, PrimType)> =
                        r.iter().map(|a| (env.fresh("o"), env.prim(a))).collect();
                    let inner_results = std::mem::replace(
                        r,
                        outs.iter().map(|(n, _)| Atom::Var(n.clone())).collect(),
                    );
                    (outs, inner_results)
                }
                None => (vec![], vec![]),
            };
            stmts.push(Stmt::Alloc {
                outs,
                bufs: vec![buf],
                body: Block {
                    stmts: inner,
                    results: inner_results,
                },
            });
        },
    )
}

fn dense_call(f: &mut Fun) -> bool {
    rewrite(
        f,
        &|s, env| {
            matches!(s, Stmt::Call { args, .. }
                if args.iter().any(|a| matches!(a, Atom::Var(v) if env.strided.contains(v))))
        },
        &mut |stmts, _, i, env| {
            let Some(Stmt::Call {
                outs,
                fun,
                dests,
                args,
                span,
            }) = stmts.get(i).cloned()
            else {
                return;
            };
            let mut pre = Vec::new();
            let mut bufs = Vec::new();
            let mut inner = Vec::new();
            let mut new_args = Vec::new();
            for a in args {
                match &a {
                    Atom::Var(v) if env.strided.contains(v) => {
                        let (p, buf, copy) = env.dense_copy(v, span);
                        pre.extend(p);
                        new_args.push(Atom::Var(buf.var.clone()));
                        bufs.push(buf);
                        inner.push(copy);
                    }
                    _ => new_args.push(a),
                }
            }
            let inner_outs: Vec<(Name, PrimType)> =
                outs.iter().map(|(_, t)| (env.fresh("o"), *t)).collect();
            inner.push(Stmt::Call {
                outs: inner_outs.clone(),
                fun,
                dests,
                args: new_args,
                span,
            });
            pre.push(Stmt::Alloc {
                outs,
                bufs,
                body: Block {
                    stmts: inner,
                    results: inner_outs.into_iter().map(|(n, _)| Atom::Var(n)).collect(),
                },
            });
            stmts.splice(i..=i, pre);
        },
    )
}
