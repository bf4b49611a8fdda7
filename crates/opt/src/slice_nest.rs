//! A slice update whose value reads the array it updates, as an update nest
//! (used by [`crate::own_reads`]). In
//!
//! ```text
//! let v = build n (\i -> { ...; build m (\j -> { ... a[s + i][j] ... }) })
//! let r = update_slice a s e v
//! ```
//!
//! (`ey with [1:nx] = map3 (map3 f) ey[1:] hz[1:] hz[:nx-1]`, fdtd-2d in
//! NumPy form) the value is computed into storage of its own and copied into
//! the slice, and inside a time loop the state is double-buffered, because
//! the value reads `a` while the update writes it. As a nest of counted
//! loops writing one element per innermost iteration,
//!
//! ```text
//! let ok = 0 <= s && s <= e && e <= dim a 0 && n == e - s && m == dim a 1
//! let r = if ok then
//!           loop b0 = a for r0 < n do { ...; loop b1 = b0 for r1 < m do {
//!             ...; update2 b1 (s + r0) r1 x } }
//!         else { let v = build ...; update_slice a s e v }
//! ```
//!
//! own-reads can make the reads of `a` at the element written reads of the
//! state, and then the update happens in place. The `if` keeps the meaning
//! exactly: where the slice and the value fit (`ok`), the nest computes the
//! value's elements in the build's order, failing where the build fails,
//! and the slice update's own checks pass; otherwise the original runs (its
//! errors first). The rows' sizes are the build's declared row type's.

use crate::util::*;
use std::collections::HashMap;
use weir_ir::*;

/// The candidate: the statements to put before the `if` (the `ok` test),
/// the nest (a statement binding `var`), and the `else` branch.
pub struct Candidate {
    pub checks: Vec<Stmt>,
    pub ok: Atom,
    pub nest: Stmt,
}

/// The nest for `update_slice a s e v` (or `update_slice2 a i s e v`: the
/// indices `prefix` first, here `[i]`; statement `st`), where `build` is
/// `v`'s definition; `None` where the value is not a nest of builds down to
/// the array's elements.
pub fn candidate(
    st: &Stmt,
    a: &Name,
    a_ty: &Type,
    prefix: &[Atom],
    (s, e): (&Atom, &Atom),
    build: &Stmt,
    fresh: &mut Fresh,
) -> Option<Candidate> {
    let full = a_ty.rank();
    if !(1..=3).contains(&full) || prefix.len() >= full {
        return None;
    }
    // (the levels of the nest: the dims from the sliced one on)
    let rank = full - prefix.len();
    let p = prefix.len();
    // the element type: a scalar
    let mut elem = a_ty;
    for _ in 0..full {
        elem = elem.elem()?;
    }
    if !matches!(elem, Type::Prim(_)) {
        return None;
    }
    let Exp::Prim(Prim::Build {
        n,
        f: Fun::Lambda(l),
    }) = &build.exp
    else {
        return None;
    };
    let span = st.span;
    // the levels: (count, body with the counter substituted, counter)
    let mut counts = vec![n.clone()];
    let mut row_sizes: Vec<Atom> = vec![];
    let mut lam = l.clone();
    freshen_lambda(&mut lam, fresh);
    let mut levels: Vec<(Name, Body)> = vec![];
    loop {
        let (p, _) = lam.params.first()?.clone();
        let counter = fresh.name("r");
        let mut body = lam.body.clone();
        let map = HashMap::from([(p, Atom::Var(counter.clone()))]);
        subst_body(&mut body, &map);
        if levels.len() + 1 == rank {
            if matches!(lam.ret, Type::Array(..)) {
                return None;
            }
            levels.push((counter, body));
            break;
        }
        // a row: the build that makes it, last, and its length: the declared
        // one, or the build's count where it is made outside the value
        let Type::Array(size, _) = &lam.ret else {
            return None;
        };
        let declared = size_atom(size);
        let Atom::Var(res) = &body.result else {
            return None;
        };
        let last = body.stmts.pop()?;
        if &last.var != res {
            return None;
        }
        let Exp::Prim(Prim::Build {
            n: m,
            f: Fun::Lambda(inner),
        }) = last.exp
        else {
            return None;
        };
        let outside = match &m {
            Atom::Const(_) => true,
            Atom::Var(x) => {
                *x != counter
                    && !bound_in(&body, x)
                    && !levels.iter().any(|(c, b)| c == x || bound_in(b, x))
            }
        };
        match declared {
            Some(d) => row_sizes.push(d),
            None if outside => row_sizes.push(m.clone()),
            None => return None,
        }
        counts.push(m);
        levels.push((counter, body));
        lam = inner;
    }
    // ok: the slice is in bounds, and the value's shape is the slice's
    let mut checks = vec![];
    let mut emit = |base: &str, ty: Type, exp: Exp| {
        let v = fresh.name(base);
        checks.push(stmt(v.clone(), ty, exp, span));
        Atom::Var(v)
    };
    let av = Atom::Var(a.clone());
    // (each index of the prefix within its dim: the update's index checks)
    let mut pre = vec![];
    for (k, i) in prefix.iter().enumerate() {
        let dk = emit("n", Type::I64, Exp::Dim(av.clone(), k));
        pre.push(emit(
            "c",
            Type::BOOL,
            Exp::Bin(BinOp::Le, Atom::Const(Const::I64(0)), i.clone()),
        ));
        pre.push(emit("c", Type::BOOL, Exp::Bin(BinOp::Lt, i.clone(), dk)));
    }
    let d0 = emit("n", Type::I64, Exp::Dim(av.clone(), p));
    let c1 = emit(
        "c",
        Type::BOOL,
        Exp::Bin(BinOp::Le, Atom::Const(Const::I64(0)), s.clone()),
    );
    let c2 = emit("c", Type::BOOL, Exp::Bin(BinOp::Le, s.clone(), e.clone()));
    let c3 = emit("c", Type::BOOL, Exp::Bin(BinOp::Le, e.clone(), d0));
    let len = emit("n", Type::I64, Exp::Bin(BinOp::Sub, e.clone(), s.clone()));
    let c4 = emit("c", Type::BOOL, Exp::Bin(BinOp::Eq, n.clone(), len));
    let mut ok = emit("c", Type::BOOL, Exp::Bin(BinOp::And, c1, c2));
    for c in [c3, c4].into_iter().chain(pre) {
        ok = emit("c", Type::BOOL, Exp::Bin(BinOp::And, ok, c));
    }
    for (k, m) in row_sizes.iter().enumerate() {
        let dk = emit("n", Type::I64, Exp::Dim(av.clone(), p + k + 1));
        let ck = emit("c", Type::BOOL, Exp::Bin(BinOp::Eq, m.clone(), dk));
        ok = emit("c", Type::BOOL, Exp::Bin(BinOp::And, ok, ck));
    }
    // the nest, from the inside out
    let states: Vec<Name> = (0..rank).map(|_| fresh.name("b")).collect();
    let j0 = fresh.name("j");
    // the element's index: the prefix, `s + r0`, then the inner levels'
    // counters
    let idx: Vec<Atom> = prefix
        .iter()
        .cloned()
        .chain(std::iter::once(Atom::Var(j0.clone())))
        .chain(levels.iter().skip(1).map(|(c, _)| Atom::Var(c.clone())))
        .collect();
    let mut inner: Option<Stmt> = None;
    for (k, (counter, mut body)) in levels.into_iter().enumerate().rev() {
        let state = states.get(k)?.clone();
        match inner.take() {
            None => {
                // the innermost level: write the element
                let x = body.result.clone();
                let upd = fresh.name("u");
                let p = Prim::element_update(Atom::Var(state.clone()), &idx, x)?;
                body.stmts
                    .push(stmt(upd.clone(), a_ty.clone(), Exp::Prim(p), span));
                body.result = Atom::Var(upd);
            }
            Some(inn) => {
                let r = Atom::Var(inn.var.clone());
                body.stmts.push(inn);
                body.result = r;
            }
        }
        if k == 0 {
            // j0 = s + r0, at the top of the outer level
            body.stmts.insert(
                0,
                stmt(
                    j0.clone(),
                    Type::I64,
                    Exp::Bin(BinOp::Add, s.clone(), Atom::Var(counter.clone())),
                    span,
                ),
            );
        }
        let init = if k == 0 {
            av.clone()
        } else {
            Atom::Var(states.get(k - 1)?.clone())
        };
        let var = fresh.name("t");
        inner = Some(stmt(
            var,
            a_ty.clone(),
            Exp::Loop {
                state: (state, a_ty.clone()),
                init,
                form: LoopForm::For(counter, counts.get(k)?.clone()),
                body,
            },
            span,
        ));
    }
    Some(Candidate {
        checks,
        ok,
        nest: inner?,
    })
}

/// Is `x` bound in `b` (nested bodies and parameters included)?
fn bound_in(b: &Body, x: &Name) -> bool {
    struct B<'a>(&'a Name, bool);
    impl weir_ir::visit::MutVisitor for B<'_> {
        fn binder(&mut self, n: &mut Name) {
            self.1 |= n == self.0;
        }
    }
    let mut v = B(x, false);
    weir_ir::visit::walk_body_mut(&mut v, &mut b.clone());
    v.1
}
