//! `dest-selftest`: runs every `unsafe` path of `dest` (its `raw` module) on
//! moderate inputs and checks each result against an independent
//! computation. It prints one line per check and exits with status 1 if any
//! check fails.
//!
//! It is meant to be run under a memory checker (`tests/valgrind.rs` runs it
//! under Valgrind): besides the results, what matters there is that no
//! uninitialised byte is read, nothing is written out of bounds and nothing
//! leaks, including on the paths that safe code may take on purpose or by
//! mistake (holes never filled, structures dropped half built, structures
//! plugged into themselves).
//!
//! Usage: `dest-selftest [N]` (default `N = 4096`, the size of the lists,
//! trees and documents).

use std::fmt::{Debug, Display};
use std::process::ExitCode;

use dest::programs::sexpr::{self, ParseError, SExpr};
use dest::programs::{bfs, dlist, inputs, map};
use dest::types::{from_slice, iter, len, to_vec, tree_bfs, tree_size};
use dest::{Dest, Fill, Incomplete, List, ListFill, Region, Tree, TreeFill, UnfilledHoles};

/// The running tally of checks.
struct Checks {
    run: usize,
    failed: usize,
}

impl Checks {
    fn check(&mut self, name: &str, ok: bool, detail: impl Display) {
        self.run += 1;
        if ok {
            println!("ok   {name}: {detail}");
        } else {
            self.failed += 1;
            println!("FAIL {name}: {detail}");
        }
    }

    /// Two values are equal (printed in full on failure: keep them small).
    fn eq<T: PartialEq + Debug>(&mut self, name: &str, got: T, want: T) {
        let ok = got == want;
        let detail = if ok {
            format!("{got:?}")
        } else {
            format!("got {got:?}, want {want:?}")
        };
        self.check(name, ok, detail);
    }

    /// Two sequences are equal (on failure: lengths and first difference).
    fn same<T: PartialEq + Debug>(&mut self, name: &str, got: &[T], want: &[T]) {
        let first_diff = got.iter().zip(want).position(|(a, b)| a != b);
        let detail = match first_diff {
            None if got.len() == want.len() => format!("{} elements", got.len()),
            None => format!("lengths {} and {}", got.len(), want.len()),
            Some(i) => format!(
                "lengths {} and {}, first difference at {i}: {:?} vs {:?}",
                got.len(),
                want.len(),
                got[i],
                want[i]
            ),
        };
        self.check(name, got == want, detail);
    }
}

fn main() -> ExitCode {
    let n = match std::env::args().nth(1) {
        None => 4096,
        Some(a) => match a.parse::<usize>() {
            Ok(n) if n >= 16 => n,
            _ => {
                eprintln!("usage: dest-selftest [N]   (N >= 16, default 4096)");
                return ExitCode::from(2);
            }
        },
    };
    let mut c = Checks { run: 0, failed: 0 };
    dlists(&mut c, n);
    maps(&mut c, n);
    bfs_trees(&mut c, n);
    sexprs(&mut c, n);
    user_types(&mut c, n);
    composition(&mut c);
    unfilled_holes(&mut c, n);
    adversarial(&mut c);
    many_regions(&mut c, n);
    println!("{} checks, {} failed", c.run, c.failed);
    if c.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn elements(n: usize) -> Vec<u64> {
    (0..n as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9) >> 7)
        .collect()
}

/// Difference lists: every way of combining `alloc`, `append` and `concat`,
/// hence root redirection (`fill_comp` of a bare hole), delegation chains
/// and the root-copy path (`fill_comp` of a built root).
fn dlists(c: &mut Checks, n: usize) {
    let xs = elements(n);
    let r = Region::new();
    c.same(
        "dlist/concat_singletons",
        &to_vec(&dlist::concat_singletons(&r, &xs)),
        &xs,
    );
    c.same(
        "dlist/generic_concat_singletons",
        &to_vec(&dlist::generic::concat_singletons(&r, &xs)),
        &xs,
    );
    // The header-free `DList`: empty lists on either side, nested both ways.
    let mut acc = dest::DList::new(&r);
    for (i, &x) in xs.iter().enumerate() {
        let piece = match i % 3 {
            0 => dest::DList::singleton(&r, x),
            1 => dest::DList::new(&r).concat(dest::DList::singleton(&r, x)),
            _ => dest::DList::singleton(&r, x).concat(dest::DList::new(&r)),
        };
        acc = if i % 2 == 0 {
            acc.concat(piece)
        } else {
            dest::DList::new(&r).concat(acc.concat(piece))
        };
    }
    c.same("dlist/header_free_mixed", &to_vec(&acc.into_list()), &xs);
    c.same(
        "dlist/append_all",
        &to_vec(&dlist::append_all(&r, &xs)),
        &xs,
    );
    c.same(
        "dlist/concat_vec_then_list",
        &to_vec(&dlist::concat_vec_then_list(&r, &xs)),
        &xs,
    );
    c.same("dlist/concat_vec", &dlist::concat_vec(&xs), &xs);

    // Empty lists plugged into empty lists, left- and right-nested, before
    // any element exists: long delegation chains, then filled.
    let mut acc = dlist::generic::alloc::<u64>(&r);
    for _ in 0..n / 4 {
        acc = dlist::generic::concat(acc, dlist::generic::alloc(&r));
    }
    let mut right = dlist::generic::alloc(&r);
    for _ in 0..n / 4 {
        right = dlist::generic::concat(dlist::generic::alloc(&r), right);
    }
    let mut acc = dlist::generic::concat(acc, right);
    for &x in &xs {
        acc = dlist::generic::append(acc, x);
    }
    c.same(
        "dlist/empty_chains_then_appends",
        &to_vec(&dlist::generic::to_list(acc)),
        &xs,
    );

    let mut acc = dlist::generic::alloc::<u64>(&r);
    for _ in 0..n / 4 {
        acc = dlist::generic::concat(dlist::generic::alloc(&r), acc);
    }
    c.eq("dlist/only_empties", dlist::generic::to_list(acc), None);

    // The redirection chain of the unit tests, at the front of a long list.
    let e1 = dlist::generic::alloc::<u64>(&r);
    let e23 = dlist::generic::concat(dlist::generic::alloc(&r), dlist::generic::alloc(&r));
    let e123 = dlist::generic::concat(e1, e23);
    let full = dlist::generic::append(dlist::generic::append(e123, 7), 8);
    let mut outer = dlist::generic::concat(dlist::generic::singleton(&r, 6), full);
    for &x in &xs {
        outer = dlist::generic::append(outer, x);
    }
    let mut want = vec![6, 7, 8];
    want.extend(&xs);
    c.same(
        "dlist/redirected_empties",
        &to_vec(&dlist::generic::to_list(outer)),
        &want,
    );

    // Right-nested concatenation of singletons: x0 ++ (x1 ++ (x2 ++ ...)).
    let mut acc = dlist::generic::alloc(&r);
    for &x in xs.iter().rev() {
        acc = dlist::generic::concat(dlist::generic::singleton(&r, x), acc);
    }
    c.same(
        "dlist/right_nested",
        &to_vec(&dlist::generic::to_list(acc)),
        &xs,
    );

    // Balanced concatenation tree mixing empties and singletons.
    fn balanced<'r>(r: &'r Region, xs: &[u64]) -> dlist::generic::DList<'r, u64> {
        match xs {
            [] => dlist::generic::alloc(r),
            [x] => {
                dlist::generic::concat(dlist::generic::singleton(r, *x), dlist::generic::alloc(r))
            }
            _ => {
                let (a, b) = xs.split_at(xs.len() / 2);
                dlist::generic::concat(balanced(r, a), balanced(r, b))
            }
        }
    }
    c.same(
        "dlist/balanced",
        &to_vec(&dlist::generic::to_list(balanced(&r, &xs))),
        &xs,
    );

    // Random programs of append / new / concat against a `Vec` model.
    for seed in 1..=3u64 {
        let mut rng = inputs::Rng::new(seed);
        let r = Region::new();
        let mut stack: Vec<(dlist::generic::DList<'_, u64>, Vec<u64>)> =
            vec![(dlist::generic::alloc(&r), vec![])];
        for step in 0..n as u64 {
            match rng.below(3) {
                0 => {
                    if let Some((d, mut v)) = stack.pop() {
                        v.push(step);
                        stack.push((dlist::generic::append(d, step), v));
                    }
                }
                1 => stack.push((dlist::generic::alloc(&r), vec![])),
                _ => {
                    if stack.len() >= 2
                        && let (Some((d2, v2)), Some((d1, mut v1))) = (stack.pop(), stack.pop())
                    {
                        v1.extend(v2);
                        stack.push((dlist::generic::concat(d1, d2), v1));
                    }
                }
            }
        }
        let mut whole = dlist::generic::alloc(&r);
        let mut model = Vec::new();
        for (d, v) in stack {
            whole = dlist::generic::concat(whole, d);
            model.extend(v);
        }
        c.same(
            &format!("dlist/random_program_{seed}"),
            &to_vec(&dlist::generic::to_list(whole)),
            &model,
        );
    }
}

/// Maps: a destination list filled front to back, against the baselines.
fn maps(c: &mut Checks, n: usize) {
    let r = Region::new();
    let l = inputs::list(&r, n);
    c.eq("map/input_len", len(&l), n);
    let f = |x: &u64| x.wrapping_mul(3) ^ 0x55;
    let want: Vec<u64> = (0..n as u64).map(|x| f(&x)).collect();
    c.same("map/map_dest", &to_vec(&map::map_dest(&r, f, l)), &want);
    c.same(
        "map/map_acc_reverse",
        &to_vec(&map::map_acc_reverse(&r, f, l)),
        &want,
    );
    c.same(
        "map/map_vec_then_list",
        &to_vec(&map::map_vec_then_list(&r, f, l)),
        &want,
    );
    c.same("map/map_vec", &map::map_vec(f, l), &want);
    // Into another region, to a type of another size and alignment.
    let r2 = Region::new();
    let g = |x: &u64| (*x as u8, *x as u32);
    let want2: Vec<(u8, u32)> = (0..n as u64).map(|x| g(&x)).collect();
    c.same(
        "map/map_dest_other_region",
        &to_vec(&map::map_dest(&r2, g, l)),
        &want2,
    );
    // Zero-sized elements.
    let units = map::map_dest(&r2, |_| (), l);
    c.eq("map/zero_sized", len(&units), n);
}

/// Breadth-first relabelling: holes kept in a queue, filled out of order.
fn bfs_trees(c: &mut Checks, n: usize) {
    let r = Region::new();
    for seed in 1..=3u64 {
        let t = inputs::random_tree(&r, n, seed);
        c.eq(&format!("bfs/random_tree_size_{seed}"), tree_size(&t), n);
        let out = bfs::relabel_bfs(&r, t);
        let labels = tree_bfs(&out);
        c.same(
            &format!("bfs/relabel_labels_{seed}"),
            &labels,
            &(1..=n as u64).collect::<Vec<_>>(),
        );
        let boxed = bfs::relabel_bfs_boxed(t);
        c.same(
            &format!("bfs/dest_vs_boxed_labels_{seed}"),
            &labels,
            &bfs::box_tree_bfs(&boxed),
        );
        let s = dest::types::tree_shape(&out);
        c.check(
            &format!("bfs/dest_vs_boxed_shape_{seed}"),
            s == bfs::box_tree_shape(&boxed) && s == dest::types::tree_shape(&t),
            format!("{} characters", s.len()),
        );
    }
    // A degenerate tree (a left path), built by hand.
    let m = n / 4;
    let path = *r.build(|mut d: Dest<'_, Tree<'_, u64>>| {
        for i in 0..m as u64 {
            let (v, left, right) = d.fill_node();
            v.fill_leaf(i);
            right.fill_nil();
            d = left;
        }
        d.fill_nil();
    });
    let out = bfs::relabel_bfs(&r, path);
    c.same(
        "bfs/path_tree",
        &tree_bfs(&out),
        &(1..=m as u64).collect::<Vec<_>>(),
    );
    // State threaded through, output labels that are region strings.
    let t = inputs::random_tree(&r, n, 9);
    let (out, total) = bfs::map_accum_bfs(
        &r,
        |s: u64, x: &u64| (s + x, r.alloc_str(&(s + x).to_string())),
        0,
        t,
    );
    let labels = tree_bfs(&t);
    c.eq("bfs/map_accum_total", total, labels.iter().sum::<u64>());
    let mut acc = 0;
    let want: Vec<String> = labels
        .iter()
        .map(|x| {
            acc += x;
            acc.to_string()
        })
        .collect();
    let got: Vec<String> = tree_bfs(&out).iter().map(|s| s.to_string()).collect();
    c.same("bfs/map_accum_strings", &got, &want);
}

/// The parser: enum constructors, strings, lists; on errors the structure is
/// dropped with open holes.
fn sexprs(c: &mut Checks, n: usize) {
    for seed in 1..=2u64 {
        let doc = inputs::sexpr_document(n, seed);
        let r = Region::new();
        match (sexpr::parse(&r, &doc), sexpr::parse_owned(&doc)) {
            (Ok(a), Ok(b)) => {
                c.eq(&format!("sexpr/atoms_{seed}"), sexpr::count_atoms(a), n);
                c.eq(
                    &format!("sexpr/atoms_owned_{seed}"),
                    sexpr::count_atoms_owned(&b),
                    n,
                );
                c.check(
                    &format!("sexpr/parse_vs_owned_{seed}"),
                    sexpr::to_owned(a) == b,
                    format!("{} bytes", doc.len()),
                );
            }
            (a, b) => c.check(
                &format!("sexpr/parse_{seed}"),
                false,
                format!("{:?} / {:?}", a.map(sexpr::to_owned).err(), b.err()),
            ),
        }
        // Every prefix of a part of the document fails the same way in both
        // parsers (each a structure abandoned with open holes).
        let r = Region::new();
        let mut agree = 0;
        let mut disagree = Vec::new();
        let cut = doc.len().min(400);
        for k in 0..cut {
            let part = &doc[..k];
            let a = sexpr::parse(&r, part).map(sexpr::to_owned);
            let b = sexpr::parse_owned(part);
            if a == b {
                agree += 1;
            } else {
                disagree.push(k);
            }
        }
        c.check(
            &format!("sexpr/prefixes_{seed}"),
            disagree.is_empty(),
            format!("{agree} prefixes agree, disagree at {disagree:?}"),
        );
    }

    let r = Region::new();
    let deep = "(".repeat(sexpr::MAX_DEPTH + 1);
    let cases: Vec<(&str, Result<(), ParseError>)> = vec![
        ("", Err(ParseError::UnexpectedEof { pos: 0 })),
        ("(a", Err(ParseError::UnexpectedEof { pos: 2 })),
        (")", Err(ParseError::UnexpectedClose { pos: 0 })),
        ("a b", Err(ParseError::TrailingInput { pos: 2 })),
        ("\"abc", Err(ParseError::UnexpectedEof { pos: 4 })),
        ("(a \"b\\", Err(ParseError::UnexpectedEof { pos: 6 })),
        ("((a) (b (c)) d", Err(ParseError::UnexpectedEof { pos: 14 })),
        ("(1 2 3))", Err(ParseError::TrailingInput { pos: 7 })),
        (
            &deep,
            Err(ParseError::TooDeep {
                pos: sexpr::MAX_DEPTH,
            }),
        ),
        ("(x \"a\\\"b\\nc\" -42 ())", Ok(())),
    ];
    for (i, (src, want)) in cases.iter().enumerate() {
        let a = sexpr::parse(&r, src).map(sexpr::to_owned);
        let b = sexpr::parse_owned(src);
        c.check(
            &format!("sexpr/error_case_{i}"),
            a == b && a.clone().map(|_| ()) == *want,
            format!("{:?}", a.map(|_| ())),
        );
    }
    match sexpr::parse(&r, "(x \"a\\\"b\\nc\" -42 () y)") {
        Ok(SExpr::List(items)) => {
            let items: Vec<SExpr<'_>> = iter(items).copied().collect();
            c.eq(
                "sexpr/example",
                items,
                vec![
                    SExpr::Sym("x"),
                    SExpr::Str("a\"b\nc"),
                    SExpr::Int(-42),
                    SExpr::List(None),
                    SExpr::Sym("y"),
                ],
            );
        }
        other => c.check("sexpr/example", false, format!("{other:?}")),
    }
    // Random short garbage over the parser's special characters.
    let mut rng = inputs::Rng::new(77);
    let alphabet = b"()\"a1 \\-";
    let mut disagree = 0;
    for _ in 0..n / 8 {
        let k = rng.below(40) as usize;
        let s: String = (0..k)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize] as char)
            .collect();
        if sexpr::parse(&r, &s).map(sexpr::to_owned) != sexpr::parse_owned(&s) {
            disagree += 1;
        }
    }
    c.eq("sexpr/random_garbage_disagreements", disagree, 0);
}

#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Shape<'r> {
    Dot,
    Circle(f64),
    Rect {
        w: f32,
        h: f64,
    },
    Label {
        text: &'r str,
        at: (i16, i16),
    },
    Group(&'r Shape<'r>, Option<&'r Shape<'r>>),
    #[dest(name = "many")]
    Many {
        items: List<'r, Shape<'r>>,
        tag: u8,
    },
}

#[derive(Fill, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i16)]
enum Signed {
    Low = -300,
    Mid(u8) = 7,
    High { x: u64 } = 1000,
}

#[derive(Fill, Debug, Clone, Copy, PartialEq, Eq)]
struct Wide(u8, u64, u16, u32, u8, i64, u8, u128, bool, char, u8, i8);

#[derive(Fill, Debug, Clone, Copy, PartialEq, Eq)]
struct Pair<A, B> {
    first: A,
    second: B,
}

#[derive(Fill, Debug, Clone, Copy, PartialEq, Eq)]
struct Unit;

/// A shape built through destinations, chosen by `i`.
fn fill_shape<'r>(r: &'r Region, d: Dest<'r, Shape<'r>>, i: u64) {
    match i % 6 {
        0 => d.fill_dot(),
        1 => d.fill_circle().fill_leaf(i as f64 / 2.0),
        2 => {
            let (w, h) = d.fill_rect();
            h.fill_leaf(i as f64);
            w.fill_leaf(i as f32 + 0.5);
        }
        3 => {
            let (text, at) = d.fill_label();
            text.fill_leaf(r.alloc_str(&format!("label {i}")));
            at.fill_leaf((i as i16, -(i as i16)));
        }
        4 => {
            let (a, b) = d.fill_group();
            fill_shape(r, a.fill_box(), i + 1);
            if i % 12 == 4 {
                b.fill_none();
            } else {
                fill_shape(r, b.fill_some(), i + 3);
            }
        }
        _ => {
            let (items, tag) = d.fill_many();
            tag.fill_leaf(i as u8);
            let mut d = items;
            for k in 0..3 {
                let (h, t) = d.fill_cons();
                fill_shape(r, h, i + 1 + k);
                d = t;
            }
            d.fill_nil();
        }
    }
}

/// The same shape built bottom-up with `alloc_value`.
fn make_shape(r: &Region, i: u64) -> Shape<'_> {
    match i % 6 {
        0 => Shape::Dot,
        1 => Shape::Circle(i as f64 / 2.0),
        2 => Shape::Rect {
            w: i as f32 + 0.5,
            h: i as f64,
        },
        3 => Shape::Label {
            text: r.alloc_str(&format!("label {i}")),
            at: (i as i16, -(i as i16)),
        },
        4 => Shape::Group(
            r.alloc_value(make_shape(r, i + 1)),
            if i % 12 == 4 {
                None
            } else {
                Some(r.alloc_value(make_shape(r, i + 3)))
            },
        ),
        _ => {
            let items: Vec<Shape<'_>> = (0..3).map(|k| make_shape(r, i + 1 + k)).collect();
            Shape::Many {
                items: from_slice(r, &items),
                tag: i as u8,
            }
        }
    }
}

/// Derived constructors: enum variants with named and positional fields,
/// references (`fill_box`), options (`fill_some` / `fill_none`), another
/// primitive representation, a 12-field struct, generics, no fields.
fn user_types(c: &mut Checks, n: usize) {
    let r = Region::new();
    let shapes = *r.build(|mut d: Dest<'_, List<'_, Shape<'_>>>| {
        for i in 0..n as u64 {
            let (h, t) = d.fill_cons();
            fill_shape(&r, h, i);
            d = t;
        }
        d.fill_nil();
    });
    let want: Vec<Shape<'_>> = (0..n as u64).map(|i| make_shape(&r, i)).collect();
    c.same("user/shapes", &to_vec(&shapes), &want);

    let signed = *r.build(|mut d: Dest<'_, List<'_, Signed>>| {
        for i in 0..n as u64 {
            let (h, t) = d.fill_cons();
            match i % 3 {
                0 => h.fill_low(),
                1 => h.fill_mid().fill_leaf(i as u8),
                _ => h.fill_high().fill_leaf(i << 20),
            }
            d = t;
        }
        d.fill_nil();
    });
    let want: Vec<Signed> = (0..n as u64)
        .map(|i| match i % 3 {
            0 => Signed::Low,
            1 => Signed::Mid(i as u8),
            _ => Signed::High { x: i << 20 },
        })
        .collect();
    c.same("user/repr_i16", &to_vec(&signed), &want);

    let mut wides = Vec::new();
    for i in 0..64u64 {
        let w = r.build(|d: Dest<'_, Wide>| {
            let (a, b, cc, dd, e, f, g, h, k, l, m, o) = d.fill_wide();
            // filled in a scrambled order
            o.fill_leaf(-(i as i8));
            h.fill_leaf(u128::from(i) << 70);
            a.fill_leaf(i as u8);
            m.fill_leaf(3);
            cc.fill_leaf(i as u16 * 7);
            l.fill_leaf(char::from(b'a' + (i % 26) as u8));
            b.fill_leaf(i * 1_000_003);
            k.fill_leaf(i % 2 == 0);
            dd.fill_leaf(i as u32 + 1);
            g.fill_leaf(9);
            f.fill_leaf(-(i as i64));
            e.fill_leaf(4);
        });
        wides.push(*w);
    }
    let want: Vec<Wide> = (0..64u64)
        .map(|i| {
            Wide(
                i as u8,
                i * 1_000_003,
                i as u16 * 7,
                i as u32 + 1,
                4,
                -(i as i64),
                9,
                u128::from(i) << 70,
                i % 2 == 0,
                char::from(b'a' + (i % 26) as u8),
                3,
                -(i as i8),
            )
        })
        .collect();
    c.same("user/wide_struct", &wides, &want);

    let p = r.build(|d: Dest<'_, Pair<u8, Pair<u64, Unit>>>| {
        let (a, b) = d.fill_pair();
        let (x, y) = b.fill_pair();
        y.fill_unit();
        x.fill_leaf(u64::MAX);
        a.fill_leaf(1);
    });
    c.eq(
        "user/generic_nested_struct",
        *p,
        Pair {
            first: 1,
            second: Pair {
                first: u64::MAX,
                second: Unit,
            },
        },
    );

    let o = r.build(|d: Dest<'_, Option<&u64>>| d.fill_some().fill_leaf(5));
    c.eq("user/fill_some", *o, Some(&5));
    let o = r.build(|d: Dest<'_, Option<&u64>>| d.fill_none());
    c.eq("user/fill_none", *o, None);
    let b = r.build(|d: Dest<'_, &&u8>| d.fill_box().fill_box().fill_leaf(6));
    c.eq("user/fill_box_twice", ***b, 6);
}

/// `into_incomplete` and `fill_comp` on every path: root and inner holes,
/// child root built (moved) or bare (redirected), `&U` and `Option<&U>`.
fn composition(c: &mut Checks) {
    let r = Region::new();
    let tail = from_slice(&r, &[5u8, 6]);
    let l = r.build(|d: Dest<'_, List<'_, u8>>| d.fill_comp(r.into_incomplete(tail)));
    c.eq("comp/root_from_into_incomplete", to_vec(l), vec![5, 6]);
    let l = r.build(|d: Dest<'_, List<'_, u8>>| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(4);
        t.fill_comp(r.into_incomplete(tail));
    });
    c.eq("comp/inner_from_into_incomplete", to_vec(l), vec![4, 5, 6]);

    // Child with a built root and an open hole, plugged at the root.
    let child = dlist::generic::append(dlist::generic::append(dlist::generic::alloc(&r), 1u8), 2);
    let l = r.build(|d: Dest<'_, List<'_, u8>>| d.fill_comp(child).fill_nil());
    c.eq("comp/root_built_child_with_hole", to_vec(l), vec![1, 2]);

    // Child that is a bare hole, plugged at an inner hole, filled afterwards.
    let child = r.alloc_incomplete::<List<'_, u8>>();
    let l = r.build(|d: Dest<'_, List<'_, u8>>| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        let cd = t.fill_comp(child);
        let (h2, t2) = cd.fill_cons();
        h2.fill_leaf(2);
        t2.fill_nil();
    });
    c.eq("comp/inner_bare_child", to_vec(l), vec![1, 2]);

    // `&U` holes: a bare child filled with `fill_box` after plugging, and a
    // complete reference plugged with `into_incomplete`.
    let seven: &u64 = r.alloc_value(7);
    let pair = r.build(|d: Dest<'_, Pair<&u64, &u64>>| {
        let (a, b) = d.fill_pair();
        a.fill_comp(r.alloc_incomplete::<&u64>())
            .fill_box()
            .fill_leaf(3);
        b.fill_comp(r.into_incomplete(seven));
    });
    c.eq("comp/ref_holes", (*pair.first, *pair.second), (3, 7));

    // A child whose holes are filled after it was plugged, some of them
    // through a further child: the parent counts them all.
    let mut kept = None;
    let child = r.alloc_incomplete::<Tree<'_, u32>>().map(|d| {
        let (v, left, right) = d.fill_node();
        left.fill_nil();
        // the label is a counted hole; the right subtree a prefilled one
        kept = Some((v, right));
    });
    let parent = r.alloc_incomplete::<Tree<'_, u32>>().map(|d| {
        let (v, left, right) = d.fill_node();
        v.fill_leaf(1);
        right.fill_nil();
        left.fill_comp(child);
    });
    c.eq("comp/child_holes_counted", parent.open_holes(), 1);
    if let Some((v, d)) = kept {
        v.fill_leaf(2);
        let grandchild = r.alloc_incomplete::<Tree<'_, u32>>();
        c.eq("comp/grandchild_root_counted", parent.open_holes(), 0);
        let (v, l2, r2) = d.fill_comp(grandchild).fill_node();
        c.eq("comp/grandchild_label_counted", parent.open_holes(), 1);
        v.fill_leaf(3);
        l2.fill_nil();
        r2.fill_nil();
    }
    c.eq("comp/child_holes_filled", parent.open_holes(), 0);
    match parent.try_complete() {
        Ok(t) => c.same("comp/tree_after_late_fill", &tree_bfs(t), &[1, 2, 3]),
        Err(e) => c.check("comp/tree_after_late_fill", false, e),
    }

    // `split`: the holes side is taken out and filled separately.
    let (inc, d) = r.alloc_incomplete::<List<'_, u8>>().split();
    d.fill_nil();
    c.eq("comp/split", len(inc.complete()), 0);
}

/// Holes dropped, forgotten or kept: `try_complete` reports them and nothing
/// is read; structures abandoned with holes are freed with their region.
fn unfilled_holes(c: &mut Checks, n: usize) {
    let r = Region::new();
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        drop(t);
    });
    c.eq(
        "holes/dropped",
        inc.try_complete().err(),
        Some(UnfilledHoles { count: 1 }),
    );
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(std::mem::forget);
    c.eq(
        "holes/forgotten",
        inc.try_complete().err(),
        Some(UnfilledHoles { count: 1 }),
    );
    let inc = r.alloc_incomplete::<Wide>().map(|d| {
        let (_a, b, _c, _d, _e, _f, _g, h, _k, _l, _m, _o) = d.fill_wide();
        b.fill_leaf(1);
        h.fill_leaf(2);
    });
    c.eq(
        "holes/ten_of_twelve_dropped",
        inc.try_complete().err(),
        Some(UnfilledHoles { count: 10 }),
    );
    // Holes kept aside: the head is counted; the tail is prefilled (`None`),
    // so it is not counted, and filling it after completion panics.
    let (inc, (h, t)) = r
        .alloc_incomplete::<List<'_, u8>>()
        .map(|d| d.fill_cons())
        .split();
    c.eq("holes/kept_head", inc.open_holes(), 1);
    h.fill_leaf(1);
    let l = inc.complete();
    c.eq("holes/kept_tail_reads_none", to_vec(l), vec![1]);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {})); // the panic is expected: no message
    let late = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = t.fill_cons_with(2);
    }));
    std::panic::set_hook(hook);
    c.check(
        "holes/kept_tail_sealed",
        late.is_err(),
        "filling a hole of a completed structure panics",
    );
    c.eq("holes/kept_tail_unchanged", to_vec(l), vec![1]);

    // A hole dropped inside a structure composed into another one: the
    // outer structure cannot be completed either, at any depth.
    let mut outer = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        drop(t);
    });
    for i in 0..64u8 {
        outer = dlist::generic::append(dlist::generic::alloc(&r), i).map(|d| d.fill_comp(outer));
    }
    c.eq(
        "holes/dropped_in_composed_child",
        outer.try_complete().err(),
        Some(UnfilledHoles { count: 1 }),
    );

    // A tree whose every other leaf hole is dropped.
    let mut dropped = 0;
    let inc = r.alloc_incomplete::<Tree<'_, u64>>().map(|root| {
        let mut stack = vec![(n as u64, root)];
        let mut k = 0u64;
        while let Some((count, d)) = stack.pop() {
            if count == 0 {
                k += 1;
                if k.is_multiple_of(2) {
                    d.fill_nil();
                } else {
                    dropped += 1;
                    drop(d);
                }
                continue;
            }
            let (v, left, right) = d.fill_node();
            v.fill_leaf(count);
            let half = (count - 1) / 2;
            stack.push((half, left));
            stack.push((count - 1 - half, right));
        }
    });
    c.eq("holes/tree_open_holes", inc.open_holes(), dropped);
    c.eq(
        "holes/tree_try_complete",
        inc.try_complete().err(),
        Some(UnfilledHoles { count: dropped }),
    );

    // Many structures dropped half built, some composed before dropping.
    let r = Region::new();
    let mut open = 0;
    for i in 0..n {
        let inc = dlist::generic::append(dlist::generic::alloc(&r), i as u64);
        if i % 3 == 0 {
            let bigger = dlist::generic::concat(dlist::generic::singleton(&r, 0), inc);
            open += bigger.open_holes();
            drop(bigger);
        } else {
            open += inc.open_holes();
            drop(inc);
        }
    }
    // Their one hole is a list tail, prefilled with `None`, so it is not
    // counted while held; what matters here is that dropping them is clean.
    c.eq("holes/abandoned_structures", open, 0);
    c.check(
        "holes/abandoned_region_grew",
        r.allocated_bytes() > 0,
        format!("{} bytes", r.allocated_bytes()),
    );
}

/// What safe code can do on purpose: plug a structure into its own holes.
/// The result is unreadable (the plugged `Incomplete` is consumed); what is
/// checked is that nothing else is disturbed and no memory error occurs.
fn adversarial(c: &mut Checks) {
    let r = Region::new();
    let before = from_slice(&r, &[1u8, 2, 3]);

    // A structure plugged into its own root hole.
    let mut root: Option<Dest<'_, List<'_, u8>>> = None;
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| root = Some(d));
    if let Some(d) = root {
        d.fill_comp(inc);
    }

    // Two structures plugged into each other's root holes.
    let (mut dx, mut dy) = (None, None);
    let x = r.alloc_incomplete::<List<'_, u8>>().map(|d| dx = Some(d));
    let y = r.alloc_incomplete::<List<'_, u8>>().map(|d| dy = Some(d));
    if let (Some(a), Some(b)) = (dx, dy) {
        a.fill_comp(y);
        b.fill_comp(x);
    }

    // A list plugged into its own tail (a cycle nobody can reach), and a
    // list plugged into a hole of a structure composed into it.
    let mut tail = None;
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(9);
        tail = Some(t);
    });
    if let Some(t) = tail {
        t.fill_comp(inc);
    }
    let mut inner_tail = None;
    let child: Incomplete<'_, List<'_, u8>, ()> = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(8);
        inner_tail = Some(t);
    });
    let outer = dlist::generic::append(dlist::generic::alloc(&r), 7u8).map(|d| d.fill_comp(child));
    if let Some(t) = inner_tail {
        t.fill_comp(outer);
    }

    c.eq("adversarial/others_intact", to_vec(&before), vec![1, 2, 3]);
    let after = dlist::generic::to_list(dlist::generic::append(dlist::generic::alloc(&r), 4u8));
    c.eq("adversarial/region_still_usable", to_vec(&after), vec![4]);
}

/// Regions created and dropped in turn, of several initial capacities.
fn many_regions(c: &mut Checks, n: usize) {
    let mut total = 0u64;
    let mut bytes = 0usize;
    for i in 0..n / 2 {
        let r = if i % 2 == 0 {
            Region::new()
        } else {
            Region::with_capacity(i * 8)
        };
        let xs: Vec<u64> = (0..(i % 32) as u64).collect();
        let l = dlist::concat_singletons(&r, &xs);
        total += iter(&l).sum::<u64>();
        let t = inputs::random_tree(&r, i % 16, i as u64);
        total += tree_size(&t) as u64;
        bytes += r.allocated_bytes();
    }
    let want: u64 = (0..n / 2)
        .map(|i| {
            let k = (i % 32) as u64;
            k * k.saturating_sub(1) / 2 + (i % 16) as u64
        })
        .sum();
    c.eq("regions/many_created_and_dropped", total, want);
    c.check(
        "regions/bytes_reserved",
        bytes > 0,
        format!("{bytes} bytes in all"),
    );
}
