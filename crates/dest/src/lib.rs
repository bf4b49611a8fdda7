//! # `dest`: first-class, write-once destinations for Rust
//!
//! A *destination* ([`Dest<'r, T>`]) is the address of a hole of type `T` in a
//! structure under construction: a value you can pass around, store in a
//! queue, return, and fill exactly once. Structures are built top-down, the
//! parent before its children, directly in their final place inside a
//! [`Region`] (an arena freed as a block). This is the Rust counterpart of
//! T. Bagrel, *Destination-passing style programming: a Haskell
//! implementation* (JFLA 2024), where linear types and GHC's compact regions
//! play the roles that ownership, lifetimes and an arena play here.
//!
//! ## A worked example: a list built front to back
//!
//! ```
//! use dest::{Dest, List, ListFill, Region};
//!
//! let region = Region::new();
//! // `alloc` gives a structure that is one hole, and the hole's destination.
//! let (squares, mut d): (_, Dest<'_, List<'_, u64>>) = region.alloc();
//! for i in 1..=4 {
//!     // Fill the hole with a cons cell whose fields are new holes...
//!     let (head, tail) = d.fill_cons();
//!     // ...write the head in place, and go on with the tail.
//!     head.fill_leaf(i * i);
//!     d = tail;
//! }
//! d.fill_nil(); // the last hole: the list ends here
//! // Every hole is filled: the list becomes readable, in order, no reversal.
//! let list: &List<'_, u64> = squares.complete();
//! assert_eq!(dest::types::to_vec(list), vec![1, 4, 9, 16]);
//! // It is an ordinary Rust value: pattern-match it.
//! if let Some(cell) = list {
//!     assert_eq!(cell.head, 1);
//! }
//! ```
//!
//! The same loop without destinations either recurses (not tail-recursive:
//! the stack grows with the list), accumulates the list backwards and
//! reverses it (two passes, twice the cells), or keeps a `&mut` pointer to
//! the last tail (which is what a destination is, made first-class: it can be
//! stored, returned and handed to other functions). `d.fill_cons_with(x)`
//! does the cons and the head in one step. See [`programs`] for the
//! paper's four programs: difference lists, a tail-recursive `map`,
//! breadth-first relabelling with a queue of destinations, and an
//! S-expression parser.
//!
//! ## The API
//!
//! | item | what it does |
//! |---|---|
//! | [`Region`] | an arena; every structure, `Dest` and `Incomplete` borrows it (`'r`) |
//! | [`Region::alloc`] | a structure that is just a hole, and the hole: `(Incomplete<'r, T>, Dest<'r, T>)` |
//! | [`Region::alloc_incomplete`] | the paper's `alloc`: the hole carried on the structure's `H` side |
//! | [`Region::into_incomplete`] | an already complete structure, `Incomplete<'r, T>` |
//! | [`Region::build`] | `alloc`, fill through a closure, `complete`: returns `&'r T` |
//! | [`Incomplete<'r, T, H>`] | a `T` under construction; `H` (default `()`) holds holes carried with it |
//! | [`Incomplete::map`], [`Incomplete::split`] | work on the carried holes / hand them to the caller |
//! | [`Incomplete::complete`], [`Incomplete::try_complete`] | `H = ()`: the readable `&'r T`, or [`UnfilledHoles`] |
//! | [`Dest::fill_leaf`] | write a complete value into the hole |
//! | [`Dest::fill_comp`] | plug an `Incomplete` into the hole; its holes become ours (`O(1)`) |
//! | [`Dest::fill_ctor`] | write a hollow constructor; returns a `Dest` per field |
//! | `fill_<ctor>` | the named form of `fill_ctor`, from `#[derive(Fill)]` or provided: |
//! | [`ListFill`]: `fill_nil`, `fill_cons`, `fill_cons_with(head)` | lists ([`List`] = `Option<&'r Cons>`) |
//! | [`TreeFill`]: `fill_nil`, `fill_node`, `fill_node_with(value)` | binary trees ([`Tree`] = `Option<&'r Node>`) |
//! | [`Dest::fill_none`], [`Dest::fill_some`] | `Option<&'r U>` |
//! | [`Dest::fill_box`] | `&'r U`: a fresh region cell (the region's `Box`) |
//! | [`DList`] | a difference list: `append`, `concat` in `O(1)`, `into_list` |
//! | [`derive@Fill`] | hollow constructors for your `Copy` structs and `#[repr(u8)]` enums |
//!
//! ## Correspondence with the paper (its Tables 4 and 5)
//!
//! | paper (Haskell) | `dest` (Rust) | note |
//! |---|---|---|
//! | `withRegion :: (∀r. Region r ⇒ Token ⊸ Ur a) ⊸ Ur a` | `let r = Region::new();` | lifetimes, not a rank-2 scope, keep everything inside the region |
//! | `Token`, `dup2`, `consume`, `withToken` | `&'r Region` (shared borrow) | ownership already makes `Incomplete` affine |
//! | `Incomplete r a b` | [`Incomplete<'r, T, H>`] | |
//! | `fmap`, `<&>` (linear) | [`Incomplete::map`] | `FnOnce`: the holes are moved in and out |
//! | `alloc :: Token ⊸ Incomplete r a (Dest r a)` | [`Region::alloc_incomplete`]; [`Region::alloc`] returns the hole beside the structure | |
//! | `intoIncomplete :: Token ⊸ a → Incomplete r a ()` | [`Region::into_incomplete`] | |
//! | `fromIncomplete_ :: Incomplete r a () ⊸ Ur a` | [`Incomplete::complete`] | returns `&'r T` |
//! | `fromIncomplete :: Incomplete r a (Ur b) ⊸ Ur (a, b)` | [`Incomplete::split`], then `complete` | Rust has no need for `Ur`: values are returned beside the structure |
//! | `Dest r a` | [`Dest<'r, T>`] | |
//! | `fill @'C :: Dest r a ⊸ DestsOf 'C r a` | [`Dest::fill_ctor::<C>`](Dest::fill_ctor), `d.fill_c()` | `DestsOf` is [`Fields::Dests`]; `Generic` is `#[derive(Fill)]` |
//! | `fill @'[]`, `fill @'(:)` | [`ListFill::fill_nil`], [`ListFill::fill_cons`] | and `fill_cons_with`: `fill @'(:)` with the head written |
//! | `fill @'Nil`, `fill @'Node` | [`TreeFill::fill_nil`], [`TreeFill::fill_node`] | and `fill_node_with` |
//! | `fill @'Nothing`, `fill @'Just` | [`Dest::fill_none`], [`Dest::fill_some`] | for `Option<&'r U>` (boxed, as in Haskell) |
//! | `fillLeaf :: a → Dest r a ⊸ ()` | [`Dest::fill_leaf`] | the value is moved in (no copy into the region is needed) |
//! | `fillComp :: Incomplete r a b ⊸ Dest r a ⊸ b` | [`Dest::fill_comp`] | for [`Flat`] `T` (references), see below |
//! | difference lists (`Incomplete [a] (Dest [a])`) | [`DList`]; the literal encoding in [`programs::dlist::generic`] | |
//! | compact region | [`Region`] (a bump arena) | freed as a block; no destructors run |
//!
//! ## Guarantees: which are static, which are dynamic
//!
//! | guarantee | how | when |
//! |---|---|---|
//! | a structure that carries its holes is not readable | `complete` exists only for `H = ()`, so a hole visible in `H` is a compile error | **static** |
//! | a hole is filled at most once | every fill takes `self` by value; `Dest` is neither `Copy` nor `Clone` | **static** |
//! | a hole cannot outlive its region, nor can a completed structure | `Dest<'r, _>`, `Incomplete<'r, ..>` and `&'r T` borrow the region | **static** |
//! | a value stored in a hole lives as long as the region | `Dest<'r, T>` is invariant in `T`, so a `Dest<'r, &'r U>` takes only `&'r U` | **static** |
//! | region data owns no heap resources (no destructor would run) | region data must be `Copy`, which a type with `Drop` (or `ManuallyDrop<String>`, which would leak) cannot be: an error of `cargo check` | **static** |
//! | destinations stay on one thread | `Dest` and `Incomplete` are neither `Send` nor `Sync`; a `Region` is `Send`, not `Sync` | **static** |
//! | a difference list's hole is filled exactly once | [`DList`] never hands its hole out; every operation consumes the list | **static** |
//! | every hole is filled before the structure is read | Rust types are affine, not linear: a `Dest` can be dropped, `mem::forget`-ten, or kept aside (in a queue, in a closure's captures). Holes whose slot is still uninitialised are counted per structure; `complete` panics and `try_complete` returns [`UnfilledHoles`] if any is open. List tails and subtrees are *prefilled* (see below): not counted, a dropped one is reported all the same | **dynamic** (at most one counter update per fill, a check at completion) |
//! | nothing is written into a completed structure | a prefilled hole still held when its structure is completed reads as `None`, and filling it afterwards panics | **dynamic** |
//!
//! ## Representation and costs
//!
//! * A `Dest` is two words (slot address, structure header). A fill is a few
//!   stores; a hollow constructor is one bump allocation (a compare and a
//!   store on the region's own arena).
//! * **Prefilled holes.** The tail of a new cons cell and the subtrees of a
//!   new node are written as `None` when the cell is allocated, so their
//!   destinations are *prefilled*: filling one with `fill_nil` costs
//!   nothing, and they are not counted, because a prefilled hole that is
//!   forgotten leaves a valid structure behind (the list or subtree ends
//!   there). Dropping one unfilled is still reported at completion (`Dest`
//!   has a `Drop` that only these reach). Building a list with
//!   `fill_cons_with` or a tree with `fill_node_with` therefore does no hole
//!   counting at all; the paper's two-step `fill_cons` + `fill_leaf` counts
//!   the head (one update each). Only `mem::forget` can leave a prefilled hole
//!   unreported, and then the structure reads `None` there.
//! * **Counted holes** (derived constructors' fields, `fill_box`/`fill_some`
//!   cells, `fill_cons`' head): one counter update in the structure's header
//!   when such a hole is created or filled, none when a fill replaces one
//!   counted hole by one (a one-field constructor, `fill_box`).
//! * [`List`] and [`Tree`] are `Option<&'r Cell>`: a cons cell of `u64` is 16
//!   bytes, `Nil` is a null pointer (no allocation). They pattern-match as
//!   ordinary Rust values once complete.
//! * One header (64 bytes) per structure (`alloc`, `into_incomplete`), none
//!   per fill. A [`DList`] has none at all: its cells are its whole cost.
//! * `#[derive(Fill)]` enums keep their fields inline (no boxing): the
//!   generated code relies on the layout the Rust reference specifies for
//!   primitive-representation enums, hence `#[repr(u8)]`.
//! * [`Dest::fill_comp`] needs a [`Flat`] hole type (`&'r U` or `Option<&'r U>`):
//!   the child's root, a single pointer, is copied into the hole when the
//!   enclosing structure is completed (so the child's root may still be a
//!   hole when it is plugged). `O(1)` to plug; completion walks the headers of
//!   the structures composed into this one (one per `fill_comp`), so it is
//!   `O(1)` for structures built without composition.
//! * Nothing ties a structure to a single region beyond lifetimes: plugging a
//!   structure of one region into a hole of another compiles, and the result
//!   then lives only as long as the shorter-lived region.
//! * A region's chunks come from the global allocator, each half as large as
//!   all the previous ones together: allocation counts are logarithmic in the
//!   size, and at most a third of the reserved bytes is unused.
//!
//! All `unsafe` code lives in one private module (`raw`), each block with its
//! safety argument; it is exercised under valgrind by the crate's tests
//! (`tests/valgrind.rs` runs `dest-selftest` under memcheck) and under Miri
//! (`scripts/miri-dest.sh`, run by CI).

extern crate self as dest;

pub mod programs;
mod raw;
mod region;
pub mod types;

/// Derives hollow constructors for a struct or a `#[repr(u8)]` enum: a trait
/// `<Type>Fill` implemented for `Dest<'_, Type>`, with one method
/// `fill_<constructor in snake case>` per constructor, returning the `Dest`s of
/// its fields (`()` for none, the `Dest` for one, a tuple for more).
///
/// ```
/// use dest::{Dest, Fill, Region};
///
/// #[derive(Fill, Clone, Copy, Debug, PartialEq)]
/// #[repr(u8)]
/// enum Expr<'r> {
///     Num(i64),
///     Add(&'r Expr<'r>, &'r Expr<'r>),
///     Neg { inner: &'r Expr<'r> },
/// }
///
/// let r = Region::new();
/// let e = r.build(|d: Dest<'_, Expr<'_>>| {
///     let (a, b) = d.fill_add();        // Add(?, ?)
///     a.fill_box().fill_num().fill_leaf(1);
///     b.fill_box().fill_neg().fill_box().fill_num().fill_leaf(2);
/// });
/// assert_eq!(*e, Expr::Add(&Expr::Num(1), &Expr::Neg { inner: &Expr::Num(2) }));
/// ```
///
/// `#[dest(name = "...")]` on the type or a variant renames a method (names
/// that would shadow `Dest`'s own methods, like `Leaf`, are rejected).
pub use dest_derive::Fill;
pub use raw::{Ctor, DList, Dest, Fields, Flat, Incomplete, UnfilledHoles};
pub use region::Region;
pub use types::{Cons, List, ListFill, Node, Tree, TreeFill};
