//! In-place loop states (funmem-lmad §4, the memory side of uniqueness
//! types): a loop whose array state is updated in place (`loop a for i < n
//! do a with [i] = v`) runs in one buffer, with no copy per iteration.
//!
//! The translation double-buffers every array state: the body reads the
//! state `var` and writes the new state into `next`, and an update of the
//! state (`a with [i] = v`) becomes `copy next := var`, then a store into
//! `next`. Where, in every path through the body, that whole copy comes
//! before anything else writes `next` (or a view of it), and nothing reads
//! `var` (or a view of it) after it, `next` may *be* `var`: the copy copies
//! nothing and goes, and the loop keeps its state in one buffer
//! ([`ArrState::in_place`]). The uniqueness checker of the front end makes
//! this the normal case for an update of a loop's state; any program whose
//! order the optimizer changed so that the old state is read after the
//! update keeps its double buffer (the rule simply does not apply), so the
//! result is always the interpreter's.
//!
//! One rule of [`crate::simplify::RULES`]:
//!
//! | rule | effect |
//! | --- | --- |
//! | `in-place-state` | `loop (var -> next ...) { ..reads of var..; copy next := var; ..writes of next, no read of var.. }`: the copy goes and the state is in place |
//!
//! A copy into a placed view of all of `next` counts as the copy into
//! `next`; "all of" compares the view's rows with the state's first dim,
//! also where they are two names of one `dim a k` (`let s17 = dim a 0`
//! outside the loop, `let s25 = dim a 0` in its body: jacobi-2d in its
//! NumPy form, `b with [1:n-1, 1:n-1] = map ..`, kept its double buffer).
//!
//! It runs before `short-circuit`, which places a piece into the state of
//! an in-place loop only where nothing reads or writes the state from the
//! piece's first write to its copy (the piece could otherwise read the old
//! state it would overwrite).

use crate::ir::*;
use crate::simplify::{Fresh, everywhere};
use std::collections::HashSet;

/// `in-place-state`.
pub(crate) fn in_place_state(stmts: &mut Vec<Stmt>, _: &mut Fresh) -> bool {
    // (sizes bound to one `dim a k`, anywhere in the function: two names
    // of one size, `let s17 = dim a 0` and `let s25 = dim a 0`)
    let mut dims = std::collections::HashMap::new();
    dim_lets(stmts, &mut dims);
    everywhere(stmts, &mut |ss| {
        let mut changed = false;
        for s in ss.iter_mut() {
            let Stmt::Loop { arrays, body, .. } = s else {
                continue;
            };
            for st in arrays.iter_mut() {
                if st.in_place || st.grow.is_some() {
                    continue;
                }
                let mut vars: HashSet<Name> = HashSet::from([st.var.clone()]);
                let mut nexts: HashSet<Name> = HashSet::from([st.next.clone()]);
                views_of(&body.stmts, &mut vars);
                views_of(&body.stmts, &mut nexts);
                if !vars.is_disjoint(&nexts) {
                    continue;
                }
                // (`next` itself, or a view of all of it: an array placed
                // whole in the new state, which the copy writes)
                let mut wholes: HashSet<Name> = HashSet::from([st.next.clone()]);
                whole_views(&body.stmts, &st.next, st.dims.first(), &dims, &mut wholes);
                let sets = Sets {
                    var: &st.var,
                    wholes: &wholes,
                    vars: &vars,
                    nexts: &nexts,
                };
                if sets.seq(&body.stmts, Phase::Before) == Some(Phase::After)
                    && !body
                        .results
                        .iter()
                        .any(|r| matches!(r, Atom::Var(x) if vars.contains(x)))
                {
                    remove_copies(&mut body.stmts, &st.var, &wholes);
                    st.in_place = true;
                    changed = true;
                }
            }
        }
        changed
    })
}

/// Add to `set` every view (in `stmts`, nested blocks included) of a name
/// in it, to a fixed point.
fn views_of(stmts: &[Stmt], set: &mut HashSet<Name>) {
    loop {
        let before = set.len();
        add_views(stmts, set);
        if set.len() == before {
            return;
        }
    }
}

fn add_views(stmts: &[Stmt], set: &mut HashSet<Name>) {
    for s in stmts {
        if let Stmt::View { var, view, .. } = s {
            let from_root = matches!(view, View::Placed { root, .. } if set.contains(root));
            if set.contains(view.source()) || from_root {
                set.insert(var.clone());
            }
        }
        for b in nested_blocks(s) {
            add_views(b, set);
        }
    }
}

/// Where an iteration is: before the copy of the state into the new state,
/// or after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Before,
    After,
}

struct Sets<'a> {
    var: &'a Name,
    /// `next` and the views of all of it.
    wholes: &'a HashSet<Name>,
    vars: &'a HashSet<Name>,
    nexts: &'a HashSet<Name>,
}

impl Sets<'_> {
    /// The phase after `stmts`, started in `p`; `None` where the state
    /// cannot be in place.
    fn seq(&self, stmts: &[Stmt], mut p: Phase) -> Option<Phase> {
        for s in stmts {
            p = self.stmt(s, p)?;
        }
        Some(p)
    }

    fn stmt(&self, s: &Stmt, p: Phase) -> Option<Phase> {
        match s {
            Stmt::Copy { dest, src, .. } if self.wholes.contains(dest) && src == self.var => {
                (p == Phase::Before).then_some(Phase::After)
            }
            // (a scope's statements run in order, once)
            Stmt::Alloc { body, .. } => self.seq(&body.stmts, p),
            Stmt::If { then, els, .. } => {
                let a = self.seq(&then.stmts, p)?;
                let b = self.seq(&els.stmts, p)?;
                // (the branches' scalar results read no array)
                (a == b).then_some(a)
            }
            // (a view reads nothing: its uses do)
            Stmt::View { .. } => Some(p),
            _ => {
                let (reads, writes) = deep_rw(s);
                let ok = match p {
                    Phase::Before => {
                        !writes.iter().any(|w| self.nexts.contains(*w))
                            && !reads.iter().any(|r| self.nexts.contains(*r))
                            && !writes.iter().any(|w| self.vars.contains(*w))
                    }
                    Phase::After => {
                        !reads.iter().any(|r| self.vars.contains(*r))
                            && !writes.iter().any(|w| self.vars.contains(*w))
                    }
                };
                ok.then_some(p)
            }
        }
    }
}

/// The arrays a statement reads and writes, nested blocks included (a
/// `dim` reads no element, and a guard of a destination only its pointer).
fn deep_rw(s: &Stmt) -> (Vec<&Name>, Vec<&Name>) {
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    rw(s, &mut reads, &mut writes);
    (reads, writes)
}

fn rw<'a>(s: &'a Stmt, reads: &mut Vec<&'a Name>, writes: &mut Vec<&'a Name>) {
    match s {
        Stmt::Let {
            exp: SExp::Load(a, _) | SExp::LoadOr0(a, _),
            ..
        } => reads.push(a),
        Stmt::Store { dest, .. } => writes.push(dest),
        Stmt::Copy { dest, src, .. } => {
            writes.push(dest);
            reads.push(src);
        }
        Stmt::Call { dests, args, .. } => {
            writes.extend(dests);
            reads.extend(args.iter().filter_map(|a| match a {
                Atom::Var(v) => Some(v),
                Atom::Const(_) => None,
            }));
        }
        Stmt::Loop { arrays, .. } => {
            for st in arrays {
                reads.push(&st.out);
                writes.push(&st.out);
            }
        }
        Stmt::Grow { dest, .. } => writes.push(dest),
        _ => {}
    }
    for b in nested_blocks(s) {
        for t in b {
            rw(t, reads, writes);
        }
    }
}

/// Remove the copies `copy next := var` (or into a view of all of `next`;
/// at the top of the body or in its branches, where [`Sets::stmt`] found
/// them).
fn remove_copies(stmts: &mut Vec<Stmt>, var: &Name, wholes: &HashSet<Name>) {
    stmts.retain(
        |s| !matches!(s, Stmt::Copy { dest, src, .. } if wholes.contains(dest) && src == var),
    );
    for s in stmts.iter_mut() {
        match s {
            Stmt::If { then, els, .. } => {
                remove_copies(&mut then.stmts, var, wholes);
                remove_copies(&mut els.stmts, var, wholes);
            }
            Stmt::Alloc { body, .. } => remove_copies(&mut body.stmts, var, wholes),
            _ => {}
        }
    }
}

/// The views of all of `next` (an alias, or a placed part from row 0 to
/// its length `rows` of `next` or of such a view: a piece placed in a
/// piece placed in `next`), at the top of the body or in its branches.
/// The `i64` names bound to `dim a k` (the array and the dimension).
fn dim_lets(stmts: &[Stmt], out: &mut std::collections::HashMap<Name, (Name, usize)>) {
    for s in stmts {
        if let Stmt::Let {
            var,
            exp: SExp::Dim(a, k),
            ..
        } = s
        {
            out.insert(var.clone(), (a.clone(), *k));
        }
        for b in nested_blocks(s) {
            dim_lets(b, out);
        }
    }
}

fn whole_views(
    stmts: &[Stmt],
    next: &Name,
    rows: Option<&Atom>,
    dims: &std::collections::HashMap<Name, (Name, usize)>,
    out: &mut HashSet<Name>,
) {
    let same = |a: &Atom, b: &Atom| {
        a == b
            || matches!((a, b), (Atom::Var(x), Atom::Var(y))
                if dims.get(x).is_some_and(|d| dims.get(y) == Some(d)))
    };
    for s in stmts {
        match s {
            Stmt::View {
                var,
                view: View::Alias(x),
                ..
            } if out.contains(x) => {
                out.insert(var.clone());
            }
            Stmt::View {
                var,
                view: View::Placed { part, lo, hi, .. },
                ..
            } if (part == next || out.contains(part))
                && *lo == Atom::Const(Const::I64(0))
                && rows.is_some_and(|r| same(r, hi)) =>
            {
                out.insert(var.clone());
            }
            Stmt::If { then, els, .. } => {
                whole_views(&then.stmts, next, rows, dims, out);
                whole_views(&els.stmts, next, rows, dims, out);
            }
            Stmt::Alloc { body, .. } => whole_views(&body.stmts, next, rows, dims, out),
            _ => {}
        }
    }
}
