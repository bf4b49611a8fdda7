//! Difference lists with destinations (the paper's Table 1): a list with one
//! hole at its end, so appending an element and concatenating two lists are
//! `O(1)`.

use crate::{Dest, Incomplete, List, ListFill, Region};

/// A difference list: a list under construction whose only hole is its tail.
pub type DList<'r, T> = Incomplete<'r, List<'r, T>, Dest<'r, List<'r, T>>>;

/// The empty difference list: just a hole (the paper's `alloc`).
pub fn alloc<T>(region: &Region) -> DList<'_, T> {
    region.alloc()
}

/// Adds `x` at the end: fills the hole with a cons cell whose head is `x`;
/// its tail is the new hole.
pub fn append<'r, T>(list: DList<'r, T>, x: T) -> DList<'r, T> {
    list.map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(x);
        t
    })
}

/// Plugs `second` into the hole of `first`: the result has `first`'s root
/// and `second`'s hole. No element moves.
pub fn concat<'r, T>(first: DList<'r, T>, second: DList<'r, T>) -> DList<'r, T> {
    first.map(|d| d.fill_comp(second))
}

/// Closes the hole with `Nil` and returns the (now readable) list.
pub fn to_list<'r, T>(list: DList<'r, T>) -> List<'r, T> {
    *list.map(|d| d.fill_nil()).complete()
}

/// A one-element difference list.
pub fn singleton<T>(region: &Region, x: T) -> DList<'_, T> {
    append(alloc(region), x)
}

/// Workload: the list `xs` built by left-nested concatenation of singletons,
/// `((([x0] ++ [x1]) ++ [x2]) ++ ...)`, with difference lists.
pub fn concat_singletons<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc = alloc(region);
    for &x in xs {
        acc = concat(acc, singleton(region, x));
    }
    to_list(acc)
}

/// Workload: the list `xs` built by appending one element at a time.
pub fn append_all<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc = alloc(region);
    for &x in xs {
        acc = append(acc, x);
    }
    to_list(acc)
}

/// Baseline: what a Rust programmer writes for the same sequence, a `Vec`
/// grown by `extend` (here with one-element slices, like the singletons).
pub fn concat_vec<T: Copy>(xs: &[T]) -> Vec<T> {
    let mut acc = Vec::new();
    for x in xs {
        acc.extend_from_slice(std::slice::from_ref(x));
    }
    acc
}

/// Baseline with the same result as the destination version (a region
/// list): push into a `Vec`, then build the list from the back, prepending.
pub fn concat_vec_then_list<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let v = concat_vec(xs);
    list_from_back(region, &v)
}

/// A region list of `xs` built bottom-up: prepend from the last element.
pub fn list_from_back<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc: List<'r, T> = None;
    for &x in xs.iter().rev() {
        acc = Some(region.alloc_value(crate::Cons { head: x, tail: acc }));
    }
    acc
}
