//! Weir front end, part 2: name resolution, type and size inference, the F-tilde
//! restrictions, and elaboration of the AST into the typed A-normal-form core IR.

// Diagnostics are large and returned only on the cold error path; boxing them buys nothing.
#![allow(clippy::result_large_err)]

mod effects;
mod elab;
mod infer;
pub mod unique;
mod zonk;

pub use elab::{DefSig, MAX_RANK, MAX_TYPE_SIZE};
pub use weir_ir::display_name;

use std::collections::HashMap;
use weir_ir::Program;
use weir_syntax::{Diagnostic, ast};

/// Check a parsed program and elaborate it. Definitions that fail are reported and
/// left out; later definitions are still checked.
pub fn check_program(prog: &ast::Program) -> (Program, Vec<Diagnostic>) {
    let mut sigs: HashMap<String, DefSig> = HashMap::new();
    let mut uniqs: HashMap<String, unique::Uniq> = HashMap::new();
    let mut later: HashMap<String, weir_syntax::Span> = HashMap::new();
    for d in &prog.defs {
        later.entry(d.name.name.clone()).or_insert(d.name.span);
    }
    let mut out = Program::default();
    let mut diags = Vec::new();
    let types = elab::check_type_defs(&prog.types, &mut diags);
    let mut counter = 0u32;
    // every abbreviation expanded once, before any definition uses one
    let no_abbrevs = elab::Abbrevs::default();
    let abbrevs = elab::Checker::new(&sigs, &later, &types, &no_abbrevs, &mut counter)
        .resolve_abbreviations();
    let mut seen: HashMap<String, weir_syntax::Span> = HashMap::new();
    // (definitions that failed: their uses are not reported again)
    let mut broken: std::collections::HashSet<String> = std::collections::HashSet::new();
    for d in &prog.defs {
        later.remove(&d.name.name);
        if let Some(prev) = seen.get(&d.name.name) {
            diags.push(
                Diagnostic::new(
                    "E0105",
                    d.name.span,
                    format!("`{}` is defined twice", d.name.name),
                )
                .with_label("second definition")
                .with_secondary(*prev, "first defined here")
                .with_help("rename one of the definitions"),
            );
            continue;
        }
        seen.insert(d.name.name.clone(), d.name.span);
        if weir_ir::Builtin::from_surface_name(&d.name.name).is_some()
            || weir_ir::MathFn::from_name(&d.name.name).is_some()
            || weir_ir::PrimType::from_name(&d.name.name).is_some()
            || d.name.name == "call"
            || d.name.name == "apply"
        {
            diags.push(
                Diagnostic::new(
                    "E0101",
                    d.name.span,
                    format!("`{}` is a builtin and cannot be redefined", d.name.name),
                )
                .with_label("reserved name")
                .with_help(format!("choose another name, e.g. `my_{}`", d.name.name)),
            );
            continue;
        }
        let (d, uniq) = unique::strip(d);
        let d = &d;
        let result = {
            let mut ck = elab::Checker::new(&sigs, &later, &types, &abbrevs, &mut counter);
            ck.broken = broken.clone();
            let r = ck.def(d);
            diags.append(&mut ck.diags);
            out.effects.append(&mut ck.effects);
            r
        };
        let Ok((def, sig)) = result else {
            broken.insert(d.name.name.clone());
            continue;
        };
        {
            let errs = unique::check(&def, &uniq, &uniqs);
            if !errs.is_empty() {
                diags.extend(errs);
                broken.insert(d.name.name.clone());
                continue;
            }
            if def.entry
                && (sig.ret != def.ret
                    || sig.params.iter().zip(&def.params).any(|(a, b)| a.1 != b.1))
            {
                out.surface.insert(
                    def.name.clone(),
                    (
                        sig.params.iter().map(|p| p.1.clone()).collect(),
                        sig.ret.clone(),
                    ),
                );
            }
            sigs.insert(d.name.name.clone(), sig);
            uniqs.insert(d.name.name.clone(), uniq);
            out.defs.push(def);
        }
    }
    if diags.is_empty() {
        diags.extend(effects::check(&out));
    }
    (out, diags)
}
