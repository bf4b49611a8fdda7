//! Regions: arenas in which structures with holes are built, freed as a block.

use crate::raw::{self, Arena, Dest, Incomplete};

/// An arena in which destination-built structures live (the paper's compact
/// region). Memory is handed out by bumping a pointer in chunks obtained from
/// the global allocator; nothing is freed until the region is dropped, and
/// then everything is freed at once without running destructors, which is why
/// region data must be `Copy` (a type-check-time guarantee that it has no
/// `Drop` and owns no heap memory).
///
/// Every [`Dest`] and [`Incomplete`] borrows its region (`'r`), so none can
/// outlive it.
pub struct Region {
    bump: Arena,
}

impl Default for Region {
    fn default() -> Region {
        Region::new()
    }
}

impl Region {
    /// An empty region (no memory is reserved until the first allocation).
    pub fn new() -> Region {
        Region { bump: Arena::new() }
    }

    /// A region whose first chunk holds at least `bytes`.
    pub fn with_capacity(bytes: usize) -> Region {
        Region {
            bump: Arena::with_capacity(bytes),
        }
    }

    /// A structure that is just one hole, and that hole: fill the `Dest`
    /// (directly, or by handing it on), then [`complete`](Incomplete::complete)
    /// the structure.
    ///
    /// ```
    /// use dest::{ListFill, Region};
    /// let r = Region::new();
    /// let (list, mut d) = r.alloc();
    /// for x in [1u32, 2, 3] {
    ///     d = d.fill_cons_with(x);
    /// }
    /// d.fill_nil();
    /// assert_eq!(dest::types::to_vec(list.complete()), [1, 2, 3]);
    /// ```
    pub fn alloc<T: Copy>(&self) -> (Incomplete<'_, T>, Dest<'_, T>) {
        raw::alloc(&self.bump).split()
    }

    /// The paper's `alloc`: a structure that is one hole, carrying that hole
    /// on its `H` side (for [`Incomplete::map`] and [`Dest::fill_comp`],
    /// which hands a child's `H` to the caller).
    pub fn alloc_incomplete<T: Copy>(&self) -> Incomplete<'_, T, Dest<'_, T>> {
        raw::alloc(&self.bump)
    }

    /// An already complete structure holding `value` (the paper's
    /// `intoIncomplete`), e.g. to plug a value built bottom-up.
    pub fn into_incomplete<T: Copy>(&self, value: T) -> Incomplete<'_, T> {
        raw::into_incomplete(&self.bump, value)
    }

    pub(crate) fn bump(&self) -> &Arena {
        &self.bump
    }

    /// Builds a structure top-down: `fill` receives the root hole and must
    /// fill it (directly or by handing it on).
    ///
    /// # Panics
    /// If some destination is left unfilled.
    #[track_caller]
    pub fn build<'r, T: Copy>(&'r self, fill: impl FnOnce(Dest<'r, T>)) -> &'r T {
        let (s, d) = self.alloc();
        fill(d);
        s.complete()
    }

    /// Moves a complete value into the region (bottom-up construction, for
    /// comparison with destinations and for inputs).
    pub fn alloc_value<T: Copy>(&self, value: T) -> &T {
        self.bump.alloc_ref(value)
    }

    /// Copies a string into the region (strings in region data are `&'r str`).
    pub fn alloc_str(&self, s: &str) -> &str {
        self.bump.alloc_str(s)
    }

    /// Copies a slice into the region.
    pub fn alloc_slice<T: Copy>(&self, s: &[T]) -> &[T] {
        self.bump.alloc_slice_copy(s)
    }

    /// Bytes reserved by the region's chunks so far.
    pub fn allocated_bytes(&self) -> usize {
        self.bump.allocated_bytes()
    }
}

impl std::fmt::Debug for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Region")
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}
