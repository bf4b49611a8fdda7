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

/// A singly linked list in a [`bumpalo::Bump`] arena, built front to back
/// through a `&mut` tail slot.
pub type BumpList<'a, B> = Option<&'a mut BumpCell<'a, B>>;

/// A cons cell of a [`BumpList`].
#[derive(Debug, PartialEq, Eq)]
pub struct BumpCell<'a, B> {
    /// The element.
    pub head: B,
    /// The rest of the list.
    pub tail: BumpList<'a, B>,
}

/// Fair baseline with an arena, safe Rust, no destinations: one pass front
/// to back keeping a `&mut` to the last cell's tail (the "tail pointer"
/// idiom), cells bump-allocated in `bump` and freed as a block.
pub fn map_bump_tail<'a, A, B>(
    bump: &'a bumpalo::Bump,
    mut f: impl FnMut(&A) -> B,
    mut list: List<'_, A>,
) -> BumpList<'a, B> {
    let mut out: BumpList<'a, B> = None;
    let mut tail = &mut out;
    while let Some(c) = list {
        let cell = tail.insert(bump.alloc(BumpCell {
            head: f(&c.head),
            tail: None,
        }));
        tail = &mut cell.tail;
        list = c.tail;
    }
    out
}

/// The elements of a [`BumpList`], front to back.
pub fn bump_list_to_vec<B: Clone>(list: &BumpList<'_, B>) -> Vec<B> {
    let mut out = Vec::new();
    let mut cur = list.as_deref();
    while let Some(c) = cur {
        out.push(c.head.clone());
        cur = c.tail.as_deref();
    }
    out
}

/// A singly linked list of `Box`es (safe Rust's usual list).
pub type BoxList<B> = Option<Box<BoxCell<B>>>;

/// A cons cell of a [`BoxList`]. Dropping a list frees its cells in a loop
/// (the derived drop would recurse once per cell and overflow the stack on
/// long lists).
#[derive(Debug, PartialEq, Eq)]
pub struct BoxCell<B> {
    /// The element.
    pub head: B,
    /// The rest of the list.
    pub tail: BoxList<B>,
}

impl<B> Drop for BoxCell<B> {
    fn drop(&mut self) {
        let mut cur = self.tail.take();
        while let Some(mut c) = cur {
            cur = c.tail.take();
        }
    }
}

/// Fair baseline, safe Rust with the global allocator: the tail-pointer map
/// of [`map_bump_tail`] with one `Box` per cell.
pub fn map_box_tail<A, B>(mut f: impl FnMut(&A) -> B, mut list: List<'_, A>) -> BoxList<B> {
    let mut out: BoxList<B> = None;
    let mut tail = &mut out;
    while let Some(c) = list {
        let cell = tail.insert(Box::new(BoxCell {
            head: f(&c.head),
            tail: None,
        }));
        tail = &mut cell.tail;
        list = c.tail;
    }
    out
}

/// The elements of a [`BoxList`], front to back.
pub fn box_list_to_vec<B: Clone>(list: &BoxList<B>) -> Vec<B> {
    let mut out = Vec::new();
    let mut cur = list.as_deref();
    while let Some(c) = cur {
        out.push(c.head.clone());
        cur = c.tail.as_deref();
    }
    out
}
