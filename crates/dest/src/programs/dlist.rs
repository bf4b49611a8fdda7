//! Difference lists with destinations (the paper's Table 1): a list with one
//! hole at its end, so appending an element and concatenating two lists are
//! `O(1)`.
//!
//! Two implementations:
//! * [`DList`] (re-exported from the crate root): the hole is never handed
//!   out, so it is linear by construction: no header, no hole counting, one
//!   16-byte cell per `u64` element. This is the one to use.
//! * [`generic`]: the paper's definition, `Incomplete [a] (Dest [a])`, built
//!   on [`Region::alloc_incomplete`] and [`Dest::fill_comp`]: each list
//!   carries a structure header, and completion walks the headers of the
//!   lists composed into it. Kept to measure what the general mechanism
//!   costs.

use crate::{List, Region};

pub use crate::raw::DList;

/// The empty difference list (the paper's `alloc`).
pub fn alloc<T: Copy>(region: &Region) -> DList<'_, T> {
    DList::new(region)
}

/// Adds `x` at the end: fills the hole with a cons cell whose head is `x`;
/// its tail is the new hole.
pub fn append<T: Copy>(list: DList<'_, T>, x: T) -> DList<'_, T> {
    list.append(x)
}

/// Plugs `second` into the hole of `first`: the result has `first`'s root
/// and `second`'s hole. No element moves.
pub fn concat<'r, T: Copy>(first: DList<'r, T>, second: DList<'r, T>) -> DList<'r, T> {
    first.concat(second)
}

/// Closes the hole with `Nil` and returns the (now readable) list.
pub fn to_list<T: Copy>(list: DList<'_, T>) -> List<'_, T> {
    list.into_list()
}

/// A one-element difference list.
pub fn singleton<T: Copy>(region: &Region, x: T) -> DList<'_, T> {
    DList::singleton(region, x)
}

/// Workload: the list `xs` built by left-nested concatenation of singletons,
/// `((([x0] ++ [x1]) ++ [x2]) ++ ...)`, with difference lists.
pub fn concat_singletons<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc = DList::new(region);
    for &x in xs {
        acc = acc.concat(DList::singleton(region, x));
    }
    acc.into_list()
}

/// Workload: the list `xs` built by appending one element at a time.
pub fn append_all<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc = DList::new(region);
    for &x in xs {
        acc = acc.append(x);
    }
    acc.into_list()
}

/// The paper's difference lists, `Incomplete [a] (Dest [a])`, on the general
/// composition mechanism ([`Dest::fill_comp`](crate::Dest::fill_comp)).
pub mod generic {
    use crate::{Dest, Incomplete, List, ListFill, Region};

    /// A difference list: a list under construction whose only hole is its
    /// tail, carried on the `H` side.
    pub type DList<'r, T> = Incomplete<'r, List<'r, T>, Dest<'r, List<'r, T>>>;

    /// The empty difference list: just a hole (the paper's `alloc`).
    pub fn alloc<T: Copy>(region: &Region) -> DList<'_, T> {
        region.alloc_incomplete()
    }

    /// Adds `x` at the end.
    pub fn append<'r, T: Copy>(list: DList<'r, T>, x: T) -> DList<'r, T> {
        list.map(|d| d.fill_cons_with(x))
    }

    /// Plugs `second` into the hole of `first` (`fillComp`).
    pub fn concat<'r, T: Copy>(first: DList<'r, T>, second: DList<'r, T>) -> DList<'r, T> {
        first.map(|d| d.fill_comp(second))
    }

    /// Closes the hole with `Nil` and returns the list.
    pub fn to_list<'r, T: Copy>(list: DList<'r, T>) -> List<'r, T> {
        *list.map(|d| d.fill_nil()).complete()
    }

    /// A one-element difference list.
    pub fn singleton<T: Copy>(region: &Region, x: T) -> DList<'_, T> {
        append(alloc(region), x)
    }

    /// Workload: left-nested concatenation of singletons.
    pub fn concat_singletons<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
        let mut acc = alloc(region);
        for &x in xs {
            acc = concat(acc, singleton(region, x));
        }
        to_list(acc)
    }
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
