//! Index-set splitting at a symbolic point (the DPS loop rule
//! `split-at-bound`, table [`crate::peel::RULES`], first): a loop whose body
//! tests its counter against a value that does not change in the loop (an
//! outer counter or a dim: a triangle, `if j <= i`, as in syrk and syr2k),
//!
//! ```text
//! for j < n { let t = j <= e; … if t { A } else { B } … }
//! ```
//!
//! runs as two loops, the iterations where the test holds and those where it
//! does not, each without the test:
//!
//! ```text
//! let m1 = min (max 0 (e + 1)) n; let m = max 0 m1
//! for j < m1 { … A … }
//! for j2 < n - m { let j = m + j2; … B … }
//! ```
//!
//! The iterations keep their order and each its operations (errors come in
//! the interpreter's order; results are bit-identical), and the loops left
//! have no branch on the counter, so the other loop rules (interchange,
//! batching) and the C compiler's vectoriser can take them. The value `e`
//! must be an enclosing loop's counter or a dim, so `e + 1` cannot overflow.

use crate::ir::*;
use crate::peel::{MAX_BODY, drop_dead_constants, fold_known, grows, int, let_i64, size};
use std::collections::{HashMap, HashSet};

pub(crate) fn split_at_bound(f: &mut Fun) -> bool {
    let mut taken: HashSet<Name> = crate::rename::binders(&f.body.stmts).into_iter().collect();
    taken.extend(f.params.iter().map(|p| p.name.clone()));
    taken.extend(f.dests.iter().map(|d| d.name.clone()));
    let mut fresh = |base: &str| {
        let base = base.split("_sp").next().unwrap_or(base);
        let mut k = 1;
        loop {
            let n = format!("{base}_sp{k}");
            if taken.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    };
    // values that cannot reach i64::MAX: loop counters and dims
    let mut small = HashSet::new();
    small_values(&f.body.stmts, &mut small);
    walk(&mut f.body.stmts, &small, &mut fresh)
}

fn small_values(stmts: &[Stmt], out: &mut HashSet<Name>) {
    for s in stmts {
        match s {
            Stmt::For { i, .. } => {
                out.insert(i.clone());
            }
            Stmt::Let {
                var,
                exp: SExp::Dim(..),
                ..
            } => {
                out.insert(var.clone());
            }
            _ => {}
        }
        for b in nested_blocks(s) {
            small_values(b, out);
        }
    }
}

fn walk(stmts: &mut Vec<Stmt>, small: &HashSet<Name>, fresh: &mut dyn FnMut(&str) -> Name) -> bool {
    let mut changed = false;
    let mut k = 0;
    while k < stmts.len() {
        if let Some(new) = rewrite(&stmts[k], small, fresh) {
            let len = new.len();
            stmts.splice(k..k + 1, new);
            // (the loops made may be split again, at another test)
            for s in &mut stmts[k..k + len] {
                if let Stmt::For { body, .. } = s {
                    walk(body, small, fresh);
                }
            }
            k += len;
            changed = true;
            continue;
        }
        for b in nested_blocks_mut(&mut stmts[k]) {
            changed |= walk(b, small, fresh);
        }
        k += 1;
    }
    changed
}

/// The split point and the test's value before it, for `t = x op y` with
/// `j` on one side and an invariant `e` on the other.
fn plan(j: &Name, op: BinOp, x: &Atom, y: &Atom) -> Option<(Atom, bool, bool)> {
    let jv = Atom::Var(j.clone());
    // (j op e), with op flipped when j is on the right
    let (op, e) = if *x == jv {
        (op, y)
    } else if *y == jv {
        let flipped = match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            _ => return None,
        };
        (flipped, x)
    } else {
        return None;
    };
    // (split at e, or e + 1; the value of the test before the split)
    match op {
        BinOp::Lt => Some((e.clone(), false, true)),
        BinOp::Le => Some((e.clone(), true, true)),
        BinOp::Gt => Some((e.clone(), true, false)),
        BinOp::Ge => Some((e.clone(), false, false)),
        _ => None,
    }
}

fn rewrite(
    s: &Stmt,
    small: &HashSet<Name>,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Vec<Stmt>> {
    let Stmt::For { i: j, n, body } = s else {
        return None;
    };
    if size(body) > MAX_BODY || grows(body) {
        return None;
    }
    let bound: HashSet<Name> = crate::rename::binders(body).into_iter().collect();
    let invariant = |a: &Atom| match a {
        Atom::Var(v) => v != j && !bound.contains(v) && small.contains(v),
        // (a constant split point is `peel-boundary`'s: a few iterations
        // at an end, peeled)
        Atom::Const(_) => false,
    };
    let (t, e, plus_one, before) = body.iter().find_map(|st| match st {
        Stmt::Let {
            var,
            ty: PrimType::Bool,
            exp: SExp::Bin(op, x, y),
            ..
        } => {
            let (e, plus_one, before) = plan(j, *op, x, y)?;
            invariant(&e).then(|| (var.clone(), e, plus_one, before))
        }
        _ => None,
    })?;
    // the test must decide a branch (else there is nothing to gain)
    let decides = body
        .iter()
        .any(|st| matches!(st, Stmt::If { cond: Atom::Var(c), .. } if *c == t));
    if !decides {
        return None;
    }
    let mut out = Vec::new();
    let at = if plus_one {
        let e1 = fresh("e1");
        out.push(let_i64(&e1, SExp::Bin(BinOp::Add, e, int(1))));
        Atom::Var(e1)
    } else {
        e
    };
    // (the first loop's bound `min (max 0 at) n` is a `min`, which the C
    // backend bounds by `n`; the second loop starts at `max 0` of it,
    // never negative, and runs `n - m` times: none when `n <= m`)
    let (lo, m1, m, rest, j2) = (
        fresh("lo"),
        fresh("m1"),
        fresh("m"),
        fresh("rest"),
        fresh(j),
    );
    out.push(let_i64(&lo, SExp::Math(MathFn::Max, vec![int(0), at])));
    out.push(let_i64(
        &m1,
        SExp::Math(MathFn::Min, vec![Atom::Var(lo), n.clone()]),
    ));
    out.push(let_i64(
        &m,
        SExp::Math(MathFn::Max, vec![int(0), Atom::Var(m1.clone())]),
    ));
    let mut first = body.clone();
    fold_known(&mut first, &HashMap::from([(t.clone(), before)]));
    drop_dead_constants(&mut first);
    let first = crate::rename::fresh_copy(&first, &HashMap::new(), fresh);
    let j1 = fresh(j);
    let mut first_named = first;
    crate::rename::rename(&mut first_named, &HashMap::from([(j.clone(), j1.clone())]));
    out.push(Stmt::For {
        i: j1,
        n: Atom::Var(m1),
        body: first_named,
    });
    out.push(let_i64(
        &rest,
        SExp::Bin(BinOp::Sub, n.clone(), Atom::Var(m.clone())),
    ));
    let mut second = body.clone();
    fold_known(&mut second, &HashMap::from([(t, !before)]));
    drop_dead_constants(&mut second);
    let jv = fresh(j);
    let mut second_body = vec![let_i64(
        &jv,
        SExp::Bin(BinOp::Add, Atom::Var(m), Atom::Var(j2.clone())),
    )];
    second_body.extend(crate::rename::fresh_copy(
        &second,
        &HashMap::from([(j.clone(), jv.clone())]),
        fresh,
    ));
    out.push(Stmt::For {
        i: j2,
        n: Atom::Var(rest),
        body: second_body,
    });
    Some(out)
}
