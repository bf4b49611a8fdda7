//! Cache tiling of an accumulation nest (the DPS loop rule
//! `tile-accumulate`, table [`crate::peel::RULES`], after
//! `interchange-fold`): a map over rows whose row is initialised and then
//! updated once per step `k` of a fold, in place,
//!
//! ```text
//! for i < ni { pre; init; for k < nk { for j < nj { let acc = r[j]; body; r[j] := v } } }
//! ```
//!
//! (what `interchange-fold` makes of a matrix product), runs the updates in
//! tiles of [`JB`] columns and [`KB`] steps, every row passing over a tile of
//! the other operand while it stays in cache:
//!
//! ```text
//! for i < ni { pre; init }
//! for jt < ⌈nj / JB⌉ { for kt < ⌈nk / KB⌉ { for i' < ni {
//!   pre'; for kk < min KB (nk - kt·KB) { let k = kt·KB + kk;
//!     for jj < min JB (nj - jt·JB) { let j = jt·JB + jj; body' } } } } }
//! ```
//!
//! A last loop after the steps, finishing each element from its
//! accumulated value (what `interchange-fold` makes of `beta * c[i, j] +
//! alpha * dot ..`), which cannot fail, runs after the tiles once per row:
//! `for i'' < ni { pre''; post }`.
//!
//! Each element still gets its initial value, then the steps `k = 0, 1, …`
//! one at a time in increasing order (the `kt` tiles ascend), so the result
//! is bit for bit the same. It applies where the order of errors cannot
//! change and no value is read early: the update's statements cannot fail
//! (its reads proved in range, as for `interchange-fold`), it reads no
//! storage of the row's root but the element it updates, `pre` is views,
//! guards and lets that read no memory (run again for each tile: views and
//! arithmetic give what they gave, the guards are not repeated), and the
//! bounds `nk` and `nj` are not computed inside the loop.

use crate::interchange::{Ctx, Sizes, apply_nest_rule, atom_key, can_fail, dim_key, reads};
use crate::ir::*;
use crate::peel::{int, let_i64};
use std::collections::HashMap;

/// Columns of a tile (a tile of `KB` rows of 8-byte elements: 256 KiB,
/// which stays in L2 while every row passes over it).
pub const JB: i64 = 256;
/// Steps of the fold in a tile.
pub const KB: i64 = 128;

pub(crate) fn tile_accumulate(f: &mut Fun) -> bool {
    let mut sizes = Sizes::default();
    sizes.learn_entry_dests(f);
    apply_nest_rule(f, "_tl", sizes, rewrite)
}

fn rewrite(
    s: &Stmt,
    sizes: &Sizes,
    ctx: &Ctx,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Vec<Stmt>> {
    let Stmt::For { i, n: ni, body } = s else {
        return None;
    };
    // (a last loop finishing each element from its accumulated value, as
    // `interchange-fold` makes of `beta * c[i, j] + alpha * dot ..`, runs
    // after the tiles, once per row)
    let steps = |t: &Stmt| matches!(t, Stmt::For { body, .. } if matches!(body.as_slice(), [Stmt::For { .. }]));
    let (pre, init, upd, post) = match body.as_slice() {
        [pre @ .., init, upd] if steps(upd) => (pre, init, upd, None),
        [pre @ .., init, upd, post @ Stmt::For { .. }] if steps(upd) => {
            (pre, init, upd, Some(post))
        }
        _ => return None,
    };
    let Stmt::For {
        i: k,
        n: nk,
        body: kb,
    } = upd
    else {
        return None;
    };
    let [
        Stmt::For {
            i: j,
            n: nj,
            body: ub,
        },
    ] = kb.as_slice()
    else {
        return None;
    };
    if !matches!(init, Stmt::For { .. }) {
        return None;
    }
    // `pre`: views, guards and lets that read no memory
    let pure = |p: &Stmt| match p {
        Stmt::View { .. } | Stmt::Guard { .. } => true,
        Stmt::Let { exp, .. } => !matches!(exp, SExp::Load(..) | SExp::LoadOr0(..)),
        _ => false,
    };
    if !pre.iter().all(pure) {
        return None;
    }
    // the update: `let acc = r[j]; ...; r[j] := v`, one store
    let (
        [
            Stmt::Let {
                exp: SExp::Load(r, ridx),
                ..
            },
            ..,
            Stmt::Store {
                dest: r2,
                idx: sidx,
                ..
            },
        ],
        true,
    ) = (ub.as_slice(), ub.len() >= 2)
    else {
        return None;
    };
    let jv = [Atom::Var(j.clone())];
    if r != r2 || ridx.as_slice() != jv || sidx.as_slice() != jv {
        return None;
    }
    let stores = ub
        .iter()
        .filter(|t| !matches!(t, Stmt::Let { .. } | Stmt::View { .. }))
        .count();
    if stores != 1 {
        return None;
    }
    // the bounds are the same on every row; nothing the loops bind escapes
    let local = crate::rename::binders(body);
    let bound_here = |x: &Atom| matches!(x, Atom::Var(v) if local.contains(v) || v == i);
    if bound_here(nk) || bound_here(nj) {
        return None;
    }
    // no statement of the update can fail
    let mut inner = sizes.clone();
    for p in pre {
        inner.learn(p);
    }
    let bounds = [(j, nj), (k, nk)];
    for t in &ub[..ub.len() - 1] {
        if can_fail(t, &inner, &bounds) {
            return None;
        }
        inner.learn(t);
    }
    // the finishing loop cannot fail (it then runs after every row's
    // initialisation, so an error of one would come later), and nothing
    // else it binds escapes
    if let Some(Stmt::For {
        i: jp,
        n: njp,
        body: pb,
    }) = post
    {
        let mut at = inner.clone();
        for t in pb {
            if can_fail(t, &at, &[(jp, njp)]) && !matches!(t, Stmt::Store { .. }) {
                return None;
            }
            at.learn(t);
        }
        if bound_here(njp) {
            return None;
        }
    }
    // the row is storage of its own; the update reads other storage (and
    // the element it updates)
    let root = ctx.root(r);
    if !ctx.fresh_storage(&root)
        || reads(&ub[1..]).iter().any(|x| ctx.root(x) == root)
        || atom_key(nj).is_none_or(|key| !inner.same(&key, &dim_key(r, 0)))
    {
        return None;
    }
    // the tiles
    let mut out = vec![Stmt::For {
        i: i.clone(),
        n: ni.clone(),
        body: {
            let mut b = pre.to_vec();
            b.push(init.clone());
            b
        },
    }];
    // (the tile loops count every column and step, and start a tile where
    // the counter is a multiple of the tile size: the tile's first column
    // is then a counter, and the C backend sees `j = j0 + jj < j0 + min JB
    // (nj - j0) <= nj`, an affine index in range, where `jt * JB` would be
    // a product it cannot bound; the tests cost nj + nj/JB * nk steps)
    let (j0, kt, kk, jj) = (fresh("j0"), fresh("k0"), fresh("kk"), fresh("jj"));
    let (jm, jstart, jrest, jn) = (fresh("jm"), fresh("jstart"), fresh("jrest"), fresh("jn"));
    let (km, kstart, krest, kn) = (fresh("km"), fresh("kstart"), fresh("krest"), fresh("kn"));
    // for i' < ni { pre'; for kk < kn { let k = k0 + kk; for jj < jn { let j = j0 + jj; ub } } }
    let mut row: Vec<Stmt> = pre
        .iter()
        .filter(|p| !matches!(p, Stmt::Guard { .. }))
        .cloned()
        .collect();
    let mut cols = vec![let_i64(
        j,
        SExp::Bin(BinOp::Add, Atom::Var(j0.clone()), Atom::Var(jj.clone())),
    )];
    cols.extend(ub.iter().cloned());
    row.push(Stmt::For {
        i: kk.clone(),
        n: Atom::Var(kn.clone()),
        body: vec![
            let_i64(
                k,
                SExp::Bin(BinOp::Add, Atom::Var(kt.clone()), Atom::Var(kk.clone())),
            ),
            Stmt::For {
                i: jj.clone(),
                n: Atom::Var(jn.clone()),
                body: cols,
            },
        ],
    });
    let i2 = fresh(i);
    let row = crate::rename::fresh_copy(&row, &HashMap::from([(i.clone(), i2.clone())]), fresh);
    let row_loop = Stmt::For {
        i: i2,
        n: ni.clone(),
        body: row,
    };
    // the micro-kernel: rows and columns in register blocks
    let rows = crate::regblock::block_rows(&row_loop, fresh).unwrap_or_else(|| vec![row_loop]);
    let mut k_tile = vec![
        let_i64(
            &krest,
            SExp::Bin(BinOp::Sub, nk.clone(), Atom::Var(kt.clone())),
        ),
        let_i64(
            &kn,
            SExp::Math(MathFn::Min, vec![int(KB), Atom::Var(krest)]),
        ),
    ];
    k_tile.extend(rows);
    let every = |c: &Name, m: &Name, start: &Name, size: i64, body: Vec<Stmt>| {
        vec![
            let_i64(m, SExp::Bin(BinOp::Rem, Atom::Var(c.clone()), int(size))),
            Stmt::Let {
                var: start.clone(),
                ty: PrimType::Bool,
                exp: SExp::Bin(BinOp::Eq, Atom::Var(m.clone()), int(0)),
                span: Span::default(),
            },
            Stmt::If {
                outs: vec![],
                cond: Atom::Var(start.clone()),
                then: Block {
                    stmts: body,
                    results: vec![],
                },
                els: Block {
                    stmts: vec![],
                    results: vec![],
                },
            },
        ]
    };
    let k_loop = Stmt::For {
        i: kt.clone(),
        n: nk.clone(),
        body: every(&kt, &km, &kstart, KB, k_tile),
    };
    let j_tile = vec![
        let_i64(
            &jrest,
            SExp::Bin(BinOp::Sub, nj.clone(), Atom::Var(j0.clone())),
        ),
        let_i64(
            &jn,
            SExp::Math(MathFn::Min, vec![int(JB), Atom::Var(jrest)]),
        ),
        k_loop,
    ];
    out.push(Stmt::For {
        i: j0.clone(),
        n: nj.clone(),
        body: every(&j0, &jm, &jstart, JB, j_tile),
    });
    if let Some(post) = post {
        let mut row: Vec<Stmt> = pre
            .iter()
            .filter(|p| !matches!(p, Stmt::Guard { .. }))
            .cloned()
            .collect();
        row.push(post.clone());
        let i3 = fresh(i);
        out.push(Stmt::For {
            i: i3.clone(),
            n: ni.clone(),
            body: crate::rename::fresh_copy(&row, &HashMap::from([(i.clone(), i3)]), fresh),
        });
    }
    Some(out)
}
