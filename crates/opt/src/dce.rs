//! Dead-code elimination: statements whose variable is never used (as an atom, a
//! size in a type, or a function) and that have no effect are removed, in all
//! bodies, until nothing more goes. The only effects are explicit checks
//! (`assert_size`) and `while` loops (which might not terminate).

use crate::util::*;
use weir_ir::visit::use_counts;
use weir_ir::*;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        loop {
            let uses = use_counts(d);
            let mut removed = false;
            sweep(&mut d.body, &uses, &mut removed);
            if !removed {
                break;
            }
            changed = true;
        }
    }
    changed
}

fn sweep(b: &mut Body, uses: &std::collections::HashMap<Name, usize>, removed: &mut bool) {
    b.stmts.retain(|s| {
        let dead = uses.get(&s.var).copied().unwrap_or(0) == 0 && !has_effect(&s.exp);
        *removed |= dead;
        !dead
    });
    for s in &mut b.stmts {
        match &mut s.exp {
            Exp::If(_, t, f) => {
                sweep(t, uses, removed);
                sweep(f, uses, removed);
            }
            Exp::Call(_, args) | Exp::Prim(_, args) => {
                for a in args {
                    if let Arg::Fun(Fun::Lambda(l)) = a {
                        sweep(&mut l.body, uses, removed);
                    }
                }
            }
            Exp::Loop { form, body, .. } => {
                if let LoopForm::While(c) = form {
                    sweep(c, uses, removed);
                }
                sweep(body, uses, removed);
            }
            _ => {}
        }
    }
}
