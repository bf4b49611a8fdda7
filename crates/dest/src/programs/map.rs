//! Mapping a list, tail-recursively, into a destination list (the paper's
//! map benchmark, strict context): each result is written in its final place,
//! front to back, in one pass and constant stack.

use crate::{Cons, Dest, List, ListFill, Region};

/// `map f list` into the hole `d`: a loop, no recursion, no reversal.
pub fn map_into<'r, A, B: Copy>(
    mut f: impl FnMut(&A) -> B,
    mut list: List<'_, A>,
    mut d: Dest<'r, List<'r, B>>,
) {
    while let Some(c) = list {
        d = d.fill_cons_with(f(&c.head));
        list = c.tail;
    }
    d.fill_nil();
}

/// The same loop written as in the paper, with a hollow cons cell whose head
/// is then filled through its own destination (`fill @'(:)`, `fillLeaf`):
/// the head is a counted hole, so each element costs one more bookkeeping
/// step than [`map_into`].
pub fn map_into_hollow<'r, A, B: Copy>(
    mut f: impl FnMut(&A) -> B,
    mut list: List<'_, A>,
    mut d: Dest<'r, List<'r, B>>,
) {
    while let Some(c) = list {
        let (h, t) = d.fill_cons();
        h.fill_leaf(f(&c.head));
        d = t;
        list = c.tail;
    }
    d.fill_nil();
}

/// `map f list` as a new region list, built with destinations.
pub fn map_dest<'r, A, B: Copy>(
    region: &'r Region,
    f: impl FnMut(&A) -> B,
    list: List<'_, A>,
) -> List<'r, B> {
    *region.build(|d| map_into(f, list, d))
}

/// Baseline (the functional programmer's strict map): accumulate the results
/// in reverse by prepending, then reverse — two passes, twice the cells.
pub fn map_acc_reverse<'r, A, B: Copy>(
    region: &'r Region,
    mut f: impl FnMut(&A) -> B,
    mut list: List<'_, A>,
) -> List<'r, B> {
    let mut acc: List<'r, B> = None;
    while let Some(c) = list {
        acc = Some(region.alloc_value(Cons {
            head: f(&c.head),
            tail: acc,
        }));
        list = c.tail;
    }
    let mut out: List<'r, B> = None;
    while let Some(c) = acc {
        out = Some(region.alloc_value(Cons {
            head: c.head,
            tail: out,
        }));
        acc = c.tail;
    }
    out
}

/// Baseline with the same result (a region list): push the results into a
/// `Vec`, then build the list from the back.
pub fn map_vec_then_list<'r, A, B: Copy>(
    region: &'r Region,
    f: impl FnMut(&A) -> B,
    list: List<'_, A>,
) -> List<'r, B> {
    let v = map_vec(f, list);
    super::dlist::list_from_back(region, &v)
}

/// Baseline: what a Rust programmer writes, a `Vec` (a different result
/// type; shown for reference).
pub fn map_vec<A, B>(f: impl FnMut(&A) -> B, list: List<'_, A>) -> Vec<B> {
    crate::types::iter(&list).map(f).collect()
}
