//! Which destination parameters may be declared `restrict` in C (issue 16,
//! "sound aliasing"): derived from where the memory of every array comes
//! from, never from a parameter's name.
//!
//! A destination `d` of a function `f` is `restrict` when, at every call of
//! `f` in the program, the array passed for `d` provably shares no element
//! with any other array argument of that call (inputs and the other
//! destinations). An entry point's destinations are also passed by C callers;
//! the entry wrapper checks that they overlap no argument and no other
//! destination (`weir_check_disjoint`), so external calls never break it.
//!
//! Each array of a function is traced to its *root*, the storage it is part
//! of, through its views, with the part of that storage it may touch:
//! - roots are the function's destinations and inputs, the buffers of
//!   `alloc` scopes, and the two buffers of each double-buffered loop state
//!   (the current one and the next; either may be the loop's result
//!   destination, so they may alias its root);
//! - a view is `Exact` (the root itself, in its row-major layout), `Rows`
//!   (rows `lo..hi` of the root's outer dim, in its layout: a slice, a row,
//!   a placed part of an `Exact` view), or `Any` (anything of the root: a
//!   transpose, a reverse, a reshape, a view of a view of rows).
//!
//! Two arguments are disjoint when their roots are different storage (two
//! inputs may be the same memory, and an input may be the caller's
//! destination unless that one is itself `restrict`), or when they are rows
//! of the same root whose ranges provably do not meet (`[lo, k)` and
//! `[k, hi)`, or constants). Anything else (an unknown array, a root seen
//! through a view that is not rows) is assumed to overlap. Callers come after
//! their callees in a program (no recursion), so the functions are analysed
//! from the last to the first: a caller's own destinations are decided before
//! the calls it makes are examined.

use std::collections::HashMap;
use weir_dps::ir::{Atom, Const, Name, Program, Stmt, View, nested_blocks};

/// The storage an array is part of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Root {
    /// Destination `k` of the function being analysed.
    Dest(usize),
    /// An array parameter (inputs may be the same memory as each other).
    Input,
    /// A buffer of an `alloc` scope.
    Buf(Name),
    /// The current (`false`) or next (`true`) buffer of the loop state whose
    /// result goes to the named destination.
    Loop(Name, bool),
    /// Not known: may be anything.
    Unknown,
}

/// The part of its root an array may touch.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Exact,
    Rows(Atom, Atom),
    Any,
}

/// Every function's destinations: `true` where it may be `restrict`.
pub fn restrict_dests(p: &Program) -> HashMap<Name, Vec<bool>> {
    let mut ok: HashMap<Name, Vec<bool>> = p
        .funs
        .iter()
        .map(|f| (f.name.clone(), vec![true; f.dests.len()]))
        .collect();
    for f in p.funs.iter().rev() {
        let own = ok.get(&f.name).cloned().unwrap_or_default();
        let mut a = Analysis {
            p,
            own,
            roots: HashMap::new(),
            found: Vec::new(),
        };
        for (k, d) in f.dests.iter().enumerate() {
            a.roots.insert(d.name.clone(), (Root::Dest(k), Part::Exact));
        }
        for q in f.params.iter().filter(|q| q.ty.rank() > 0) {
            a.roots.insert(q.name.clone(), (Root::Input, Part::Exact));
        }
        a.stmts(&f.body.stmts);
        for (callee, k) in a.found {
            if let Some(v) = ok.get_mut(&callee)
                && let Some(b) = v.get_mut(k)
            {
                *b = false;
            }
        }
    }
    ok
}

struct Analysis<'a> {
    p: &'a Program,
    /// The function's own destinations that are `restrict` (decided: its
    /// callers were analysed first).
    own: Vec<bool>,
    roots: HashMap<Name, (Root, Part)>,
    /// (callee, destination) passed overlapping another argument.
    found: Vec<(Name, usize)>,
}

impl Analysis<'_> {
    fn root(&self, v: &Name) -> (Root, Part) {
        self.roots
            .get(v)
            .cloned()
            .unwrap_or((Root::Unknown, Part::Any))
    }

    fn stmts(&mut self, ss: &[Stmt]) {
        for s in ss {
            match s {
                Stmt::View { var, view, .. } => {
                    let (r, part) = self.root(view.source());
                    let part = match (view, part) {
                        (View::Alias(_), p) => p,
                        (View::Slice(_, lo, hi), Part::Exact) => Part::Rows(lo.clone(), hi.clone()),
                        (View::Placed { lo, hi, .. }, Part::Exact) => {
                            Part::Rows(lo.clone(), hi.clone())
                        }
                        // (rows at constant indices are told apart; a row
                        // at a variable index may be any)
                        (View::Row(_, Atom::Const(Const::I64(c))), Part::Exact) => Part::Rows(
                            Atom::Const(Const::I64(*c)),
                            Atom::Const(Const::I64(c.wrapping_add(1))),
                        ),
                        _ => Part::Any,
                    };
                    self.roots.insert(var.clone(), (r, part));
                }
                Stmt::Alloc { bufs, .. } => {
                    for b in bufs {
                        self.roots
                            .insert(b.var.clone(), (Root::Buf(b.var.clone()), Part::Exact));
                    }
                }
                Stmt::Loop { arrays, .. } => {
                    for st in arrays {
                        for (v, next) in [(&st.var, false), (&st.next, !st.in_place)] {
                            self.roots
                                .insert(v.clone(), (Root::Loop(st.out.clone(), next), Part::Exact));
                        }
                    }
                }
                Stmt::Call {
                    fun, dests, args, ..
                } => {
                    let mut all: Vec<(Root, Part)> = dests.iter().map(|d| self.root(d)).collect();
                    // (the callee's parameters say which arguments are arrays)
                    let params = self.p.find(fun).map(|c| c.params.as_slice());
                    for (j, a) in args.iter().enumerate() {
                        let array = params
                            .and_then(|ps| ps.get(j))
                            .is_none_or(|q| q.ty.rank() > 0);
                        if let (Atom::Var(v), true) = (a, array) {
                            all.push(self.root(v));
                        }
                    }
                    for k in 0..dests.len() {
                        let clash = all
                            .iter()
                            .enumerate()
                            .any(|(j, other)| j != k && !self.disjoint(&all[k], other));
                        if clash {
                            self.found.push((fun.clone(), k));
                        }
                    }
                }
                _ => {}
            }
            for b in nested_blocks(s) {
                self.stmts(b);
            }
        }
    }

    /// The storage `r` may be: itself, and for a loop state's buffer,
    /// whatever the loop's result destination may be.
    fn may_be(&self, r: &Root, out: &mut Vec<Root>) {
        if out.contains(r) || out.len() > 64 {
            out.push(Root::Unknown);
            return;
        }
        out.push(r.clone());
        if let Root::Loop(dest, _) = r {
            let d = self.root(dest).0;
            self.may_be(&d, out);
        }
    }

    /// Do the arrays `a` and `b` provably share no element?
    fn disjoint(&self, a: &(Root, Part), b: &(Root, Part)) -> bool {
        let ((ra, pa), (rb, pb)) = (a, b);
        if ra == rb {
            return match (pa, pb) {
                (Part::Rows(l1, h1), Part::Rows(l2, h2)) => {
                    !matches!(ra, Root::Unknown)
                        && (rows_apart(l1, h1, l2, h2) || rows_apart(l2, h2, l1, h1))
                }
                _ => false,
            };
        }
        // the two buffers of one loop state are never the same storage
        if let (Root::Loop(o1, _), Root::Loop(o2, _)) = (ra, rb)
            && o1 == o2
        {
            return true;
        }
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        self.may_be(ra, &mut xs);
        self.may_be(rb, &mut ys);
        xs.iter().all(|x| {
            ys.iter().all(|y| match (x, y) {
                (Root::Unknown, _) | (_, Root::Unknown) => false,
                // two inputs may be one array
                (Root::Input, Root::Input) => false,
                // an input may be the caller's destination unless that one
                // is restrict
                (Root::Input, Root::Dest(k)) | (Root::Dest(k), Root::Input) => {
                    self.own.get(*k).copied().unwrap_or(false)
                }
                // two destinations are apart when either is restrict (it
                // overlaps nothing at any call)
                (Root::Dest(k), Root::Dest(j)) => {
                    k != j
                        && (self.own.get(*k).copied().unwrap_or(false)
                            || self.own.get(*j).copied().unwrap_or(false))
                }
                _ => x != y,
            })
        })
    }
}

/// Do rows `[l1, h1)` end where rows `[l2, h2)` start (or before)?
fn rows_apart(_l1: &Atom, h1: &Atom, l2: &Atom, _h2: &Atom) -> bool {
    match (h1, l2) {
        (Atom::Const(Const::I64(h)), Atom::Const(Const::I64(l))) => h <= l,
        (Atom::Var(h), Atom::Var(l)) => h == l,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dps(src: &str) -> Program {
        weir_dps::parse::parse_program(src).expect("the test's DPS program parses")
    }

    #[test]
    fn rows_meeting_at_one_bound_are_apart() {
        let k = Atom::Var("k".into());
        let z = Atom::Const(Const::I64(0));
        let n = Atom::Var("n".into());
        assert!(rows_apart(&z, &k, &k, &n));
        assert!(!rows_apart(&z, &n, &k, &n));
        assert!(rows_apart(
            &z,
            &Atom::Const(Const::I64(2)),
            &Atom::Const(Const::I64(2)),
            &n
        ));
    }

    const G: &str = "fun g (out1: dest [dim a_1 0]f64) (a_1: []f64) -> (dest 0) {
  copy out1 := a_1
}
";

    fn decided(body: &str) -> HashMap<Name, Vec<bool>> {
        restrict_dests(&dps(&format!("{G}\n{body}")))
    }

    #[test]
    fn a_destination_passed_over_an_argument_is_not_restrict() {
        let r = decided(
            "entry f (out2: dest [n_2]f64) (n_2: i64) -> (dest 0) {
  alloc b3: [n_2]f64 {
    call g [b3] b3
    copy out2 := b3
  }
}",
        );
        assert_eq!(r["g"], vec![false]);
        assert_eq!(r["f"], vec![true]);
    }

    #[test]
    fn a_destination_apart_from_every_argument_is_restrict() {
        // the two parts of the entry's result meet at k_3: apart
        let r = decided(
            "entry f (out2: dest [n_2]f64) (n_2: i64) (k_3: i64) -> (dest 0) {
  view p4: []f64 = out2[0i64:k_3]
  view p5: []f64 = out2[k_3:n_2]
  call g [p5] p4
}",
        );
        assert_eq!(r["g"], vec![true]);
    }

    #[test]
    fn parts_that_may_meet_or_views_that_are_not_rows_are_not_apart() {
        for views in [
            "view p4: []f64 = out2[0i64:n_2]\n  view p5: []f64 = out2[k_3:n_2]",
            "view p4: []f64 = reverse out2\n  view p5: []f64 = out2[k_3:n_2]",
        ] {
            let r = decided(&format!(
                "entry f (out2: dest [n_2]f64) (n_2: i64) (k_3: i64) -> (dest 0) {{
  {views}
  call g [p5] p4
}}"
            ));
            assert_eq!(r["g"], vec![false], "{views}");
        }
    }

    #[test]
    fn an_input_may_be_the_destination_of_a_caller_whose_destination_is_not_restrict() {
        // h passes its input and its own destination to g; h's destination
        // is itself passed over h's input by f, so g's may be too
        let r = decided(
            "fun h (out5: dest [dim c_6 0]f64) (c_6: []f64) -> (dest 0) {
  call g [out5] c_6
}

entry f (out2: dest [n_2]f64) (n_2: i64) -> (dest 0) {
  alloc b3: [n_2]f64 {
    call h [b3] b3
    copy out2 := b3
  }
}",
        );
        assert_eq!(r["h"], vec![false]);
        assert_eq!(r["g"], vec![false]);
        // with h's destination apart from its input, g's is too
        let r = decided(
            "fun h (out5: dest [dim c_6 0]f64) (c_6: []f64) -> (dest 0) {
  call g [out5] c_6
}

entry f (out2: dest [n_2]f64) (n_2: i64) -> (dest 0) {
  alloc b3: [n_2]f64 {
    call h [out2] b3
  }
}",
        );
        assert_eq!(r["h"], vec![true]);
        assert_eq!(r["g"], vec![true]);
    }

    #[test]
    fn an_empty_program_has_no_restrict_decision() {
        assert!(restrict_dests(&dps("")).is_empty());
    }
}
