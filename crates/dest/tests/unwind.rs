//! Panics in the middle of a construction: inside a fill sequence, inside
//! the user function of the `map` and breadth-first programs, inside a
//! derived constructor sequence, across `fill_comp`, and the library's own
//! panic on unfilled holes. Each is caught with `catch_unwind`, and then:
//! * nothing half-built was returned (the panic took the place of the
//!   `&T`), and a structure whose holes outlived the panic is still not
//!   readable until they are filled;
//! * structures completed before the panic are unchanged;
//! * the same region builds new structures correctly;
//! * everything is dropped at the end (the user state with a destructor
//!   exactly once). Under Miri (`scripts/miri-dest.sh`) these runs are also
//!   checked for undefined behaviour and leaks.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use dest::programs::{bfs, inputs, map};
use dest::types::{from_slice, to_vec, tree_bfs, tree_shape, tree_size};
use dest::{Dest, Fill, List, ListFill, Region, TreeFill, UnfilledHoles};

/// The message of a caught panic.
fn message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic>".to_string()
    }
}

/// A list `[first, first + 1, ..., first + n - 1]` built in `r`.
fn counting<'r>(r: &'r Region, first: u64, n: u64) -> List<'r, u64> {
    *r.build(|mut d: Dest<'r, List<'r, u64>>| {
        for i in first..first + n {
            let (h, t) = d.fill_cons();
            h.fill_leaf(i);
            d = t;
        }
        d.fill_nil();
    })
}

#[test]
fn panic_in_build_with_holes_open() {
    let r = Region::new();
    let before = counting(&r, 1, 3);
    for open_cells in [0u64, 1, 5] {
        let res = catch_unwind(AssertUnwindSafe(|| {
            r.build(|mut d: Dest<'_, List<'_, u64>>| {
                for i in 0..open_cells {
                    let (h, t) = d.fill_cons();
                    h.fill_leaf(100 + i);
                    d = t;
                }
                // One cons cell whose head and tail are both open holes.
                let (_head, _tail) = d.fill_cons();
                panic!("user code failed after {open_cells} cells");
            })
        }));
        let err = res.expect_err("the panic must reach catch_unwind");
        assert_eq!(
            message(&*err),
            format!("user code failed after {open_cells} cells")
        );
    }
    assert_eq!(to_vec(&before), vec![1, 2, 3]);
    let after = counting(&r, 10, 4);
    assert_eq!(to_vec(&after), vec![10, 11, 12, 13]);
    assert_eq!(to_vec(&before), vec![1, 2, 3]);
    drop(r);
}

#[test]
fn holes_that_outlive_the_panic_keep_the_structure_unreadable() {
    let r = Region::new();
    let mut kept: Option<Dest<'_, List<'_, u64>>> = None;
    let inc = r
        .alloc_incomplete::<List<'_, u64>>()
        .map(|d| kept = Some(d));
    let res = catch_unwind(AssertUnwindSafe(|| {
        let d = kept.take().expect("root hole");
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        let (h, t) = t.fill_cons();
        kept = Some(t); // the tail hole is put back before the panic
        drop(h); // the second head is lost with the panic
        panic!("half-way");
    }));
    assert!(res.is_err());
    // The head lost in the panic is open (counted); the tail kept aside is
    // a prefilled hole (it reads `None` until filled), not counted.
    assert_eq!(inc.open_holes(), 1);
    let tail = kept.take().expect("tail hole survived the panic");
    tail.fill_nil();
    assert_eq!(inc.try_complete(), Err(UnfilledHoles { count: 1 }));

    // The same, with every hole filled after the panic: completes normally.
    let mut kept: Option<Dest<'_, List<'_, u64>>> = None;
    let inc = r
        .alloc_incomplete::<List<'_, u64>>()
        .map(|d| kept = Some(d));
    let res = catch_unwind(AssertUnwindSafe(|| {
        let d = kept.take().expect("root hole");
        let (h, t) = d.fill_cons();
        h.fill_leaf(7);
        kept = Some(t);
        panic!("before the tail");
    }));
    assert!(res.is_err());
    assert_eq!(inc.open_holes(), 0, "a kept tail is prefilled, not counted");
    kept.take().expect("tail hole").fill_cons_with(8).fill_nil();
    assert_eq!(to_vec(inc.complete()), vec![7, 8]);
}

#[test]
fn panic_in_map_function() {
    let r = Region::new();
    let input = counting(&r, 0, 20);
    for k in [0u64, 1, 7, 19] {
        let calls = Cell::new(0u64);
        let res = catch_unwind(AssertUnwindSafe(|| {
            map::map_dest(
                &r,
                |x: &u64| {
                    calls.set(calls.get() + 1);
                    if *x == k {
                        panic!("f failed at {k}");
                    }
                    x * 2
                },
                input,
            )
        }));
        let err = res.expect_err("map_dest must not return a half-mapped list");
        assert_eq!(message(&*err), format!("f failed at {k}"));
        // `f` ran on elements 0..=k, in order, and stopped there.
        assert_eq!(calls.get(), k + 1);
    }
    // The input is intact and the region maps it correctly afterwards.
    assert_eq!(to_vec(&input), (0..20).collect::<Vec<_>>());
    let doubled = map::map_dest(&r, |x: &u64| x * 2, input);
    assert_eq!(to_vec(&doubled), (0..20).map(|x| x * 2).collect::<Vec<_>>());
    drop(r);
}

/// A state with a destructor, counting live instances.
#[derive(Debug)]
struct Counted {
    live: Rc<Cell<i64>>,
    sum: u64,
}

impl Counted {
    fn new(live: &Rc<Cell<i64>>, sum: u64) -> Counted {
        live.set(live.get() + 1);
        Counted {
            live: live.clone(),
            sum,
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.live.set(self.live.get() - 1);
    }
}

#[test]
fn panic_in_bfs_function() {
    let r = Region::new();
    let n = if cfg!(miri) { 40 } else { 300 };
    let tree = inputs::random_tree(&r, n, 11);
    let labels = tree_bfs(&tree);
    let live = Rc::new(Cell::new(0i64));
    for k in [0, 1, n / 2, n - 1] {
        let visited = Cell::new(0usize);
        let res = catch_unwind(AssertUnwindSafe(|| {
            bfs::map_accum_bfs(
                &r,
                |s: Counted, x: &u64| {
                    let i = visited.get();
                    visited.set(i + 1);
                    if i == k {
                        panic!("f failed at node {k}");
                    }
                    let next = Counted::new(&s.live, s.sum + x);
                    (next, s.sum)
                },
                Counted::new(&live, 0),
                tree,
            )
        }));
        let err = res.expect_err("map_accum_bfs must not return a half-labelled tree");
        assert_eq!(message(&*err), format!("f failed at node {k}"));
        assert_eq!(visited.get(), k + 1);
        // Every state was dropped exactly once, by the unwinding included.
        assert_eq!(live.get(), 0, "states alive after the panic at {k}");
    }
    // The input is intact; the region relabels it correctly afterwards.
    assert_eq!(tree_bfs(&tree), labels);
    let (out, last) = bfs::map_accum_bfs(
        &r,
        |s: Counted, x: &u64| (Counted::new(&s.live, s.sum + x), s.sum),
        Counted::new(&live, 0),
        tree,
    );
    assert_eq!(last.sum, labels.iter().sum::<u64>());
    assert_eq!(tree_size(&out), n);
    assert_eq!(tree_shape(&out), tree_shape(&tree));
    let prefix: Vec<u64> = labels
        .iter()
        .scan(0, |acc, x| {
            let before = *acc;
            *acc += x;
            Some(before)
        })
        .collect();
    assert_eq!(tree_bfs(&out), prefix);
    drop(last);
    assert_eq!(live.get(), 0);
    drop(r);
}

#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Expr<'r> {
    Num(i64),
    Add(&'r Expr<'r>, &'r Expr<'r>),
    Neg(&'r Expr<'r>),
}

#[test]
fn panic_in_derived_fill_sequence() {
    let r = Region::new();
    let one = r.build(|d: Dest<'_, Expr<'_>>| d.fill_num().fill_leaf(1));
    let res = catch_unwind(AssertUnwindSafe(|| {
        r.build(|d: Dest<'_, Expr<'_>>| {
            let (a, b) = d.fill_add();
            a.fill_box().fill_neg().fill_box().fill_num().fill_leaf(2);
            let _inner = b.fill_box().fill_neg(); // open
            panic!("parser gave up");
        })
    }));
    assert!(res.is_err());
    assert_eq!(*one, Expr::Num(1));
    let e = r.build(|d: Dest<'_, Expr<'_>>| {
        let (a, b) = d.fill_add();
        a.fill_leaf(one);
        b.fill_box().fill_neg().fill_box().fill_num().fill_leaf(3);
    });
    assert_eq!(*e, Expr::Add(&Expr::Num(1), &Expr::Neg(&Expr::Num(3))));
    drop(r);
}

#[test]
fn panic_after_fill_comp() {
    let r = Region::new();
    // A child with one open hole, plugged into a parent that then panics.
    let mut child_hole: Option<Dest<'_, List<'_, u64>>> = None;
    let res = catch_unwind(AssertUnwindSafe(|| {
        let child = r.alloc_incomplete::<List<'_, u64>>().map(|d| {
            let (h, t) = d.fill_cons();
            h.fill_leaf(2);
            child_hole = Some(t);
        });
        r.build(|d: Dest<'_, List<'_, u64>>| {
            let (h, t) = d.fill_cons();
            h.fill_leaf(1);
            t.fill_comp(child);
            panic!("after plugging");
        })
    }));
    assert!(res.is_err());
    // The child's hole outlived both structures: filling it is harmless
    // (the region is alive), and nothing can read the result.
    child_hole.take().expect("child hole").fill_nil();
    // Plugging works as usual afterwards, with a bare-hole child and a
    // built one.
    let tail = from_slice(&r, &[3u64, 4]);
    let l = r.build(|d: Dest<'_, List<'_, u64>>| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        let rest = r
            .alloc_incomplete::<List<'_, u64>>()
            .map(|d| d.fill_comp(r.into_incomplete(tail)));
        t.fill_comp(rest);
    });
    assert_eq!(to_vec(l), vec![1, 3, 4]);
}

#[test]
fn library_panic_on_unfilled_holes_leaves_region_usable() {
    let r = Region::new();
    let before = counting(&r, 5, 2);
    let res = catch_unwind(AssertUnwindSafe(|| {
        r.build(|d: Dest<'_, dest::Tree<'_, u64>>| {
            let (v, left, right) = d.fill_node();
            v.fill_leaf(1);
            left.fill_nil();
            drop(right); // never filled: `build` panics at completion
        })
    }));
    let err = res.expect_err("completion with an open hole must panic");
    assert!(
        message(&*err).contains("1 unfilled hole"),
        "unexpected message: {}",
        message(&*err)
    );
    assert_eq!(to_vec(&before), vec![5, 6]);
    assert_eq!(to_vec(&counting(&r, 0, 3)), vec![0, 1, 2]);
    drop(r);
}
