//! Loop states that keep their shape: the elaborator types a loop's state
//! with unknown sizes (an iteration may return another shape), so in
//!
//! ```text
//! let t: [n][m]f64 = copy a
//! loop (x: [][]f64) = t for i < k do {
//!   let r: [][]f64 = x[1i64:n]          -- rows of unknown length
//!   ...
//!   let y: [][]f64 = update_slice x 1i64 n v
//!   in y
//! }
//! ```
//!
//! `dim x 1` is not known, nor are the checks against it proved. Where every
//! iteration returns a value of the state's own shape, the state has the
//! initial value's sizes: the state becomes `x: [n][m]f64` (and so does the
//! loop's result). A value has the state's shape when it is the state, an
//! update of such a value (`update*`, `update_slice*`: an update keeps its
//! array's shape or fails), a `copy` of one, a component of one, a tuple of
//! them, an `if` whose branches both are, or a loop whose initial value is
//! and whose iterations keep it. Only sizes that are never negative are
//! taken from the initial value (constants, size parameters, `dim`s and
//! `length`s): a negative count's array is empty, and its type's size would
//! not be its length.
//!
//! Then what is made of a refined array without changing its shape takes
//! its sizes: its rows and slices their inner sizes (`r: [][m]f64` above),
//! its components, aliases, copies and updates all of them.

use crate::util::*;
use std::collections::{HashMap, HashSet};
use weir_ir::*;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let mut w = Walk {
            types: type_env(d),
            nonneg: d.size_params.iter().cloned().collect(),
            refined: HashSet::new(),
            changed: false,
        };
        w.body(&mut d.body);
        changed |= w.changed;
    }
    changed
}

struct Walk {
    types: HashMap<Name, Type>,
    /// Variables never negative: size parameters, `dim`s and `length`s.
    nonneg: HashSet<Name>,
    /// The loop states refined, and what was retyped from them.
    refined: HashSet<Name>,
    changed: bool,
}

impl Walk {
    fn body(&mut self, b: &mut Body) {
        for st in &mut b.stmts {
            if matches!(st.exp, Exp::Dim(..) | Exp::Prim(Prim::Length { .. })) {
                self.nonneg.insert(st.var.clone());
            }
            self.retype_view(st);
            if let Exp::Loop { .. } = &st.exp {
                self.refine_loop(st);
            }
            weir_ir::visit::for_each_nested_body(&mut st.exp, &mut |nb| self.body(nb));
            self.types.insert(st.var.clone(), st.ty.clone());
        }
    }

    /// A row, slice, component, alias, copy or update of a value whose type
    /// knows more sizes than the statement's type: those sizes.
    fn retype_view(&mut self, st: &mut Stmt) {
        let src = match &st.exp {
            Exp::Index(a, _)
            | Exp::Slice(a, _, _)
            | Exp::Proj(a, _)
            | Exp::Atom(a)
            | Exp::Prim(Prim::Copy { a }) => a,
            Exp::Prim(p) => match p.update_parts() {
                Some((a, ..)) => a,
                None => return,
            },
            _ => return,
        };
        // (only what is made of a refined state: elsewhere a use typed
        // against an unknown size may have met another known size, a size
        // mismatch at run time, which a known size here would make a
        // contradiction in the IR; see simplify's copy propagation)
        let Atom::Var(v) = src else { return };
        if !self.refined.contains(v) {
            return;
        }
        let from = match (&st.exp, atom_type(src, &self.types)) {
            (Exp::Index(..), Type::Array(_, row)) => *row,
            (Exp::Slice(..), Type::Array(_, row)) => Type::array(Size::Unknown, *row),
            (Exp::Proj(_, k), Type::Tuple(mut ts)) if *k < ts.len() => ts.swap_remove(*k),
            (Exp::Index(..) | Exp::Slice(..) | Exp::Proj(..), _) => return,
            (_, t) => t,
        };
        self.refined.insert(st.var.clone());
        if let Some(t) = fill_unknown(&st.ty, &from, &|_| true) {
            st.ty = t;
            self.changed = true;
        }
    }

    fn refine_loop(&mut self, st: &mut Stmt) {
        let Exp::Loop {
            state, init, body, ..
        } = &mut st.exp
        else {
            return;
        };
        let init_ty = atom_type(init, &self.types);
        let nonneg = &self.nonneg;
        let safe = |s: &Size| match s {
            Size::Const(c) => *c >= 0,
            Size::Var(v) => nonneg.contains(v),
            _ => false,
        };
        // (refined now, or in an earlier round: the state's type then is
        // already its initial value's)
        let newer = fill_unknown(&state.1, &init_ty, &safe);
        if newer.is_none() && !state.1.same_shape(&init_ty) {
            self.types.insert(state.0.clone(), state.1.clone());
            return;
        }
        let mut defs = HashMap::new();
        collect_defs(body, &mut defs);
        let mut roots = HashMap::new();
        roots.insert(state.0.clone(), vec![]);
        if origin(&body.result, &defs, &mut roots, 16) != Some(vec![]) {
            self.types.insert(state.0.clone(), state.1.clone());
            return;
        }
        self.refined.insert(state.0.clone());
        self.refined.insert(st.var.clone());
        let Some(refined) = newer else {
            self.types.insert(state.0.clone(), state.1.clone());
            return;
        };
        state.1 = refined.clone();
        if let Some(t) = fill_unknown(&st.ty, &refined, &|_| true) {
            st.ty = t;
        }
        self.types.insert(state.0.clone(), refined);
        self.changed = true;
    }
}

/// `target` with its unknown sizes filled from `from` where `from` knows
/// them (and `ok` accepts them); `None` when nothing is filled or the two
/// types differ in structure.
fn fill_unknown(target: &Type, from: &Type, ok: &dyn Fn(&Size) -> bool) -> Option<Type> {
    fn go(t: &Type, f: &Type, ok: &dyn Fn(&Size) -> bool, any: &mut bool) -> Type {
        match (t, f) {
            (Type::Array(s, e), Type::Array(u, g)) => {
                let s = if matches!(s, Size::Unknown)
                    && !matches!(u, Size::Unknown | Size::Infer(_))
                    && ok(u)
                {
                    *any = true;
                    u.clone()
                } else {
                    s.clone()
                };
                Type::array(s, go(e, g, ok, any))
            }
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                Type::Tuple(xs.iter().zip(ys).map(|(x, y)| go(x, y, ok, any)).collect())
            }
            _ => t.clone(),
        }
    }
    if !target.same_shape(from) {
        return None;
    }
    let mut any = false;
    let t = go(target, from, ok, &mut any);
    any.then_some(t)
}

/// The definitions made anywhere inside `b` (names are unique).
fn collect_defs(b: &Body, defs: &mut HashMap<Name, Exp>) {
    for st in &b.stmts {
        defs.insert(st.var.clone(), st.exp.clone());
        weir_ir::visit::for_each_nested_body_ref(&st.exp, &mut |nb| collect_defs(nb, defs));
    }
}

/// The component of the loop state (a path of tuple positions; `[]` for the
/// whole state) whose shape `x` has, if it has one by construction. `roots`
/// maps the state (and the states of the loops inside that start from one
/// of its components) to their component.
fn origin(
    x: &Atom,
    defs: &HashMap<Name, Exp>,
    roots: &mut HashMap<Name, Vec<usize>>,
    fuel: usize,
) -> Option<Vec<usize>> {
    let Atom::Var(v) = x else { return None };
    if let Some(p) = roots.get(v) {
        return Some(p.clone());
    }
    if fuel == 0 {
        return None;
    }
    let fuel = fuel - 1;
    match defs.get(v)? {
        Exp::Atom(y) => origin(y, defs, roots, fuel),
        Exp::Proj(y, k) => {
            let mut p = origin(y, defs, roots, fuel)?;
            p.push(*k);
            Some(p)
        }
        Exp::Tuple(xs) => {
            let mut parent: Option<Vec<usize>> = None;
            for (k, y) in xs.iter().enumerate() {
                let mut p = origin(y, defs, roots, fuel)?;
                if p.pop() != Some(k) {
                    return None;
                }
                if parent.as_ref().is_some_and(|q| *q != p) {
                    return None;
                }
                parent = Some(p);
            }
            // (the whole component, not a tuple of some of its parts: the
            // arity is the component's, which the types already agree on)
            parent
        }
        Exp::Prim(Prim::Copy { a }) => origin(a, defs, roots, fuel),
        Exp::Prim(p) => match p.update_parts() {
            Some((a, ..)) => origin(a, defs, roots, fuel),
            None => None,
        },
        Exp::If(_, t, f) => {
            let a = origin(&t.result, defs, roots, fuel)?;
            let b = origin(&f.result, defs, roots, fuel)?;
            (a == b).then_some(a)
        }
        Exp::Loop {
            state, init, body, ..
        } => {
            let p = origin(init, defs, roots, fuel)?;
            roots.insert(state.0.clone(), p.clone());
            let r = origin(&body.result, defs, roots, fuel);
            roots.remove(&state.0);
            (r.as_ref() == Some(&p)).then_some(p)
        }
        _ => None,
    }
}
