//! Loop distribution with the expansion of a row temporary (the DPS loop
//! rule `distribute-rows`, table [`crate::peel::RULES`], after
//! `interchange-fold` and before `tile-accumulate`). Fusion computes a
//! matrix the program builds (2mm's `tmp = A·B`) one row at a time into a
//! buffer of one row, right before the row of the product that reads it:
//!
//! ```text
//! alloc t: [m] { for i < n { pre; init t; for k { for j { t[j] := … } }; rest reading t } }
//! ```
//!
//! so neither product is a nest `tile-accumulate` can tile (the row loop
//! does two things). Distributed, with `t` expanded back to the `n × m`
//! matrix the program wrote, each product is such a nest:
//!
//! ```text
//! alloc t: [n, m] { for i < n { pre; view r = t[i]; init r; for k { for j { r[j] := … } } }
//!                   for i' < n { pre'; view r' = t[i']; rest reading r' } }
//! ```
//!
//! Every row of `t` is written by the statements that wrote the buffer in
//! iteration `i` and read by those that read it there, so each value is the
//! same. It applies where the order of errors cannot change and nothing is
//! read early: the statements writing `t` cannot fail (reads proved in
//! range, as for `interchange-fold`) and write nothing else, the first of
//! them writes every element of `t` (a loop over `t`'s length storing
//! `t[j]`, reading no `t`), the statements after them do not write `t` nor
//! any storage the first half reads, `pre` is views and arithmetic, and `t`
//! is used in that loop only. The memory is the program's own `tmp`
//! (`n × m` instead of one row): taken only where the first half is the
//! matrix-product nest that `tile-accumulate` then tiles.

use crate::interchange::{Ctx, Sizes, apply_nest_rule, atom_key, can_fail, dim_key, reads};
use crate::ir::*;
use std::collections::HashMap;

pub(crate) fn distribute_rows(f: &mut Fun) -> bool {
    let mut sizes = Sizes::default();
    sizes.learn_entry_dests(f);
    apply_nest_rule(f, "_ds", sizes, rewrite)
}

fn rewrite(
    s: &Stmt,
    sizes: &Sizes,
    ctx: &Ctx,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Vec<Stmt>> {
    let Stmt::Alloc { outs, bufs, body } = s else {
        return None;
    };
    let mut inner = sizes.clone();
    inner.learn(s);
    for (bi, buf) in bufs.iter().enumerate() {
        let [m] = buf.dims.as_slice() else {
            continue;
        };
        if buf.grown {
            continue;
        }
        let t = &buf.var;
        // the one statement of the scope that uses `t`: a loop
        let users: Vec<usize> = (0..body.stmts.len())
            .filter(|k| mentions(&body.stmts[*k], t))
            .collect();
        let [at] = users.as_slice() else {
            continue;
        };
        if body
            .results
            .iter()
            .any(|a| matches!(a, Atom::Var(v) if v == t))
        {
            continue;
        }
        let mut before = inner.clone();
        for p in &body.stmts[..*at] {
            before.learn(p);
        }
        let Some((first, second)) = split(&body.stmts[*at], t, buf.elem, m, &before, ctx, fresh)
        else {
            continue;
        };
        let Stmt::For { n, .. } = &body.stmts[*at] else {
            continue;
        };
        // the row count must be known where the scope starts
        if matches!(n, Atom::Var(v) if crate::rename::binders(&body.stmts).contains(v)) {
            continue;
        }
        let mut bufs = bufs.clone();
        bufs[bi].dims = vec![n.clone(), m.clone()];
        let mut stmts = body.stmts.clone();
        stmts.splice(*at..*at + 1, [first, second]);
        return Some(vec![Stmt::Alloc {
            outs: outs.clone(),
            bufs,
            body: Block {
                stmts,
                results: body.results.clone(),
            },
        }]);
    }
    None
}

/// The two loops of the distribution of `for i < n { pre; A; B }` (see the
/// module documentation), `t` becoming a matrix of `n` rows.
fn split(
    s: &Stmt,
    t: &Name,
    elem: PrimType,
    m: &Atom,
    sizes: &Sizes,
    ctx: &Ctx,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<(Stmt, Stmt)> {
    let Stmt::For { i, n, body } = s else {
        return None;
    };
    let first = body.iter().position(|x| mentions(x, t))?;
    let last = body.iter().rposition(|x| writes(x).contains(t))?;
    let (pre, a, b) = (&body[..first], &body[first..=last], &body[last + 1..]);
    // `pre`: views and arithmetic
    let pure = |p: &Stmt| match p {
        Stmt::View { .. } => true,
        Stmt::Let { exp, .. } => !matches!(exp, SExp::Load(..) | SExp::LoadOr0(..)),
        _ => false,
    };
    if !pre.iter().all(pure) {
        return None;
    }
    // A: the matrix-product nest, `init t` then `for k { for j { … t[j] := … } }`
    let [init, upd] = a else {
        return None;
    };
    let Stmt::For {
        i: j,
        n: nj,
        body: ib,
    } = init
    else {
        return None;
    };
    let Stmt::For { body: kb, .. } = upd else {
        return None;
    };
    if !matches!(kb.as_slice(), [Stmt::For { .. }]) {
        return None;
    }
    // the initialisation writes every element of `t` and reads none
    let jv = [Atom::Var(j.clone())];
    let covers = ib
        .iter()
        .any(|x| matches!(x, Stmt::Store { dest, idx, .. } if dest == t && idx.as_slice() == jv));
    let len_ok = match (atom_key(nj), atom_key(m)) {
        (Some(x), Some(y)) => sizes.same(&x, &y),
        _ => false,
    };
    if !covers || !len_ok || reads(ib).contains(t) || deep_reads(ib).contains(t) {
        return None;
    }
    // A writes `t` only and cannot fail
    if a.iter().any(|x| writes(x).iter().any(|w| w != t)) {
        return None;
    }
    let mut inner = sizes.clone();
    for p in pre {
        inner.learn(p);
    }
    let mut bounds: Vec<(Name, Atom)> = vec![(i.clone(), n.clone())];
    if !cannot_fail(a, &mut inner, &mut bounds) {
        return None;
    }
    // B writes neither `t` nor storage A reads
    let a_reads: Vec<Name> = deep_reads(a).iter().map(|x| ctx.root(x)).collect();
    let b_writes: Vec<Name> = b.iter().flat_map(writes).map(|w| ctx.root(&w)).collect();
    if b_writes
        .iter()
        .any(|w| w == t || w == UNKNOWN || a_reads.contains(w))
    {
        return None;
    }
    // the two loops, each with `pre` and a row view of `t`
    let row = |v: &Name, i: &Name| Stmt::View {
        var: v.clone(),
        elem,
        rank: 1,
        view: View::Row(t.clone(), Atom::Var(i.clone())),
        span: Span::default(),
    };
    let r1 = fresh(t);
    let mut b1 = pre.to_vec();
    b1.push(row(&r1, i));
    let mut a2 = a.to_vec();
    crate::rename::rename(&mut a2, &HashMap::from([(t.clone(), r1.clone())]));
    b1.extend(a2);
    let r2 = fresh(t);
    let mut b2 = pre.to_vec();
    b2.push(row(&r2, i));
    let mut rest = b.to_vec();
    crate::rename::rename(&mut rest, &HashMap::from([(t.clone(), r2.clone())]));
    b2.extend(rest);
    let i2 = fresh(i);
    let b2 = crate::rename::fresh_copy(&b2, &HashMap::from([(i.clone(), i2.clone())]), fresh);
    Some((
        Stmt::For {
            i: i.clone(),
            n: n.clone(),
            body: b1,
        },
        Stmt::For {
            i: i2,
            n: n.clone(),
            body: b2,
        },
    ))
}

/// Can no statement of `stmts` fail? Loops, lets and views whose reads are
/// proved in range (the counters in `bounds`), stores at a counter into an
/// array of that length.
fn cannot_fail(stmts: &[Stmt], sizes: &mut Sizes, bounds: &mut Vec<(Name, Atom)>) -> bool {
    for s in stmts {
        let ok = match s {
            Stmt::For { i, n, body } => {
                bounds.push((i.clone(), n.clone()));
                let mut inner = sizes.clone();
                let ok = cannot_fail(body, &mut inner, bounds);
                bounds.pop();
                ok
            }
            Stmt::Store { dest, idx, .. } => idx.iter().enumerate().all(|(k, x)| {
                matches!(x, Atom::Var(c) if bounds.iter().any(|(b, n)| b == c
                        && atom_key(n).is_some_and(|nk| sizes.same(&nk, &dim_key(dest, k)))))
            }),
            Stmt::Let { .. } | Stmt::View { .. } => {
                let bs: Vec<(&Name, &Atom)> = bounds.iter().map(|(a, b)| (a, b)).collect();
                !can_fail(s, sizes, &bs)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        sizes.learn(s);
    }
    true
}

/// Does `s` (or a statement in it) name `t`?
fn mentions(s: &Stmt, t: &Name) -> bool {
    crate::ir::mentions(std::slice::from_ref(s), t)
}

/// What [`writes`] says of a statement that may write anything.
const UNKNOWN: &str = "\u{1}unknown";

/// The arrays a statement stores into (at any depth).
fn writes(s: &Stmt) -> Vec<Name> {
    let mut out = Vec::new();
    fn go(s: &Stmt, out: &mut Vec<Name>) {
        match s {
            Stmt::Store { dest, .. } | Stmt::Copy { dest, .. } => out.push(dest.clone()),
            Stmt::Let { .. } | Stmt::View { .. } | Stmt::Check { .. } | Stmt::Guard { .. } => {}
            Stmt::For { .. } | Stmt::If { .. } | Stmt::Fold { .. } => {}
            // anything else may write through its destinations
            _ => out.push(UNKNOWN.into()),
        }
        for b in nested_blocks(s) {
            for x in b {
                go(x, out);
            }
        }
    }
    go(s, &mut out);
    out
}

/// The arrays read by `stmts` at any depth.
fn deep_reads(stmts: &[Stmt]) -> Vec<Name> {
    let mut out = reads(stmts);
    for s in stmts {
        for b in nested_blocks(s) {
            out.extend(deep_reads(b));
        }
    }
    out
}
