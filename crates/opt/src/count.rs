//! Counting the arrays a program materialises (statically): the statements that
//! produce a new array — a literal, a builtin with an array result, a loop with
//! array state. Views (indexing, slicing, copies, projections) and calls (counted in
//! their callee) do not count. The row built as the result of a `build`'s body is
//! part of the enclosing array (it is written in place), so it does not count either,
//! nor does a piece of a `concat` computed for it, nor a `transpose`/`reverse` the
//! optimizer left (a view).
//! Used to report what fusion removed.

use weir_ir::*;

fn has_array(t: &Type) -> bool {
    match t {
        Type::Array(..) => true,
        Type::Tuple(ts) => ts.iter().any(has_array),
        _ => false,
    }
}

/// Array-producing statements in every definition of the program.
pub fn materialised(prog: &Program) -> usize {
    prog.defs.iter().map(|d| in_body(&d.body)).sum()
}

/// The same for one definition.
pub fn materialised_in(d: &FunDef) -> usize {
    in_body(&d.body)
}

fn in_body(b: &Body) -> usize {
    let pieces = concat_pieces(b);
    b.stmts
        .iter()
        .map(|s| {
            let piece = pieces.contains(&s.var);
            (if piece { 0 } else { here(s) }) + nested(&s.exp)
        })
        .sum()
}

/// A build's body: its result row belongs to the enclosing array.
fn build_body(b: &Body) -> usize {
    let pieces = concat_pieces(b);
    let row = |s: &Stmt| matches!(&b.result, Atom::Var(v) if *v == s.var);
    b.stmts
        .iter()
        .map(|s| if row(s) || pieces.contains(&s.var) { 0 } else { here(s) } + nested(&s.exp))
        .sum()
}

/// The operands of the `concat`s of a body that the body computes: the C
/// backend writes them in place, into their part of the concatenation
/// (short-circuiting), where nothing in between can fail.
fn concat_pieces(b: &Body) -> Vec<Name> {
    let local: Vec<&Name> = b.stmts.iter().map(|s| &s.var).collect();
    b.stmts
        .iter()
        .filter_map(|s| match &s.exp {
            Exp::Prim(Prim::Concat { a, b }) => Some([a, b]),
            _ => None,
        })
        .flatten()
        .filter_map(|a| match a {
            Atom::Var(v) if local.contains(&v) => Some(v.clone()),
            _ => None,
        })
        .collect()
}

fn here(s: &Stmt) -> usize {
    // (a `transpose` or `reverse` left by the optimizer is a view)
    let produces = matches!(s.exp, Exp::ArrayLit(_) | Exp::Prim(..) | Exp::Loop { .. })
        && !matches!(
            s.exp,
            Exp::Prim(Prim::Transpose { .. } | Prim::Reverse { .. })
        );
    usize::from(produces && has_array(&s.ty))
}

fn nested(e: &Exp) -> usize {
    let mut n = 0;
    match e {
        Exp::Prim(Prim::Build { f, .. }) => {
            if let Fun::Lambda(l) = f {
                n += build_body(&l.body);
            }
        }
        _ => weir_ir::visit::for_each_nested_body_ref(e, &mut |b| n += in_body(b)),
    }
    n
}

/// Array-producing statements on the call paths of one entry: its own, plus, for
/// every call, those of the callee (once per call site, transitively). This is what
/// one call of the entry can materialise (each loop body counted once).
pub fn materialised_per_entry(prog: &Program, entry: &str) -> usize {
    fn go(prog: &Program, name: &str, fuel: usize) -> usize {
        let Some(d) = prog.find(name) else { return 0 };
        if fuel == 0 {
            return 0;
        }
        let mut calls = Vec::new();
        calls_of(&d.body, &mut calls);
        in_body(&d.body) + calls.iter().map(|c| go(prog, c, fuel - 1)).sum::<usize>()
    }
    go(prog, entry, 64)
}

fn calls_of(b: &Body, out: &mut Vec<Name>) {
    for s in &b.stmts {
        if let Exp::Call(f, _) = &s.exp {
            out.push(f.clone());
        }
        weir_ir::visit::for_each_nested_body_ref(&s.exp, &mut |nb| calls_of(nb, out));
    }
}
