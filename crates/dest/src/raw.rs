//! The one module of `dest` that contains `unsafe` code.
//!
//! Everything else in the crate (the provided types, the paper's programs,
//! the region wrapper) is safe code built on the handful of primitives here.
//! Each `unsafe` block carries its safety argument; the invariants they rely on
//! are stated once, below, and maintained by every function of this module.
//!
//! # Representation
//!
//! * A **region** is a [`bumpalo::Bump`]: memory handed out by bumping a
//!   pointer, never moved, never freed individually, released as a block when
//!   the region is dropped. No destructor ever runs on region memory, so every
//!   type stored there must be free of drop glue (checked at compile time with
//!   `const { assert!(!needs_drop::<T>()) }` wherever a value or a slot enters
//!   the region).
//! * A **slot** is a properly aligned, region-allocated `T`-sized piece of
//!   memory, possibly uninitialised, or a field of such a `T` (a hollow
//!   constructor's field).
//! * A [`Dest<'r, T>`] is a slot pointer plus the [`Header`] of the structure
//!   it belongs to. The root hole of a structure has a null slot pointer: it
//!   writes wherever its header's `target` says (this is what lets
//!   [`Dest::fill_comp`] redirect a not-yet-filled root).
//! * An [`Incomplete<'r, T, H>`] is a header (allocated in the region, next to
//!   the *root receiver*, the `T` slot that will hold the root) and the `H`
//!   side, the holes still to fill.
//!
//! # Invariants
//!
//! * **I1 (one writer per slot)**: at any time, every slot that is not yet
//!   initialised is written by at most one live `Dest` (or, for a root, by the
//!   live `Dest` of its header's *live writer*). `Dest` is neither `Copy` nor
//!   `Clone` and every fill consumes it, so a slot is written at most once.
//! * **I2 (hole accounting)**: `Header::holes` is the number of live `Dest`s
//!   owned by that header. A fill that consumes one `Dest` and creates `n`
//!   field `Dest`s adds `n - 1`. A header that is composed into another
//!   structure ([`Dest::fill_comp`]) is linked as a child of the hole's owner,
//!   so the holes of a structure are the sum over its header tree.
//! * **I3 (readable means complete)**: a `&'r T` to a structure is produced
//!   only by completion, and only when the sum of I2 over its header tree is
//!   zero: no live `Dest` can write into any slot reachable from its root, and
//!   every slot reachable from its root has been written (each slot was
//!   reachable only because a fill created a `Dest` for it, and that `Dest` has
//!   been consumed by a fill that initialised the slot).
//! * **I4 (flat roots move)**: a structure whose root type is [`Flat`] never
//!   has a hole *inside* its root receiver (every fill of a `Flat` slot writes
//!   the whole slot). So moving a filled `Flat` root to another slot, as
//!   [`Dest::fill_comp`] does, cannot leave a `Dest` pointing at the old place.

use std::cell::Cell;
use std::marker::PhantomData;
use std::mem::{MaybeUninit, align_of, needs_drop, size_of};
use std::ptr;

use bumpalo::Bump;

/// The root hole of the structure is still to be filled by its own root `Dest`.
const ROOT_OPEN: u8 = 0;
/// The root receiver (or the slot the root was redirected to) holds the root.
const ROOT_FILLED: u8 = 1;
/// The root `Dest` was consumed by `fill_comp` with a child whose root was
/// open: the child's live writer now writes this structure's root.
const ROOT_DELEGATED: u8 = 2;

/// Book-keeping for one structure under construction, allocated in the region.
pub struct Header<'r> {
    /// The region, for the cells that `fill_box` and friends allocate.
    bump: &'r Bump,
    /// Live `Dest`s owned by this header (invariant I2).
    holes: Cell<usize>,
    /// Where the root `Dest` of this header writes.
    target: Cell<*mut u8>,
    /// One of `ROOT_OPEN`, `ROOT_FILLED`, `ROOT_DELEGATED`.
    state: Cell<u8>,
    /// For `ROOT_DELEGATED`: the header whose root `Dest` writes our root.
    writer: Cell<*const Header<'r>>,
    /// First structure composed into one of our holes.
    child: Cell<*const Header<'r>>,
    /// Next structure composed into a hole of our parent.
    sibling: Cell<*const Header<'r>>,
}

impl<'r> Header<'r> {
    fn new_in(bump: &'r Bump, target: *mut u8, holes: usize, state: u8) -> &'r Header<'r> {
        bump.alloc(Header {
            bump,
            holes: Cell::new(holes),
            target: Cell::new(target),
            state: Cell::new(state),
            writer: Cell::new(ptr::null()),
            child: Cell::new(ptr::null()),
            sibling: Cell::new(ptr::null()),
        })
    }

    fn add_holes(&self, added: usize, consumed: usize) {
        self.holes.set(self.holes.get() + added - consumed);
    }

    /// The header whose root `Dest` is the one that will write our root
    /// (ourselves unless we delegated), compressing the delegation path.
    fn live_writer(&'r self) -> &'r Header<'r> {
        let mut h: &'r Header<'r> = self;
        while h.state.get() == ROOT_DELEGATED {
            let next = h.writer.get();
            if ptr::eq(next, h) {
                break;
            }
            // SAFETY: `writer` is only ever set (in `fill_comp`) from a
            // `&'r Header<'r>`, i.e. a header allocated in this region, which
            // lives as long as the region borrow `'r`.
            h = unsafe { &*next };
        }
        let end: *const Header<'r> = h;
        let mut p: &'r Header<'r> = self;
        while p.state.get() == ROOT_DELEGATED && !ptr::eq(p, end) {
            let next = p.writer.get();
            p.writer.set(end);
            if ptr::eq(next, p) {
                break;
            }
            // SAFETY: as above, `next` came from a `&'r Header<'r>`.
            p = unsafe { &*next };
        }
        h
    }

    /// Holes left in this structure and every structure composed into it.
    fn open_holes(&'r self) -> usize {
        let mut total = self.holes.get();
        let mut first = self.child.get();
        if first.is_null() {
            return total;
        }
        let mut stack: Vec<*const Header<'r>> = Vec::new();
        loop {
            let mut c = first;
            while !c.is_null() {
                // SAFETY: `child`/`sibling` links are only set from
                // `&'r Header<'r>` values (in `fill_comp`), so `c` points to a
                // live header of this region. The links form a forest: a
                // header is linked when its `Incomplete` is consumed, which
                // happens once, and a live header is never linked, so the walk
                // from a live header terminates.
                let h = unsafe { &*c };
                total += h.holes.get();
                let g = h.child.get();
                if !g.is_null() {
                    stack.push(g);
                }
                c = h.sibling.get();
            }
            match stack.pop() {
                Some(next) => first = next,
                None => return total,
            }
        }
    }
}

/// Types whose every fill writes the whole slot, so a filled root can be moved
/// (invariant I4): region references `&'r U` and nullable region references
/// `Option<&'r U>` (which is what [`List`](crate::List) and
/// [`Tree`](crate::Tree) are). Only these can be plugged with
/// [`Dest::fill_comp`]. Sealed.
pub trait Flat: sealed::Sealed {}
impl<U> Flat for &U {}
impl<U> Flat for Option<&U> {}

mod sealed {
    pub trait Sealed {}
    impl<U> Sealed for &U {}
    impl<U> Sealed for Option<&U> {}
}

/// A write-once hole of type `T` in a structure allocated in region `'r`.
///
/// A `Dest` is consumed by exactly one fill: [`fill_leaf`](Dest::fill_leaf),
/// [`fill_comp`](Dest::fill_comp), [`fill_ctor`](Dest::fill_ctor) (and the
/// named constructor methods derived from it), [`fill_box`](Dest::fill_box),
/// [`fill_none`](Dest::fill_none) / [`fill_some`](Dest::fill_some). It is not
/// `Copy` or `Clone`, so it cannot be filled twice; it borrows the region, so
/// it cannot outlive it. Dropping it unfilled is allowed by the compiler (Rust
/// types are affine, not linear) and caught when the structure is completed.
#[must_use = "a destination must be filled, or its structure can never be completed"]
pub struct Dest<'r, T> {
    /// The slot; null for the root hole (then the header's `target`).
    slot: *mut T,
    hdr: &'r Header<'r>,
    /// Invariant in `T`: a `Dest<&'long U>` must not become a `Dest<&'short U>`.
    _t: PhantomData<fn(T) -> T>,
}

/// A structure of type `T` under construction, whose remaining holes are the
/// `H` side (the paper's `Incomplete a b`). It is readable only through
/// completion: [`complete`](Incomplete::complete) once `H` is `()`,
/// [`complete_with`](Incomplete::complete_with) once it is [`Ur<U>`].
#[must_use = "an incomplete structure is only useful once completed"]
pub struct Incomplete<'r, T, H> {
    hdr: &'r Header<'r>,
    holes: H,
    _t: PhantomData<fn(T) -> T>,
}

/// A value that carries no holes (the paper's `Ur`, "unrestricted"): an
/// [`Incomplete`] whose `H` side is `Ur<U>` can be completed, giving back the
/// `U` alongside the structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Ur<U>(pub U);

/// Completion found holes that were never filled: some [`Dest`] of the
/// structure was dropped (or is still held somewhere) without being filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnfilledHoles {
    /// How many holes are still open.
    pub count: usize,
}

impl std::fmt::Display for UnfilledHoles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the structure still has {} unfilled hole(s): a `Dest` was dropped or kept without being filled; \
             fill every destination (fill_leaf, fill_comp or a constructor) before completing",
            self.count
        )
    }
}

impl std::error::Error for UnfilledHoles {}

/// A constructor that can be allocated *hollow*: its tag written, its fields
/// left as holes. Implemented by `#[derive(Fill)]`; rarely by hand.
///
/// # Safety
///
/// An implementation promises that, for a properly aligned slot of type
/// `Self::Of`:
/// * writing `Self::TAG` at offset 0 of the slot (nothing at all when `Tag` is
///   `()`) and then a valid value of each type of `Self::Fields` at the
///   corresponding offset of `Self::offsets()` produces a valid value of
///   `Self::Of` — for a struct, the fields at their `offset_of!`; for a
///   `#[repr(u8)]` (or other primitive representation) enum, the `#[repr(C)]`
///   struct `{ tag, fields... }` of that variant, as the Rust reference
///   specifies for primitive-representation enums;
/// * the field ranges do not overlap each other or the tag;
/// * `Self::Of` is not a [`Flat`] type.
pub unsafe trait Ctor {
    /// The type this constructor builds.
    type Of;
    /// The discriminant's type (`u8` for `#[repr(u8)]`), `()` for a struct.
    type Tag: Copy;
    /// This constructor's discriminant.
    const TAG: Self::Tag;
    /// The field types, as a tuple (`()` for none, `(A,)` for one).
    type Fields: Fields;
    /// Byte offset of each field inside `Self::Of`.
    fn offsets() -> <Self::Fields as Fields>::Offsets;
}

/// Tuples of field types: how many there are and the [`Dest`]s for them.
/// Implemented for tuples of up to 12 fields; cannot be implemented outside
/// this crate (its constructor method takes a crate-private type).
pub trait Fields: Sized {
    /// Number of fields.
    const COUNT: usize;
    /// `[usize; COUNT]`.
    type Offsets;
    /// The destinations for the fields: `()` for none, `Dest<'r, A>` for one,
    /// a tuple of `Dest`s for more.
    type Dests<'r>;
    /// # Safety
    /// `base` is a slot of a type `O` of size `size` for which the field
    /// offsets are valid (see [`Ctor`]); `hdr` owns the new holes.
    #[doc(hidden)]
    unsafe fn make<'r>(
        base: *mut u8,
        size: usize,
        offsets: Self::Offsets,
        hdr: &'r Header<'r>,
    ) -> Self::Dests<'r>;
}

impl Fields for () {
    const COUNT: usize = 0;
    type Offsets = [usize; 0];
    type Dests<'r> = ();
    unsafe fn make<'r>(_: *mut u8, _: usize, _: [usize; 0], _: &'r Header<'r>) {}
}

impl<A> Fields for (A,) {
    const COUNT: usize = 1;
    type Offsets = [usize; 1];
    type Dests<'r> = Dest<'r, A>;
    unsafe fn make<'r>(
        base: *mut u8,
        size: usize,
        o: [usize; 1],
        hdr: &'r Header<'r>,
    ) -> Dest<'r, A> {
        assert!(o[0] + size_of::<A>() <= size, "Ctor offsets out of bounds");
        // SAFETY: the caller guarantees `base` is a slot with a field of type
        // `A` at offset `o[0]`, checked above to lie inside the slot.
        let p = unsafe { base.add(o[0]) }.cast::<A>();
        assert!(p.is_aligned(), "Ctor field misaligned");
        Dest::at(p, hdr)
    }
}

macro_rules! tuple_fields {
    ($n:literal; $($t:ident $i:tt),+) => {
        impl<$($t),+> Fields for ($($t,)+) {
            const COUNT: usize = $n;
            type Offsets = [usize; $n];
            type Dests<'r> = ($(Dest<'r, $t>,)+);
            unsafe fn make<'r>(base: *mut u8, size: usize, o: [usize; $n], hdr: &'r Header<'r>) -> ($(Dest<'r, $t>,)+) {
                $(assert!(o[$i] + size_of::<$t>() <= size, "Ctor offsets out of bounds");)+
                // SAFETY: the caller guarantees `base` is a slot whose field
                // `i` has type `$t` at offset `o[i]` (each checked above to lie
                // inside the slot); fields do not overlap (Ctor contract).
                let ptrs = ($(unsafe { base.add(o[$i]) }.cast::<$t>(),)+);
                $(assert!(ptrs.$i.is_aligned(), "Ctor field misaligned");)+
                ($(Dest::at(ptrs.$i, hdr),)+)
            }
        }
    };
}

tuple_fields!(2; A 0, B 1);
tuple_fields!(3; A 0, B 1, C 2);
tuple_fields!(4; A 0, B 1, C 2, D 3);
tuple_fields!(5; A 0, B 1, C 2, D 3, E 4);
tuple_fields!(6; A 0, B 1, C 2, D 3, E 4, F 5);
tuple_fields!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_fields!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_fields!(9; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_fields!(10; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_fields!(11; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_fields!(12; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

/// Allocates an uninitialised `U` cell in the region.
fn cell<U>(bump: &Bump) -> *mut U {
    const {
        assert!(
            !needs_drop::<U>(),
            "region data must not need Drop: no destructor runs in a region"
        )
    };
    bump.alloc(MaybeUninit::<U>::uninit()).as_mut_ptr()
}

/// `alloc` (the paper's `alloc`): a fresh structure whose root is one hole.
pub(crate) fn alloc<'r, T>(bump: &'r Bump) -> Incomplete<'r, T, Dest<'r, T>> {
    let recv = cell::<T>(bump);
    let hdr = Header::new_in(bump, recv.cast(), 1, ROOT_OPEN);
    Incomplete {
        hdr,
        holes: Dest {
            slot: ptr::null_mut(),
            hdr,
            _t: PhantomData,
        },
        _t: PhantomData,
    }
}

/// `intoIncomplete`: an already complete structure, with no holes.
pub(crate) fn into_incomplete<'r, T>(bump: &'r Bump, value: T) -> Incomplete<'r, T, ()> {
    const {
        assert!(
            !needs_drop::<T>(),
            "region data must not need Drop: no destructor runs in a region"
        )
    };
    let recv: *mut T = bump.alloc(value);
    let hdr = Header::new_in(bump, recv.cast(), 0, ROOT_FILLED);
    Incomplete {
        hdr,
        holes: (),
        _t: PhantomData,
    }
}

impl<'r, T> Dest<'r, T> {
    fn at(slot: *mut T, hdr: &'r Header<'r>) -> Self {
        Dest {
            slot,
            hdr,
            _t: PhantomData,
        }
    }

    /// The slot this destination writes, marking a root as filled.
    fn take_slot(&self) -> *mut T {
        if self.slot.is_null() {
            self.hdr.state.set(ROOT_FILLED);
            self.hdr.target.get().cast()
        } else {
            self.slot
        }
    }

    /// Fills the hole with a complete value (the paper's `fillLeaf`).
    #[inline]
    pub fn fill_leaf(self, value: T) {
        const {
            assert!(
                !needs_drop::<T>(),
                "region data must not need Drop: no destructor runs in a region"
            )
        };
        let slot = self.take_slot();
        // SAFETY: `slot` is an aligned `T` slot in the region (a root receiver,
        // a redirected root target or a hollow constructor's field), written
        // by this `Dest` only (I1); it is uninitialised or holds a `T` without
        // drop glue, so overwriting leaks nothing.
        unsafe { slot.write(value) };
        self.hdr.add_holes(0, 1);
    }

    /// Fills the hole with a hollow constructor `C` and returns one
    /// destination per field (the paper's `fill @'C`). `#[derive(Fill)]`
    /// gives each constructor a named method that calls this.
    #[inline]
    pub fn fill_ctor<C: Ctor<Of = T>>(self) -> <C::Fields as Fields>::Dests<'r> {
        const {
            assert!(
                !needs_drop::<T>(),
                "region data must not need Drop: no destructor runs in a region"
            );
            assert!(
                size_of::<C::Tag>() <= size_of::<T>() && align_of::<C::Tag>() <= align_of::<T>()
            );
        };
        let slot = self.take_slot();
        // SAFETY: `slot` is an aligned `T` slot written only by this `Dest`
        // (I1); by the `Ctor` contract the tag lives at offset 0 with a type
        // no larger and no more aligned than `T` (checked at compile time).
        unsafe { slot.cast::<C::Tag>().write(C::TAG) };
        self.hdr.add_holes(<C::Fields as Fields>::COUNT, 1);
        // SAFETY: `slot` is a `T` slot and `C::offsets()` are the offsets of
        // `C::Fields` inside `T` (Ctor contract); the new `Dest`s are owned by
        // our header, whose count was just raised by their number (I2), and
        // each field slot is reachable only through its new `Dest` (I1).
        unsafe { <C::Fields as Fields>::make(slot.cast(), size_of::<T>(), C::offsets(), self.hdr) }
    }

    /// Fills the hole with an incomplete structure: the child's root goes
    /// into this hole, and its holes `H` become holes of this structure (the
    /// paper's `fillComp`). `O(1)`: if the child's root is already built, the
    /// root (one pointer: `T` is [`Flat`]) is moved here; if the child is
    /// still a bare hole, the child's root destination is redirected here.
    #[inline]
    pub fn fill_comp<H>(self, child: Incomplete<'r, T, H>) -> H
    where
        T: Flat,
    {
        let p = self.hdr;
        let c = child.hdr;
        let is_root = self.slot.is_null();
        let slot: *mut T = if is_root {
            p.target.get().cast()
        } else {
            self.slot
        };
        let w = c.live_writer();
        if w.state.get() == ROOT_FILLED {
            // SAFETY: the child's root was written into its target (`w` wrote
            // `c.target`: when `c` delegated to `w`, `w.target` was set to
            // `c.target`, which does not change while `c` is live). `T` is
            // `Flat`, so no `Dest` points inside that value (I4) and moving
            // it (it has no drop glue) leaves nothing dangling. `slot` is a
            // `T` slot written only by this `Dest` (I1); it cannot overlap the
            // child's receiver, which only the child's root `Dest` writes.
            unsafe { ptr::copy_nonoverlapping(c.target.get().cast::<T>(), slot, 1) };
            if is_root {
                p.state.set(ROOT_FILLED);
            }
        } else {
            // The child's root is still open: its live writer writes here now.
            w.target.set(slot.cast());
            if is_root {
                p.state.set(ROOT_DELEGATED);
                p.writer.set(w);
            }
        }
        p.add_holes(0, 1);
        if !ptr::eq(p, c) {
            c.sibling.set(p.child.get());
            p.child.set(c);
        }
        child.holes
    }
}

impl<'r, U> Dest<'r, &'r U> {
    /// Fills a reference hole with a fresh region cell and returns the hole
    /// for its contents (the region's `Box`: the paper's boxed fields).
    #[inline]
    pub fn fill_box(self) -> Dest<'r, U> {
        let cell = cell::<U>(self.hdr.bump);
        let slot = self.take_slot();
        // SAFETY: `slot` is an aligned `&'r U` slot written only by this
        // `Dest` (I1). We store the cell's address as raw pointer bits (`&U`
        // and `*mut U` have the same layout): no reference to the still
        // uninitialised cell is created; the bits are read as `&U` only after
        // completion, when the cell has been filled (I3).
        unsafe { slot.cast::<*mut U>().write(cell) };
        Dest::at(cell, self.hdr)
    }
}

impl<'r, U> Dest<'r, Option<&'r U>> {
    /// Fills a nullable reference hole with `None` (`Nil` for lists and trees).
    #[inline]
    pub fn fill_none(self) {
        self.fill_leaf(None);
    }

    /// Fills a nullable reference hole with `Some` of a fresh region cell and
    /// returns the hole for its contents (the paper's `fill @'Just`, boxed).
    #[inline]
    pub fn fill_some(self) -> Dest<'r, U> {
        let cell = cell::<U>(self.hdr.bump);
        let slot = self.take_slot();
        // SAFETY: as in `fill_box`; `Option<&U>` is guaranteed to have the
        // layout of `&U` with `None` as null, and `cell` is non-null, so these
        // bits are `Some(cell)` once the cell is initialised.
        unsafe { slot.cast::<*mut U>().write(cell) };
        Dest::at(cell, self.hdr)
    }
}

impl<'r, T, H> Incomplete<'r, T, H> {
    /// Transforms the holes side (the paper's linear `fmap`, or `<&>`): the
    /// closure fills some destinations and returns what is left.
    #[inline]
    pub fn map<H2>(self, f: impl FnOnce(H) -> H2) -> Incomplete<'r, T, H2> {
        Incomplete {
            hdr: self.hdr,
            holes: f(self.holes),
            _t: PhantomData,
        }
    }

    /// Number of holes still open in this structure (including those held
    /// outside `H`, e.g. destinations stored in a queue).
    pub fn open_holes(&self) -> usize {
        self.hdr.open_holes()
    }

    fn finish(&self) -> Result<&'r T, UnfilledHoles> {
        let count = self.hdr.open_holes();
        if count != 0 {
            return Err(UnfilledHoles { count });
        }
        // SAFETY: no hole is open in the header tree (I3): the root was
        // written (its root `Dest` or a delegate's was consumed by a fill,
        // a live writer would count as a hole) at `target`, which for a live
        // `Incomplete` is still its receiver (only consumed headers are
        // redirected), and every slot reachable from it was initialised. No
        // `Dest` can write into it any more, so a shared reference for `'r`
        // is sound.
        Ok(unsafe { &*self.hdr.target.get().cast::<T>() })
    }
}

impl<'r, T> Incomplete<'r, T, ()> {
    /// The complete structure (the paper's `fromIncomplete_`).
    ///
    /// # Panics
    /// If a destination of the structure was dropped or kept without being
    /// filled (see [`try_complete`](Incomplete::try_complete)).
    #[track_caller]
    pub fn complete(self) -> &'r T {
        match self.finish() {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// The complete structure, or how many holes are still open.
    pub fn try_complete(self) -> Result<&'r T, UnfilledHoles> {
        self.finish()
    }
}

impl<'r, T, U> Incomplete<'r, T, Ur<U>> {
    /// The complete structure and the value left on the holes side (the
    /// paper's `fromIncomplete`).
    ///
    /// # Panics
    /// If a destination of the structure was dropped or kept without being
    /// filled.
    #[track_caller]
    pub fn complete_with(self) -> (&'r T, U) {
        match self.finish() {
            Ok(v) => (v, self.holes.0),
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`complete_with`](Incomplete::complete_with), reporting open holes.
    pub fn try_complete_with(self) -> Result<(&'r T, U), UnfilledHoles> {
        let v = self.finish()?;
        Ok((v, self.holes.0))
    }
}

impl<T> std::fmt::Debug for Dest<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dest")
            .field("root", &self.slot.is_null())
            .finish()
    }
}

impl<T, H: std::fmt::Debug> std::fmt::Debug for Incomplete<'_, T, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Incomplete")
            .field("holes", &self.holes)
            .finish()
    }
}
