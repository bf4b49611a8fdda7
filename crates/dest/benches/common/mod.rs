//! Workloads shared by the two benchmarks (`programs.rs`, timed with divan,
//! and `memory.rs`, peak heap and allocation counts): for each of the paper's
//! programs, how to build its input (outside any timing), how to run each
//! variant, and a check that all variants agree.
//!
//! A variant run is everything a caller pays for: the destination variants
//! create a fresh [`Region`] and drop it, the baselines drop their `Vec`,
//! `Box` tree or owned S-expression, all inside the run. Each run returns an
//! O(1) checksum computed from the result's root after passing the root
//! through [`black_box`] (so the construction cannot be optimised away). An
//! O(n) checksum (length, atom count) would add a traversal whose cost differs
//! between linked lists and `Vec`s; correctness is instead checked once per
//! workload and size by [`Workload::check`], outside the timing.

use std::hint::black_box;
use std::sync::Mutex;

use dest::programs::bfs;
use dest::programs::sexpr::{self, SExpr, SExprOwned};
use dest::programs::{dlist, inputs, map};
use dest::types::{to_vec, tree_bfs};
use dest::{List, Region, Tree};

/// Input sizes, as in the paper's repository: 2^10 ... 2^22.
pub const SIZES: &[usize] = &[
    1 << 10,
    1 << 12,
    1 << 14,
    1 << 16,
    1 << 18,
    1 << 20,
    1 << 22,
];

/// One of the paper's programs with its baselines.
pub trait Workload {
    /// Short name (`map`, `dlist`, `bfs`, `sexpr`).
    const NAME: &'static str;
    /// Variant names; the first is the destination version the others are
    /// compared with. Variants whose name starts with `dest` use
    /// destinations; the others are baselines.
    const VARIANTS: &'static [&'static str];
    /// The kind of result of each variant (parallel to [`Self::VARIANTS`]),
    /// e.g. `list` for any linked list, `vec` for a `Vec`: a destination
    /// variant's headline comparison is with the fastest baseline of the same
    /// kind. Empty: all variants have the same kind.
    const KINDS: &'static [&'static str] = &[];
    /// What every variant reads (built once per size, outside the timing).
    type Input<'a>: Copy;

    /// Builds the input of size `n` and hands it to `f`; the input is freed
    /// when `f` returns.
    fn with_input<R>(n: usize, f: impl for<'a> FnOnce(Self::Input<'a>) -> R) -> R;

    /// Runs variant number `variant` once (result dropped inside), returning
    /// a checksum.
    fn run(variant: usize, input: Self::Input<'_>) -> u64;

    /// Runs every variant once and checks that they agree with each other
    /// and with the expected result.
    fn check(n: usize, input: Self::Input<'_>) -> Result<(), String>;
}

/// The index of a variant by name.
///
/// # Panics
/// If `W` has no such variant (a typo in a benchmark).
#[allow(dead_code)] // used by programs.rs only
pub fn variant_index<W: Workload>(name: &str) -> usize {
    W::VARIANTS
        .iter()
        .position(|v| *v == name)
        .unwrap_or_else(|| panic!("{} has no variant {name}", W::NAME))
}

/// The result kind of variant `v` of `W` (see [`Workload::KINDS`]).
#[allow(dead_code)] // used by memory.rs only
pub fn kind<W: Workload>(v: usize) -> &'static str {
    W::KINDS.get(v).copied().unwrap_or("")
}

/// Whether variant `v` of `W` uses destinations (its name starts with `dest`).
#[allow(dead_code)] // used by memory.rs only
pub fn is_dest<W: Workload>(v: usize) -> bool {
    W::VARIANTS[v].starts_with("dest")
}

/// [`Workload::check`] once per workload and size in this process (the divan
/// bench runs one function per variant on the same sizes).
///
/// # Panics
/// If the variants disagree.
pub fn check_once<W: Workload>(n: usize, input: W::Input<'_>) {
    static DONE: Mutex<Vec<(&'static str, usize)>> = Mutex::new(Vec::new());
    let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
    if done.contains(&(W::NAME, n)) {
        return;
    }
    if let Err(e) = W::check(n, input) {
        panic!("{} n={n}: variants disagree: {e}", W::NAME);
    }
    done.push((W::NAME, n));
}

/// Consumes a region list: its root escapes through `black_box`.
fn sum_list(l: List<'_, u64>) -> u64 {
    black_box(l).map_or(0, |c| c.head.wrapping_add(1))
}

/// Consumes a `Vec`: its buffer escapes through `black_box`.
fn sum_vec(v: &[u64]) -> u64 {
    let v = black_box(v);
    v.len() as u64 ^ v.first().copied().unwrap_or(0)
}

fn agree(what: &str, got: &[u64], want: &[u64]) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let first = got.iter().zip(want).position(|(a, b)| a != b);
    Err(format!(
        "{what}: length {} vs {} expected, first difference at {first:?}",
        got.len(),
        want.len()
    ))
}

/// The map workload: `map f` over a region list of `0..n`.
pub struct Map;

/// The function mapped.
#[inline]
fn map_f(x: &u64) -> u64 {
    x.wrapping_mul(3).wrapping_add(1)
}

impl Workload for Map {
    const NAME: &'static str = "map";
    const VARIANTS: &'static [&'static str] = &[
        "dest",
        "acc_reverse",
        "vec_then_list",
        "vec",
        "bump_tail",
        "box_tail",
    ];
    const KINDS: &'static [&'static str] = &["list", "list", "list", "vec", "list", "list"];
    type Input<'a> = List<'a, u64>;

    fn with_input<R>(n: usize, f: impl for<'a> FnOnce(List<'a, u64>) -> R) -> R {
        let region = Region::new();
        let list = inputs::list(&region, n);
        f(list)
    }

    #[inline]
    fn run(variant: usize, input: List<'_, u64>) -> u64 {
        match variant {
            0 => {
                let r = Region::new();
                sum_list(map::map_dest(&r, map_f, input))
            }
            1 => {
                let r = Region::new();
                sum_list(map::map_acc_reverse(&r, map_f, input))
            }
            2 => {
                let r = Region::new();
                sum_list(map::map_vec_then_list(&r, map_f, input))
            }
            3 => sum_vec(&map::map_vec(map_f, input)),
            4 => {
                let b = bumpalo::Bump::new();
                let l = map::map_bump_tail(&b, map_f, input);
                black_box(&l).as_ref().map_or(0, |c| c.head.wrapping_add(1))
            }
            5 => {
                let l = map::map_box_tail(map_f, input);
                black_box(&l).as_ref().map_or(0, |c| c.head.wrapping_add(1))
            }
            _ => unreachable!("map has 6 variants"),
        }
    }

    fn check(n: usize, input: List<'_, u64>) -> Result<(), String> {
        let want: Vec<u64> = (0..n as u64).map(|x| map_f(&x)).collect();
        let r = Region::new();
        agree("dest", &to_vec(&map::map_dest(&r, map_f, input)), &want)?;
        agree(
            "acc_reverse",
            &to_vec(&map::map_acc_reverse(&r, map_f, input)),
            &want,
        )?;
        agree(
            "vec_then_list",
            &to_vec(&map::map_vec_then_list(&r, map_f, input)),
            &want,
        )?;
        agree("vec", &map::map_vec(map_f, input), &want)?;
        let b = bumpalo::Bump::new();
        agree(
            "bump_tail",
            &map::bump_list_to_vec(&map::map_bump_tail(&b, map_f, input)),
            &want,
        )?;
        agree(
            "box_tail",
            &map::box_list_to_vec(&map::map_box_tail(map_f, input)),
            &want,
        )
    }
}

/// The difference-list workload: the list `0..n` built one element at a time.
pub struct DList;

impl Workload for DList {
    const NAME: &'static str = "dlist";
    const VARIANTS: &'static [&'static str] = &[
        "dest_concat",
        "dest_append",
        "vec",
        "vec_then_list",
        "fn_closures",
        "fn_closures_region",
        "dest_generic_concat",
    ];
    const KINDS: &'static [&'static str] = &["list", "list", "vec", "list", "list", "list", "list"];
    type Input<'a> = &'a [u64];

    fn with_input<R>(n: usize, f: impl for<'a> FnOnce(&'a [u64]) -> R) -> R {
        let xs: Vec<u64> = (0..n as u64).collect();
        f(&xs)
    }

    #[inline]
    fn run(variant: usize, xs: &[u64]) -> u64 {
        match variant {
            0 => {
                let r = Region::new();
                sum_list(dlist::concat_singletons(&r, xs))
            }
            1 => {
                let r = Region::new();
                sum_list(dlist::append_all(&r, xs))
            }
            2 => sum_vec(&dlist::concat_vec(xs)),
            3 => {
                let r = Region::new();
                sum_list(dlist::concat_vec_then_list(&r, xs))
            }
            4 => {
                let r = Region::new();
                sum_list(dlist::concat_singletons_fn(&r, xs))
            }
            5 => {
                let r = Region::new();
                sum_list(dlist::concat_singletons_fn_in(&r, xs))
            }
            6 => {
                let r = Region::new();
                sum_list(dlist::generic::concat_singletons(&r, xs))
            }
            _ => unreachable!("dlist has 7 variants"),
        }
    }

    fn check(_n: usize, xs: &[u64]) -> Result<(), String> {
        let r = Region::new();
        agree(
            "dest_concat",
            &to_vec(&dlist::concat_singletons(&r, xs)),
            xs,
        )?;
        agree("dest_append", &to_vec(&dlist::append_all(&r, xs)), xs)?;
        agree("vec", &dlist::concat_vec(xs), xs)?;
        agree(
            "vec_then_list",
            &to_vec(&dlist::concat_vec_then_list(&r, xs)),
            xs,
        )?;
        agree(
            "fn_closures",
            &to_vec(&dlist::concat_singletons_fn(&r, xs)),
            xs,
        )?;
        agree(
            "fn_closures_region",
            &to_vec(&dlist::concat_singletons_fn_in(&r, xs)),
            xs,
        )?;
        agree(
            "dest_generic_concat",
            &to_vec(&dlist::generic::concat_singletons(&r, xs)),
            xs,
        )
    }
}

/// The breadth-first relabelling workload on a random tree of `n` nodes.
pub struct Bfs;

impl Workload for Bfs {
    const NAME: &'static str = "bfs";
    const VARIANTS: &'static [&'static str] = &["dest", "boxed", "box_one_pass", "bump_one_pass"];
    type Input<'a> = Tree<'a, u64>;

    fn with_input<R>(n: usize, f: impl for<'a> FnOnce(Tree<'a, u64>) -> R) -> R {
        let region = Region::new();
        let tree = inputs::random_tree(&region, n, 42);
        f(tree)
    }

    #[inline]
    fn run(variant: usize, tree: Tree<'_, u64>) -> u64 {
        match variant {
            0 => {
                let r = Region::new();
                let t = black_box(bfs::relabel_bfs(&r, tree));
                t.map_or(0, |n| n.value)
            }
            1 => {
                let t = bfs::relabel_bfs_boxed(tree);
                black_box(&t).as_ref().map_or(0, |n| n.value)
            }
            2 => {
                let t = bfs::relabel_bfs_box_one_pass(tree);
                black_box(&t).as_ref().map_or(0, |n| n.value)
            }
            3 => {
                let b = bumpalo::Bump::new();
                let t = bfs::relabel_bfs_bump(&b, tree);
                black_box(&t).as_ref().map_or(0, |n| n.value)
            }
            _ => unreachable!("bfs has 4 variants"),
        }
    }

    fn check(n: usize, tree: Tree<'_, u64>) -> Result<(), String> {
        let want: Vec<u64> = (1..=n as u64).collect();
        let r = Region::new();
        let d = bfs::relabel_bfs(&r, tree);
        agree("dest labels", &tree_bfs(&d), &want)?;
        if dest::types::tree_shape(&d) != dest::types::tree_shape(&tree) {
            return Err("dest: shape differs from the input".into());
        }
        let b = bfs::relabel_bfs_boxed(tree);
        agree("boxed labels", &bfs::box_tree_bfs(&b), &want)?;
        if bfs::box_tree_shape(&b) != dest::types::tree_shape(&tree) {
            return Err("boxed: shape differs from the input".into());
        }
        let b = bfs::relabel_bfs_box_one_pass(tree);
        agree("box_one_pass labels", &bfs::box_tree_bfs(&b), &want)?;
        if bfs::box_tree_shape(&b) != dest::types::tree_shape(&tree) {
            return Err("box_one_pass: shape differs from the input".into());
        }
        let bump = bumpalo::Bump::new();
        let b = bfs::relabel_bfs_bump(&bump, tree);
        agree("bump_one_pass labels", &bfs::bump_tree_bfs(&b), &want)?;
        if bfs::bump_tree_shape(&b) != dest::types::tree_shape(&tree) {
            return Err("bump_one_pass: shape differs from the input".into());
        }
        Ok(())
    }
}

/// The S-expression parsing workload on a document of `n` atoms.
pub struct SExprParse;

impl Workload for SExprParse {
    const NAME: &'static str = "sexpr";
    const VARIANTS: &'static [&'static str] = &["dest", "owned", "region_bottom_up"];
    type Input<'a> = &'a str;

    fn with_input<R>(n: usize, f: impl for<'a> FnOnce(&'a str) -> R) -> R {
        let doc = inputs::sexpr_document(n, 7);
        f(&doc)
    }

    #[inline]
    fn run(variant: usize, doc: &str) -> u64 {
        match variant {
            0 => {
                let r = Region::new();
                let e = sexpr::parse(&r, doc).unwrap();
                match black_box(e) {
                    SExpr::List(l) => u64::from(l.is_some()),
                    _ => 2,
                }
            }
            1 => {
                let e = sexpr::parse_owned(doc).unwrap();
                match black_box(&e) {
                    SExprOwned::List(l) => l.len() as u64,
                    _ => 2,
                }
            }
            2 => {
                let r = Region::new();
                let e = sexpr::parse_region_bottom_up(&r, doc).unwrap();
                match black_box(e) {
                    SExpr::List(l) => u64::from(l.is_some()),
                    _ => 2,
                }
            }
            _ => unreachable!("sexpr has 3 variants"),
        }
    }

    fn check(n: usize, doc: &str) -> Result<(), String> {
        let r = Region::new();
        let d = sexpr::parse(&r, doc).map_err(|e| format!("dest: {e}"))?;
        let o = sexpr::parse_owned(doc).map_err(|e| format!("owned: {e}"))?;
        if sexpr::count_atoms(d) != n {
            return Err(format!(
                "dest: {} atoms, {n} expected",
                sexpr::count_atoms(d)
            ));
        }
        if sexpr::count_atoms_owned(&o) != n {
            return Err(format!(
                "owned: {} atoms, {n} expected",
                sexpr::count_atoms_owned(&o)
            ));
        }
        if sexpr::to_owned(d) != o {
            return Err("dest and owned parse trees differ".into());
        }
        let b =
            sexpr::parse_region_bottom_up(&r, doc).map_err(|e| format!("region_bottom_up: {e}"))?;
        if b != d {
            return Err("dest and region_bottom_up parse trees differ".into());
        }
        Ok(())
    }
}
