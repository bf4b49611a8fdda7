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
    let inc = r.alloc::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        drop(t); // dropped without filling
    });
    assert_eq!(inc.try_complete().err(), Some(UnfilledHoles { count: 1 }));
    // forgetting a hole is caught too (mem::forget is safe)
    let inc = r.alloc::<List<'_, u8>>().map(std::mem::forget);
    assert_eq!(inc.try_complete().err(), Some(UnfilledHoles { count: 1 }));
}

#[test]
fn holes_smuggled_out_of_map_are_counted() {
    let r = Region::new();
    let mut kept = None;
    let inc = r.alloc::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        kept = Some(t);
    });
    assert_eq!(inc.open_holes(), 1);
    if let Some(t) = kept {
        t.fill_nil();
    }
    assert_eq!(to_vec(inc.complete()), vec![1]);
}

#[test]
fn holes_of_a_composed_child_count_for_the_parent() {
    let r = Region::new();
    let mut child_hole = None;
    let child = dlist::append(dlist::alloc(&r), 2u8).map(|d| child_hole = Some(d));
    let parent = dlist::append(dlist::alloc(&r), 1u8).map(|d| d.fill_comp(child));
    assert_eq!(parent.open_holes(), 1);
    let parent = parent.map(|()| ());
    assert!(parent.try_complete().is_err());
    // after filling the child's hole the parent completes
    let mut child_hole = None;
    let child = dlist::append(dlist::alloc(&r), 2u8).map(|d| child_hole = Some(d));
    let parent = dlist::append(dlist::alloc(&r), 1u8).map(|d| d.fill_comp(child));
    if let Some(d) = child_hole {
        d.fill_nil();
    }
    assert_eq!(to_vec(parent.complete()), vec![1, 2]);
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
