//! Renaming in statement lists: every variable a list binds (at any depth:
//! lets, views, the outs of compound statements, loop counters and states,
//! accumulators, operator parameters, buffers) and every use of it. What a
//! loop transformation that copies a body needs, so that every name is
//! bound once in a function ([`fresh_copy`]).

use crate::ir::*;
use std::collections::HashMap;

/// Every variable bound in `stmts`, nested statements included.
pub fn binders(stmts: &[Stmt]) -> Vec<Name> {
    let mut out = Vec::new();
    for s in stmts {
        binders_of(s, &mut out);
    }
    out
}

fn binders_of(s: &Stmt, out: &mut Vec<Name>) {
    out.extend(stmt_binds(s).into_iter().cloned());
    match s {
        Stmt::Alloc { bufs, .. } => out.extend(bufs.iter().map(|b| b.var.clone())),
        Stmt::For { i, .. } => out.push(i.clone()),
        Stmt::Fold { acc, i, .. } => {
            out.extend(acc.iter().map(|(n, _)| n.clone()));
            out.push(i.clone());
        }
        Stmt::Reduce { i, op, .. } => {
            out.push(i.clone());
            out.extend(op.a.iter().chain(&op.b).cloned());
        }
        Stmt::Loop {
            scalars,
            arrays,
            form,
            ..
        } => {
            out.extend(scalars.iter().map(|(n, _, _)| n.clone()));
            for st in arrays {
                out.push(st.var.clone());
                out.push(st.next.clone());
            }
            if let LoopForm::For(i, _) = form {
                out.push(i.clone());
            }
        }
        _ => {}
    }
    for b in nested_blocks(s) {
        for t in b {
            binders_of(t, out);
        }
    }
}

/// Replace every occurrence (bound or used) of a name in `map` by its image.
pub fn rename(stmts: &mut [Stmt], map: &HashMap<Name, Name>) {
    for s in stmts {
        rename_stmt(s, map);
    }
}

fn name(x: &mut Name, m: &HashMap<Name, Name>) {
    if let Some(y) = m.get(x) {
        *x = y.clone();
    }
}

fn atom(x: &mut Atom, m: &HashMap<Name, Name>) {
    if let Atom::Var(v) = x {
        name(v, m);
    }
}

fn atoms(xs: &mut [Atom], m: &HashMap<Name, Name>) {
    xs.iter_mut().for_each(|x| atom(x, m));
}

fn outs(xs: &mut [(Name, PrimType)], m: &HashMap<Name, Name>) {
    xs.iter_mut().for_each(|(x, _)| name(x, m));
}

fn block(b: &mut Block, m: &HashMap<Name, Name>) {
    rename(&mut b.stmts, m);
    atoms(&mut b.results, m);
}

fn rename_stmt(s: &mut Stmt, m: &HashMap<Name, Name>) {
    match s {
        Stmt::Let { var, exp, .. } => {
            name(var, m);
            match exp {
                SExp::Atom(x) | SExp::Un(_, x) | SExp::Convert(_, x) => atom(x, m),
                SExp::Bin(_, x, y) | SExp::DivOr0(x, y) | SExp::RemOr0(x, y) => {
                    atom(x, m);
                    atom(y, m);
                }
                SExp::Math(_, xs) => atoms(xs, m),
                SExp::Load(a, idx) | SExp::LoadOr0(a, idx) => {
                    name(a, m);
                    atoms(idx, m);
                }
                SExp::Dim(a, _) => name(a, m),
            }
        }
        Stmt::Check { check, .. } => {
            atom(&mut check.got, m);
            atom(&mut check.want, m);
        }
        Stmt::Guard { guard, .. } => match guard {
            Guard::Core(c) => atoms(&mut c.args, m),
            Guard::Split { k, len } => {
                atom(k, m);
                atom(len, m);
            }
            Guard::Stride { k } => atom(k, m),
            Guard::Slide { w, s, len } => {
                atom(w, m);
                atom(s, m);
                atom(len, m);
            }
            Guard::DestReady { dest, build } | Guard::Grown { dest, build } => {
                name(dest, m);
                atoms(build, m);
            }
            Guard::DestRows { dest, rows } => {
                name(dest, m);
                atom(rows, m);
            }
            Guard::Irregular {
                at,
                first,
                got,
                inner,
            } => {
                atom(at, m);
                atom(first, m);
                atom(got, m);
                atoms(inner, m);
            }
            Guard::Fits { got, want } => {
                atoms(got, m);
                atoms(want, m);
            }
        },
        Stmt::View { var, view, .. } => {
            name(var, m);
            match view {
                View::Alias(x) | View::Transpose(x) | View::Reverse(x) => name(x, m),
                View::Row(x, i) => {
                    name(x, m);
                    atom(i, m);
                }
                View::Slice(x, a, b) => {
                    name(x, m);
                    atom(a, m);
                    atom(b, m);
                }
                View::Reshape(x, ds) => {
                    name(x, m);
                    atoms(ds, m);
                }
                View::Replicate(k, x) | View::Stride(k, x) => {
                    atom(k, m);
                    name(x, m);
                }
                View::Placed { part, lo, hi, root } => {
                    name(part, m);
                    atom(lo, m);
                    atom(hi, m);
                    name(root, m);
                }
            }
        }
        Stmt::Alloc {
            outs: o,
            bufs,
            body,
        } => {
            outs(o, m);
            for b in bufs {
                name(&mut b.var, m);
                atoms(&mut b.dims, m);
                atoms(&mut b.when, m);
            }
            block(body, m);
        }
        Stmt::For { i, n, body } => {
            name(i, m);
            atom(n, m);
            rename(body, m);
        }
        Stmt::Store { dest, idx, val, .. } => {
            name(dest, m);
            atoms(idx, m);
            atom(val, m);
        }
        Stmt::Copy { dest, src, .. } => {
            name(dest, m);
            name(src, m);
        }
        Stmt::If {
            outs: o,
            cond,
            then,
            els,
        } => {
            outs(o, m);
            atom(cond, m);
            block(then, m);
            block(els, m);
        }
        Stmt::Fold {
            outs: o,
            acc,
            init,
            i,
            n,
            body,
        } => {
            outs(o, m);
            outs(acc, m);
            atoms(init, m);
            name(i, m);
            atom(n, m);
            block(body, m);
        }
        Stmt::Reduce {
            outs: o,
            ne,
            i,
            n,
            elem,
            op,
        } => {
            outs(o, m);
            atoms(ne, m);
            name(i, m);
            atom(n, m);
            block(elem, m);
            op.a.iter_mut()
                .chain(op.b.iter_mut())
                .for_each(|x| name(x, m));
            block(&mut op.body, m);
        }
        Stmt::Loop {
            outs: o,
            scalars,
            arrays,
            form,
            body,
        } => {
            outs(o, m);
            for (x, _, init) in scalars {
                name(x, m);
                atom(init, m);
            }
            for st in arrays {
                name(&mut st.var, m);
                name(&mut st.next, m);
                name(&mut st.out, m);
                atoms(&mut st.dims, m);
                if let Some(g) = &mut st.grow {
                    name(g, m);
                }
            }
            match form {
                LoopForm::For(i, n) => {
                    name(i, m);
                    atom(n, m);
                }
                LoopForm::While(c) => block(c, m),
            }
            block(body, m);
        }
        Stmt::Grow {
            dest,
            rows,
            hint,
            soft,
            ..
        } => {
            name(dest, m);
            atom(rows, m);
            if let Some(h) = hint {
                atom(h, m);
            }
            atoms(soft, m);
        }
        Stmt::Call {
            outs: o,
            dests,
            args,
            ..
        } => {
            outs(o, m);
            dests.iter_mut().for_each(|x| name(x, m));
            atoms(args, m);
        }
    }
}

/// A copy of `stmts` in which every variable they bind has a fresh name
/// (from `fresh`), its uses renamed with it; `extra` renames free variables
/// too (e.g. a loop counter bound outside the copy).
pub fn fresh_copy(
    stmts: &[Stmt],
    extra: &HashMap<Name, Name>,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Vec<Stmt> {
    let mut map = extra.clone();
    for b in binders(stmts) {
        let f = fresh(&b);
        map.insert(b, f);
    }
    let mut out = stmts.to_vec();
    rename(&mut out, &map);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        crate::parse::parse_program(text).expect("test program parses")
    }

    /// Every name a copy binds is new, and its uses follow: the copy of a
    /// loop body next to the original verifies.
    #[test]
    fn fresh_copies_bind_new_names_and_verify() {
        let text = "entry f (out: dest [dim a 0]f64) (n: i64) (a: []f64) -> (dest 0) {
  for i < n {
    let t: i64 = i + 1i64
    (o: f64) = if true {
      let x: f64 = a[i]
      yield x
    } else {
      yield 0.0f64
    }
    (s: f64) = fold (acc: f64) = (o) for k < t {
      let y: f64 = acc + o
      yield y
    }
    out[i] := s
  }
}
";
        let mut p = program(text);
        let Stmt::For { body, .. } = &p.funs[0].body.stmts[0] else {
            panic!("a for loop");
        };
        let mut k = 0;
        let copy = fresh_copy(body, &HashMap::new(), &mut |b| {
            k += 1;
            format!("{b}_c{k}")
        });
        let old = binders(body);
        let new = binders(&copy);
        assert_eq!(old.len(), new.len());
        assert!(new.iter().all(|n| !old.contains(n)), "{new:?}");
        let mut both = body.clone();
        both.extend(copy);
        if let Stmt::For { body, .. } = &mut p.funs[0].body.stmts[0] {
            *body = both;
        }
        crate::verify::verify_program(&p).expect("the doubled body verifies");
    }
}
