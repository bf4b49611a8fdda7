//! Register blocking of a tile's row loop (the second half of the DPS loop
//! rule `tile-accumulate`, [`crate::tile`]): the micro-kernel of a matrix
//! product. Inside a tile, each row `i` is updated once per step `k` and
//! column `j`,
//!
//! ```text
//! for i < ni { pre; for kk < kn { let k = k0 + kk;
//!   for jj < jn { let j = j0 + jj; let acc = r[j]; body; r[j] := v } } }
//! ```
//!
//! (`r` a row of the result, `pre` its views and the other operands' rows).
//! Loaded, updated and stored for every step, each element costs a load and
//! a store besides its own work, and each element of the other operand
//! (`b[k, j]`) is loaded once per row. Blocked, [`ROWS`] rows and [`COLS`]
//! columns at a time keep their elements in a local buffer (C locals the C
//! compiler holds in vector registers, `cgen::stack`) over all the steps of
//! the tile, and the [`ROWS`] updates of one column at one step read the
//! same `b[k, j]`:
//!
//! ```text
//! for ib < max 0 (ni - 3) { if ib % 4 == 0 { pre_0 .. pre_3 (rows ib + q);
//!   for jb < max 0 (jn - 31) { if jb % 32 == 0 { alloc c_0 .. c_3: [32] {
//!     for l < 32 { c_q[l] := r_q[j0 + jb + l] }
//!     for kk < kn { let k = k0 + kk; for l < 32 {
//!       let acc = c_q[l]; body_q; c_q[l] := v   (q = 0 .. 3) } }
//!     for l < 32 { r_q[j0 + jb + l] := c_q[l] } } } }
//!   for jj < jn { if jj >= jn - jn % 32 { for kk < kn { body_q at j0 + jj } } } } }
//! for i < ni { if i >= ni - ni % 4 { the row as before } }
//! ```
//!
//! The blocks start where a counter is a multiple of the block size, as the
//! tiles do, so every index is a counter plus counters and the C backend
//! proves it in range (`j0 + jb + l < j0 + (jn - 31) + 31 = j0 + jn <=
//! nj`).
//!
//! Every element still gets the value the tiles before left, then its steps
//! `k0, k0 + 1, …` in order, one at a time, with the same operations: the
//! result is bit for bit the same. What makes the reordering between
//! elements sound is what `tile-accumulate` established before calling
//! [`block_rows`]: no statement of the update can fail, the update reads no
//! storage of the result but the element it updates, and `pre` is views and
//! arithmetic. Here the result row must be a row of `i` (so different rows
//! are different elements), and the update small (it is copied
//! [`ROWS`] + 1 times).

use crate::ir::*;
use crate::peel::{int, let_i64};
use std::collections::HashMap;

/// Rows of a block.
pub const ROWS: i64 = 4;
/// Columns of a block (of `f64`: four 512-bit or eight 256-bit vectors per
/// row; 4 × 32 was the fastest of 2, 4, 6, 8 rows by 8, 16, 24, 32
/// columns on gemm LARGE, with AVX-512 and with AVX2).
pub const COLS: i64 = 32;
/// The largest update blocked, in statements.
pub const MAX_UPDATE: usize = 24;

/// The register-blocked form of a tile's row loop `row` (see the module
/// documentation for the shape and the preconditions), or `None` where it
/// does not have that shape.
pub(crate) fn block_rows(row: &Stmt, fresh: &mut dyn FnMut(&str) -> Name) -> Option<Vec<Stmt>> {
    let Stmt::For { i, n: ni, body } = row else {
        return None;
    };
    let [pre @ .., steps] = body.as_slice() else {
        return None;
    };
    let Stmt::For {
        i: kk,
        n: kn,
        body: kb,
    } = steps
    else {
        return None;
    };
    let [k_let @ Stmt::Let { var: k, .. }, cols] = kb.as_slice() else {
        return None;
    };
    let Stmt::For {
        i: jj,
        n: jn,
        body: cb,
    } = cols
    else {
        return None;
    };
    let [
        Stmt::Let {
            var: j,
            ty: PrimType::I64,
            exp: SExp::Bin(BinOp::Add, j0, Atom::Var(jj_used)),
            ..
        },
        ub @ ..,
    ] = cb.as_slice()
    else {
        return None;
    };
    if jj_used != jj || ub.len() > MAX_UPDATE {
        return None;
    }
    let [
        Stmt::Let {
            var: acc,
            ty,
            exp: SExp::Load(r, ridx),
            ..
        },
        mid @ ..,
        Stmt::Store {
            dest: r2,
            idx: sidx,
            val,
            span: sspan,
        },
    ] = ub
    else {
        return None;
    };
    let jv = [Atom::Var(j.clone())];
    if r != r2 || ridx.as_slice() != jv || sidx.as_slice() != jv {
        return None;
    }
    // the result row is a row of `i`, taken in `pre`
    let row_of_i = pre.iter().any(|p| {
        matches!(p, Stmt::View { var, view: View::Row(src, Atom::Var(x)), .. }
            if var == r && x == i && !crate::rename::binders(pre).contains(src))
    });
    if !row_of_i || !matches!(ty, PrimType::F64 | PrimType::F32 | PrimType::I64) {
        return None;
    }
    let pre_binders = crate::rename::binders(pre);
    let var = |n: &Name| Atom::Var(n.clone());
    let bin = |op, a: Atom, b: Atom| SExp::Bin(op, a, b);

    // sizes of the blocks and the remainders
    let (t_rows, nb, irem, ifull) = (fresh("rows"), fresh("nb"), fresh("irem"), fresh("ifull"));
    let (t_cols, jbn, jrem, jfull) = (fresh("cols"), fresh("jbn"), fresh("jrem"), fresh("jfull"));
    let mut out = vec![
        let_i64(&t_rows, bin(BinOp::Sub, ni.clone(), int(ROWS - 1))),
        let_i64(&nb, SExp::Math(MathFn::Max, vec![int(0), var(&t_rows)])),
        let_i64(&irem, bin(BinOp::Rem, ni.clone(), int(ROWS))),
        let_i64(&ifull, bin(BinOp::Sub, ni.clone(), var(&irem))),
        let_i64(&t_cols, bin(BinOp::Sub, jn.clone(), int(COLS - 1))),
        let_i64(&jbn, SExp::Math(MathFn::Max, vec![int(0), var(&t_cols)])),
        let_i64(&jrem, bin(BinOp::Rem, jn.clone(), int(COLS))),
        let_i64(&jfull, bin(BinOp::Sub, jn.clone(), var(&jrem))),
    ];

    // the rows of a block: `pre` for each, its names renamed
    let ib = fresh("ib");
    let mut block = Vec::new();
    let mut row_names: Vec<HashMap<Name, Name>> = Vec::new();
    for q in 0..ROWS {
        let iq = if q == 0 {
            ib.clone()
        } else {
            let iq = fresh(i);
            block.push(let_i64(&iq, bin(BinOp::Add, var(&ib), int(q))));
            iq
        };
        let copy = crate::rename::fresh_copy(pre, &HashMap::from([(i.clone(), iq)]), fresh);
        let names: HashMap<Name, Name> = pre_binders
            .iter()
            .cloned()
            .zip(crate::rename::binders(&copy))
            .collect();
        block.extend(copy);
        row_names.push(names);
    }
    let accs: Vec<Name> = (0..ROWS).map(|_| fresh("acc")).collect();
    // `let jjl = jb + l; let j' = j0 + jjl` for a column of the block
    let (jb, l) = (fresh("jb"), fresh("l"));
    let column = |l: &Name, fresh: &mut dyn FnMut(&str) -> Name| {
        let (jjl, jl) = (fresh(jj), fresh(j));
        let stmts = vec![
            let_i64(&jjl, bin(BinOp::Add, var(&jb), var(l))),
            let_i64(&jl, bin(BinOp::Add, j0.clone(), var(&jjl))),
        ];
        (stmts, jl)
    };
    let typed = |v: &Name, e: SExp| Stmt::Let {
        var: v.clone(),
        ty: *ty,
        exp: e,
        span: Span::default(),
    };
    // load the block
    let (mut load, jl) = column(&l, fresh);
    for q in 0..ROWS as usize {
        let x = fresh(acc);
        load.push(typed(
            &x,
            SExp::Load(row_names[q][r].clone(), vec![var(&jl)]),
        ));
        load.push(Stmt::Store {
            dest: accs[q].clone(),
            idx: vec![var(&l)],
            val: var(&x),
            span: *sspan,
        });
    }
    // the steps of the tile on the block
    let (kk2, l2) = (fresh(kk), fresh("l"));
    let k2 = fresh(k);
    let mut k_let2 = vec![k_let.clone()];
    crate::rename::rename(
        &mut k_let2,
        &HashMap::from([(kk.clone(), kk2.clone()), (k.clone(), k2.clone())]),
    );
    let (mut step, jl2) = column(&l2, fresh);
    for q in 0..ROWS as usize {
        let mut upd = vec![typed(acc, SExp::Load(accs[q].clone(), vec![var(&l2)]))];
        upd.extend(mid.iter().cloned());
        upd.push(Stmt::Store {
            dest: accs[q].clone(),
            idx: vec![var(&l2)],
            val: val.clone(),
            span: *sspan,
        });
        let mut extra = row_names[q].clone();
        extra.insert(j.clone(), jl2.clone());
        extra.insert(k.clone(), k2.clone());
        step.extend(crate::rename::fresh_copy(&upd, &extra, fresh));
    }
    let mut steps_body = k_let2;
    steps_body.push(Stmt::For {
        i: l2,
        n: int(COLS),
        body: step,
    });
    // store the block
    let l3 = fresh("l");
    let (mut store, jl3) = column(&l3, fresh);
    for q in 0..ROWS as usize {
        let y = fresh(acc);
        store.push(typed(&y, SExp::Load(accs[q].clone(), vec![var(&l3)])));
        store.push(Stmt::Store {
            dest: row_names[q][r].clone(),
            idx: vec![var(&jl3)],
            val: var(&y),
            span: *sspan,
        });
    }
    let kernel = Stmt::Alloc {
        outs: vec![],
        bufs: accs
            .iter()
            .map(|a| Buf {
                var: a.clone(),
                elem: *ty,
                dims: vec![int(COLS)],
                span: *sspan,
                when: vec![],
                grown: false,
            })
            .collect(),
        body: Block {
            stmts: vec![
                Stmt::For {
                    i: l,
                    n: int(COLS),
                    body: load,
                },
                Stmt::For {
                    i: kk2,
                    n: kn.clone(),
                    body: steps_body,
                },
                Stmt::For {
                    i: l3,
                    n: int(COLS),
                    body: store,
                },
            ],
            results: vec![],
        },
    };
    block.push(Stmt::For {
        i: jb.clone(),
        n: var(&jbn),
        body: every(&jb, COLS, vec![kernel], fresh),
    });
    // the columns after the last whole block, for each row of the block,
    // one column at a time (the steps in order)
    for names in &row_names {
        let jj4 = fresh(jj);
        let mut col = vec![cb[0].clone()];
        col.push(Stmt::For {
            i: kk.clone(),
            n: kn.clone(),
            body: {
                let mut b = vec![k_let.clone()];
                b.extend(ub.iter().cloned());
                b
            },
        });
        let mut extra = names.clone();
        extra.insert(jj.clone(), jj4.clone());
        let col = crate::rename::fresh_copy(&col, &extra, fresh);
        block.push(Stmt::For {
            i: jj4.clone(),
            n: jn.clone(),
            body: when_at_least(&jj4, &jfull, col, fresh),
        });
    }
    out.push(Stmt::For {
        i: ib.clone(),
        n: var(&nb),
        body: every(&ib, ROWS, block, fresh),
    });
    // the rows after the last whole block, as before
    let i5 = fresh(i);
    let rest = crate::rename::fresh_copy(body, &HashMap::from([(i.clone(), i5.clone())]), fresh);
    out.push(Stmt::For {
        i: i5.clone(),
        n: ni.clone(),
        body: when_at_least(&i5, &ifull, rest, fresh),
    });
    Some(out)
}

/// `let m = c % size; if m == 0 { body }`.
fn every(c: &Name, size: i64, body: Vec<Stmt>, fresh: &mut dyn FnMut(&str) -> Name) -> Vec<Stmt> {
    let (m, start) = (fresh("bm"), fresh("bstart"));
    vec![
        let_i64(&m, SExp::Bin(BinOp::Rem, Atom::Var(c.clone()), int(size))),
        Stmt::Let {
            var: start.clone(),
            ty: PrimType::Bool,
            exp: SExp::Bin(BinOp::Eq, Atom::Var(m), int(0)),
            span: Span::default(),
        },
        branch(&start, body),
    ]
}

/// `let t = c >= lo; if t { body }`.
fn when_at_least(
    c: &Name,
    lo: &Name,
    body: Vec<Stmt>,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Vec<Stmt> {
    let t = fresh("past");
    vec![
        Stmt::Let {
            var: t.clone(),
            ty: PrimType::Bool,
            exp: SExp::Bin(BinOp::Ge, Atom::Var(c.clone()), Atom::Var(lo.clone())),
            span: Span::default(),
        },
        branch(&t, body),
    ]
}

fn branch(cond: &Name, body: Vec<Stmt>) -> Stmt {
    Stmt::If {
        outs: vec![],
        cond: Atom::Var(cond.clone()),
        then: Block {
            stmts: body,
            results: vec![],
        },
        els: Block {
            stmts: vec![],
            results: vec![],
        },
    }
}
