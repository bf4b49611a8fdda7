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
        weir_ir::visit::for_each_nested_body(&mut s.exp, &mut |nb| sweep(nb, uses, removed));
    }
}
