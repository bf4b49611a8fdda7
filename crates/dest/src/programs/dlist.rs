//! Difference lists with destinations (the paper's Table 1): a list with one
//! hole at its end, so appending an element and concatenating two lists are
//! `O(1)`.
//!
//! Two implementations:
//! * [`DList`] (re-exported from the crate root): the hole is never handed
//!   out, so it is linear by construction: no header, no hole counting, one
//!   16-byte cell per `u64` element. This is the one to use.
//! * [`generic`]: the paper's definition, `Incomplete [a] (Dest [a])`, built
//!   on [`Region::alloc_incomplete`] and [`Dest::fill_comp`](crate::Dest::fill_comp): each list
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

/// The paper's own baseline: the function encoding of difference lists,
/// `type DList a = [a] -> [a]` (Hughes), here over region lists. A
/// difference list is a closure that prepends its elements to the list it
/// is given; `concat` is composition and `to_list` applies to `Nil`.
///
/// Haskell evaluates `(f . g) ys = f (g ys)` with `f`'s call in tail
/// position, so a left-nested concatenation of `n` lists runs in constant
/// stack. Rust has no guaranteed tail calls: written directly, that call
/// would nest `n` frames deep and overflow the stack from about 10^5
/// elements. So the closures return the tail call instead of making it
/// ([`FnStep::Then`]) and [`fn_apply`] makes it in a loop (a trampoline):
/// left nesting of any depth runs in constant stack, the right operand
/// of a `concat` is applied by recursion (depth = right-nesting depth).
pub type FnDList<'r, T> = Box<dyn FnOnce(List<'r, T>) -> FnStep<'r, T> + 'r>;

/// What applying one [`FnDList`] closure returns.
pub enum FnStep<'r, T> {
    /// The finished list.
    Done(List<'r, T>),
    /// Tail call still to make: apply the closure to the list.
    Then(FnDList<'r, T>, List<'r, T>),
}

/// The empty function-encoded difference list (`id`; a zero-sized closure,
/// so no allocation).
pub fn fn_empty<'r, T: 'r>() -> FnDList<'r, T> {
    Box::new(FnStep::Done)
}

/// `[x]` as a function: `\ys -> x : ys`, the cell allocated in `region`.
pub fn fn_singleton<'r, T: Copy + 'r>(region: &'r Region, x: T) -> FnDList<'r, T> {
    Box::new(move |ys| FnStep::Done(Some(region.alloc_value(crate::Cons { head: x, tail: ys }))))
}

/// `f ++ g` as composition, `\ys -> f (g ys)`, the call of `f` returned as a
/// tail call.
pub fn fn_concat<'r, T: 'r>(f: FnDList<'r, T>, g: FnDList<'r, T>) -> FnDList<'r, T> {
    Box::new(move |ys| FnStep::Then(f, fn_apply(g, ys)))
}

/// Applies `f` to `ys`, making the returned tail calls in a loop.
pub fn fn_apply<'r, T>(mut f: FnDList<'r, T>, mut ys: List<'r, T>) -> List<'r, T> {
    loop {
        match f(ys) {
            FnStep::Done(l) => return l,
            FnStep::Then(g, l) => {
                f = g;
                ys = l;
            }
        }
    }
}

/// The list of a function-encoded difference list: apply it to `Nil`.
pub fn fn_to_list<'r, T>(f: FnDList<'r, T>) -> List<'r, T> {
    fn_apply(f, None)
}

/// Workload of [`concat_singletons`] with function-encoded difference
/// lists: `((([x0] ++ [x1]) ++ [x2]) ++ ...)` composed, then applied to
/// `Nil`. Same result (a region list, same elements) as the destination
/// version.
pub fn concat_singletons_fn<'r, T: Copy + 'r>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc = fn_empty();
    for &x in xs {
        acc = fn_concat(acc, fn_singleton(region, x));
    }
    fn_to_list(acc)
}

/// [`FnDList`] with its closures allocated in the region, like the list
/// cells, instead of one `Box` each: closer to GHC, where closures are
/// bump-allocated in the nursery like any heap object. Closures that only
/// capture references are `Copy` and need no destructor, so the region can
/// hold them.
pub type FnDListIn<'r, T> = &'r dyn Fn(List<'r, T>) -> FnStepIn<'r, T>;

/// What applying one [`FnDListIn`] closure returns (see [`FnStep`]).
pub enum FnStepIn<'r, T> {
    /// The finished list.
    Done(List<'r, T>),
    /// Tail call still to make: apply the closure to the list.
    Then(FnDListIn<'r, T>, List<'r, T>),
}

/// The empty [`FnDListIn`] (`id`).
pub fn fn_in_empty<'r, T: 'r>() -> FnDListIn<'r, T> {
    &FnStepIn::Done
}

/// `[x]` as a region-allocated closure `\ys -> x : ys`.
pub fn fn_in_singleton<'r, T: Copy + 'r>(region: &'r Region, x: T) -> FnDListIn<'r, T> {
    region.alloc_value(move |ys| {
        FnStepIn::Done(Some(region.alloc_value(crate::Cons { head: x, tail: ys })))
    })
}

/// `f ++ g` as a region-allocated composition (see [`fn_concat`]).
pub fn fn_in_concat<'r, T: 'r>(
    region: &'r Region,
    f: FnDListIn<'r, T>,
    g: FnDListIn<'r, T>,
) -> FnDListIn<'r, T> {
    region.alloc_value(move |ys| FnStepIn::Then(f, fn_in_apply(g, ys)))
}

/// Applies `f` to `ys`, making the returned tail calls in a loop.
pub fn fn_in_apply<'r, T>(mut f: FnDListIn<'r, T>, mut ys: List<'r, T>) -> List<'r, T> {
    loop {
        match f(ys) {
            FnStepIn::Done(l) => return l,
            FnStepIn::Then(g, l) => {
                f = g;
                ys = l;
            }
        }
    }
}

/// [`concat_singletons_fn`] with [`FnDListIn`]: closures and cells in
/// `region`.
pub fn concat_singletons_fn_in<'r, T: Copy + 'r>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    let mut acc = fn_in_empty();
    for &x in xs {
        acc = fn_in_concat(region, acc, fn_in_singleton(region, x));
    }
    fn_in_apply(acc, None)
}
