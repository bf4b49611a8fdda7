//! The paper's programs against their idiomatic baselines, on seeded random
//! inputs of several sizes and shapes, plus the API's dynamic checks.

use dest::programs::sexpr::SExpr;
use dest::programs::{bfs, dlist, inputs, map, sexpr};
use dest::types::{from_slice, iter, len, to_vec, tree_bfs, tree_size};
use dest::*;
use proptest::prelude::*;

/// Few cases and small inputs under Miri (which interprets every step, and
/// whose isolation forbids proptest's failure file); the full run natively.
fn config() -> ProptestConfig {
    if cfg!(miri) {
        ProptestConfig {
            cases: 4,
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    } else {
        ProptestConfig::with_cases(64)
    }
}

/// Input sizes are divided by this under Miri.
const SHRINK: usize = if cfg!(miri) { 10 } else { 1 };

#[test]
fn dlist_append_concat_to_list() {
    let r = Region::new();
    let a = dlist::append(dlist::append(dlist::alloc(&r), 1), 2);
    let b = dlist::append(dlist::alloc(&r), 3);
    let empty = dlist::alloc(&r);
    // concat with an empty list on either side, and nested both ways
    let ab = dlist::concat(a, b);
    let ab = dlist::concat(ab, empty);
    let c = dlist::concat(dlist::alloc(&r), dlist::append(dlist::alloc(&r), 4));
    let all = dlist::concat(ab, c);
    assert_eq!(to_vec(&dlist::to_list(all)), vec![1, 2, 3, 4]);
}

#[test]
fn dlist_of_empties_is_empty_and_right_nesting_works() {
    let r = Region::new();
    let mut acc = dlist::alloc::<u32>(&r);
    for _ in 0..10 {
        acc = dlist::concat(acc, dlist::alloc(&r));
    }
    assert_eq!(dlist::to_list(acc), None);
    // right-nested: x0 ++ (x1 ++ (x2 ++ ...)), built from the back
    let mut acc = dlist::alloc(&r);
    for x in (0..100u32).rev() {
        acc = dlist::concat(dlist::singleton(&r, x), acc);
    }
    assert_eq!(to_vec(&dlist::to_list(acc)), (0..100).collect::<Vec<_>>());
}

#[test]
fn dlist_empty_composed_into_empty_then_filled() {
    // Redirection chains: empty lists plugged into empty lists before any
    // element exists; the elements must still land at the root.
    let r = Region::new();
    let e1 = dlist::alloc::<u8>(&r);
    let e2 = dlist::alloc(&r);
    let e3 = dlist::alloc(&r);
    let e23 = dlist::concat(e2, e3);
    let e123 = dlist::concat(e1, e23);
    let full = dlist::append(dlist::append(e123, 7), 8);
    let outer = dlist::concat(dlist::singleton(&r, 6), full);
    assert_eq!(to_vec(&dlist::to_list(outer)), vec![6, 7, 8]);
}

proptest! {
    #![proptest_config(config())]

    /// Any tree of concatenations of appends equals the same on `Vec`.
    #[test]
    fn dlist_matches_vec(ops in prop::collection::vec((0u8..3, any::<u16>()), 0..200 / SHRINK)) {
        let r = Region::new();
        let mut stack: Vec<(dlist::DList<'_, u16>, Vec<u16>)> = vec![(dlist::alloc(&r), vec![])];
        for (op, x) in ops {
            match op {
                0 => {
                    let (d, mut v) = stack.pop().unwrap();
                    v.push(x);
                    stack.push((dlist::append(d, x), v));
                }
                1 => stack.push((dlist::alloc(&r), vec![])),
                _ => {
                    if stack.len() >= 2 {
                        let (d2, v2) = stack.pop().unwrap();
                        let (d1, mut v1) = stack.pop().unwrap();
                        v1.extend(v2);
                        stack.push((dlist::concat(d1, d2), v1));
                    }
                }
            }
        }
        let (mut d, mut v) = stack.pop().unwrap();
        while let Some((d1, mut v1)) = stack.pop() {
            v1.extend(v);
            v = v1;
            d = dlist::concat(d1, d);
        }
        prop_assert_eq!(to_vec(&dlist::to_list(d)), v);
    }

    /// The same with the paper's `Incomplete`-based difference lists.
    #[test]
    fn generic_dlist_matches_vec(ops in prop::collection::vec((0u8..3, any::<u16>()), 0..200)) {
        let r = Region::new();
        let mut stack: Vec<(dlist::generic::DList<'_, u16>, Vec<u16>)> = vec![(dlist::generic::alloc(&r), vec![])];
        for (op, x) in ops {
            match op {
                0 => {
                    let (d, mut v) = stack.pop().unwrap();
                    v.push(x);
                    stack.push((dlist::generic::append(d, x), v));
                }
                1 => stack.push((dlist::generic::alloc(&r), vec![])),
                _ => {
                    if stack.len() >= 2 {
                        let (d2, v2) = stack.pop().unwrap();
                        let (d1, mut v1) = stack.pop().unwrap();
                        v1.extend(v2);
                        stack.push((dlist::generic::concat(d1, d2), v1));
                    }
                }
            }
        }
        let (mut d, mut v) = stack.pop().unwrap();
        while let Some((d1, mut v1)) = stack.pop() {
            v1.extend(v);
            v = v1;
            d = dlist::generic::concat(d1, d);
        }
        prop_assert_eq!(to_vec(&dlist::generic::to_list(d)), v);
    }

    #[test]
    fn map_variants_agree(xs in prop::collection::vec(any::<u32>(), 0..500 / SHRINK)) {
        let r = Region::new();
        let l = from_slice(&r, &xs);
        let f = |x: &u32| (*x as u64) * 3 + 1;
        let want: Vec<u64> = xs.iter().map(f).collect();
        prop_assert_eq!(to_vec(&map::map_dest(&r, f, l)), want.clone());
        prop_assert_eq!(to_vec(&map::map_acc_reverse(&r, f, l)), want.clone());
        prop_assert_eq!(to_vec(&map::map_vec_then_list(&r, f, l)), want.clone());
        prop_assert_eq!(map::map_vec(f, l), want);
    }

    #[test]
    fn bfs_relabel_agrees_with_boxed(n in 0usize..400 / SHRINK, seed in any::<u64>()) {
        let r = Region::new();
        let t = inputs::random_tree(&r, n, seed);
        prop_assert_eq!(tree_size(&t), n);
        let out = bfs::relabel_bfs(&r, t);
        prop_assert_eq!(tree_size(&out), n);
        // labels are 1..=n in breadth-first order
        prop_assert_eq!(tree_bfs(&out), (1..=n as u64).collect::<Vec<_>>());
        let boxed = bfs::relabel_bfs_boxed(t);
        prop_assert_eq!(bfs::box_tree_bfs(&boxed), tree_bfs(&out));
        // same shape: compare the depth-first structure
        prop_assert_eq!(dest::types::tree_shape(&out), bfs::box_tree_shape(&boxed));
        prop_assert_eq!(dest::types::tree_shape(&out), dest::types::tree_shape(&t));
    }

    #[test]
    fn parsers_agree(atoms in 1usize..300 / SHRINK, seed in any::<u64>()) {
        let doc = inputs::sexpr_document(atoms, seed);
        let r = Region::new();
        let a = sexpr::parse(&r, &doc).unwrap();
        let b = sexpr::parse_owned(&doc).unwrap();
        prop_assert_eq!(sexpr::count_atoms(a), atoms);
        prop_assert_eq!(sexpr::to_owned(a), b);
        prop_assert_eq!(sexpr::parse_region_bottom_up(&r, &doc).unwrap(), a);
    }

    #[test]
    fn parsers_agree_on_errors(doc in "[()\"a1 \\\\-]{0,40}") {
        let r = Region::new();
        let a = sexpr::parse(&r, &doc).map(sexpr::to_owned);
        let b = sexpr::parse_owned(&doc);
        let c = sexpr::parse_region_bottom_up(&r, &doc).map(sexpr::to_owned);
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a, c);
    }
}

#[test]
fn map_accum_bfs_threads_state() {
    let r = Region::new();
    let t = inputs::random_tree(&r, 50, 3);
    // running sum of labels in BFS order, output as strings
    let (out, total) = bfs::map_accum_bfs(
        &r,
        |s: u64, x: &u64| (s + x, r.alloc_str(&format!("{}", s + x))),
        0,
        t,
    );
    let labels = tree_bfs(&t);
    assert_eq!(total, labels.iter().sum::<u64>());
    let mut acc = 0;
    let want: Vec<String> = labels
        .iter()
        .map(|x| {
            acc += x;
            acc.to_string()
        })
        .collect();
    assert_eq!(
        tree_bfs(&out)
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        want
    );
}

#[test]
fn parser_examples() {
    let r = Region::new();
    let e = sexpr::parse(&r, r#" (define (sq x) (* x x) "a\"b\nc" -42 ()) "#).unwrap();
    let SExpr::List(items) = *e else {
        panic!("not a list: {e:?}")
    };
    let items: Vec<_> = iter(&items).copied().collect();
    assert_eq!(items.len(), 6);
    assert_eq!(items[0], SExpr::Sym("define"));
    assert!(matches!(items[1], SExpr::List(Some(_))));
    assert_eq!(items[3], SExpr::Str("a\"b\nc"));
    assert_eq!(items[4], SExpr::Int(-42));
    assert_eq!(items[5], SExpr::List(None));
    assert_eq!(
        sexpr::parse(&r, "(a"),
        Err(sexpr::ParseError::UnexpectedEof { pos: 2 })
    );
    assert_eq!(
        sexpr::parse(&r, ")"),
        Err(sexpr::ParseError::UnexpectedClose { pos: 0 })
    );
    assert_eq!(
        sexpr::parse(&r, "a b"),
        Err(sexpr::ParseError::TrailingInput { pos: 2 })
    );
    assert_eq!(
        sexpr::parse(&r, "\"abc"),
        Err(sexpr::ParseError::UnexpectedEof { pos: 4 })
    );
    let deep = "(".repeat(sexpr::MAX_DEPTH + 1);
    assert!(matches!(
        sexpr::parse(&r, &deep),
        Err(sexpr::ParseError::TooDeep { .. })
    ));
    assert_eq!(
        sexpr::parse(&r, "99999999999999999999"),
        Ok(&SExpr::Sym("99999999999999999999"))
    );
}

#[test]
fn unfilled_hole_is_caught_at_completion() {
    let r = Region::new();
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        drop(t); // dropped without filling
    });
    assert_eq!(inc.try_complete().err(), Some(UnfilledHoles { count: 1 }));
    // forgetting a hole is caught too (mem::forget is safe)
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(std::mem::forget);
    assert_eq!(inc.try_complete().err(), Some(UnfilledHoles { count: 1 }));
}

#[test]
fn holes_smuggled_out_of_map_are_counted() {
    let r = Region::new();
    let mut kept = None;
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        kept = Some(h);
        t.fill_nil();
    });
    assert_eq!(inc.open_holes(), 1);
    assert!(matches!(
        inc.try_complete(),
        Err(UnfilledHoles { count: 1 })
    ));
    let (inc, d) = r.alloc::<List<'_, u8>>();
    let (h, t) = d.fill_cons();
    t.fill_nil();
    assert_eq!(inc.open_holes(), 1);
    h.fill_leaf(9);
    assert_eq!(to_vec(inc.complete()), vec![9]);
}

/// List tails and subtrees are prefilled with `None`: a structure completed
/// while one of them is still held reads `None` there, and the hole is then
/// sealed: filling it panics instead of writing into a readable structure.
#[test]
fn prefilled_holes_are_sealed_by_completion() {
    let r = Region::new();
    let (inc, d) = r.alloc::<List<'_, u8>>();
    let t = d.fill_cons_with(1);
    let l = inc.complete();
    assert_eq!(to_vec(l), vec![1]);
    let late = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = t.fill_cons_with(2);
    }));
    assert!(late.is_err());
    assert_eq!(to_vec(l), vec![1]);
    // the same for a subtree, and through fill_comp of a sealed hole
    let (inc, d) = r.alloc::<Tree<'_, u8>>();
    let (left, right) = d.fill_node_with(5);
    right.fill_nil();
    let t = inc.complete();
    assert_eq!(tree_size(t), 1);
    let late = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        left.fill_comp(r.into_incomplete(None));
    }));
    assert!(late.is_err());
}

/// A prefilled hole dropped unfilled is reported, like a counted one.
#[test]
fn dropped_prefilled_hole_is_reported() {
    let r = Region::new();
    let (inc, d) = r.alloc::<List<'_, u8>>();
    drop(d.fill_cons_with(1));
    assert_eq!(inc.try_complete().err(), Some(UnfilledHoles { count: 1 }));
    let (inc, d) = r.alloc::<Tree<'_, u8>>();
    let (left, right) = d.fill_node_with(5);
    drop(left);
    drop(right);
    assert_eq!(inc.try_complete().err(), Some(UnfilledHoles { count: 2 }));
}

/// `mem::forget` skips a prefilled hole's `Drop`: the structure is still
/// valid (the list ends there), which is why such holes need no counting.
#[test]
fn forgotten_prefilled_hole_leaves_a_valid_structure() {
    let r = Region::new();
    let (inc, d) = r.alloc::<List<'_, u8>>();
    std::mem::forget(d.fill_cons_with(1).fill_cons_with(2));
    assert_eq!(to_vec(inc.complete()), vec![1, 2]);
}

#[test]
fn header_free_dlist_concat_and_empties() {
    let r = Region::new();
    let e = DList::<u8>::new(&r);
    assert!(e.is_empty());
    let a = DList::singleton(&r, 1).append(2);
    let b = DList::new(&r).concat(DList::singleton(&r, 3));
    let all = e.concat(a).concat(DList::new(&r)).concat(b).append(4);
    assert_eq!(to_vec(&all.into_list()), vec![1, 2, 3, 4]);
    assert_eq!(DList::<u8>::new(&r).into_list(), None);
    // cells only: 16 bytes per u64 element, no header, nothing per concat
    let r2 = Region::with_capacity(1 << 16);
    let before = r2.allocated_bytes();
    let mut acc = DList::new(&r2);
    for i in 0..1000u64 {
        acc = acc.concat(DList::singleton(&r2, i));
    }
    assert_eq!(len(&acc.into_list()), 1000);
    assert_eq!(r2.allocated_bytes(), before, "stayed in the first chunk");
}

#[test]
fn holes_of_a_composed_child_count_for_the_parent() {
    let r = Region::new();
    let mut child_hole = None;
    let child = dlist::generic::append(dlist::generic::alloc(&r), 2u8).map(|d| {
        let (h, t) = d.fill_cons();
        child_hole = Some(h);
        t.fill_nil();
    });
    let parent = dlist::generic::append(dlist::generic::alloc(&r), 1u8).map(|d| d.fill_comp(child));
    assert_eq!(parent.open_holes(), 1);
    let parent = parent.map(|()| ());
    assert!(parent.try_complete().is_err());
    // after filling the child's hole the parent completes
    let mut child_hole = None;
    let child = dlist::generic::append(dlist::generic::alloc(&r), 2u8).map(|d| {
        let (h, t) = d.fill_cons();
        child_hole = Some(h);
        t.fill_nil();
    });
    let parent = dlist::generic::append(dlist::generic::alloc(&r), 1u8).map(|d| d.fill_comp(child));
    if let Some(d) = child_hole {
        d.fill_leaf(3);
    }
    assert_eq!(to_vec(parent.complete()), vec![1, 2, 3]);
}

#[test]
#[should_panic(expected = "unfilled hole")]
fn complete_panics_on_open_holes() {
    let r = Region::new();
    let _ = r.build::<List<'_, u8>>(drop);
}

#[test]
fn boxes_options_and_user_types() {
    #[derive(Fill, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    enum Shape<'r> {
        Dot,
        Circle(f64),
        Rect { w: f64, h: f64 },
        Group(&'r Shape<'r>, Option<&'r Shape<'r>>),
    }
    #[derive(Fill, Debug, Clone, Copy, PartialEq)]
    struct Pair(u8, u32);

    let r = Region::new();
    let s = r.build(|d: Dest<'_, Shape<'_>>| {
        let (a, b) = d.fill_group();
        let (w, h) = a.fill_box().fill_rect();
        w.fill_leaf(2.0);
        h.fill_leaf(3.0);
        let (x, y) = b.fill_some().fill_group();
        x.fill_box().fill_circle().fill_leaf(1.5);
        y.fill_some().fill_dot();
    });
    let want = Shape::Group(
        &Shape::Rect { w: 2.0, h: 3.0 },
        Some(&Shape::Group(&Shape::Circle(1.5), Some(&Shape::Dot))),
    );
    assert_eq!(*s, want);
    let p = r.build(|d: Dest<'_, Pair>| {
        let (a, b) = d.fill_pair();
        b.fill_leaf(7);
        a.fill_leaf(9);
    });
    assert_eq!(*p, Pair(9, 7));
    let o = r.build(|d: Dest<'_, Option<&u64>>| d.fill_none());
    assert_eq!(*o, None);
    // into_incomplete plugs a bottom-up value
    let tail = from_slice(&r, &[5u8, 6]);
    let l = r.build(|d: Dest<'_, List<'_, u8>>| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(4);
        t.fill_comp(r.into_incomplete(tail));
    });
    assert_eq!(to_vec(l), vec![4, 5, 6]);
    assert_eq!(len(l), 3);
}

// Fair baselines (issue 21): each must produce what the destination version
// produces.

proptest! {
    #![proptest_config(config())]

    #[test]
    fn map_tail_pointer_baselines_agree(xs in prop::collection::vec(any::<u32>(), 0..500)) {
        let r = Region::new();
        let l = from_slice(&r, &xs);
        let f = |x: &u32| (*x as u64) * 3 + 1;
        let want = to_vec(&map::map_dest(&r, f, l));
        let bump = bumpalo::Bump::new();
        prop_assert_eq!(map::bump_list_to_vec(&map::map_bump_tail(&bump, f, l)), want.clone());
        prop_assert_eq!(map::box_list_to_vec(&map::map_box_tail(f, l)), want);
    }

    #[test]
    fn bfs_one_pass_baselines_agree(n in 0usize..400, seed in any::<u64>()) {
        let r = Region::new();
        let t = inputs::random_tree(&r, n, seed);
        let out = bfs::relabel_bfs(&r, t);
        let boxed = bfs::relabel_bfs_box_one_pass(t);
        prop_assert_eq!(bfs::box_tree_bfs(&boxed), tree_bfs(&out));
        prop_assert_eq!(bfs::box_tree_shape(&boxed), dest::types::tree_shape(&out));
        let bump = bumpalo::Bump::new();
        let bumped = bfs::relabel_bfs_bump(&bump, t);
        prop_assert_eq!(bfs::bump_tree_bfs(&bumped), tree_bfs(&out));
        prop_assert_eq!(bfs::bump_tree_shape(&bumped), dest::types::tree_shape(&out));
    }

    /// The function-encoded difference lists (boxed and region closures)
    /// under any tree of concatenations equal the same on `Vec`.
    #[test]
    fn fn_dlists_match_vec(ops in prop::collection::vec((0u8..3, any::<u16>()), 0..200)) {
        let r = Region::new();
        let mut stack: Vec<(dlist::FnDList<'_, u16>, dlist::FnDListIn<'_, u16>, Vec<u16>)> =
            vec![(dlist::fn_empty(), dlist::fn_in_empty(), vec![])];
        for (op, x) in ops {
            match op {
                0 => {
                    let (f, g, mut v) = stack.pop().unwrap();
                    v.push(x);
                    stack.push((
                        dlist::fn_concat(f, dlist::fn_singleton(&r, x)),
                        dlist::fn_in_concat(&r, g, dlist::fn_in_singleton(&r, x)),
                        v,
                    ));
                }
                1 => stack.push((dlist::fn_empty(), dlist::fn_in_empty(), vec![])),
                _ => {
                    if stack.len() >= 2 {
                        let (f2, g2, v2) = stack.pop().unwrap();
                        let (f1, g1, mut v1) = stack.pop().unwrap();
                        v1.extend(v2);
                        stack.push((dlist::fn_concat(f1, f2), dlist::fn_in_concat(&r, g1, g2), v1));
                    }
                }
            }
        }
        let (mut f, mut g, mut v) = stack.pop().unwrap();
        while let Some((f1, g1, mut v1)) = stack.pop() {
            v1.extend(v);
            v = v1;
            f = dlist::fn_concat(f1, f);
            g = dlist::fn_in_concat(&r, g1, g);
        }
        prop_assert_eq!(to_vec(&dlist::fn_to_list(f)), v.clone());
        prop_assert_eq!(to_vec(&dlist::fn_in_apply(g, None)), v);
    }
}

/// Left-nested function-encoded concatenation of many singletons runs in
/// constant stack (the trampoline), on a test thread's small stack, and a
/// long `Box` list is dropped without recursion.
#[test]
#[cfg_attr(
    miri,
    ignore = "checks the baselines (no unsafe code of ours) on 2^18 elements: too slow under Miri"
)]
fn long_baselines_do_not_overflow_the_stack() {
    let n = 1 << 18;
    let xs: Vec<u64> = (0..n).collect();
    let r = Region::new();
    assert_eq!(to_vec(&dlist::concat_singletons_fn(&r, &xs)), xs);
    assert_eq!(to_vec(&dlist::concat_singletons_fn_in(&r, &xs)), xs);
    let l = from_slice(&r, &xs);
    let boxed = map::map_box_tail(|x| x + 1, l);
    assert_eq!(map::box_list_to_vec(&boxed).len(), n as usize);
    drop(boxed);
}

#[test]
fn bfs_one_pass_baselines_thread_state() {
    let r = Region::new();
    let t = inputs::random_tree(&r, 100, 9);
    let f = |s: u64, x: &u64| (s + x, s * 2 + x);
    let (d, sd) = bfs::map_accum_bfs(&r, f, 5, t);
    let (b, sb) = bfs::map_accum_bfs_box_one_pass(f, 5, t);
    let bump = bumpalo::Bump::new();
    let (p, sp) = bfs::map_accum_bfs_bump(&bump, f, 5, t);
    assert_eq!((sb, sp), (sd, sd));
    assert_eq!(bfs::box_tree_bfs(&b), tree_bfs(&d));
    assert_eq!(bfs::bump_tree_bfs(&p), tree_bfs(&d));
}

/// Zero-sized region data: cells of `()` and empty structs, before the
/// region has any chunk and after.
#[test]
fn zero_sized_cells() {
    #[derive(Fill, Clone, Copy, Debug, PartialEq)]
    struct Unit;
    let r = Region::new();
    let u = r.build(|d: Dest<'_, &()>| d.fill_box().fill_leaf(()));
    assert_eq!(**u, ());
    let l = r.build(|d: Dest<'_, List<'_, Unit>>| {
        d.fill_cons_with(Unit).fill_cons_with(Unit).fill_nil()
    });
    assert_eq!(len(l), 2);
    let e: &[u8] = r.alloc_slice(&[]);
    assert!(e.is_empty());
    assert_eq!(r.alloc_str(""), "");
    let o = r.build(|d: Dest<'_, Option<&Unit>>| d.fill_some().fill_unit());
    assert_eq!(*o, Some(&Unit));
}

/// Strings and byte slices are packed without padding (they are allocated
/// from the other end of the chunk), and do not disturb the alignment of the
/// cells allocated between them.
#[test]
fn strings_are_unpadded_and_cells_stay_aligned() {
    let r = Region::with_capacity(1 << 12);
    let before = r.allocated_bytes();
    let mut total = 0;
    let mut strs = Vec::new();
    for i in 0..200usize {
        let s: String = std::iter::repeat_n('x', i % 7 + 1).collect();
        total += s.len();
        strs.push(r.alloc_str(&s));
        let cell: &u64 = r.alloc_value(i as u64);
        assert_eq!(std::ptr::from_ref(cell).addr() % 8, 0);
        let pair: &(u16, u8) = r.alloc_value((i as u16, 1u8));
        assert_eq!(std::ptr::from_ref(pair).addr() % 2, 0);
    }
    for (i, s) in strs.iter().enumerate() {
        assert_eq!(s.len(), i % 7 + 1);
        assert!(s.bytes().all(|b| b == b'x'));
    }
    // 200 u64 + 200 (u16, u8) cells (8 bytes each) and the string bytes fit
    // in the first chunk: no padding per string.
    assert!(total + 200 * 16 <= 1 << 12);
    assert_eq!(r.allocated_bytes(), before);
}

/// A region with nothing borrowed can move to another thread (`Send`); what
/// is built in it cannot (see `ui/incomplete_not_send.rs`, `ui/dest_not_send.rs`).
#[test]
fn region_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let r = Region::new();
    let _ = r.build(|d: Dest<'_, u64>| d.fill_leaf(1));
    assert_send(&r);
    let n = std::thread::spawn(move || {
        let l = from_slice(&r, &[1u8, 2, 3]);
        len(&l)
    })
    .join();
    assert_eq!(n.ok(), Some(3));
}
