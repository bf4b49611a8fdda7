//! The Weir optimizer: the first simplification stage of dps-ftilde §3.5, on the
//! core IR. It makes the program first-order (inlining/specialisation), lowers
//! library builtins to `build`/`ifold`/`ireduce`, and then iterates simplification,
//! CSE, fusion, loop-invariant code motion and dead-code elimination to a fixed
//! point (at most [`MAX_ROUNDS`] rounds).
//!
//! One pass per file; the pipeline is assembled here ([`PASSES`], [`optimize`]).
//! What the optimizer preserves is stated in docs/language.md §6 and
//! docs/ARCHITECTURE.md: a program that runs without error computes the same
//! value (bit for bit: no float reassociation), and a program that fails fails
//! with an error of the same kind at the same place — every check still
//! happens, used or not (`dce` keeps the checks of what it removes, `fuse` the
//! checks of the reads it replaces, `licm` moves nothing in front of a check
//! that could fail first). Checks are proved away with [`facts`].

pub mod count;
pub mod cse;
pub mod dce;
pub mod disjoint_reads;
pub mod facts;
pub mod fuse;
pub mod inline;
pub mod licm;
pub mod loop_sizes;
pub mod lower;
pub mod own_reads;
pub mod rules;
pub mod simplify;
pub mod slice_nest;
pub mod unswitch;
pub mod util;

use weir_ir::Program;

/// The rounds of the fixed-point group are bounded by this.
pub const MAX_ROUNDS: usize = 12;

/// A pass: name, what it does, and the function (returns whether it changed anything).
pub type Pass = (&'static str, &'static str, fn(&mut Program) -> bool);

/// Run once, in order.
pub const PREPARE: &[Pass] = &[
    (
        "inline",
        "inlining and specialisation of higher-order functions (the output is first-order)",
        inline::run,
    ),
    (
        "lower",
        "library builtins lowered to build / ifold / ireduce",
        lower::run,
    ),
];

/// Iterated, in order, until none changes the program (or [`MAX_ROUNDS`]).
pub const ROUND: &[Pass] = &[
    (
        "loop-sizes",
        "a loop state whose iterations keep its shape has its initial value's sizes (loop_sizes.rs)",
        loop_sizes::run,
    ),
    (
        "simplify",
        "constant folding, copy propagation, algebraic identities (rules::RULES)",
        simplify::run,
    ),
    ("cse", "common-subexpression elimination", cse::run),
    (
        "fuse",
        "fusion of array producers into their readers (fuse::RULES)",
        fuse::run,
    ),
    (
        "own-reads",
        "in an update nest, a read of the initial array where the iteration writes reads the nest's state (own_reads.rs)",
        own_reads::run,
    ),
    ("licm", "loop-invariant code motion", licm::run),
    (
        "unswitch",
        "a `build` ending in an `if` on an invariant condition, whose branches differ in size, split into one `build` per branch",
        unswitch::run,
    ),
    ("dce", "dead-code elimination", dce::run),
];

/// All pass names, in pipeline order (`weir dev --dump-after NAME` shows the program
/// after the first run of NAME; `optimize` is the fixed point).
pub fn pass_names() -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<(&str, &str)> = PREPARE.iter().map(|p| (p.0, p.1)).collect();
    v.extend(ROUND.iter().map(|p| (p.0, p.1)));
    v.push((
        "optimize",
        "the optimized program (the fixed point of the rounds)",
    ));
    v
}

/// Options of a run.
pub struct Options<'a> {
    /// Called after every pass with the pass name (e.g. the IR verifier).
    pub after_pass: &'a mut dyn FnMut(&Program, &str) -> Result<(), String>,
    /// Stop after the first run of this pass (for `--dump-after`).
    pub stop_after: Option<&'a str>,
    /// Passes of the iterated group to leave out (the "no fusion" ablation
    /// variants of dps-ftilde §5 skip `fuse`).
    pub skip: &'a [&'a str],
    /// The views decision for `transpose` and `reverse` ([`lower::run_with`]).
    pub views: Views,
}

/// Which `transpose`s and `reverse`s become views (an index function over
/// their argument's memory) rather than `build`s (dps-views ch. 4;
/// `--views=none|heuristic|all` reproduces the thesis's comparison).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Views {
    /// None: every one is lowered to a `build` (eager, or fused).
    None,
    /// Those used whole (where the `build` would be copied) are views.
    #[default]
    Heuristic,
    /// Every one is a view.
    All,
}

impl Views {
    pub fn parse(s: &str) -> Option<Views> {
        match s {
            "none" => Some(Views::None),
            "heuristic" => Some(Views::Heuristic),
            "all" => Some(Views::All),
            _ => None,
        }
    }
}

/// Optimize a program. Errors come from `after_pass` (a verifier failure)
/// and from inlining a program too large ([`inline::TooLarge`], whose
/// message starts with [`inline::TOO_LARGE`]).
pub fn optimize(prog: &Program, opts: Options) -> Result<Program, String> {
    let mut p = prog.clone();
    let after = opts.after_pass;
    for (name, _, f) in PREPARE {
        if *name == "lower" {
            lower::run_with(&mut p, opts.views);
        } else if *name == "inline" {
            inline::run_limited(&mut p).map_err(|e| e.to_string())?;
        } else {
            f(&mut p);
        }
        after(&p, name)?;
        if opts.stop_after == Some(*name) {
            return Ok(p);
        }
    }
    for _ in 0..MAX_ROUNDS {
        let mut any = false;
        for (name, _, f) in ROUND {
            if opts.skip.contains(name) {
                continue;
            }
            any |= f(&mut p);
            after(&p, name)?;
            if opts.stop_after == Some(*name) {
                return Ok(p);
            }
        }
        if !any {
            break;
        }
    }
    Ok(p)
}

/// Optimize with the IR verifier after every pass.
pub fn optimize_verified(prog: &Program) -> Result<Program, String> {
    let mut verify = |p: &Program, name: &str| {
        weir_ir::verify::verify_program(p).map_err(|errs| {
            format!(
                "internal compiler error: the core IR is invalid after pass `{name}`:\n  {}",
                errs.join("\n  ")
            )
        })
    };
    optimize(
        prog,
        Options {
            after_pass: &mut verify,
            stop_after: None,
            skip: &[],
            views: Views::default(),
        },
    )
}
