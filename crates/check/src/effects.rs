//! The effect check of dps-views Fig. 4.5 on the annotations a program
//! makes (`#[view]`, `#[dest]`, `#[eager]`).
//!
//! A primitive's effect is S (a source view: read through an index
//! function, never computed), D (a destination view: its pieces are written
//! straight into its result) or E (computed into storage of its own). Effects
//! compose left to right, in evaluation order, by COMPOSE: `ε₁ ⊖ ε₂` is an
//! error when `ε₁ = S` and `ε₂ = D`, and `ε₂` otherwise. A destination view
//! changes where its operands are *written*; a source view is never written
//! anywhere, so a destination view of a source view asks for two things that
//! exclude each other: `#[dest] (#[view] transpose a ++ b)` is rejected here
//! (E0602), naming both annotations.
//!
//! The compositions of Weir's primitives that can be invalid are those of a
//! source-view primitive (`transpose`, `reverse`) as a placed operand of a
//! destination-view primitive (`++`/`concat`: both operands; `pad`: the array
//! padded). Only the annotated ones are errors: where the compiler chose
//! the view or the placement itself (`--views=all`, the heuristic), it
//! materialises the view into its place instead (a strided copy), and
//! `weir dev --explain-views` says so.

use std::collections::HashMap;
use weir_ir::{Atom, Body, Builtin, Effect, Exp, Name, Prim, Program, Span, Stmt};
use weir_syntax::Diagnostic;

/// The operands a destination-view primitive writes in place, by position.
fn placed_operands(p: &Prim) -> Vec<&Atom> {
    match p {
        Prim::Concat { a, b } => vec![a, b],
        Prim::Pad { a, .. } | Prim::Rotate { a, .. } => vec![a],
        _ => vec![],
    }
}

/// The primitive's name as the user writes it.
fn shown(p: Builtin) -> &'static str {
    match p {
        Builtin::Concat => "++",
        p => p.source_name(),
    }
}

/// E0602 for each destination view whose placed operand is an annotated
/// source view.
pub fn check(prog: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !prog.effects.iter().any(|(_, e)| *e == Effect::Dest) {
        return out;
    }
    for d in &prog.defs {
        let mut defs: HashMap<Name, Stmt> = HashMap::new();
        collect(&d.body, &mut defs);
        let origin = |a: &Atom| -> Option<&Stmt> {
            let Atom::Var(v) = a else {
                return None;
            };
            let mut v = v;
            for _ in 0..1000 {
                let s = defs.get(v)?;
                match &s.exp {
                    Exp::Atom(Atom::Var(x)) => v = x,
                    _ => return Some(s),
                }
            }
            None
        };
        for s in defs.values() {
            let Exp::Prim(p) = &s.exp else { continue };
            if prog.effect_at(s.span) != Some(Effect::Dest) {
                continue;
            }
            for a in placed_operands(p) {
                let Some(src) = origin(a) else {
                    continue;
                };
                let Exp::Prim(q) = &src.exp else { continue };
                if prog.effect_at(src.span) != Some(Effect::Source) {
                    continue;
                }
                out.push(error(p.builtin(), s.span, q.builtin(), src.span));
            }
        }
    }
    out.sort_by_key(|d| (d.span.file, d.span.start));
    out.dedup_by_key(|d| (d.span.file, d.span.start));
    out
}

fn error(dp: Builtin, dspan: Span, sp: Builtin, sspan: Span) -> Diagnostic {
    Diagnostic::new(
        "E0602",
        dspan,
        format!(
            "a source view cannot be written in place: `#[dest]` writes the operands of this `{}` straight into its result, but one is a `#[view]` `{}`, which is never computed",
            shown(dp),
            shown(sp)
        ),
    )
    .with_label("a destination view (`#[dest]`)")
    .with_secondary(sspan, "a source view (`#[view]`) of its argument's memory")
    .with_help(format!(
        "ask for one of the two: without `#[view]` (or with `#[eager]`) the `{}` is computed straight into its place; without `#[dest]` the `{}` reads it through the view and copies it",
        shown(sp),
        shown(dp)
    ))
}

fn collect(b: &Body, defs: &mut HashMap<Name, Stmt>) {
    for s in &b.stmts {
        defs.insert(s.var.clone(), s.clone());
        weir_ir::visit::for_each_nested_body_ref(&s.exp, &mut |nb| collect(nb, defs));
    }
}
