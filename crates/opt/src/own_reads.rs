//! Reads of an update nest's own element: in a nest of counted loops that
//! updates its state one element per innermost iteration,
//!
//! ```text
//! loop b0 = a for r0 < n0 do            -- one level per loop
//!   loop b1 = b0 for r1 < n1 do
//!     ... x = a[c0 + r0][c1 + r1] ...   -- reads `a` where it writes
//!     update2 b1 (c0 + r0) (c1 + r1) v
//! ```
//!
//! a read of the nest's initial array `a` at exactly the position the
//! iteration updates reads the innermost state there instead
//! (`x = b1[c0 + r0][c1 + r1]`): every position is written once, by its own
//! iteration (each index is an invariant plus one level's counter, so two
//! iterations write two positions), so before this iteration's update the
//! state still holds `a`'s element. The nest then no longer reads `a` once
//! it has begun, and `in-place-state` (DPS) can keep `a`'s loop state in one
//! buffer: `hz with [:nx-1, :ny-1] = map4 (..hz[i][j]..) ..` (fdtd-2d in
//! NumPy form), fused into its nest, read the old `hz` while writing the new
//! one, which double-buffered the time loop's state.
//!
//! The read's own bounds check stays (`assert_index` of its index against
//! the array it read: a slice of `a` may be shorter than `a`), in front of
//! the new read.

use crate::facts::Facts;
use crate::util::*;
use std::collections::HashMap;
use weir_ir::*;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let mut w = Walk {
            defs: HashMap::new(),
            fresh: Fresh::for_fun(d),
            types: type_env(d),
            uses: weir_ir::visit::use_counts(d),
            keep_slices: false,
            changed: false,
        };
        let facts = Facts::for_fun(d);
        w.body(&mut d.body, facts);
        changed |= w.changed;
    }
    changed
}

struct Walk {
    /// The index, slice, arithmetic and alias definitions seen so far.
    defs: HashMap<Name, Exp>,
    fresh: Fresh,
    types: HashMap<Name, Type>,
    uses: HashMap<Name, usize>,
    /// Inside the fallback branch of a slice update made a nest.
    keep_slices: bool,
    changed: bool,
}

/// An index as `c + Σ vars` (each var once).
#[derive(Clone, PartialEq, Debug)]
struct Key {
    c: i64,
    vars: Vec<Name>,
}

impl Key {
    fn add(mut self, o: Key) -> Option<Key> {
        self.c = self.c.checked_add(o.c)?;
        self.vars.extend(o.vars);
        self.vars.sort();
        Some(self)
    }
}

/// One level of a nest: its state, its counter.
struct Level {
    state: Name,
    counter: Name,
}

impl Walk {
    fn body(&mut self, b: &mut Body, mut facts: Facts) {
        let stmts = std::mem::take(&mut b.stmts);
        let mut out: Vec<Stmt> = Vec::with_capacity(stmts.len());
        for mut st in stmts {
            if !self.keep_slices
                && let Some(done) = self.slice_update(&mut out, &st, &mut facts)
            {
                st = done;
            }
            if let Exp::Loop { .. } = &st.exp {
                self.nest(&mut st);
            }
            let inner = facts.enter(&st.exp);
            let mut inner = inner.into_iter();
            if let Some(f) = slice_nest_fallback(&mut st) {
                // (the original of a slice update made a nest: kept as it is)
                let (then_facts, else_facts) = (inner.next(), inner.next());
                let keep = std::mem::replace(&mut self.keep_slices, true);
                self.body(f, else_facts.unwrap_or_else(|| facts.clone()));
                self.keep_slices = keep;
                if let Exp::If(_, t, _) = &mut st.exp {
                    self.body(t, then_facts.unwrap_or_else(|| facts.clone()));
                }
            } else {
                weir_ir::visit::for_each_nested_body(&mut st.exp, &mut |nb| {
                    let f = inner.next().unwrap_or_else(|| facts.clone());
                    self.body(nb, f)
                });
            }
            match &st.exp {
                Exp::Index(..) | Exp::Slice(..) | Exp::Atom(_) | Exp::Bin(BinOp::Add, ..) => {
                    self.defs.insert(st.var.clone(), st.exp.clone());
                }
                _ => {}
            }
            facts.add(&st);
            out.push(st);
        }
        b.stmts = out;
    }

    /// `update_slice a s e v`, `v` a `build` made just before (after it only
    /// statements that cannot fail) and read nowhere else, whose elements
    /// read `a`: as an update nest ([`crate::slice_nest`]) where the nest's
    /// reads of `a` all become reads of its state; the `if` replacing `st`
    /// (with the `ok` test appended to `out`), or `None`.
    fn slice_update(&mut self, out: &mut Vec<Stmt>, st: &Stmt, facts: &mut Facts) -> Option<Stmt> {
        let (a, prefix, s, e, v) = match &st.exp {
            Exp::Prim(Prim::UpdateSlice {
                a: Atom::Var(a),
                s,
                e,
                v: Atom::Var(v),
            }) => (a, vec![], s, e, v),
            Exp::Prim(Prim::UpdateSlice2 {
                a: Atom::Var(a),
                i,
                s,
                e,
                v: Atom::Var(v),
            }) => (a, vec![i.clone()], s, e, v),
            _ => return None,
        };
        if self.uses.get(v) != Some(&1) {
            return None;
        }
        let p = out.iter().rposition(|x| &x.var == v)?;
        if out[p + 1..].iter().any(|x| can_fail(&x.exp)) {
            return None;
        }
        let build = out.get(p)?;
        if !reads(&build.exp, a, &self.defs) {
            return None;
        }
        let a_ty = self.types.get(a)?.clone();
        let cand =
            crate::slice_nest::candidate(st, a, &a_ty, &prefix, (s, e), build, &mut self.fresh)?;
        let mut nest = cand.nest;
        let changed = self.changed;
        self.nest(&mut nest);
        // (reads of `a` where the nest never writes: at the nest, after the
        // checks, where `ok` holds; `facts` has the statements in `out`)
        let mut at_nest = facts.clone();
        for s in &cand.checks {
            at_nest.add(s);
        }
        crate::disjoint_reads::rewrite(&mut nest, &at_nest, &mut self.fresh);
        self.changed = changed;
        if reads(&nest.exp, a, &self.defs) {
            return None;
        }
        let build = out.remove(p);
        for c in &cand.checks {
            facts.add(c);
        }
        out.extend(cand.checks);
        let r0 = self.fresh.name("t");
        let orig = Body {
            stmts: vec![
                build,
                stmt(r0.clone(), st.ty.clone(), st.exp.clone(), st.span),
            ],
            result: Atom::Var(r0),
        };
        let then = Body {
            result: Atom::Var(nest.var.clone()),
            stmts: vec![nest],
        };
        self.changed = true;
        Some(stmt(
            st.var.clone(),
            st.ty.clone(),
            Exp::If(cand.ok, then, orig),
            st.span,
        ))
    }

    /// Rewrite the own-element reads of the nest `st` is the top of.
    fn nest(&mut self, st: &mut Stmt) {
        let bound = binders_of(&st.exp);
        let st_ty = st.ty.clone();
        let Exp::Loop {
            state,
            init: Atom::Var(a),
            form: LoopForm::For(r0, _),
            body,
        } = &mut st.exp
        else {
            return;
        };
        let a = a.clone();
        let mut levels = vec![Level {
            state: state.0.clone(),
            counter: r0.clone(),
        }];
        // (the definitions made by the levels' bodies, for the keys)
        let mut inner_defs: HashMap<Name, Exp> = HashMap::new();
        let mut cur: &mut Body = body;
        let idx: Vec<Atom> = loop {
            let Some(last) = levels.last() else { return };
            if uses_in(cur, &last.state) != 1 {
                return;
            }
            for s in &cur.stmts {
                if matches!(
                    s.exp,
                    Exp::Bin(BinOp::Add, ..) | Exp::Atom(_) | Exp::Index(..) | Exp::Slice(..)
                ) {
                    inner_defs.insert(s.var.clone(), s.exp.clone());
                }
            }
            let Atom::Var(res) = &cur.result else { return };
            let Some(k) = cur.stmts.iter().position(|s| &s.var == res) else {
                return;
            };
            match &cur.stmts[k].exp {
                Exp::Prim(p) => match p.update_parts() {
                    Some((Atom::Var(arr), ix, None, _)) if *arr == last.state => {
                        break ix.into_iter().cloned().collect();
                    }
                    _ => return,
                },
                Exp::Loop {
                    state: (s1, _),
                    init: Atom::Var(i1),
                    form: LoopForm::For(r1, _),
                    ..
                } if *i1 == last.state => {
                    levels.push(Level {
                        state: s1.clone(),
                        counter: r1.clone(),
                    });
                }
                _ => return,
            }
            let Some(Stmt {
                exp: Exp::Loop { body: b1, .. },
                ..
            }) = cur.stmts.get_mut(k)
            else {
                return;
            };
            cur = b1;
        };
        if idx.len() < levels.len() {
            return;
        }
        let counters: Vec<&Name> = levels.iter().map(|l| &l.counter).collect();
        let key_of = |x: &Atom| key(x, &self.defs, &inner_defs, &counters, 8);
        let Some(keys) = idx.iter().map(key_of).collect::<Option<Vec<Key>>>() else {
            return;
        };
        // injective: each level's counter in exactly one index, once, and
        // every other name in an index bound outside the nest
        if keys
            .iter()
            .flat_map(|k| &k.vars)
            .any(|v| !counters.contains(&v) && bound.contains(v))
        {
            return;
        }
        for c in &counters {
            let n: usize = keys
                .iter()
                .map(|k| k.vars.iter().filter(|v| v == c).count())
                .sum();
            if n != 1 {
                return;
            }
        }
        let Some(last) = levels.last() else { return };
        let inner = last.state.clone();
        let Some(row_types) = row_types(&st_ty, idx.len()) else {
            return;
        };
        let mut out = Vec::with_capacity(cur.stmts.len());
        for s in std::mem::take(&mut cur.stmts) {
            let own = match &s.exp {
                Exp::Index(Atom::Var(x), j) if !matches!(s.ty, Type::Array(..)) => self
                    .path(x, j, &inner_defs, &counters)
                    .is_some_and(|(base, path)| base == a && path == keys),
                _ => false,
            };
            if !own {
                out.push(s);
                continue;
            }
            let Exp::Index(x, j) = &s.exp else {
                out.push(s);
                continue;
            };
            // the read's own check, then the read of the state
            let n = self.fresh.name("n");
            out.push(stmt(n.clone(), Type::I64, Exp::Dim(x.clone(), 0), s.span));
            out.push(stmt(
                self.fresh.name("chk"),
                Type::I64,
                Exp::Check(Box::new(Check::new(
                    CheckKind::Index,
                    vec![j.clone(), Atom::Var(n)],
                    "",
                ))),
                s.span,
            ));
            let mut arr = Atom::Var(inner.clone());
            for (k, ix) in idx.iter().enumerate() {
                if k + 1 == idx.len() {
                    out.push(stmt(
                        s.var.clone(),
                        s.ty.clone(),
                        Exp::Index(arr.clone(), ix.clone()),
                        s.span,
                    ));
                } else {
                    let r = self.fresh.name("own");
                    let ty = row_types.get(k).cloned().unwrap_or(Type::Tuple(vec![]));
                    out.push(stmt(r.clone(), ty, Exp::Index(arr, ix.clone()), s.span));
                    arr = Atom::Var(r);
                }
            }
            self.changed = true;
        }
        cur.stmts = out;
    }

    /// The array a scalar read `x[j]` reads, and the index of each of its
    /// dimensions, through rows and slices.
    fn path(
        &self,
        x: &Name,
        j: &Atom,
        inner: &HashMap<Name, Exp>,
        counters: &[&Name],
    ) -> Option<(Name, Vec<Key>)> {
        let mut keys = vec![key(j, &self.defs, inner, counters, 8)?];
        let mut cur = x.clone();
        for _ in 0..32 {
            let def = inner.get(&cur).or_else(|| self.defs.get(&cur));
            match def {
                Some(Exp::Index(Atom::Var(y), i)) => {
                    keys.insert(0, key(i, &self.defs, inner, counters, 8)?);
                    cur = y.clone();
                }
                Some(Exp::Slice(Atom::Var(y), lo, _)) => {
                    let lo = key(lo, &self.defs, inner, counters, 8)?;
                    let first = keys.first_mut()?;
                    *first = first.clone().add(lo)?;
                    cur = y.clone();
                }
                Some(Exp::Atom(Atom::Var(y))) => cur = y.clone(),
                _ => return Some((cur, keys)),
            }
        }
        None
    }
}

/// `x` as `c + Σ vars`: constants, sums, and otherwise names (a counter of
/// the nest, or anything else taken as it is).
fn key(
    x: &Atom,
    outer: &HashMap<Name, Exp>,
    inner: &HashMap<Name, Exp>,
    counters: &[&Name],
    fuel: usize,
) -> Option<Key> {
    match x {
        Atom::Const(c) => Some(Key {
            c: c.as_int()?.try_into().ok()?,
            vars: vec![],
        }),
        Atom::Var(v) => {
            let def = inner.get(v).or_else(|| outer.get(v));
            match def {
                _ if counters.contains(&v) => Some(Key {
                    c: 0,
                    vars: vec![v.clone()],
                }),
                Some(Exp::Bin(BinOp::Add, p, q)) if fuel > 0 => key(
                    p,
                    outer,
                    inner,
                    counters,
                    fuel - 1,
                )?
                .add(key(q, outer, inner, counters, fuel - 1)?),
                Some(Exp::Atom(y)) if fuel > 0 => key(y, outer, inner, counters, fuel - 1),
                _ => Some(Key {
                    c: 0,
                    vars: vec![v.clone()],
                }),
            }
        }
    }
}

/// How many times `b` (nested bodies included) uses `v`.
fn uses_in(b: &Body, v: &str) -> usize {
    let mut c = weir_ir::visit::UseCounter::default();
    weir_ir::visit::walk_body_mut(&mut c, &mut b.clone());
    c.counts.get(v).copied().unwrap_or(0)
}

/// Every name bound inside `e` (nested bodies included).
fn binders_of(e: &Exp) -> std::collections::HashSet<Name> {
    struct B(std::collections::HashSet<Name>);
    impl weir_ir::visit::MutVisitor for B {
        fn binder(&mut self, n: &mut Name) {
            self.0.insert(n.clone());
        }
    }
    let mut b = B(Default::default());
    weir_ir::visit::walk_exp_mut(&mut b, &mut e.clone());
    b.0
}

/// The types of the rows of `t` (an array of rank at least `k`) indexed
/// once, twice, ... `k - 1` times.
fn row_types(t: &Type, k: usize) -> Option<Vec<Type>> {
    let mut out = Vec::new();
    let mut cur = t;
    for _ in 0..k.saturating_sub(1) {
        let Type::Array(_, row) = cur else {
            return None;
        };
        out.push((**row).clone());
        cur = row;
    }
    Some(out)
}

/// Does `e` read `a` (itself, or through rows, slices and aliases of it)
/// other than by making such views, or taking their sizes?
fn reads(e: &Exp, a: &Name, outer: &HashMap<Name, Exp>) -> bool {
    let mut defs = HashMap::new();
    let mut stack = vec![];
    weir_ir::visit::for_each_nested_body_ref(e, &mut |b| stack.push(b.clone()));
    let bodies = stack.clone();
    while let Some(b) = stack.pop() {
        for st in &b.stmts {
            defs.insert(st.var.clone(), st.exp.clone());
            weir_ir::visit::for_each_nested_body_ref(&st.exp, &mut |nb| stack.push(nb.clone()));
        }
    }
    let root = |x: &Name| -> bool {
        let mut cur = x.clone();
        for _ in 0..64 {
            if &cur == a {
                return true;
            }
            match defs.get(&cur).or_else(|| outer.get(&cur)) {
                Some(
                    Exp::Index(Atom::Var(y), _)
                    | Exp::Slice(Atom::Var(y), ..)
                    | Exp::Atom(Atom::Var(y)),
                ) => cur = y.clone(),
                _ => return false,
            }
        }
        false
    };
    fn uses_of(e: &Exp) -> Vec<Name> {
        let mut shallow = e.clone();
        weir_ir::visit::for_each_nested_body(&mut shallow, &mut |b| *b = empty_body());
        let mut c = weir_ir::visit::UseCounter::default();
        weir_ir::visit::walk_exp_mut(&mut c, &mut shallow);
        c.counts.into_keys().collect()
    }
    let mut todo = bodies;
    while let Some(b) = todo.pop() {
        if let Atom::Var(r) = &b.result
            && root(r)
        {
            return true;
        }
        for st in &b.stmts {
            let view = match &st.exp {
                Exp::Index(..) => matches!(st.ty, Type::Array(..)),
                Exp::Slice(..) | Exp::Atom(_) | Exp::Dim(..) => true,
                _ => false,
            };
            if !view && uses_of(&st.exp).iter().any(&root) {
                return true;
            }
            weir_ir::visit::for_each_nested_body_ref(&st.exp, &mut |nb| todo.push(nb.clone()));
        }
    }
    false
}

/// The fallback branch of `if ok then <nest from a> else { ...; update_slice
/// a s e v }`, the form [`Walk::slice_update`] makes.
fn slice_nest_fallback(st: &mut Stmt) -> Option<&mut Body> {
    let Exp::If(_, t, f) = &mut st.exp else {
        return None;
    };
    let [
        Stmt {
            exp: Exp::Loop {
                init: Atom::Var(a), ..
            },
            ..
        },
    ] = t.stmts.as_slice()
    else {
        return None;
    };
    match f.stmts.last() {
        Some(Stmt {
            exp:
                Exp::Prim(
                    Prim::UpdateSlice {
                        a: Atom::Var(a2), ..
                    }
                    | Prim::UpdateSlice2 {
                        a: Atom::Var(a2), ..
                    },
                ),
            ..
        }) if a2 == a => Some(f),
        _ => None,
    }
}
