//! Scalar replacement of small buffers: an `alloc` buffer of a small constant
//! size whose pointer never leaves the C block that declares it lives in a C
//! local array instead of the context's bump region (issue 18). The C
//! compiler then keeps its elements in registers where every index is
//! constant after unrolling (BA's 3-vectors, HT's 3×3 rows), and a scope
//! left with nothing in the region needs no region mark at all: its
//! push/pop go too, and an entry that allocates nothing takes no mark
//! (`WEIR_ENTRY_LIGHT`).
//!
//! Only the region mode's buffers move (the other memory modes exist to
//! compare allocation strategies); the element count must be a product of
//! constants (`Stmt::Count` with constant dims) of at most
//! [`MAX_BYTES`] bytes, and a function's stack buffers at most
//! [`MAX_FRAME`] bytes together.

use crate::imp::{AllocKind, Exp, Func, Name, Stmt, Unit};
use std::collections::{HashMap, HashSet};

/// The largest buffer placed on the stack, in bytes.
pub const MAX_BYTES: i64 = 512;
/// The most bytes of stack buffers in one function.
pub const MAX_FRAME: i64 = 4096;

/// Run the pass on every function of the unit.
pub fn run(u: &mut Unit) {
    for f in &mut u.funcs {
        let mut counts = HashMap::new();
        collect_counts(&f.body, &mut counts);
        let whole = f.body.clone();
        let mut frame = 0;
        f.body = place(std::mem::take(&mut f.body), &counts, &mut frame, &whole);
    }
    drop_empty_scopes(u);
}

/// The constant element counts: `Count` statements of constant dims, with
/// no `when` (a count that may be 0 is still at most the product).
fn collect_counts(ss: &[Stmt], out: &mut HashMap<Name, i64>) {
    crate::imp::visit(
        ss,
        &mut |s| {
            if let Stmt::Count { var, dims, .. } = s {
                let mut n: i64 = 1;
                for d in dims {
                    match d {
                        Exp::Const(weir_ir::Const::I64(c)) if *c >= 0 => {
                            n = match n.checked_mul(*c) {
                                Some(n) => n,
                                None => return,
                            }
                        }
                        _ => return,
                    }
                }
                out.insert(var.clone(), n);
            }
        },
        &mut |_| {},
    );
}

fn elem_bytes(p: weir_ir::PrimType) -> i64 {
    i64::from(p.bits() / 8)
}

fn place(ss: Vec<Stmt>, counts: &HashMap<Name, i64>, frame: &mut i64, f: &[Stmt]) -> Vec<Stmt> {
    ss.into_iter()
        .map(|s| match s {
            Stmt::Alloc {
                ptr,
                elem,
                elems,
                kind: AllocKind::Region,
                loc,
            } => {
                let n = match &elems {
                    Exp::Var(v) => counts.get(v).copied(),
                    // (a lazy count: the same product, its error later)
                    Exp::Call(g, xs) if g == "weir_lazy_n" => match xs.as_slice() {
                        [Exp::Var(v)] => counts.get(v).copied(),
                        _ => None,
                    },
                    _ => None,
                };
                let bytes = n.map(|n| n.max(1).saturating_mul(elem_bytes(elem)));
                match (n, bytes) {
                    (Some(n), Some(b))
                        if b <= MAX_BYTES
                            && *frame + b <= MAX_FRAME
                            && !escapes(&ptr, f)
                            && !constant_overrun(&ptr, n, f) =>
                    {
                        *frame += b;
                        Stmt::Alloc {
                            ptr,
                            elem,
                            elems: Exp::i64(n),
                            kind: AllocKind::Stack,
                            loc,
                        }
                    }
                    _ => Stmt::Alloc {
                        ptr,
                        elem,
                        elems,
                        kind: AllocKind::Region,
                        loc,
                    },
                }
            }
            Stmt::For { i, n, body, simd } => Stmt::For {
                i,
                n,
                body: place(body, counts, frame, f),
                simd,
            },
            Stmt::Forever(b) => Stmt::Forever(place(b, counts, frame, f)),
            Stmt::Block(b) => Stmt::Block(place(b, counts, frame, f)),
            Stmt::If(c, t, e) => {
                Stmt::If(c, place(t, counts, frame, f), place(e, counts, frame, f))
            }
            s => s,
        })
        .collect()
}

fn mentions(e: &Exp, names: &HashSet<Name>) -> bool {
    let mut hit = false;
    crate::imp::visit(
        &[Stmt::Set(String::new(), e.clone())],
        &mut |_| {},
        &mut |x| {
            if let Exp::Var(n) | Exp::Offset(n, _) = x
                && names.contains(n)
            {
                hit = true;
            }
        },
    );
    hit
}

/// Is `ptr` (or a pointer declared from it) indexed or offset by a
/// constant outside `0..n`? Such an access is always behind a bounds check
/// that fails first, but gcc's `-Warray-bounds` sees it in a C array (fuzz
/// seed 1135, program 80: `t[2]` of a `_Bool[1]`): the buffer stays in the
/// region.
fn constant_overrun(ptr: &str, n: i64, f: &[Stmt]) -> bool {
    let mut aliases: HashSet<Name> = HashSet::from([ptr.to_string()]);
    loop {
        let mut grew = false;
        crate::imp::visit(
            f,
            &mut |s| {
                if let Stmt::Decl(x, _, Some(e)) = s
                    && !aliases.contains(x)
                    && mentions(e, &aliases)
                {
                    aliases.insert(x.clone());
                    grew = true;
                }
            },
            &mut |_| {},
        );
        if !grew {
            break;
        }
    }
    let outside = |e: &Exp| matches!(e, Exp::Const(weir_ir::Const::I64(c)) if *c < 0 || *c >= n);
    let hit = std::cell::Cell::new(false);
    crate::imp::visit(
        f,
        &mut |s| {
            if let Stmt::Store(p, o, _) = s
                && aliases.contains(p)
                && outside(o)
            {
                hit.set(true);
            }
        },
        &mut |e| {
            if let Exp::Load(p, o) | Exp::Offset(p, o) = e
                && aliases.contains(p)
                && outside(o)
            {
                hit.set(true);
            }
        },
    );
    hit.get()
}

/// Can the pointer `ptr` outlive the block that declares it? Its aliases are
/// the variables declared from it (they live inside that block too); it
/// escapes when one of them is assigned to any other variable.
fn escapes(ptr: &str, f: &[Stmt]) -> bool {
    let mut aliases: HashSet<Name> = HashSet::from([ptr.to_string()]);
    loop {
        let mut grew = false;
        let mut escaped = false;
        crate::imp::visit(
            f,
            &mut |s| match s {
                Stmt::Decl(x, _, Some(e)) if !aliases.contains(x) && mentions(e, &aliases) => {
                    aliases.insert(x.clone());
                    grew = true;
                }
                Stmt::Set(y, e) if !aliases.contains(y) && mentions(e, &aliases) => {
                    escaped = true;
                }
                _ => {}
            },
            &mut |_| {},
        );
        if escaped {
            return true;
        }
        if !grew {
            return false;
        }
    }
}

/// Does the function (or one it calls) allocate in the region or the
/// system, grow storage, take marks for growth or ask for a retry? Region
/// push/pop themselves do not count: after [`run`], a function that uses no
/// memory has none. An entry whose code uses none is light
/// (`WEIR_ENTRY_LIGHT`: no region mark).
pub fn uses_memory(u: &Unit, name: &str) -> bool {
    allocates(u, name, &mut Vec::new())
}

fn allocates(u: &Unit, name: &str, seen: &mut Vec<String>) -> bool {
    if seen.iter().any(|s| s == name) {
        return false;
    }
    seen.push(name.to_string());
    let Some(f) = u.funcs.iter().find(|f| f.name == name) else {
        return false;
    };
    let mut hit = false;
    let mut grows = false;
    let mut calls = Vec::new();
    crate::imp::visit(
        &f.body,
        &mut |s| match s {
            Stmt::Alloc {
                kind: AllocKind::Region | AllocKind::Sys,
                ..
            }
            | Stmt::Free { .. } => hit = true,
            Stmt::Call(g, _) if g == "weir_dest_retry" => hit = true,
            Stmt::Call(g, _) => calls.push(g.clone()),
            _ => {}
        },
        &mut |e| {
            if let Exp::Call(g, _) = e
                && (g.starts_with("weir_grow") || g.starts_with("weir_region"))
            {
                grows = true;
            }
        },
    );
    hit || grows || calls.iter().any(|g| allocates(u, g, seen))
}

/// Remove the region push/pop of functions that allocate nothing in the
/// region, themselves or through their callees: the scope would release
/// nothing.
fn drop_empty_scopes(u: &mut Unit) {
    let idle: Vec<bool> = u
        .funcs
        .iter()
        .map(|f| !allocates(u, &f.name, &mut Vec::new()))
        .collect();
    for (f, idle) in u.funcs.iter_mut().zip(idle) {
        if idle {
            strip_scopes(f);
        }
    }
}

fn strip_scopes(f: &mut Func) {
    fn go(ss: Vec<Stmt>) -> Vec<Stmt> {
        ss.into_iter()
            .filter(|s| !matches!(s, Stmt::RegionPush(_) | Stmt::RegionPop(_)))
            .map(|s| match s {
                Stmt::For { i, n, body, simd } => Stmt::For {
                    i,
                    n,
                    body: go(body),
                    simd,
                },
                Stmt::Forever(b) => Stmt::Forever(go(b)),
                Stmt::Block(b) => Stmt::Block(go(b)),
                Stmt::If(c, t, e) => Stmt::If(c, go(t), go(e)),
                s => s,
            })
            .collect()
    }
    f.body = go(std::mem::take(&mut f.body));
}
