//! The one module of `dest` that contains `unsafe` code.
//!
//! Everything else in the crate (the provided types, the paper's programs,
//! the region wrapper) is safe code built on the handful of primitives here.
//! Each `unsafe` block carries its safety argument; the invariants they rely on
//! are stated once, below, and maintained by every function of this module.
//!
//! # Representation
//!
//! * A **region** is an [`Arena`]: memory handed out by bumping a pointer
//!   through chunks obtained from the global allocator (each half as large
//!   as all the previous ones together), never moved, never freed individually, released
//!   as a block when the region is dropped. No destructor ever runs on region memory, so every
//!   type stored there must be free of drop glue (checked at compile time with
//!   `const { assert!(!needs_drop::<T>()) }` wherever a value or a slot enters
//!   the region).
//! * A **slot** is a properly aligned, region-allocated `T`-sized piece of
//!   memory, possibly uninitialised, or a field of such a `T` (a hollow
//!   constructor's field).
//! * A [`Dest<'r, T>`] is a slot pointer plus the [`Header`] of the structure
//!   it belongs to, whose low bit says whether the hole is *prefilled*. The
//!   root hole of a structure has a null slot pointer: it writes wherever its
//!   header's `target` says (this is what lets [`Dest::fill_comp`] redirect a
//!   not-yet-filled root).
//! * An [`Incomplete<'r, T, H>`] is a header (allocated in the region, next to
//!   the *root receiver*, the `T` slot that will hold the root) and the `H`
//!   side, the holes it carries.
//! * A [`DList`] is two cell pointers (first, last) and needs no header: its
//!   one hole is never handed out.
//!
//! # Invariants
//!
//! * **I1 (one writer per slot)**: at any time, every slot that is not yet
//!   initialised, or is prefilled, is written by at most one live `Dest` (or,
//!   for a root, by the live `Dest` of its header's *live writer*). `Dest` is
//!   neither `Copy` nor `Clone` and every fill consumes it, so a slot is
//!   written at most once.
//! * **I2 (hole accounting)**: `Header::holes` is the number of live
//!   *counted* `Dest`s owned by that header: those whose slot is
//!   uninitialised. A fill that consumes one `Dest` and creates `n` counted
//!   ones adds `n`, minus one if the consumed one was counted. A header that
//!   is composed into another structure ([`Dest::fill_comp`]) is linked as a
//!   child of the hole's owner, so the holes of a structure are the sum over
//!   its header tree.
//! * **I5 (prefilled holes)**: a *prefilled* `Dest` writes a slot that
//!   already holds a valid value (`None`: the tail of a fresh cons cell, the
//!   subtrees of a fresh tree node). It is not counted, because forgetting it
//!   (`mem::forget`) leaves a valid structure behind (the list or subtree
//!   ends there); dropping it unfilled runs `Dest`'s `Drop`, which adds one to
//!   `Header::dropped`, so completion still reports it. Filling it with a
//!   constructor whose fields are uninitialised creates counted holes.
//! * **I3 (readable means complete)**: a `&'r T` to a structure is produced
//!   only by completion, and only when `holes + dropped`, summed over its
//!   header tree, is zero: no counted `Dest` is live, so every slot reachable
//!   from the root is initialised (each uninitialised slot became reachable
//!   only through a fill that created a counted `Dest` for it, and that `Dest`
//!   was consumed by a fill that initialised the slot; prefilled slots are
//!   initialised from the start). Completion then *seals* every header of the
//!   tree: a prefilled `Dest` still alive somewhere panics before writing if
//!   it is ever filled, so nothing ever writes into a structure once a
//!   reference to it exists. Fills that allocate a cell are stopped by the
//!   allocation itself (a sealed header's arena is a dead one, whose every
//!   allocation panics: no check on their fast path); the others (`take`)
//!   check the seal.
//! * **I4 (flat roots move)**: a structure whose root type is [`Flat`] never
//!   has a hole *inside* its root receiver (every fill of a `Flat` slot writes
//!   the whole slot). So moving a filled `Flat` root to another slot, as
//!   [`Dest::fill_comp`] does, cannot leave a `Dest` pointing at the old place.

use std::cell::{Cell, UnsafeCell};
use std::marker::PhantomData;
use std::mem::{ManuallyDrop, align_of, size_of};
use std::ptr;

use std::alloc::Layout;

use crate::types::{Cons, List, ListFill, Node, Tree, TreeFill};

/// The bump allocator of a region. Its fast path is two loads, a compare
/// and a store; a structure's header points at it directly, so a fill that
/// allocates a cell does one dependent load more than code holding the
/// arena in a register.
pub(crate) struct Arena {
    /// Next free byte of the current chunk (null before the first chunk).
    ptr: Cell<*mut u8>,
    /// One past the last byte of the current chunk.
    end: Cell<*mut u8>,
    /// Every chunk, to free them on drop. Only `grow` and `drop` touch it.
    chunks: UnsafeCell<Vec<(*mut u8, Layout)>>,
    /// Total bytes of the chunks.
    allocated: Cell<usize>,
    /// A *dead* arena: empty, and panics on any allocation. The headers of
    /// completed structures point at one, so that filling a prefilled hole
    /// of a completed structure with a new cell panics in the allocation
    /// itself (I5).
    dead: bool,
    /// This arena's dead twin, allocated in it on first use.
    twin: Cell<*const Arena>,
}

/// Size of the first chunk when no capacity is given.
const FIRST_CHUNK: usize = 1 << 12;
/// Alignment of every chunk.
const CHUNK_ALIGN: usize = 16;
/// Every allocation's size is rounded up to a multiple of this, so the bump
/// pointer stays aligned to it.
const MIN_ALIGN: usize = 8;

// SAFETY: an `Arena` owns its chunks (nothing else points into them while it
// can be moved: every pointer handed out borrows the region), so moving it to
// another thread moves that ownership. It is not `Sync` (`Cell`).
unsafe impl Send for Arena {}

impl Arena {
    pub(crate) fn new() -> Arena {
        Arena {
            ptr: Cell::new(ptr::null_mut()),
            end: Cell::new(ptr::null_mut()),
            chunks: UnsafeCell::new(Vec::new()),
            allocated: Cell::new(0),
            dead: false,
            twin: Cell::new(ptr::null()),
        }
    }

    /// The dead twin of this arena (see `dead`), living as long as it.
    fn dead_twin(&self) -> &Arena {
        let mut t = self.twin.get();
        if t.is_null() {
            let mut dead = Arena::new();
            dead.dead = true;
            t = self.alloc(dead);
            self.twin.set(t);
        }
        // SAFETY: `t` is a cell of this arena holding an `Arena`, written
        // once above and never again, alive until this arena is dropped. (It
        // is never dropped itself: a dead arena owns no chunk.)
        unsafe { &*t }
    }

    pub(crate) fn with_capacity(bytes: usize) -> Arena {
        let a = Arena::new();
        if bytes > 0 {
            a.grow(bytes);
        }
        a
    }

    pub(crate) fn allocated_bytes(&self) -> usize {
        self.allocated.get()
    }

    /// `layout.size()` bytes aligned to `layout.align()`, uninitialised.
    #[inline(always)]
    fn alloc_layout(&self, layout: Layout) -> *mut u8 {
        if layout.size() == 0 {
            // A well-aligned dangling pointer is a valid place for a ZST
            // (the bump pointer may be null before the first chunk).
            return ptr::without_provenance_mut(layout.align());
        }
        match self.try_alloc(layout) {
            Some(p) => p,
            None => self.alloc_slow(layout),
        }
    }

    /// The bump allocation in the current chunk, if it fits.
    ///
    /// Objects are allocated upwards from `ptr`, their sizes rounded up to
    /// [`MIN_ALIGN`], so `ptr` stays aligned to it and the usual fast path is
    /// two loads, a compare and a store. Data of a smaller alignment whose
    /// size is not a multiple of it (strings, byte slices) is allocated
    /// downwards from `end` instead, unpadded: the two meet in the middle.
    #[inline(always)]
    fn try_alloc(&self, layout: Layout) -> Option<*mut u8> {
        let p = self.ptr.get();
        let e = self.end.get();
        // `p <= e` always holds (both null before the first chunk).
        let room = e.addr() - p.addr();
        if layout.align() < MIN_ALIGN && !layout.size().is_multiple_of(MIN_ALIGN) {
            if layout.size() > room {
                return None;
            }
            let start = (e.addr() - layout.size()) & !(layout.align() - 1);
            if start < p.addr() {
                return None;
            }
            self.end.set(e.with_addr(start));
            return Some(e.with_addr(start));
        }
        let size = layout.size().next_multiple_of(MIN_ALIGN);
        if layout.align() <= MIN_ALIGN {
            if size <= room {
                self.ptr.set(p.with_addr(p.addr() + size));
                return Some(p);
            }
        } else {
            let start = (p.addr() + (layout.align() - 1)) & !(layout.align() - 1);
            if start <= e.addr() && size <= e.addr() - start {
                self.ptr.set(p.with_addr(start + size));
                return Some(p.with_addr(start));
            }
        }
        None
    }

    #[cold]
    #[inline(never)]
    fn alloc_slow(&self, layout: Layout) -> *mut u8 {
        if self.dead {
            sealed_panic();
        }
        let need = layout
            .size()
            .next_multiple_of(MIN_ALIGN)
            .saturating_add(layout.align());
        // Chunks grow by half the total so far: at most a third of the
        // reserved bytes is an unused tail, and the number of chunks stays
        // logarithmic in the size.
        self.grow(need.max(self.allocated.get() / 2).max(FIRST_CHUNK));
        match self.try_alloc(layout) {
            Some(p) => p,
            None => panic!(
                "a new region chunk of at least {need} bytes did not fit {} bytes",
                layout.size()
            ),
        }
    }

    /// Starts a new chunk of at least `bytes` bytes (the previous chunk's
    /// unused tail is abandoned).
    fn grow(&self, bytes: usize) {
        let layout = bytes
            .checked_next_multiple_of(CHUNK_ALIGN)
            .and_then(|size| Layout::from_size_align(size, CHUNK_ALIGN).ok());
        let Some(layout) = layout else {
            panic!("region chunk of {bytes} bytes is too large");
        };
        let size = layout.size();
        // SAFETY: `layout` has a non-zero size (`bytes > 0` at every call).
        let base = unsafe { std::alloc::alloc(layout) };
        if base.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // SAFETY: `chunks` is only accessed here and in `drop`, neither of
        // which can be re-entered while the reference is live.
        unsafe { (*self.chunks.get()).push((base, layout)) };
        self.allocated.set(self.allocated.get() + size);
        self.ptr.set(base);
        // SAFETY: `size` bytes from `base` are the chunk.
        self.end.set(unsafe { base.add(size) });
    }

    /// An uninitialised, aligned `T` cell.
    #[inline(always)]
    pub(crate) fn alloc_uninit<T>(&self) -> *mut T {
        self.alloc_layout(Layout::new::<T>()).cast()
    }

    /// A cell holding `value`. Its destructor never runs: callers store
    /// only `Copy` data and headers (which own nothing).
    #[inline(always)]
    pub(crate) fn alloc<T>(&self, value: T) -> *mut T {
        let p = self.alloc_uninit::<T>();
        // SAFETY: `p` is a fresh, aligned, writable `T` cell of this arena.
        unsafe { p.write(value) };
        p
    }

    /// A cell holding `value`, shared.
    #[inline(always)]
    pub(crate) fn alloc_ref<T: Copy>(&self, value: T) -> &T {
        // SAFETY: a fresh, initialised cell used by nobody else, which lives
        // until the arena is dropped; the borrow of `self` cannot outlive it.
        unsafe { &*self.alloc(value) }
    }

    /// A copy of `s` in the arena.
    pub(crate) fn alloc_slice_copy<T: Copy>(&self, s: &[T]) -> &[T] {
        let Ok(layout) = Layout::array::<T>(s.len()) else {
            panic!("slice of {} elements is too large for a region", s.len());
        };
        let p = self.alloc_layout(layout).cast::<T>();
        // SAFETY: `p` is a fresh, aligned block for `s.len()` `T`s (or a
        // dangling aligned pointer when the size is zero, where a zero-length
        // copy and slice are valid); `s` cannot overlap it.
        unsafe {
            ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
            std::slice::from_raw_parts(p, s.len())
        }
    }

    /// A copy of `s` in the arena.
    pub(crate) fn alloc_str(&self, s: &str) -> &str {
        let b = self.alloc_slice_copy(s.as_bytes());
        // SAFETY: the bytes are a copy of a `str`, hence UTF-8.
        unsafe { std::str::from_utf8_unchecked(b) }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for &(base, layout) in self.chunks.get_mut().iter() {
            // SAFETY: each chunk was allocated by `grow` with this layout and
            // is freed once; no borrow of the arena (hence no pointer into
            // it) is live during `drop`.
            unsafe { std::alloc::dealloc(base, layout) };
        }
    }
}

/// Book-keeping for one structure under construction, allocated in the region
/// (one per `alloc`/`into_incomplete`, none per fill).
pub struct Header<'r> {
    /// The region's arena, for the cells that `fill_box` and friends
    /// allocate; its dead twin once the structure is completed (I5).
    bump: Cell<&'r Arena>,
    /// Live *counted* `Dest`s owned by this header (invariant I2).
    holes: Cell<usize>,
    /// *Prefilled* `Dest`s of this header dropped without being filled (I5).
    dropped: Cell<usize>,
    /// Set when the structure this header belongs to has been completed: a
    /// prefilled `Dest` still alive then must never write (I5).
    sealed: Cell<bool>,
    /// The root receiver: the `T` slot the root `Dest` writes.
    recv: *mut u8,
    /// Once this structure is plugged into a hole (`fill_comp`): that hole's
    /// slot, which receives a copy of our root when the structure we were
    /// plugged into is completed (I4). Null otherwise.
    fixup: Cell<*mut u8>,
    /// First structure composed into one of our holes.
    child: Cell<*const Header<'r>>,
    /// Next structure composed into a hole of our parent.
    sibling: Cell<*const Header<'r>>,
}

impl<'r> Header<'r> {
    fn new_in(bump: &'r Arena, recv: *mut u8, holes: usize) -> &'r Header<'r> {
        let h = bump.alloc(Header {
            bump: Cell::new(bump),
            holes: Cell::new(holes),
            dropped: Cell::new(0),
            sealed: Cell::new(false),
            recv,
            fixup: Cell::new(ptr::null_mut()),
            child: Cell::new(ptr::null()),
            sibling: Cell::new(ptr::null()),
        });
        // SAFETY: a fresh, initialised cell of the arena, never written
        // again except through its `Cell`s, alive as long as the region.
        unsafe { &*h }
    }

    #[inline]
    fn add_holes(&self, added: usize, consumed: usize) {
        if added != consumed {
            self.holes.set(self.holes.get() + added - consumed);
        }
    }

    /// Calls `f` on this header and every header composed into it.
    fn for_each_in_tree(&'r self, mut f: impl FnMut(&'r Header<'r>)) {
        f(self);
        let mut first = self.child.get();
        if first.is_null() {
            return;
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
                f(h);
                let g = h.child.get();
                if !g.is_null() {
                    stack.push(g);
                }
                c = h.sibling.get();
            }
            match stack.pop() {
                Some(next) => first = next,
                None => return,
            }
        }
    }

    /// Holes left in this structure and every structure composed into it:
    /// live counted `Dest`s plus prefilled ones that were dropped.
    fn open_holes(&'r self) -> usize {
        let mut total = 0;
        self.for_each_in_tree(|h| total += h.holes.get() + h.dropped.get());
        total
    }

    /// Completes the structure (no hole is open): copies the root of every
    /// structure composed into it to the hole it was plugged into, deepest
    /// first, so that each copied root is final (I4), and seals every header
    /// (I5).
    fn complete_tree(&'r self) {
        let dead = self.bump.get().dead_twin();
        self.sealed.set(true);
        self.bump.set(dead);
        if self.child.get().is_null() {
            return;
        }
        // Pre-order lists every header before its descendants, so its
        // reverse lists every header after them.
        let mut all: Vec<&'r Header<'r>> = Vec::new();
        self.for_each_in_tree(|h| all.push(h));
        for h in all.into_iter().rev() {
            h.sealed.set(true);
            h.bump.set(dead);
            let to = h.fixup.get();
            if !to.is_null() {
                // SAFETY: `h` was plugged into the hole `to` by `fill_comp`,
                // whose `T` is `Flat`: one pointer, same layout as
                // `*const u8`, at `h.recv` and at `to`. No hole is open, so
                // `h`'s root was written (directly, or by the copies of the
                // structures plugged into its root hole, done before this one
                // since they are its descendants). `to` is a slot of a
                // structure of this tree, written by nobody else: the `Dest`
                // that owned it was consumed by `fill_comp`. Copying the
                // pointer keeps its provenance.
                unsafe {
                    to.cast::<*const u8>()
                        .write(h.recv.cast::<*const u8>().read())
                };
            }
        }
    }
}

/// A prefilled hole of a completed structure was filled (I5).
#[cold]
#[track_caller]
fn sealed_panic() -> ! {
    panic!(
        "this destination belongs to a structure that was already completed: \
         fill every destination before calling `complete`"
    )
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
/// [`fill_none`](Dest::fill_none) / [`fill_some`](Dest::fill_some), and for
/// lists and trees `fill_nil`, `fill_cons`, `fill_cons_with`, `fill_node`,
/// `fill_node_with`. It is not `Copy` or `Clone`, so it cannot be filled
/// twice; it borrows the region, so it cannot outlive it. Dropping it unfilled
/// is allowed by the compiler (Rust types are affine, not linear) and caught
/// when the structure is completed.
#[must_use = "a destination must be filled, or its structure can never be completed"]
pub struct Dest<'r, T> {
    /// The slot; null for the root hole (then the header's `target`).
    slot: *mut T,
    /// The structure's header; the low bit is set when the hole is
    /// *prefilled* (its slot already holds a valid value, see I5).
    hdr: *const Header<'r>,
    _r: PhantomData<&'r Header<'r>>,
    /// Invariant in `T`: a `Dest<&'long U>` must not become a `Dest<&'short U>`.
    _t: PhantomData<fn(T) -> T>,
}

/// A structure of type `T` under construction (the paper's `Incomplete a b`),
/// with `H` the holes carried alongside it (`()` when they are held
/// elsewhere, as with [`Region::alloc`](crate::Region::alloc)). It is
/// readable only through completion: [`complete`](Incomplete::complete), once
/// `H` is `()` and every hole is filled.
#[must_use = "an incomplete structure is only useful once completed"]
pub struct Incomplete<'r, T, H = ()> {
    hdr: &'r Header<'r>,
    holes: H,
    _t: PhantomData<fn(T) -> T>,
}

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
    /// offsets are valid (see [`Ctor`]); `hdr` owns the new holes, which are counted.
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
        Dest::new(p, hdr, false)
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
                ($(Dest::new(ptrs.$i, hdr, false),)+)
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
#[inline]
fn cell<U: Copy>(bump: &Arena) -> *mut U {
    bump.alloc_uninit::<U>()
}

/// `alloc` (the paper's `alloc`): a fresh structure whose root is one hole.
pub(crate) fn alloc<'r, T: Copy>(bump: &'r Arena) -> Incomplete<'r, T, Dest<'r, T>> {
    let recv = cell::<T>(bump);
    let hdr = Header::new_in(bump, recv.cast(), 1);
    Incomplete {
        hdr,
        holes: Dest::new(recv, hdr, false),
        _t: PhantomData,
    }
}

/// `intoIncomplete`: an already complete structure, with no holes.
pub(crate) fn into_incomplete<'r, T: Copy>(bump: &'r Arena, value: T) -> Incomplete<'r, T, ()> {
    let recv: *mut T = bump.alloc(value);
    let hdr = Header::new_in(bump, recv.cast(), 0);
    Incomplete {
        hdr,
        holes: (),
        _t: PhantomData,
    }
}

impl<'r, T> Dest<'r, T> {
    #[inline]
    fn new(slot: *mut T, hdr: &'r Header<'r>, prefilled: bool) -> Self {
        let hdr: *const Header<'r> = hdr;
        Dest {
            slot,
            hdr: hdr.map_addr(|a| a | usize::from(prefilled)),
            _r: PhantomData,
            _t: PhantomData,
        }
    }

    #[inline]
    fn header(&self) -> &'r Header<'r> {
        // SAFETY: `hdr` is a `&'r Header<'r>` (see `new`) with its low bit
        // possibly set; headers are at least 8-aligned, so clearing the bit
        // gives the reference back, valid for `'r`.
        unsafe { &*self.hdr.map_addr(|a| a & !1) }
    }

    #[inline]
    fn prefilled(&self) -> bool {
        self.hdr.addr() & 1 != 0
    }

    /// Consumes the `Dest` without running its `Drop` (the caller fills the
    /// slot): the slot it writes, its header, and whether it was prefilled.
    #[inline]
    fn take(self) -> (*mut T, &'r Header<'r>, bool) {
        let this = ManuallyDrop::new(self);
        let hdr = this.header();
        let prefilled = this.prefilled();
        if prefilled && hdr.sealed.get() {
            sealed_panic();
        }
        (this.slot, hdr, prefilled)
    }

    /// A new, uninitialised `U` cell for a fill of this hole. Once the
    /// structure is completed its header's arena is a dead one, and this
    /// panics (I5): so a fill that calls it *before* consuming the `Dest`
    /// may use [`take_after_alloc`](Dest::take_after_alloc), without
    /// checking the seal again. (A zero-sized cell needs no arena, so the
    /// seal is checked here for those, at compile-time-known cost zero for
    /// the others.)
    #[inline(always)]
    fn new_cell<U: Copy>(&self) -> *mut U {
        let hdr = self.header();
        if size_of::<U>() == 0 && self.prefilled() && hdr.sealed.get() {
            sealed_panic();
        }
        hdr.bump.get().alloc_uninit::<U>()
    }

    /// `take`, for a fill that has just allocated through
    /// [`new_cell`](Dest::new_cell), which checked the seal.
    #[inline(always)]
    fn take_after_alloc(self) -> (*mut T, &'r Header<'r>, bool) {
        let this = ManuallyDrop::new(self);
        (this.slot, this.header(), this.prefilled())
    }
}

impl<T> Drop for Dest<'_, T> {
    /// A counted hole dropped unfilled stays counted in its header; a
    /// prefilled one is recorded as dropped. Either way completion fails.
    fn drop(&mut self) {
        if self.prefilled() {
            let h = self.header();
            h.dropped.set(h.dropped.get() + 1);
        }
    }
}

impl<'r, T: Copy> Dest<'r, T> {
    /// Fills the hole with a complete value (the paper's `fillLeaf`).
    #[inline]
    pub fn fill_leaf(self, value: T) {
        let (slot, hdr, prefilled) = self.take();
        // SAFETY: `slot` is an aligned `T` slot in the region (a root receiver,
        // a redirected root target or a hollow constructor's field), written
        // by this `Dest` only (I1); `T: Copy` has no drop glue, so
        // overwriting leaks nothing.
        unsafe { slot.write(value) };
        hdr.add_holes(0, usize::from(!prefilled));
    }

    /// Fills the hole with a hollow constructor `C` and returns one
    /// destination per field (the paper's `fill @'C`). `#[derive(Fill)]`
    /// gives each constructor a named method that calls this.
    #[inline]
    pub fn fill_ctor<C: Ctor<Of = T>>(self) -> <C::Fields as Fields>::Dests<'r> {
        const {
            assert!(
                size_of::<C::Tag>() <= size_of::<T>() && align_of::<C::Tag>() <= align_of::<T>()
            );
        };
        let (slot, hdr, prefilled) = self.take();
        // SAFETY: `slot` is an aligned `T` slot written only by this `Dest`
        // (I1); by the `Ctor` contract the tag lives at offset 0 with a type
        // no larger and no more aligned than `T` (checked at compile time).
        unsafe { slot.cast::<C::Tag>().write(C::TAG) };
        hdr.add_holes(<C::Fields as Fields>::COUNT, usize::from(!prefilled));
        // SAFETY: `slot` is a `T` slot and `C::offsets()` are the offsets of
        // `C::Fields` inside `T` (Ctor contract); the new `Dest`s are counted
        // by our header, raised by their number just above (I2), and each
        // field slot is reachable only through its new `Dest` (I1).
        unsafe { <C::Fields as Fields>::make(slot.cast(), size_of::<T>(), C::offsets(), hdr) }
    }

    /// Fills the hole with an incomplete structure: the child's root goes
    /// into this hole, and its holes `H` become holes of this structure (the
    /// paper's `fillComp`). `O(1)`: the child is linked under this
    /// structure, and its root (one pointer: `T` is [`Flat`]) is copied into
    /// this hole when this structure is completed, so the child's root may
    /// still be a hole now.
    #[inline]
    pub fn fill_comp<H>(self, child: Incomplete<'r, T, H>) -> H
    where
        T: Flat,
    {
        let (slot, p, prefilled) = self.take();
        let c = child.hdr;
        // A prefilled slot keeps its valid `None` until the copy.
        c.fixup.set(slot.cast());
        p.add_holes(0, usize::from(!prefilled));
        if !ptr::eq(p, c) {
            c.sibling.set(p.child.get());
            p.child.set(c);
        }
        child.holes
    }
}

impl<'r, U: Copy> Dest<'r, &'r U> {
    /// Fills a reference hole with a fresh region cell and returns the hole
    /// for its contents (the region's `Box`: the paper's boxed fields).
    #[inline]
    pub fn fill_box(self) -> Dest<'r, U> {
        let cell = self.new_cell::<U>();
        let (slot, hdr, prefilled) = self.take_after_alloc();
        // SAFETY: `slot` is an aligned `&'r U` slot written only by this
        // `Dest` (I1). We store the cell's address as raw pointer bits (`&U`
        // and `*mut U` have the same layout): no reference to the still
        // uninitialised cell is created; the bits are read as `&U` only after
        // completion, when the cell has been filled (I3).
        unsafe { slot.cast::<*mut U>().write(cell) };
        hdr.add_holes(1, usize::from(!prefilled));
        Dest::new(cell, hdr, false)
    }
}

impl<'r, U: Copy> Dest<'r, Option<&'r U>> {
    /// Fills a nullable reference hole with `None` (`Nil` for lists and trees).
    #[inline]
    pub fn fill_none(self) {
        self.fill_none_fast();
    }

    /// `fill_leaf(None)`, free for a prefilled hole: its slot already holds
    /// `None` (I5), so there is nothing to write, and nothing to check: even
    /// after the structure was sealed, leaving `None` in place writes nothing.
    #[inline]
    fn fill_none_fast(self) {
        if self.prefilled() {
            std::mem::forget(self);
        } else {
            self.fill_leaf(None);
        }
    }

    /// Fills a nullable reference hole with `Some` of a fresh region cell and
    /// returns the hole for its contents (the paper's `fill @'Just`, boxed).
    #[inline]
    pub fn fill_some(self) -> Dest<'r, U> {
        let cell = self.new_cell::<U>();
        let (slot, hdr, prefilled) = self.take_after_alloc();
        // SAFETY: as in `fill_box`; `Option<&U>` is guaranteed to have the
        // layout of `&U` with `None` as null, and `cell` is non-null, so these
        // bits are `Some(cell)` once the cell is initialised. The new hole is
        // counted: its cell is uninitialised (I2).
        unsafe { slot.cast::<*mut U>().write(cell) };
        hdr.add_holes(1, usize::from(!prefilled));
        Dest::new(cell, hdr, false)
    }
}

impl<'r, T: Copy> ListFill<'r, T> for Dest<'r, List<'r, T>> {
    #[inline]
    fn fill_nil(self) {
        self.fill_none_fast();
    }

    #[inline]
    fn fill_cons(self) -> (Dest<'r, T>, Dest<'r, List<'r, T>>) {
        let c = self.new_cell::<Cons<'r, T>>();
        let (slot, hdr, prefilled) = self.take_after_alloc();
        // SAFETY: `c` is a fresh, aligned, uninitialised cell; its `tail`
        // field is initialised to `None` here, so the tail hole is prefilled
        // (I5). `slot` is an aligned `List` slot written only by this `Dest`
        // (I1); the cell's address is stored as raw bits, read as a
        // reference only after completion (as in `fill_some`).
        let (head, tail) = unsafe {
            let tail = ptr::addr_of_mut!((*c).tail);
            tail.write(None);
            slot.cast::<*mut Cons<'r, T>>().write(c);
            (ptr::addr_of_mut!((*c).head), tail)
        };
        // one counted hole (the head) created, one consumed if counted
        hdr.add_holes(1, usize::from(!prefilled));
        (Dest::new(head, hdr, false), Dest::new(tail, hdr, true))
    }

    #[inline]
    fn fill_cons_with(self, head: T) -> Dest<'r, List<'r, T>> {
        let c = self.new_cell::<Cons<'r, T>>();
        let (slot, hdr, prefilled) = self.take_after_alloc();
        // SAFETY: as in `fill_cons`, with the head written too: the cell is
        // fully initialised, and its tail hole is prefilled (I5).
        let tail = unsafe {
            c.write(Cons { head, tail: None });
            slot.cast::<*mut Cons<'r, T>>().write(c);
            ptr::addr_of_mut!((*c).tail)
        };
        hdr.add_holes(0, usize::from(!prefilled));
        Dest::new(tail, hdr, true)
    }
}

impl<'r, T: Copy> TreeFill<'r, T> for Dest<'r, Tree<'r, T>> {
    #[inline]
    fn fill_nil(self) {
        self.fill_none_fast();
    }

    #[inline]
    fn fill_node(self) -> (Dest<'r, T>, Dest<'r, Tree<'r, T>>, Dest<'r, Tree<'r, T>>) {
        let c = self.new_cell::<Node<'r, T>>();
        let (slot, hdr, prefilled) = self.take_after_alloc();
        // SAFETY: as in `ListFill::fill_cons`: both subtrees are initialised
        // to `None` (prefilled, I5), the value is a counted hole.
        let (value, left, right) = unsafe {
            let left = ptr::addr_of_mut!((*c).left);
            let right = ptr::addr_of_mut!((*c).right);
            left.write(None);
            right.write(None);
            slot.cast::<*mut Node<'r, T>>().write(c);
            (ptr::addr_of_mut!((*c).value), left, right)
        };
        hdr.add_holes(1, usize::from(!prefilled));
        (
            Dest::new(value, hdr, false),
            Dest::new(left, hdr, true),
            Dest::new(right, hdr, true),
        )
    }

    #[inline]
    fn fill_node_with(self, value: T) -> (Dest<'r, Tree<'r, T>>, Dest<'r, Tree<'r, T>>) {
        let c = self.new_cell::<Node<'r, T>>();
        let (slot, hdr, prefilled) = self.take_after_alloc();
        // SAFETY: as in `fill_node`, with the value written: the node is
        // fully initialised and both subtree holes are prefilled (I5).
        let (left, right) = unsafe {
            c.write(Node {
                value,
                left: None,
                right: None,
            });
            slot.cast::<*mut Node<'r, T>>().write(c);
            (ptr::addr_of_mut!((*c).left), ptr::addr_of_mut!((*c).right))
        };
        hdr.add_holes(0, usize::from(!prefilled));
        (Dest::new(left, hdr, true), Dest::new(right, hdr, true))
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

    /// Separates the structure from the holes it carries: the holes are
    /// then held by the caller, and completion checks (dynamically) that
    /// they were filled.
    #[inline]
    pub fn split(self) -> (Incomplete<'r, T>, H) {
        (
            Incomplete {
                hdr: self.hdr,
                holes: (),
                _t: PhantomData,
            },
            self.holes,
        )
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
        self.hdr.complete_tree();
        // SAFETY: no hole is open in the header tree (I3, I5): the root
        // `Dest` was consumed by a fill that wrote the receiver (or by a
        // `fill_comp` whose copy `complete_tree` just made), and every slot
        // reachable from it is initialised. No `Dest` can write into it any
        // more (counted ones are all consumed, prefilled ones are sealed),
        // so a shared reference for `'r` is sound.
        Ok(unsafe { &*self.hdr.recv.cast::<T>() })
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

/// A difference list: a list under construction whose one hole is the tail
/// of its last cell, so appending an element and concatenating two lists are
/// `O(1)` (the paper's `Incomplete [a] (Dest [a])`).
///
/// The hole is never handed out: every operation consumes the list and
/// returns a new one, so the hole is linear by construction and needs no
/// header and no counting. A difference list costs its cells (16 bytes per
/// `u64` element) and nothing else in the region; the value itself is three
/// words. The last tail is always a valid `None` until it is linked, so the
/// list is readable the moment [`into_list`](DList::into_list) is called.
#[must_use = "a difference list is only useful once turned into a list"]
pub struct DList<'r, T> {
    bump: &'r Arena,
    /// The first cell; null when the list is empty.
    first: *mut Cons<'r, T>,
    /// The last cell, whose `tail` is the hole; null when empty.
    last: *mut Cons<'r, T>,
    _t: PhantomData<fn(T) -> T>,
}

impl<'r, T: Copy> DList<'r, T> {
    /// The empty difference list (no allocation).
    #[inline]
    pub fn new(region: &'r crate::Region) -> Self {
        DList {
            bump: region.bump(),
            first: ptr::null_mut(),
            last: ptr::null_mut(),
            _t: PhantomData,
        }
    }

    /// A one-element difference list (one cell).
    #[inline]
    pub fn singleton(region: &'r crate::Region, x: T) -> Self {
        DList::new(region).append(x)
    }

    /// Whether the list has no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.first.is_null()
    }

    /// Adds `x` at the end: the hole receives a new cell, whose tail is the
    /// new hole. One bump allocation, no other bookkeeping.
    #[inline]
    pub fn append(self, x: T) -> Self {
        let c: *mut Cons<'r, T> = self.bump.alloc(Cons {
            head: x,
            tail: None,
        });
        let mut out = self;
        if out.first.is_null() {
            out.first = c;
        } else {
            // SAFETY: `last` is a fully initialised cell of this region owned
            // by this list alone (every operation consumes its lists, so no
            // other list and no reader reaches it); its tail is the hole. The
            // address is stored as raw bits, read as a reference only after
            // `into_list`.
            unsafe {
                ptr::addr_of_mut!((*out.last).tail)
                    .cast::<*mut Cons<'r, T>>()
                    .write(c)
            };
        }
        out.last = c;
        out
    }

    /// Plugs `second` into the hole of `self`: the result starts with
    /// `self`'s cells and ends with `second`'s hole. `O(1)`: no element
    /// moves.
    #[inline]
    pub fn concat(self, second: DList<'r, T>) -> Self {
        if second.first.is_null() {
            return self;
        }
        if self.first.is_null() {
            return second;
        }
        // SAFETY: as in `append`: `self.last` is owned by `self` alone, and
        // `second`'s cells are disjoint from `self`'s (both lists are moved
        // in; a list's cells are reachable only from it).
        unsafe {
            ptr::addr_of_mut!((*self.last).tail)
                .cast::<*mut Cons<'r, T>>()
                .write(second.first)
        };
        DList {
            bump: self.bump,
            first: self.first,
            last: second.last,
            _t: PhantomData,
        }
    }

    /// Closes the hole (it already holds `None`) and returns the list.
    #[inline]
    pub fn into_list(self) -> List<'r, T> {
        // SAFETY: every cell of the list is fully initialised and its tail
        // is `None` or the next cell; the list is consumed, so nothing can
        // write into these cells any more, and they live as long as the
        // region (`'r`).
        unsafe { self.first.as_ref() }
    }
}

impl<T> std::fmt::Debug for DList<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DList")
            .field("empty", &self.first.is_null())
            .finish()
    }
}

impl<T> std::fmt::Debug for Dest<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dest")
            .field("root", &self.slot.is_null())
            .field("prefilled", &self.prefilled())
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
