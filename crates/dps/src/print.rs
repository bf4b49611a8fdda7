//! The text form of the DPS IR (for `weir dev --dump-after dps…` and snapshots).
//!
//! ```text
//! fun add3 (out1: dest [n_17]f64) (a_18: [2]f64) ... {
//!   let n_17: i64 = dim a_18 0
//!   for i_56 < n_17 {
//!     let t_64: f64 = a_18[i_56]
//!     out1[i_56] := t_64
//!   }
//! }
//! ```
//! Compound statements bind their scalar results: `(o3: f64) = alloc b2: [n]f64 { … yield x }`.

use crate::ir::*;
use std::fmt::Write;
use weir_ir::print::atom_to_string;
use weir_shape::shape_to_string;

fn a(x: &Atom) -> String {
    atom_to_string(x)
}

fn atoms(xs: &[Atom], sep: &str) -> String {
    xs.iter().map(a).collect::<Vec<_>>().join(sep)
}

fn dtype(t: DType) -> String {
    match t {
        DType::Scalar(p) => p.name().to_string(),
        DType::Array(p, r) => format!("{}{}", "[]".repeat(r), p.name()),
    }
}

fn outs(o: &[(Name, PrimType)]) -> String {
    if o.is_empty() {
        String::new()
    } else {
        let v: Vec<String> = o
            .iter()
            .map(|(n, p)| format!("{n}: {}", p.name()))
            .collect();
        format!("({}) = ", v.join(", "))
    }
}

pub fn program_to_string(p: &Program) -> String {
    let mut s = String::new();
    for (i, f) in p.funs.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&fun_to_string(f));
    }
    s
}

pub fn fun_to_string(f: &Fun) -> String {
    let mut s = String::new();
    let _ = write!(s, "{} {}", if f.entry { "entry" } else { "fun" }, f.name);
    for d in &f.dests {
        let _ = write!(
            s,
            " ({}: dest {}{}{})",
            d.name,
            shape_to_string(&d.shape),
            d.elem.name(),
            if d.unbounded { " unbounded" } else { "" }
        );
    }
    for p in &f.params {
        let _ = write!(s, " ({}: {})", p.name, dtype(p.ty));
    }
    let rs: Vec<String> = f
        .results
        .iter()
        .map(|r| match r {
            ResultPart::Scalar(p) => p.name().to_string(),
            ResultPart::Dest(k) => format!("dest {k}"),
            ResultPart::Size { dest, dim } => format!("size of dest {dest} dim {dim}"),
        })
        .collect();
    let _ = writeln!(s, " -> ({}) {{", rs.join(", "));
    block(&mut s, &f.body, 1);
    s.push_str("}\n");
    s
}

fn block(s: &mut String, b: &Block, ind: usize) {
    stmts(s, &b.stmts, ind);
    if !b.results.is_empty() {
        let _ = writeln!(s, "{}yield {}", "  ".repeat(ind), atoms(&b.results, ", "));
    }
}

pub fn stmts(s: &mut String, ss: &[Stmt], ind: usize) {
    for st in ss {
        stmt(s, st, ind);
    }
}

fn sexp(e: &SExp) -> String {
    match e {
        SExp::Atom(x) => a(x),
        SExp::Bin(op, x, y) => format!("{} {} {}", a(x), op.symbol(), a(y)),
        SExp::Un(op, x) => format!(
            "{}{}",
            if matches!(op, UnOp::Neg) { "-" } else { "!" },
            a(x)
        ),
        SExp::Convert(p, x) => format!("{} {}", p.name(), a(x)),
        SExp::Math(m, xs) => format!("{} {}", m.name(), atoms(xs, " ")),
        SExp::Load(arr, idx) => format!("{arr}[{}]", atoms(idx, ", ")),
        SExp::LoadOr0(arr, idx) => format!("load_or_0 {arr}[{}]", atoms(idx, ", ")),
        SExp::Dim(arr, k) => format!("dim {arr} {k}"),
        SExp::DivOr0(x, y) => format!("div0 {} {}", a(x), a(y)),
        SExp::RemOr0(x, y) => format!("rem0 {} {}", a(x), a(y)),
    }
}

fn stmt(s: &mut String, st: &Stmt, ind: usize) {
    let pad = "  ".repeat(ind);
    match st {
        Stmt::Let { var, ty, exp, .. } => {
            let _ = writeln!(s, "{pad}let {var}: {} = {}", ty.name(), sexp(exp));
        }
        Stmt::Check { check, .. } => {
            let _ = writeln!(s, "{pad}check {} == {}", a(&check.got), a(&check.want));
        }
        Stmt::Guard { guard, .. } => {
            let g = match guard {
                Guard::Core(c) => weir_ir::print::check_to_string(c),
                Guard::Split { k, len } => format!("assert_split {} {}", a(k), a(len)),
                Guard::Stride { k } => format!("assert_stride {}", a(k)),
                Guard::Slide { w, s, len } => {
                    format!("assert_slide {} {} {}", a(w), a(s), a(len))
                }
                Guard::DestReady { dest, build } if build.is_empty() => {
                    format!("assert_allocated {dest}")
                }
                Guard::DestReady { dest, build } => {
                    format!(
                        "assert_allocated {dest} unless build [{}] fails in its first row",
                        atoms(build, ", ")
                    )
                }
                Guard::DestRows { dest, rows } => format!("assert_rows {dest} {}", a(rows)),
                Guard::Grown { dest, build } if build.is_empty() => format!("assert_grown {dest}"),
                Guard::Grown { dest, build } => format!(
                    "assert_grown {dest} unless build [{}] fails in its first row",
                    atoms(build, ", ")
                ),
                Guard::Fits { got, want } => {
                    format!("assert_fits [{}] [{}]", atoms(got, ", "), atoms(want, ", "))
                }
                Guard::Irregular {
                    at,
                    first,
                    got,
                    inner,
                } => format!(
                    "assert_regular {} {} {} [{}]",
                    a(at),
                    a(first),
                    a(got),
                    atoms(inner, ", ")
                ),
            };
            let _ = writeln!(s, "{pad}{g}");
        }
        Stmt::View {
            var,
            elem,
            rank,
            view,
            ..
        } => {
            let v = match view {
                View::Alias(x) => x.clone(),
                View::Row(x, i) => format!("{x}[{}]", a(i)),
                View::Slice(x, lo, hi) => format!("{x}[{}:{}]", a(lo), a(hi)),
                View::Reshape(x, ds) => format!("reshape [{}] {x}", atoms(ds, ", ")),
                View::Transpose(x) => format!("transpose {x}"),
                View::Reverse(x) => format!("reverse {x}"),
                View::Replicate(n, x) => format!("replicate {} {x}", a(n)),
                View::Stride(k, x) => format!("stride {} {x}", a(k)),
                View::Placed { part, lo, hi, root } => {
                    format!("placed {part}[{}:{}] in {root}", a(lo), a(hi))
                }
            };
            let _ = writeln!(
                s,
                "{pad}view {var}: {}{} = {v}",
                "[]".repeat(*rank),
                elem.name()
            );
        }
        Stmt::Alloc {
            outs: o,
            bufs,
            body,
        } => {
            let bs: Vec<String> = bufs
                .iter()
                .map(|b| {
                    let when = if b.when.is_empty() {
                        String::new()
                    } else {
                        format!(" if {} > 0", atoms(&b.when, ", "))
                    };
                    let when = if b.grown {
                        format!("{when} grown")
                    } else {
                        when
                    };
                    format!(
                        "{}: [{}]{}{when}",
                        b.var,
                        atoms(&b.dims, ", "),
                        b.elem.name()
                    )
                })
                .collect();
            let _ = writeln!(s, "{pad}{}alloc {} {{", outs(o), bs.join(", "));
            block(s, body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::For { i, n, body } => {
            let _ = writeln!(s, "{pad}for {i} < {} {{", a(n));
            stmts(s, body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Store { dest, idx, val, .. } => {
            let _ = writeln!(s, "{pad}{dest}[{}] := {}", atoms(idx, ", "), a(val));
        }
        Stmt::Copy { dest, src, .. } => {
            let _ = writeln!(s, "{pad}copy {dest} := {src}");
        }
        Stmt::If {
            outs: o,
            cond,
            then,
            els,
        } => {
            let _ = writeln!(s, "{pad}{}if {} {{", outs(o), a(cond));
            block(s, then, ind + 1);
            let _ = writeln!(s, "{pad}}} else {{");
            block(s, els, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Fold {
            outs: o,
            acc,
            init,
            i,
            n,
            body,
        } => {
            let accs: Vec<String> = acc
                .iter()
                .map(|(n, p)| format!("{n}: {}", p.name()))
                .collect();
            let _ = writeln!(
                s,
                "{pad}{}fold ({}) = ({}) for {i} < {} {{",
                outs(o),
                accs.join(", "),
                atoms(init, ", "),
                a(n)
            );
            block(s, body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Reduce {
            outs: o,
            ne,
            i,
            n,
            elem,
            op,
        } => {
            let _ = writeln!(
                s,
                "{pad}{}reduce ({}) ({}) ne ({}) for {i} < {} {{",
                outs(o),
                op.a.join(", "),
                op.b.join(", "),
                atoms(ne, ", "),
                a(n)
            );
            block(s, elem, ind + 1);
            let _ = writeln!(s, "{pad}}} with {{");
            block(s, &op.body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Loop {
            outs: o,
            scalars,
            arrays,
            form,
            body,
        } => {
            let mut st: Vec<String> = scalars
                .iter()
                .map(|(n, p, i)| format!("{n}: {} = {}", p.name(), a(i)))
                .collect();
            st.extend(arrays.iter().map(|x| {
                let grow = match &x.grow {
                    Some(fin) => format!(" grows to {fin}"),
                    None if x.in_place => " in place".to_string(),
                    None => String::new(),
                };
                format!(
                    "{} -> {}: [{}]{} in {}{grow}",
                    x.var,
                    x.next,
                    atoms(&x.dims, ", "),
                    x.elem.name(),
                    x.out
                )
            }));
            let f = match form {
                LoopForm::For(i, n) => format!("for {i} < {}", a(n)),
                LoopForm::While(_) => "while".into(),
            };
            let _ = writeln!(s, "{pad}{}loop ({}) {f} {{", outs(o), st.join(", "));
            if let LoopForm::While(c) = form {
                let _ = writeln!(s, "{pad}  cond {{");
                block(s, c, ind + 2);
                let _ = writeln!(s, "{pad}  }}");
            }
            block(s, body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Grow {
            dest,
            rows,
            hint,
            soft,
            ..
        } => {
            let hint = hint
                .as_ref()
                .map(|h| format!(" (first {})", a(h)))
                .unwrap_or_default();
            let soft = if soft.is_empty() {
                String::new()
            } else {
                let row: Vec<String> = soft.iter().map(a).collect();
                format!(" soft [{}]", row.join(", "))
            };
            let _ = writeln!(s, "{pad}grow {dest} to {} rows{hint}{soft}", a(rows));
        }
        Stmt::Call {
            outs: o,
            fun,
            dests,
            args,
            ..
        } => {
            let _ = writeln!(
                s,
                "{pad}{}call {fun} [{}] {}",
                outs(o),
                dests.join(", "),
                atoms(args, " ")
            );
        }
    }
}
