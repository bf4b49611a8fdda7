//! The allocation simplifications of dps-ftilde §3.5, Fig. 8, as a named rule
//! table applied to a fixed point:
//!
//! | rule | paper | effect |
//! | --- | --- | --- |
//! | `dead-allocation` | Dead Allocation | a buffer the scope never mentions is dropped |
//! | `empty-allocation` | Empty Allocation | a scope with no buffers left is replaced by its body |
//! | `merge-allocations` | Allocation Merging | a scope directly inside another whose sizes are known at the outer one's start joins it (one allocation instead of two) |
//! | `hoist-size-lets`, `short-circuit` | funmem-lmad §4 | see [`crate::shortcircuit`] |
//! | `hoist-allocation` | Allocation Hoisting (after short-circuiting, which a hoisted buffer would escape) | a scope in a loop body whose sizes do not depend on the iteration moves out of the loop (allocated once, reused by every iteration; nothing is allocated when the loop runs 0 times); never the buffer a growing `while` state starts in (its scope releases what the loop grows), nor out of such a loop |

use crate::ir::*;
use std::collections::HashSet;

/// A rule: name, what it does, and the rewrite (returns whether it changed anything).
pub type Rule = (
    &'static str,
    &'static str,
    fn(&mut Vec<Stmt>, &mut Fresh) -> bool,
);

pub const RULES: &[Rule] = &[
    (
        "in-place-state",
        "keep a loop's array state in one buffer where the body copies the state into the new state before writing it, and reads the old state only before that copy (the copy goes)",
        crate::inplace::in_place_state,
    ),
    (
        "dead-allocation",
        "drop a buffer its alloc scope never uses",
        dead_allocation,
    ),
    (
        "empty-allocation",
        "replace an alloc scope without buffers by its body",
        empty_allocation,
    ),
    (
        "merge-allocations",
        "merge an alloc scope nested at the top of another into it",
        merge_allocations,
    ),
    (
        "hoist-size-lets",
        "move size arithmetic on names outside an alloc scope in front of it",
        crate::shortcircuit::hoist_size_lets,
    ),
    (
        "short-circuit",
        "compute an array copied whole into part of another straight into that part (its buffer and the copy go)",
        crate::shortcircuit::short_circuit,
    ),
    (
        "reuse-block",
        "let a buffer dead before another of the same scope, element type and dims is first used be that buffer's storage too",
        crate::reuse::reuse_block,
    ),
    (
        "hoist-allocation",
        "move an alloc scope with loop-invariant sizes out of a loop body",
        hoist_allocation,
    ),
];

/// Rounds of the rule table are bounded by this.
pub const MAX_ROUNDS: usize = 50;

/// What a rule knows of the function it rewrites beyond its statements:
/// fresh names (`hz1`, `hz2`, … never clash with the translation's) and the
/// shapes of its destinations (in terms of its parameters).
#[derive(Default)]
pub struct Fresh {
    n: usize,
    pub(crate) dest_dims: std::collections::HashMap<Name, Vec<weir_shape::Dim>>,
    /// The spans of the `++`/`concat`/`pad` computed eagerly (`#[eager]`,
    /// `--views=none`): the copies of their pieces are never short-circuited.
    pub(crate) eager: HashSet<Span>,
    /// Statements `short-circuit` has looked at in this function (each
    /// placement looks at all of them), against [`SHORT_CIRCUIT_WORK`].
    pub(crate) short_circuit_work: usize,
}

/// The most statements `short-circuit` looks at in one function, over all
/// its placements: each placement reads the whole function (what it knows
/// is stale after one), so a function of n statements with n placements
/// (an array updated element by element n times) would be quadratic;
/// past this the rest of the copies stay copies. Real programs stay far
/// below (390 placements in 1,600 statements are 620,000).
pub const SHORT_CIRCUIT_WORK: usize = 4_000_000;

impl Fresh {
    pub(crate) fn name(&mut self) -> Name {
        self.n += 1;
        format!("hz{}", self.n)
    }
}

/// Apply the rules to a fixed point; `after` is called after every rule that
/// changed the program (the verifier hooks in there).
pub fn run(p: &mut Program, after: &mut dyn FnMut(&Program, &str)) {
    run_rules(p, RULES, after);
}

/// [`run`], with the spans of the `++`/`concat`/`pad` whose pieces are
/// computed eagerly (copied into it, never short-circuited: the core
/// program's [`weir_ir::Effect::Eager`] statements).
pub fn run_eager(p: &mut Program, eager: &HashSet<Span>, after: &mut dyn FnMut(&Program, &str)) {
    run_rules_eager(p, RULES, eager, after);
}

/// Apply only the given rules (for the ablation variants and tests).
pub fn run_rules(p: &mut Program, rules: &[Rule], after: &mut dyn FnMut(&Program, &str)) {
    run_rules_eager(p, rules, &HashSet::new(), after);
}

fn run_rules_eager(
    p: &mut Program,
    rules: &[Rule],
    eager: &HashSet<Span>,
    after: &mut dyn FnMut(&Program, &str),
) {
    for fi in 0..p.funs.len() {
        let mut fresh = Fresh {
            n: max_hz(&p.funs[fi].body.stmts),
            dest_dims: p.funs[fi]
                .dests
                .iter()
                .map(|d| (d.name.clone(), d.shape.clone()))
                .collect(),
            eager: eager.clone(),
            short_circuit_work: 0,
        };
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            for (name, _, rule) in rules {
                // (a scope leaves a loop only once nothing else applies: the
                // merges and placements that need it inside come first)
                if changed && *name == "hoist-allocation" {
                    continue;
                }
                if rule(&mut p.funs[fi].body.stmts, &mut fresh) {
                    changed = true;
                    after(p, name);
                }
            }
            if !changed {
                break;
            }
        }
    }
}

fn max_hz(stmts: &[Stmt]) -> usize {
    let mut m = 0;
    for s in stmts {
        for b in stmt_binds(s) {
            if let Some(k) = b.strip_prefix("hz").and_then(|x| x.parse::<usize>().ok()) {
                m = m.max(k);
            }
        }
        for nb in nested_blocks(s) {
            m = m.max(max_hz(nb));
        }
    }
    m
}

/// Apply `f` to every statement list, innermost first; true if any changed.
pub(crate) fn everywhere(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Vec<Stmt>) -> bool) -> bool {
    let mut changed = false;
    for s in stmts.iter_mut() {
        for b in nested_blocks_mut(s) {
            changed |= everywhere(b, f);
        }
    }
    changed | f(stmts)
}

fn dead_allocation(stmts: &mut Vec<Stmt>, _: &mut Fresh) -> bool {
    everywhere(stmts, &mut |ss| {
        let mut changed = false;
        for s in ss.iter_mut() {
            if let Stmt::Alloc { bufs, body, .. } = s {
                let before = bufs.len();
                bufs.retain(|b| mentions(&body.stmts, &b.var));
                changed |= bufs.len() != before;
            }
        }
        changed
    })
}

/// Replace `(outs) = alloc {} { stmts; yield rs }` by `stmts; let outs = rs`.
fn inline_scope(ss: &mut Vec<Stmt>, k: usize) {
    let Stmt::Alloc { outs, body, .. } = ss.remove(k) else {
        return;
    };
    let mut new = body.stmts;
    for ((o, p), r) in outs.into_iter().zip(body.results) {
        new.push(Stmt::Let {
            var: o,
            ty: p,
            exp: SExp::Atom(r),
            span: Span::default(),
        });
    }
    let tail = ss.split_off(k);
    ss.extend(new);
    ss.extend(tail);
}

fn empty_allocation(stmts: &mut Vec<Stmt>, _: &mut Fresh) -> bool {
    everywhere(stmts, &mut |ss| {
        let mut changed = false;
        let mut k = 0;
        while k < ss.len() {
            if matches!(&ss[k], Stmt::Alloc { bufs, .. } if bufs.is_empty()) {
                inline_scope(ss, k);
                changed = true;
            } else {
                k += 1;
            }
        }
        changed
    })
}

fn atom_vars(xs: &[Atom]) -> impl Iterator<Item = &Name> {
    xs.iter().filter_map(|a| match a {
        Atom::Var(v) => Some(v),
        Atom::Const(_) => None,
    })
}

/// Names bound by the top-level statements `ss` (what a later sibling may use).
pub(crate) fn top_binds(ss: &[Stmt]) -> HashSet<Name> {
    ss.iter()
        .flat_map(|s| stmt_binds(s).into_iter().cloned())
        .collect()
}

pub(crate) fn merge_allocations(stmts: &mut Vec<Stmt>, _: &mut Fresh) -> bool {
    everywhere(stmts, &mut |ss| {
        let mut changed = false;
        for s in ss.iter_mut() {
            let Stmt::Alloc { bufs, body, .. } = s else {
                continue;
            };
            let mut k = 0;
            while k < body.stmts.len() {
                let ok = match &body.stmts[k] {
                    Stmt::Alloc { bufs: inner, .. } if !inner.is_empty() => {
                        let before = top_binds(&body.stmts[..k]);
                        inner.iter().all(|b| {
                            atom_vars(&b.dims)
                                .chain(atom_vars(&b.when))
                                .all(|v| !before.contains(v))
                        })
                    }
                    _ => false,
                };
                if ok {
                    if let Stmt::Alloc { bufs: inner, .. } = &mut body.stmts[k] {
                        bufs.append(inner);
                    }
                    inline_scope(&mut body.stmts, k);
                    changed = true;
                } else {
                    k += 1;
                }
            }
        }
        changed
    })
}

/// The names a loop statement binds for its body (index, accumulators, state).
pub(crate) fn loop_params(s: &Stmt) -> HashSet<Name> {
    let mut v = HashSet::new();
    match s {
        Stmt::For { i, .. } => {
            v.insert(i.clone());
        }
        Stmt::Fold { acc, i, .. } => {
            v.insert(i.clone());
            v.extend(acc.iter().map(|(n, _)| n.clone()));
        }
        Stmt::Reduce { i, .. } => {
            v.insert(i.clone());
        }
        Stmt::Loop {
            scalars,
            arrays,
            form,
            ..
        } => {
            v.extend(scalars.iter().map(|(n, _, _)| n.clone()));
            for a in arrays {
                v.insert(a.var.clone());
                v.insert(a.next.clone());
            }
            if let LoopForm::For(i, _) = form {
                v.insert(i.clone());
            }
        }
        _ => {}
    }
    v
}

/// The trip count of a loop statement (`None` for a `while` loop).
fn trip_count(s: &Stmt) -> Option<Atom> {
    match s {
        Stmt::For { n, .. } | Stmt::Fold { n, .. } | Stmt::Reduce { n, .. } => Some(n.clone()),
        Stmt::Loop {
            form: LoopForm::For(_, n),
            ..
        } => Some(n.clone()),
        _ => None,
    }
}

/// The loop body in which allocations may be hoisted out of.
fn loop_body(s: &mut Stmt) -> Option<&mut Vec<Stmt>> {
    match s {
        Stmt::For { body, .. } => Some(body),
        Stmt::Fold { body, .. } | Stmt::Loop { body, .. } => Some(&mut body.stmts),
        Stmt::Reduce { elem, .. } => Some(&mut elem.stmts),
        _ => None,
    }
}

fn hoist_allocation(stmts: &mut Vec<Stmt>, fresh: &mut Fresh) -> bool {
    everywhere(stmts, &mut |ss| {
        let mut changed = false;
        for st in ss.iter_mut() {
            // A loop whose state grows binds its final state after itself:
            // wrapping it in a scope would end that storage's life early.
            if matches!(st, Stmt::Loop { arrays, .. } if arrays.iter().any(|a| a.grow.is_some())) {
                continue;
            }
            let params = loop_params(st);
            let trips = trip_count(st);
            let Some(body) = loop_body(st) else {
                continue;
            };
            // Collect the invariant buffers of top-level scopes in the body.
            let mut hoisted = Vec::new();
            for j in 0..body.len() {
                let before = top_binds(&body[..j]);
                if let Stmt::Alloc { bufs, body: sb, .. } = &mut body[j] {
                    // (a growing `while` state's buffer stays: its scope
                    // releases the storage the loop grows, every iteration)
                    let grown = grown_outs(&sb.stmts);
                    let (inv, var): (Vec<Buf>, Vec<Buf>) =
                        std::mem::take(bufs).into_iter().partition(|b| {
                            !b.grown
                                && !grown.contains(&b.var)
                                && atom_vars(&b.dims)
                                    .chain(atom_vars(&b.when))
                                    .all(|v| !before.contains(v) && !params.contains(v))
                        });
                    *bufs = var;
                    // A loop that never runs must not allocate (nor fail to
                    // allocate) what its body would have. (A constant count
                    // is kept too: it marks the buffer hoisted, so that its
                    // out-of-memory check waits, in the body, for what fails
                    // before it in the first iteration, as the interpreter's
                    // order has it.)
                    hoisted.extend(inv.into_iter().map(|mut b| {
                        if let Some(n) = &trips
                            && !b.when.contains(n)
                        {
                            b.when.push(n.clone());
                        }
                        b
                    }));
                }
            }
            if hoisted.is_empty() {
                continue;
            }
            // Wrap the loop in a scope holding the hoisted buffers; its outs
            // carry the loop's results out.
            let mut inner = st.clone();
            let outs: Vec<(Name, PrimType)> = match &mut inner {
                Stmt::Fold { outs, .. } | Stmt::Reduce { outs, .. } | Stmt::Loop { outs, .. } => {
                    let orig = outs.clone();
                    for (o, _) in outs.iter_mut() {
                        *o = fresh.name();
                    }
                    orig
                }
                _ => vec![],
            };
            let results = match &inner {
                Stmt::Fold { outs, .. } | Stmt::Reduce { outs, .. } | Stmt::Loop { outs, .. } => {
                    outs.iter().map(|(o, _)| Atom::Var(o.clone())).collect()
                }
                _ => vec![],
            };
            *st = Stmt::Alloc {
                outs,
                bufs: hoisted,
                body: Block {
                    stmts: vec![inner],
                    results,
                },
            };
            changed = true;
        }
        changed
    })
}
