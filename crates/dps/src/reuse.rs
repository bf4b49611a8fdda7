//! Reuse of dead blocks (funmem-lmad §5, memory reuse): a buffer of an
//! `alloc` scope whose last use comes before another buffer of the same
//! scope is first used, with the same element type and the same dims, is
//! that other buffer's storage too. The scope then allocates one buffer
//! where it allocated two, so its peak is what is live at once.
//!
//! One rule of [`crate::simplify::RULES`]:
//!
//! | rule | effect |
//! | --- | --- |
//! | `reuse-block` | `alloc b1: D, b2: D { ..b1 and its views last used..; ..b2 first used.. }`: `b2` becomes a view of all of `b1` (`view b2 = b1`) where it is first used, and its buffer goes |
//!
//! "Used" counts every statement that mentions the buffer or a view of it
//! (a view read later reads the buffer), nested blocks included; a buffer
//! with a placed piece in it (short-circuiting), one allocated only for
//! some trip counts, or grown storage is left alone, and so is a buffer the
//! scope's results name.

use crate::ir::*;
use crate::simplify::{Fresh, everywhere};
use std::collections::{HashMap, HashSet};

/// The `let`s of the function that copy a value or read a dim: what two
/// dims are compared through.
fn collect_lets(stmts: &[Stmt], out: &mut HashMap<Name, SExp>) {
    for s in stmts {
        if let Stmt::Let {
            var,
            exp: e @ (SExp::Atom(_) | SExp::Dim(..)),
            ..
        } = s
        {
            out.insert(var.clone(), e.clone());
        }
        for b in nested_blocks(s) {
            collect_lets(b, out);
        }
    }
}

/// A dim as a value: a constant, `dim a k`, or a name, through the lets
/// that copy them.
fn canon(a: &Atom, lets: &HashMap<Name, SExp>) -> String {
    let mut a = a.clone();
    for _ in 0..32 {
        let Atom::Var(v) = &a else { break };
        match lets.get(v) {
            Some(SExp::Atom(x)) => a = x.clone(),
            Some(SExp::Dim(arr, k)) => return format!("dim {arr} {k}"),
            _ => break,
        }
    }
    match a {
        Atom::Var(v) => v,
        Atom::Const(c) => format!("{c:?}"),
    }
}

/// `reuse-block`.
pub(crate) fn reuse_block(stmts: &mut Vec<Stmt>, _: &mut Fresh) -> bool {
    let mut lets = HashMap::new();
    collect_lets(stmts, &mut lets);
    everywhere(stmts, &mut |ss| {
        for s in ss.iter_mut() {
            let Stmt::Alloc { bufs, body, .. } = s else {
                continue;
            };
            if let Some((keep, gone, at)) = find_pair(bufs, body, &lets) {
                let b = bufs.remove(gone);
                let kept = bufs[if keep > gone { keep - 1 } else { keep }].var.clone();
                body.stmts.insert(
                    at,
                    Stmt::View {
                        var: b.var.clone(),
                        elem: b.elem,
                        rank: b.dims.len(),
                        view: View::Alias(kept),
                        span: b.span,
                    },
                );
                return true;
            }
        }
        false
    })
}

/// `(b1, b2, k)`: buffer `b1` is dead before statement `k` of the body,
/// where buffer `b2`, of the same element type and dims, is first used.
fn find_pair(
    bufs: &[Buf],
    body: &Block,
    lets: &HashMap<Name, SExp>,
) -> Option<(usize, usize, usize)> {
    let same_dims = |a: &[Atom], b: &[Atom]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| canon(x, lets) == canon(y, lets))
    };
    let plain = |b: &Buf| !b.grown && b.when.is_empty();
    let spans: Vec<Option<(usize, usize)>> = bufs
        .iter()
        .map(|b| {
            if plain(b) {
                live_range(&b.var, body)
            } else {
                None
            }
        })
        .collect();
    for (i, b1) in bufs.iter().enumerate() {
        let Some((_, last1)) = spans[i] else { continue };
        for (j, b2) in bufs.iter().enumerate() {
            if i == j || b1.elem != b2.elem || !same_dims(&b1.dims, &b2.dims) {
                continue;
            }
            let Some((first2, _)) = spans[j] else {
                continue;
            };
            if last1 < first2 {
                return Some((i, j, first2));
            }
        }
    }
    None
}

/// The first and last statements of the body (top level, a nested block
/// counting as its statement) that use `b` or a view of it; `None` where a
/// placed piece lives in it, or the body's results name it.
fn live_range(b: &Name, body: &Block) -> Option<(usize, usize)> {
    let mut names: HashSet<Name> = HashSet::from([b.clone()]);
    loop {
        let n = names.len();
        if !collect_views(&body.stmts, &mut names) {
            return None;
        }
        if names.len() == n {
            break;
        }
    }
    if body
        .results
        .iter()
        .any(|r| matches!(r, Atom::Var(x) if names.contains(x)))
    {
        return None;
    }
    let uses: Vec<usize> = body
        .stmts
        .iter()
        .enumerate()
        .filter(|(_, s)| names.iter().any(|x| mentions(std::slice::from_ref(*s), x)))
        .map(|(k, _)| k)
        .collect();
    Some((*uses.first()?, *uses.last()?))
}

/// Add the views of `names` to it; `false` where one is a placed piece of
/// it (its storage then holds another array's part).
fn collect_views(stmts: &[Stmt], names: &mut HashSet<Name>) -> bool {
    for s in stmts {
        if let Stmt::View { var, view, .. } = s {
            if let View::Placed { root, part, .. } = view
                && (names.contains(root) || names.contains(part))
            {
                return false;
            }
            if names.contains(view.source()) {
                names.insert(var.clone());
            }
        }
        for b in nested_blocks(s) {
            if !collect_views(b, names) {
                return false;
            }
        }
    }
    true
}
