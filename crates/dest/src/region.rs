//! Regions: arenas in which structures with holes are built, freed as a block.

use bumpalo::Bump;

use crate::raw::{self, Dest, Incomplete};

/// An arena in which destination-built structures live (the paper's compact
/// region). Memory is handed out by bumping a pointer in chunks obtained from
/// the global allocator; nothing is freed until the region is dropped, and
/// then everything is freed at once without running destructors, which is why
/// region data must not need `Drop` (a compile-time check).
///
/// Every [`Dest`] and [`Incomplete`] borrows its region (`'r`), so none can
/// outlive it.
#[derive(Default)]
pub struct Region {
    bump: Bump,
}

impl Region {
    /// An empty region (no memory is reserved until the first allocation).
    pub fn new() -> Region {
        Region { bump: Bump::new() }
    }

    /// A region whose first chunk holds at least `bytes`.
    pub fn with_capacity(bytes: usize) -> Region {
        Region {
            bump: Bump::with_capacity(bytes),
        }
    }

    /// A structure that is just one hole: fill the `Dest` to build it (the
    /// paper's `alloc`).
    pub fn alloc<T>(&self) -> Incomplete<'_, T, Dest<'_, T>> {
        raw::alloc(&self.bump)
    }

    /// An already complete structure holding `value` (the paper's
    /// `intoIncomplete`), e.g. to plug a value built bottom-up.
    pub fn into_incomplete<T>(&self, value: T) -> Incomplete<'_, T, ()> {
        raw::into_incomplete(&self.bump, value)
    }

    /// Builds a structure top-down: `fill` receives the root hole and must
    /// fill it (directly or by handing it on).
    ///
    /// # Panics
    /// If some destination is left unfilled.
    #[track_caller]
    pub fn build<'r, T>(&'r self, fill: impl FnOnce(Dest<'r, T>)) -> &'r T {
        self.alloc().map(fill).complete()
    }

    /// Moves a complete value into the region (bottom-up construction, for
    /// comparison with destinations and for inputs).
    pub fn alloc_value<T>(&self, value: T) -> &T {
        const {
            assert!(
                !std::mem::needs_drop::<T>(),
                "region data must not need Drop: no destructor runs in a region"
            )
        };
        self.bump.alloc(value)
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
