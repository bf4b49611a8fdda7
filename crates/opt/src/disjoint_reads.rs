//! Part of `own-reads` ([`crate::own_reads`]): in an update nest started
//! from `a`, a read of `a` at a position that *no* iteration of the nest
//! writes reads the nest's innermost state instead. The state holds `a`'s
//! element there all along, so the value is the same; the nest then no
//! longer reads `a` once it has begun, and `a`'s buffer can be the state's
//! (`in-place-state`).
//!
//! ludcmp's row update, as a user writes it,
//!
//! ```text
//! a with [i, i:] = map2 (\aij col -> aij - dot a[i, :i] col) a[i, i:] (transpose a[:i, i:])
//! ```
//!
//! becomes a nest writing `a[i][i + r]` for `r < n - i`; besides its own
//! element it reads `a[i][k]` and `a[k][i + r]` for `k < i`: row `i` left of
//! the columns written, and rows above the row written.
//!
//! Disjoint means: for some dimension `d` written at `W_d` (a linear form
//! over the nest's counters), the read's index `Q_d` is below `W_d`'s least
//! value or above its greatest, for every value of every counter in scope
//! (the nest's and the loops inside the element, each between 0 and its
//! trip count minus 1), as [`Facts`] proves it. Only exact forms count (no
//! arithmetic that may have wrapped).

use crate::facts::{Facts, Lin, Term};
use crate::util::*;
use weir_ir::*;

/// Rewrite the disjoint reads of the nest `st` (a `loop` whose initial value
/// is the array `a`), with `facts` those at `st`. Whether anything changed.
pub fn rewrite(st: &mut Stmt, facts: &Facts, fresh: &mut Fresh) -> bool {
    let Exp::Loop {
        init: Atom::Var(a), ..
    } = &st.exp
    else {
        return false;
    };
    let a = a.clone();
    let mut counters = Vec::new();
    descend(st, &a, facts, &mut counters, fresh)
}

/// Down the levels of the nest (`loop`s over the previous level's state) to
/// the element update, collecting each level's counter and trip count.
fn descend(
    st: &mut Stmt,
    a: &Name,
    facts: &Facts,
    counters: &mut Vec<(Name, Atom)>,
    fresh: &mut Fresh,
) -> bool {
    let Some(mut f) = facts.enter(&st.exp).pop() else {
        return false;
    };
    let Exp::Loop {
        state,
        form: LoopForm::For(r, n),
        body,
        ..
    } = &mut st.exp
    else {
        return false;
    };
    counters.push((r.clone(), n.clone()));
    let state = state.0.clone();
    let Atom::Var(res) = &body.result else {
        return false;
    };
    let Some(k) = body.stmts.iter().position(|s| &s.var == res) else {
        return false;
    };
    match &body.stmts[k].exp {
        Exp::Loop {
            init: Atom::Var(i1),
            form: LoopForm::For(..),
            ..
        } if *i1 == state => {
            for s in &body.stmts[..k] {
                f.add(s);
            }
            descend(&mut body.stmts[k], a, &f, counters, fresh)
        }
        Exp::Prim(p) => {
            let Some((Atom::Var(arr), ix, None, _)) = p.update_parts() else {
                return false;
            };
            if *arr != state {
                return false;
            }
            let ix: Vec<Atom> = ix.into_iter().cloned().collect();
            let mut at_update = f.clone();
            for s in &body.stmts[..k] {
                at_update.add(s);
            }
            let Some(written) = ranges(&ix, counters, &at_update) else {
                return false;
            };
            let mut w = Redirect {
                a,
                state: &state,
                written: &written,
                fresh,
                changed: false,
            };
            w.body(body, f);
            w.changed
        }
        _ => false,
    }
}

/// Each written index's least and greatest value over the nest's counters.
fn ranges(ix: &[Atom], counters: &[(Name, Atom)], f: &Facts) -> Option<Vec<(Lin, Lin)>> {
    ix.iter()
        .map(|x| {
            let w = f.lin(x)?;
            if !f.exact(&w) {
                return None;
            }
            let (mut lo, mut hi) = (w.clone(), w);
            for (r, n) in counters {
                let last = f.lin(n)?.plus(-1)?;
                let k = *lo.terms.get(&Term::Var(r.clone())).unwrap_or(&0);
                let (at_lo, at_hi) = if k >= 0 {
                    (Lin::constant(0)?, last)
                } else {
                    (last, Lin::constant(0)?)
                };
                lo = subst(&lo, r, &at_lo)?;
                hi = subst(&hi, r, &at_hi)?;
            }
            Some((lo, hi))
        })
        .collect()
}

/// `l` with the variable `v` replaced by `by`.
fn subst(l: &Lin, v: &Name, by: &Lin) -> Option<Lin> {
    let t = Term::Var(v.clone());
    let Some(k) = l.terms.get(&t).copied() else {
        return Some(l.clone());
    };
    let mut rest = l.clone();
    rest.terms.remove(&t);
    rest.add(&by.scale(k)?)
}

struct Redirect<'a> {
    a: &'a Name,
    state: &'a Name,
    written: &'a [(Lin, Lin)],
    fresh: &'a mut Fresh,
    changed: bool,
}

impl Redirect<'_> {
    fn body(&mut self, b: &mut Body, mut facts: Facts) {
        let stmts = std::mem::take(&mut b.stmts);
        let mut out = Vec::with_capacity(stmts.len());
        for mut st in stmts {
            // (the length of a slice of `a` is its bounds' difference: the
            // slice, once taken, is then no longer needed, and does not keep
            // `a` alive inside the nest)
            if let Exp::Dim(Atom::Var(v), 0) = &st.exp
                && let Some(Exp::Slice(Atom::Var(x), lo, hi)) = facts.def(v)
                && self.chain_to_a(x, &facts).is_some()
            {
                st.exp = Exp::Bin(BinOp::Sub, hi.clone(), lo.clone());
                self.changed = true;
            }
            if let Some(mut chain) = self.disjoint_read(&st, &facts) {
                for s in &chain {
                    facts.add(s);
                }
                out.append(&mut chain);
                // (the read itself now reads the last view made)
                if let (Exp::Index(x, _), Some(last)) = (&mut st.exp, out.last()) {
                    *x = Atom::Var(last.var.clone());
                }
                self.changed = true;
            }
            let inner = facts.enter(&st.exp);
            let mut inner = inner.into_iter();
            weir_ir::visit::for_each_nested_body(&mut st.exp, &mut |nb| {
                let f = inner.next().unwrap_or_else(|| facts.clone());
                self.body(nb, f);
            });
            facts.add(&st);
            out.push(st);
        }
        b.stmts = out;
    }

    /// The views from `x` up to `a` (rows, slices, aliases; `x`'s first),
    /// if `x` is `a` or such a view of it.
    fn chain_to_a(&self, x: &Name, f: &Facts) -> Option<Vec<(Name, Exp)>> {
        let mut chain = Vec::new();
        let mut cur = x.clone();
        while &cur != self.a {
            if chain.len() > 32 {
                return None;
            }
            let e = f.def(&cur)?.clone();
            let next = match &e {
                Exp::Index(Atom::Var(y), _)
                | Exp::Slice(Atom::Var(y), ..)
                | Exp::Atom(Atom::Var(y)) => y.clone(),
                _ => return None,
            };
            chain.push((cur, e));
            cur = next;
        }
        Some(chain)
    }

    /// For a scalar read of `a` (through rows, slices and aliases) at a
    /// position the nest never writes: the same views made from the state,
    /// outermost first, for the read to read the last of.
    fn disjoint_read(&mut self, st: &Stmt, f: &Facts) -> Option<Vec<Stmt>> {
        let Exp::Index(Atom::Var(x), j) = &st.exp else {
            return None;
        };
        if matches!(st.ty, Type::Array(..)) {
            return None;
        }
        // the views from `x` up to `a`, and the index read in each dimension
        let chain = self.chain_to_a(x, f)?;
        let mut q = vec![f.lin(j)?];
        for (_, e) in &chain {
            match e {
                Exp::Index(_, i) => q.insert(0, f.lin(i)?),
                Exp::Slice(_, lo, _) => {
                    let first = q.first_mut()?;
                    *first = first.add(&f.lin(lo)?)?;
                }
                _ => {}
            }
        }
        let disjoint = self.written.iter().zip(&q).any(|((lo, hi), qd)| {
            f.exact(qd)
                && (lo
                    .sub(qd)
                    .and_then(|d| d.plus(-1))
                    .is_some_and(|d| f.nonneg(&d))
                    || qd
                        .sub(hi)
                        .and_then(|d| d.plus(-1))
                        .is_some_and(|d| f.nonneg(&d)))
        });
        if !disjoint || q.len() < self.written.len() {
            return None;
        }
        // the same views of the state, from the state down to `x`
        let mut base = self.state.clone();
        let mut out = Vec::with_capacity(chain.len());
        for (name, e) in chain.into_iter().rev() {
            let e = match e {
                Exp::Index(_, i) => Exp::Index(Atom::Var(base.clone()), i),
                Exp::Slice(_, lo, hi) => Exp::Slice(Atom::Var(base.clone()), lo, hi),
                _ => Exp::Atom(Atom::Var(base.clone())),
            };
            let v = self.fresh.name("dis");
            out.push(stmt(v.clone(), f.ty(&Atom::Var(name)), e, st.span));
            base = v;
        }
        if out.is_empty() {
            // (`a` read directly)
            out.push(stmt(
                self.fresh.name("dis"),
                f.ty(&Atom::Var(self.state.clone())),
                Exp::Atom(Atom::Var(self.state.clone())),
                st.span,
            ));
        }
        Some(out)
    }
}
