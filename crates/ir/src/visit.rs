//! A shared traversal of the core IR: one place that knows where atoms, types,
//! binders and function names sit inside every [`Exp`] form, so passes do not each
//! re-implement the walk.
//!
//! [`MutVisitor`] sees every position mutably, in program order: for a statement,
//! the expression (with nested bodies) first, then its type, then its binder. Within a
//! lambda or loop, the binders (parameters, state, counter) come before the body.

use crate::*;

/// Hooks called at each position; the defaults do nothing.
pub trait MutVisitor {
    /// A used atom (never a binder).
    fn atom(&mut self, _a: &mut Atom) {}
    /// A type annotation (statement, lambda parameter or result, loop state).
    fn ty(&mut self, _t: &mut Type) {}
    /// A binding occurrence: statement variable, lambda parameter, loop state or counter.
    fn binder(&mut self, _n: &mut Name) {}
    /// A use of a function-typed variable (`apply f`, or `Fun::Var` passed on).
    fn fun_name(&mut self, _n: &mut Name) {}
}

pub fn walk_body_mut<V: MutVisitor + ?Sized>(v: &mut V, b: &mut Body) {
    for st in &mut b.stmts {
        walk_exp_mut(v, &mut st.exp);
        v.ty(&mut st.ty);
        v.binder(&mut st.var);
    }
    v.atom(&mut b.result);
}

pub fn walk_lambda_mut<V: MutVisitor + ?Sized>(v: &mut V, l: &mut Lambda) {
    for (n, t) in &mut l.params {
        v.ty(t);
        v.binder(n);
    }
    v.ty(&mut l.ret);
    walk_body_mut(v, &mut l.body);
}

fn walk_arg_mut<V: MutVisitor + ?Sized>(v: &mut V, a: ArgMut<'_>) {
    match a {
        ArgMut::Atom(a) => v.atom(a),
        ArgMut::Fun(Fun::Lambda(l)) => walk_lambda_mut(v, l),
        ArgMut::Fun(Fun::Var(n)) => v.fun_name(n),
    }
}

pub fn walk_exp_mut<V: MutVisitor + ?Sized>(v: &mut V, e: &mut Exp) {
    match e {
        Exp::Atom(a) | Exp::Un(_, a) | Exp::Convert(_, a) | Exp::Proj(a, _) | Exp::Dim(a, _) => {
            v.atom(a)
        }
        Exp::Bin(_, a, b) | Exp::Index(a, b) => {
            v.atom(a);
            v.atom(b);
        }
        Exp::Slice(a, b, c) => {
            v.atom(a);
            v.atom(b);
            v.atom(c);
        }
        Exp::Math(_, xs) | Exp::Tuple(xs) | Exp::ArrayLit(xs) => {
            xs.iter_mut().for_each(|a| v.atom(a))
        }
        Exp::Apply(f, xs) => {
            v.fun_name(f);
            xs.iter_mut().for_each(|a| v.atom(a))
        }
        Exp::CheckSize(c) => {
            v.atom(&mut c.got);
            v.atom(&mut c.want);
        }
        Exp::Check(c) => c.args.iter_mut().for_each(|a| v.atom(a)),
        Exp::If(c, t, f) => {
            v.atom(c);
            walk_body_mut(v, t);
            walk_body_mut(v, f);
        }
        Exp::Call(_, args) => args
            .iter_mut()
            .for_each(|a| walk_arg_mut(v, a.as_arg_mut())),
        Exp::Prim(p) => p.args_mut().into_iter().for_each(|a| walk_arg_mut(v, a)),
        Exp::Loop {
            state,
            init,
            form,
            body,
        } => {
            v.atom(init);
            v.ty(&mut state.1);
            v.binder(&mut state.0);
            match form {
                LoopForm::For(i, n) => {
                    v.atom(n);
                    v.binder(i);
                }
                LoopForm::While(c) => walk_body_mut(v, c),
            }
            walk_body_mut(v, body);
        }
    }
}

/// Every size variable named in a type.
pub fn type_size_vars<'a>(t: &'a Type, out: &mut Vec<&'a str>) {
    match t {
        Type::Array(s, e) => {
            if let Size::Var(v) = s {
                out.push(v);
            }
            type_size_vars(e, out);
        }
        Type::Tuple(ts) => ts.iter().for_each(|t| type_size_vars(t, out)),
        Type::Fun(ps, r) => {
            ps.iter().for_each(|t| type_size_vars(t, out));
            type_size_vars(r, out);
        }
        _ => {}
    }
}

/// Apply `f` to every size in a type.
pub fn map_sizes(t: &mut Type, f: &mut impl FnMut(&mut Size)) {
    match t {
        Type::Array(s, e) => {
            f(s);
            map_sizes(e, f);
        }
        Type::Tuple(ts) => ts.iter_mut().for_each(|t| map_sizes(t, f)),
        Type::Fun(ps, r) => {
            ps.iter_mut().for_each(|t| map_sizes(t, f));
            map_sizes(r, f);
        }
        _ => {}
    }
}

/// Count the uses of every variable: atoms, sizes in types, and function names.
/// Binders are not uses.
#[derive(Default)]
pub struct UseCounter {
    pub counts: std::collections::HashMap<Name, usize>,
}

impl MutVisitor for UseCounter {
    fn atom(&mut self, a: &mut Atom) {
        if let Atom::Var(v) = a {
            *self.counts.entry(v.clone()).or_default() += 1;
        }
    }
    fn ty(&mut self, t: &mut Type) {
        let mut vs = Vec::new();
        type_size_vars(t, &mut vs);
        for v in vs {
            *self.counts.entry(v.to_string()).or_default() += 1;
        }
    }
    fn fun_name(&mut self, n: &mut Name) {
        *self.counts.entry(n.clone()).or_default() += 1;
    }
}

/// Use counts of every variable in a function (its result type included).
pub fn use_counts(d: &FunDef) -> std::collections::HashMap<Name, usize> {
    let mut c = UseCounter::default();
    let mut body = d.body.clone();
    walk_body_mut(&mut c, &mut body);
    let mut ret = d.ret.clone();
    c.ty(&mut ret);
    for (_, t) in &d.params {
        let mut t = t.clone();
        c.ty(&mut t);
    }
    c.counts
}

/// Number of statements in a body, nested bodies included (a size measure).
pub fn body_size(b: &Body) -> usize {
    b.stmts.iter().map(|s| 1 + exp_size(&s.exp)).sum()
}

pub fn exp_size(e: &Exp) -> usize {
    let mut n = 0;
    for_each_nested_body_ref(e, &mut |b| n += body_size(b));
    n
}

/// Call `f` on every body nested directly in `e` (branches, lambda bodies, a
/// `while` condition, a loop body), in order. Passes that treat all nested bodies
/// alike use this instead of matching every form.
pub fn for_each_nested_body(e: &mut Exp, f: &mut dyn FnMut(&mut Body)) {
    match e {
        Exp::If(_, t, g) => {
            f(t);
            f(g);
        }
        Exp::Call(_, args) => {
            for a in args {
                if let Arg::Fun(Fun::Lambda(l)) = a {
                    f(&mut l.body);
                }
            }
        }
        Exp::Prim(p) => {
            for a in p.args_mut() {
                if let ArgMut::Fun(Fun::Lambda(l)) = a {
                    f(&mut l.body);
                }
            }
        }
        Exp::Loop { form, body, .. } => {
            if let LoopForm::While(c) = form {
                f(c);
            }
            f(body);
        }
        _ => {}
    }
}

/// [`for_each_nested_body`] for reading.
pub fn for_each_nested_body_ref(e: &Exp, f: &mut dyn FnMut(&Body)) {
    match e {
        Exp::If(_, t, g) => {
            f(t);
            f(g);
        }
        Exp::Call(_, args) => {
            for a in args {
                if let Arg::Fun(Fun::Lambda(l)) = a {
                    f(&l.body);
                }
            }
        }
        Exp::Prim(p) => p.lambdas().into_iter().for_each(|l| f(&l.body)),
        Exp::Loop { form, body, .. } => {
            if let LoopForm::While(c) = form {
                f(c);
            }
            f(body);
        }
        _ => {}
    }
}
