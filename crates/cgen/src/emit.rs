//! Imperative IR → C text: one C function per Weir function, an exported DPS
//! entry point and shape function per entry, and (for executables) a `main`
//! that reads inputs in Weir's binary format, runs an entry and writes its
//! results. This is also the imperative IR's text printer.

use crate::imp::*;
use crate::lower::c_name;
use std::fmt::Write;
use weir_dps::ir::{DType, Fun, ResultPart};
use weir_shape::Dim;

pub const RUNTIME: &str = include_str!("../runtime/weir_rt.h");
/// The runtime's public API (`weir.h`), which `weir_rt.h` includes.
pub const WEIR_H: &str = include_str!("../runtime/weir.h");

/// The runtime as one text: `weir_rt.h` with `weir.h` in place of its
/// `#include "weir.h"` (generated files stand alone).
pub fn runtime_text() -> String {
    RUNTIME.replacen("#include \"weir.h\"\n", WEIR_H, 1)
}

/// What a generated C file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The program's functions, the runtime inlined (`weir c`).
    Program,
    /// The same with a `main` (`weir build` executables).
    Executable,
    /// A library's code (`weir lib`): the runtime's public API linked from
    /// its own object, the entries `static` (the exported wrappers of
    /// [`crate::abi::wrappers`] follow).
    Library,
}

pub fn ctype(p: PrimType) -> &'static str {
    match p {
        PrimType::F64 => "double",
        PrimType::F32 => "float",
        PrimType::I64 => "int64_t",
        PrimType::I32 => "int32_t",
        PrimType::Bool => "_Bool",
        PrimType::I16 => "int16_t",
        PrimType::I8 => "int8_t",
        PrimType::U64 => "uint64_t",
        PrimType::U32 => "uint32_t",
        PrimType::U16 => "uint16_t",
        PrimType::U8 => "uint8_t",
    }
}

fn cty(t: CTy) -> String {
    match t {
        CTy::Prim(p) => ctype(p).to_string(),
        CTy::Ptr(p, true) => format!("const {} *", ctype(p)),
        CTy::Ptr(p, false) => format!("{} *", ctype(p)),
        CTy::Mark => "weir_ctx *".to_string(),
    }
}

/// A C float literal (`suffix` "f" for float), parenthesised when negative.
fn float_literal(v: f64, suffix: &str) -> String {
    if v.is_nan() {
        "NAN".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "INFINITY".into()
        } else {
            "(-INFINITY)".into()
        }
    } else {
        let s = weir_ir::print::float_text(v);
        if s.starts_with('-') {
            format!("({s}{suffix})")
        } else {
            format!("{s}{suffix}")
        }
    }
}

fn constant(c: &Const) -> String {
    match c {
        Const::F64(v) => float_literal(*v, ""),
        // An f32 widens exactly to f64; its shortest f64 text reads back to it.
        Const::F32(v) => float_literal(*v as f64, "f"),
        Const::I64(v) => {
            if *v == i64::MIN {
                "INT64_MIN".into()
            } else if *v < 0 {
                format!("(-INT64_C({}))", -v)
            } else {
                format!("INT64_C({v})")
            }
        }
        Const::I32(v) => {
            if *v == i32::MIN {
                "INT32_MIN".into()
            } else if *v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            }
        }
        Const::Bool(b) => if *b { "1" } else { "0" }.into(),
        Const::U64(v) => format!("UINT64_C({v})"),
        Const::U32(v) => format!("UINT32_C({v})"),
        // (an int: every value of these fits, and they promote to int anyway)
        Const::I16(_) | Const::I8(_) | Const::U16(_) | Const::U8(_) => {
            let v = c.as_int().unwrap_or(0);
            if v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            }
        }
    }
}

pub fn exp(e: &Exp) -> String {
    match e {
        Exp::Var(v) => v.clone(),
        Exp::Const(c) => constant(c),
        Exp::Op(o, a, b) => format!("({} {o} {})", exp(a), exp(b)),
        Exp::Pre(o, a) => format!("({o}{})", exp(a)),
        Exp::Cast(p, a) => format!("(({}){})", ctype(*p), exp(a)),
        Exp::Call(f, xs) => {
            let args: Vec<String> = xs.iter().map(exp).collect();
            format!("{f}({})", args.join(", "))
        }
        Exp::Load(p, o) => format!("{p}[{}]", exp(o)),
        // (a constant offset no array can have, of a piece of a constant
        // size whose allocation fails first: through weir_store_count, so
        // the C compiler never sees a pointer past the address space)
        Exp::Offset(p, o) if matches!(**o, Exp::Const(Const::I64(k)) if k.unsigned_abs() >= 1 << 40) =>
        {
            format!("({p} + weir_store_count({}))", exp(o))
        }
        Exp::Offset(p, o) => format!("({p} + {})", exp(o)),
        Exp::Select(c, a, b) => format!("({} ? {} : {})", exp(c), exp(a), exp(b)),
        Exp::Loc(k) => format!("WEIR_LOC({k})"),
        Exp::Null => "NULL".into(),
        Exp::SizeOf(p) => format!("sizeof({})", ctype(*p)),
        Exp::Dims(xs) => {
            let ds: Vec<String> = xs.iter().map(exp).collect();
            format!("(const int64_t[]){{{}}}", ds.join(", "))
        }
    }
}

pub fn stmts(s: &mut String, ss: &[Stmt], ind: usize) {
    for st in ss {
        stmt(s, st, ind);
    }
}

fn stmt(s: &mut String, st: &Stmt, ind: usize) {
    let pad = "    ".repeat(ind);
    match st {
        Stmt::Decl(n, t, e) => {
            let init = match e {
                Some(e) => exp(e),
                None => "0".into(),
            };
            let _ = writeln!(s, "{pad}{} {n} WEIR_UNUSED = {init};", cty(*t).trim_end());
        }
        Stmt::Set(n, e) => {
            let _ = writeln!(s, "{pad}{n} = {};", exp(e));
        }
        Stmt::Store(p, o, v) => {
            let _ = writeln!(s, "{pad}{p}[{}] = {};", exp(o), exp(v));
        }
        Stmt::For { i, n, body, simd } => {
            let mut count = exp(n);
            if let Some((op, acc)) = simd {
                // (a count that is not a constant goes through an empty
                // `asm`: gcc's -fsplit-loops otherwise splits an outer loop
                // whose counter is this count, `for j < i` being empty at
                // i = 0, and the split copy loses the `omp simd`, leaving
                // trisolv's triangular dot scalar)
                if !matches!(n, Exp::Const(_)) {
                    let trip = format!("{i}_tripw");
                    let _ = writeln!(s, "{pad}int64_t {trip} = {count};");
                    let _ = writeln!(s, "{pad}WEIR_OPAQUE({trip});");
                    count = trip;
                }
                let _ = writeln!(s, "{pad}#pragma omp simd reduction({op}:{acc})");
            }
            let _ = writeln!(s, "{pad}for (int64_t {i} = 0; {i} < {count}; {i}++) {{");
            stmts(s, body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Forever(body) => {
            let _ = writeln!(s, "{pad}for (;;) {{");
            stmts(s, body, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::Break => {
            let _ = writeln!(s, "{pad}break;");
        }
        Stmt::If(c, a, b) => {
            let _ = writeln!(s, "{pad}if ({}) {{", exp(c));
            stmts(s, a, ind + 1);
            if b.is_empty() {
                let _ = writeln!(s, "{pad}}}");
            } else {
                let _ = writeln!(s, "{pad}}} else {{");
                stmts(s, b, ind + 1);
                let _ = writeln!(s, "{pad}}}");
            }
        }
        Stmt::Block(b) => {
            let _ = writeln!(s, "{pad}{{");
            stmts(s, b, ind + 1);
            let _ = writeln!(s, "{pad}}}");
        }
        Stmt::RegionPush(m) => {
            let _ = writeln!(s, "{pad}weir_mark {m} = weir_region_mark(ctx);");
        }
        Stmt::RegionPop(m) => {
            let _ = writeln!(s, "{pad}weir_region_reset(ctx, {m});");
        }
        Stmt::Count {
            var,
            dims,
            when,
            elem,
            loc,
            lazy,
        } => {
            let count = if dims.is_empty() {
                "INT64_C(1)".to_string()
            } else if *lazy {
                let ds: Vec<String> = dims.iter().map(exp).collect();
                format!(
                    "weir_count_lazy((const int64_t[]){{{}}}, {}, sizeof({}))",
                    ds.join(", "),
                    dims.len(),
                    ctype(*elem)
                )
            } else {
                let ds: Vec<String> = dims.iter().map(exp).collect();
                format!(
                    "weir_count(ctx, (const int64_t[]){{{}}}, {}, sizeof({}), WEIR_LOC({loc}))",
                    ds.join(", "),
                    dims.len(),
                    ctype(*elem)
                )
            };
            let count = if when.is_empty() {
                count
            } else {
                let ws: Vec<String> = when.iter().map(|w| format!("{} > 0", exp(w))).collect();
                format!("({}) ? {count} : INT64_C(0)", ws.join(" && "))
            };
            let _ = writeln!(s, "{pad}int64_t {var} WEIR_UNUSED = {count};");
            if !*lazy && !dims.is_empty() {
                // (weir_count: -1 with the error set)
                let _ = writeln!(s, "{pad}if (WEIR_UNLIKELY({var} < 0)) return 1;");
            }
        }
        Stmt::NeedCount {
            var,
            dims,
            elem,
            loc,
        } => {
            let ds: Vec<String> = dims.iter().map(exp).collect();
            let _ = writeln!(
                s,
                "{pad}if (WEIR_UNLIKELY({var} < 0)) return weir_too_large(ctx, WEIR_LOC({loc}), (const int64_t[]){{{}}}, {}, sizeof({}));",
                ds.join(", "),
                dims.len(),
                ctype(*elem)
            );
        }
        Stmt::Alloc {
            ptr,
            elem,
            elems,
            kind,
            loc,
        } => {
            let t = ctype(*elem);
            let f = match kind {
                AllocKind::Region => "weir_region_alloc_n",
                AllocKind::Sys => "weir_sys_alloc_n",
                AllocKind::Stack => {
                    // (a C local array: at least one element)
                    let n = match elems {
                        Exp::Const(Const::I64(n)) => (*n).max(1),
                        _ => 1,
                    };
                    let _ = writeln!(
                        s,
                        "{pad}{t} {ptr}_st[{n}];\n{pad}{t} *{ptr} WEIR_UNUSED = {ptr}_st;"
                    );
                    return;
                }
            };
            let _ = writeln!(
                s,
                "{pad}{t} *{ptr} WEIR_UNUSED = ({t} *){f}(ctx, {}, sizeof({t}), WEIR_LOC({loc}));\n{pad}if (WEIR_UNLIKELY(!{ptr})) return 1;",
                exp(elems)
            );
        }
        Stmt::Free { ptr, elem, elems } => {
            let _ = writeln!(
                s,
                "{pad}weir_sys_free(ctx, {ptr}, (size_t){} * sizeof({}));",
                exp(elems),
                ctype(*elem)
            );
        }
        Stmt::Copy {
            dst,
            src,
            elem,
            elems,
        } => {
            let _ = writeln!(
                s,
                "{pad}weir_copy({dst}, {src}, {}, sizeof({}));",
                exp(elems),
                ctype(*elem)
            );
        }
        Stmt::CheckIndex { idx, len, loc } => {
            let _ = writeln!(
                s,
                "{pad}if (WEIR_UNLIKELY(weir_check_index(ctx, {}, {}, WEIR_LOC({loc})))) return 1;",
                exp(idx),
                exp(len)
            );
        }
        Stmt::CheckSlice { lo, hi, len, loc } => {
            let _ = writeln!(
                s,
                "{pad}if (WEIR_UNLIKELY(weir_check_slice(ctx, {}, {}, {}, WEIR_LOC({loc})))) return 1;",
                exp(lo),
                exp(hi),
                exp(len)
            );
        }
        Stmt::CheckEq {
            got,
            want,
            message,
            loc,
        } => {
            let (g, w) = (exp(got), exp(want));
            // Parameter messages name the wanted size first.
            let (a, b) = if message.contains("needs size") {
                (&w, &g)
            } else {
                (&g, &w)
            };
            let m = message
                .replace('"', "\\\"")
                .replace("%lld", "%\" PRId64 \"");
            let fail = fail_call(*loc, &format!("\"{m}\""), &[a.clone(), b.clone()]);
            let _ = writeln!(s, "{pad}if (WEIR_UNLIKELY({g} != {w})) {fail}");
        }
        Stmt::FailIf {
            cond,
            message,
            args,
            loc,
        } => {
            let m = c_format(message);
            let a: Vec<String> = args.iter().map(exp).collect();
            let fail = fail_call(*loc, &m, &a);
            let _ = writeln!(s, "{pad}if (WEIR_UNLIKELY({})) {fail}", exp(cond));
        }
        Stmt::Call(f, xs) => {
            // (generated functions and the runtime's failing helpers return
            // 0, or 1 with the error set: passed on at once)
            let args: Vec<String> = xs.iter().map(exp).collect();
            let _ = writeln!(
                s,
                "{pad}if (WEIR_UNLIKELY({f}({}))) return 1;",
                args.join(", ")
            );
        }
        Stmt::Comment(c) => {
            let _ = writeln!(s, "{pad}/* {c} */");
        }
    }
}

thread_local! {
    /// While a unit is printed ([`unit`]): the cold functions that report its
    /// checks' errors, one per location, message and argument count, as C
    /// definitions. Printing a function on its own (its text form) reports
    /// in place instead.
    static FAIL_SITES: std::cell::RefCell<Option<Vec<(String, String)>>> =
        const { std::cell::RefCell::new(None) };
}

/// The statement that reports a failed check at `loc` with the printf
/// format `fmt` (a C string literal) and `args` (as `int64_t`) and returns 1.
/// In a unit, a call of a cold function of its own (`weir_err_K`): the hot
/// code passes a few registers, no format, no varargs, so that small
/// functions stay small enough for the C compiler to inline them, and the
/// `return 1` after it tells the compiler the rest does not run.
fn fail_call(loc: usize, fmt: &str, args: &[String]) -> String {
    let cast: Vec<String> = args.iter().map(|a| format!("(int64_t)({a})")).collect();
    let inline = || {
        let mut a = String::new();
        for c in &cast {
            let _ = write!(a, ", {c}");
        }
        format!("return weir_fail(ctx, WEIR_LOC({loc}), {fmt}{a});")
    };
    FAIL_SITES.with(|sites| {
        let mut sites = sites.borrow_mut();
        let Some(sites) = sites.as_mut() else {
            return inline();
        };
        let params: Vec<String> = (0..args.len()).map(|k| format!("int64_t a{k}")).collect();
        let pass: Vec<String> = (0..args.len()).map(|k| format!(", a{k}")).collect();
        let def_body = format!(
            "(weir_ctx *ctx{}) {{\n    weir__fail_set(ctx, WEIR_LOC({loc}), {fmt}{});\n}}\n",
            params.iter().map(|p| format!(", {p}")).collect::<String>(),
            pass.concat()
        );
        let k = match sites.iter().position(|(_, b)| *b == def_body) {
            Some(k) => k,
            None => {
                sites.push((format!("weir_err_{}", sites.len()), def_body));
                sites.len() - 1
            }
        };
        let mut call = vec!["ctx".to_string()];
        call.extend(cast.iter().cloned());
        format!("{{ {}({}); return 1; }}", sites[k].0, call.join(", "))
    })
}

/// A C string literal of a printf format: `%lld` becomes `PRId64`, any
/// other `%` is printed as is.
fn c_format(m: &str) -> String {
    let mut o = String::from("\"");
    let mut rest = m;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("%lld") {
            o.push_str("%\" PRId64 \"");
            rest = r;
            continue;
        }
        let Some(ch) = rest.chars().next() else {
            break;
        };
        match ch {
            '%' => o.push_str("%%"),
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_ascii_graphic() || c == ' ' => o.push(c),
            _ => o.push('?'),
        }
        rest = &rest[ch.len_utf8()..];
    }
    o.push('"');
    o
}

fn c_string(s: &str) -> String {
    let mut o = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_ascii_graphic() || c == ' ' => o.push(c),
            _ => o.push('?'),
        }
    }
    o.push('"');
    o
}

/// Render a function (the imperative IR's text form).
pub fn func(s: &mut String, f: &Func, public: bool) {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|(n, t)| match t {
            CTy::Ptr(p, false) if f.restrict.contains(n) => {
                format!("{} *restrict {n} WEIR_UNUSED", ctype(*p))
            }
            _ => format!(
                "{}{}{n} WEIR_UNUSED",
                cty(*t),
                if matches!(t, CTy::Ptr(..) | CTy::Mark) {
                    ""
                } else {
                    " "
                }
            ),
        })
        .collect();
    // 0, or 1 with the error set in the context (status codes, no jumps)
    let _ = writeln!(
        s,
        "{}int {}({}) {{",
        if public { "" } else { "static " },
        f.name,
        params.join(", ")
    );
    stmts(s, &f.body, 1);
    s.push_str("    return 0;\n}\n\n");
}

/// The C expression of a shape template (parameters' dims and scalars), with
/// Weir's wrapping arithmetic (so it computes exactly what the body computes);
/// a division by zero gives 0 and sets the flag `dz`.
fn dim_c(d: &Dim) -> String {
    match d {
        Dim::Const(c) => constant(&Const::I64(*c)),
        Dim::Var(v) => c_name(v),
        Dim::DimOf(a, k) => format!("{}_d{k}", c_name(a)),
        Dim::Add(a, b) => format!("weir_add_i64({}, {})", dim_c(a), dim_c(b)),
        Dim::Sub(a, b) => format!("weir_sub_i64({}, {})", dim_c(a), dim_c(b)),
        Dim::Mul(a, b) => format!("weir_mul_i64({}, {})", dim_c(a), dim_c(b)),
        Dim::Div(a, b) => format!("weir__shape_div({}, {}, &dz)", dim_c(a), dim_c(b)),
        Dim::Rem(a, b) => format!("weir__shape_rem({}, {}, &dz)", dim_c(a), dim_c(b)),
        Dim::Max(a, b) => format!("weir__shape_max({}, {})", dim_c(a), dim_c(b)),
        Dim::Min(a, b) => format!("weir__shape_min({}, {})", dim_c(a), dim_c(b)),
        // computed by the statements `hoist_slices` writes first
        Dim::Slice(_) => "0".into(),
        // an element of an array parameter (its dims checked): 0 where an
        // index is out of bounds (the body's own read reports that)
        Dim::Elem(a, idx) => {
            let a = c_name(a);
            let ix: Vec<String> = idx.iter().map(dim_c).collect();
            let inside: Vec<String> = ix
                .iter()
                .enumerate()
                .map(|(k, i)| format!("weir__shape_in({i}, {a}_d{k})"))
                .collect();
            // (in unsigned arithmetic: the dims may not be checked yet)
            let mut flat = String::new();
            for (k, i) in ix.iter().enumerate() {
                flat = if k == 0 {
                    format!("(uint64_t)({i})")
                } else {
                    format!("({flat} * (uint64_t){a}_d{k} + (uint64_t)({i}))")
                };
            }
            if ix.is_empty() {
                return "INT64_C(0)".into();
            }
            format!(
                "({} ? (int64_t){a}[{flat}] : INT64_C(0))",
                inside.join(" && ")
            )
        }
    }
}

/// Write C statements (at `pad`) that run each loop slice in `d` into a fresh
/// variable, innermost first, and return `d` with those variables in place of
/// the slices. A slice's divisions by zero give 0 and are not reported (the
/// loop itself reports its own).
fn hoist_slices(d: &Dim, s: &mut String, n: &mut usize, pad: &str) -> Dim {
    d.map_leaves(&mut |l| {
        let Dim::Slice(sl) = l else {
            return None;
        };
        let mut pre = String::new();
        let init: Vec<Dim> = sl
            .init
            .iter()
            .map(|x| hoist_slices(x, &mut pre, n, pad))
            .collect();
        let trips = hoist_slices(&sl.trips, &mut pre, n, pad);
        *n += 1;
        let v = format!("weir_sl_{n}w"); // (a name `c_name` keeps)
        s.push_str(&pre);
        let _ = writeln!(s, "{pad}int64_t {v} = 0;\n{pad}{{");
        let inner = format!("{pad}    ");
        let _ = writeln!(s, "{inner}int dz = 0;\n{inner}(void)dz;");
        for (l, x) in sl.lens.iter().zip(&init) {
            // (a length no step reads is still set: not an unused variable)
            let _ = writeln!(
                s,
                "{inner}int64_t {l} = {};\n{inner}(void){l};",
                dim_c(x),
                l = c_name(l)
            );
        }
        let cur = sl
            .lens
            .get(sl.which)
            .map(|l| c_name(l))
            .unwrap_or_else(|| "0".into());
        let _ = writeln!(s, "{inner}int64_t {v}_most = {cur};");
        let _ = writeln!(
            s,
            "{inner}for (int64_t {i} = 0; {i} < {}; {i}++) {{",
            dim_c(&trips),
            i = c_name(&sl.index)
        );
        let body = format!("{inner}    ");
        let mut next = Vec::new();
        for (k, st) in sl.step.iter().enumerate() {
            let st = hoist_slices(st, s, n, &body);
            let _ = writeln!(s, "{body}int64_t {v}_n{k} = {};", dim_c(&st));
            next.push(format!("{v}_n{k}"));
        }
        for (l, x) in sl.lens.iter().zip(&next) {
            let _ = writeln!(s, "{body}{} = {x};", c_name(l));
        }
        let _ = writeln!(s, "{body}if ({cur} > {v}_most) {v}_most = {cur};");
        let _ = writeln!(s, "{inner}}}");
        let _ = writeln!(
            s,
            "{inner}{v} = {};\n{pad}}}",
            if sl.most {
                format!("{v}_most")
            } else {
                cur.clone()
            }
        );
        Some(Dim::Var(v))
    })
}

/// Helpers of the shape functions (printed once, before the entries).
const SHAPE_HELPERS: &str = "\
/* Shape arithmetic of the shape functions: never fails; a division by zero
   gives 0 and sets *dz. */
static inline WEIR_UNUSED int64_t weir__shape_div(int64_t a, int64_t b, int *dz) {
    if (b == 0) *dz = 1;
    return weir_div0_i64(a, b);
}
static inline WEIR_UNUSED int64_t weir__shape_rem(int64_t a, int64_t b, int *dz) {
    if (b == 0) *dz = 1;
    return weir_rem0_i64(a, b);
}
static inline WEIR_UNUSED int64_t weir__shape_max(int64_t a, int64_t b) { return a > b ? a : b; }
/* An index of an element read by a shape function (signed: a negative dim,
   not yet checked, holds no index). */
static inline WEIR_UNUSED int weir__shape_in(int64_t i, int64_t d) { return i >= 0 && i < d; }
static inline WEIR_UNUSED int64_t weir__shape_min(int64_t a, int64_t b) { return a < b ? a : b; }

";

fn entry_params(f: &Fun) -> Vec<String> {
    let mut v = Vec::new();
    for p in &f.params {
        match p.ty {
            DType::Scalar(t) => v.push(format!("{} {}", ctype(t), c_name(&p.name))),
            DType::Array(t, r) => {
                v.push(format!("const {} *{}", ctype(t), c_name(&p.name)));
                for k in 0..r {
                    v.push(format!("int64_t {}_d{k}", c_name(&p.name)));
                }
            }
        }
    }
    v
}

/// The names of the entry parameters (the arguments of a call passing them on).
fn entry_args(f: &Fun) -> Vec<String> {
    let mut v = Vec::new();
    for p in &f.params {
        v.push(c_name(&p.name));
        if let DType::Array(_, r) = p.ty {
            for k in 0..r {
                v.push(format!("{}_d{k}", c_name(&p.name)));
            }
        }
    }
    v
}

/// A C condition: the dims `name_d0..` are non-negative and small enough
/// that their product times an element size cannot exceed the runtime's 2^62
/// bytes (each below 2^(56/r)); the full check handles the rest.
fn small_dims(name: &str, r: usize) -> String {
    let ds: Vec<String> = (0..r).map(|k| format!("{name}_d{k}")).collect();
    let bits = 56 / r.max(1);
    format!(
        "(uint64_t)({}) < (UINT64_C(1) << {bits})",
        if ds.is_empty() {
            "0".to_string()
        } else {
            ds.join(" | ")
        }
    )
}

/// The bytes the array `name` of rank `r` spans (C, `weir__extent`). A
/// vector's is its length times the element size, inline: the entry's fast
/// path has checked the length is below 2^56 before, so it cannot overflow,
/// and the slow path that it is a valid size.
fn extent(name: &str, r: usize, t: PrimType) -> String {
    if r == 1 {
        return format!("((uint64_t){name}_d0 * sizeof({}))", ctype(t));
    }
    format!(
        "weir__extent({}, {r}, sizeof({}))",
        dims_literal(name, r),
        ctype(t)
    )
}

/// The bytes the array `name` of rank `r` spans, as the product of its dims
/// and element size: exact where every dim is below 2^(56/r) (the entry's
/// fast path checks that first), 0 for an empty array.
fn product_extent(name: &str, r: usize, t: PrimType) -> String {
    let mut f: Vec<String> = (0..r).map(|k| format!("(uint64_t){name}_d{k}")).collect();
    f.push(format!("sizeof({})", ctype(t)));
    format!("({})", f.join(" * "))
}

/// The size checks an entry's DPS function makes first on its arguments'
/// dims (`let s = dim a 0; check s == 3`), as C conditions on the entry's
/// parameters (`a_d0 == INT64_C(3)`): the fast path tests them up front (a
/// failing one takes the slow path, where the body reports it in its
/// order), so the C compiler knows those dims are constants in the body and
/// in the other tests. Only the leading run of such lets and checks.
fn leading_dim_checks(f: &Fun) -> Vec<String> {
    use weir_dps::ir::{Atom, SExp, Stmt as D};
    let mut dims: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    let c_atom = |a: &Atom, dims: &[(String, String)]| -> Option<String> {
        match a {
            Atom::Var(v) => dims.iter().find(|(n, _)| n == v).map(|(_, c)| c.clone()),
            Atom::Const(weir_ir::Const::I64(c)) if *c >= 0 => Some(format!("INT64_C({c})")),
            _ => None,
        }
    };
    for st in &f.body.stmts {
        match st {
            D::Let {
                var,
                exp: SExp::Dim(a, k),
                ..
            } if f
                .params
                .iter()
                .any(|p| &p.name == a && matches!(p.ty, DType::Array(..))) =>
            {
                dims.push((var.clone(), format!("{}_d{k}", c_name(a))));
            }
            D::Check { check, .. } => {
                match (c_atom(&check.got, &dims), c_atom(&check.want, &dims)) {
                    (Some(g), Some(w)) => out.push(format!("{g} == {w}")),
                    _ => break,
                }
            }
            _ => break,
        }
    }
    out
}

/// The pairs an entry checks for overlap: each destination against every
/// array argument and every later destination (what it is, in words; the
/// other pointer; its extent).
fn overlaps(
    e: &crate::lower::EntryInfo,
    f: &Fun,
    b: &Boundary,
) -> Vec<(usize, String, String, String)> {
    let mut v = Vec::new();
    for k in 0..e.dests.len() {
        for (i, p) in f.params.iter().enumerate() {
            if let DType::Array(t, r) = p.ty {
                let pn = c_name(&p.name);
                v.push((
                    k,
                    format!("argument `{}`", b.name(i, p)),
                    pn.clone(),
                    extent(&pn, r, t),
                ));
            }
        }
        for (j, (t, r)) in e.dests.iter().enumerate().skip(k + 1) {
            v.push((
                k,
                format!("destination {j}"),
                format!("out{j}"),
                extent(&format!("out{j}"), *r, *t),
            ));
        }
    }
    v
}

/// The destinations of an entry's results of existential outer size with
/// an upper bound that its body writes as it goes (a [`Guard::DestReady`]
/// of the destination: a `filter`), rather than checking their rows before
/// writing them ([`Guard::DestRows`]): a destination of fewer rows than the
/// bound gets scratch of the bound (see [`entry_fns`]).
///
/// [`Guard::DestReady`]: weir_dps::ir::Guard::DestReady
/// [`Guard::DestRows`]: weir_dps::ir::Guard::DestRows
fn scratch_dests(e: &crate::lower::EntryInfo, f: &Fun) -> Vec<usize> {
    use weir_dps::ir::{Guard, Stmt};
    fn ready(stmts: &[Stmt], dest: &str) -> bool {
        stmts.iter().any(|st| match st {
            Stmt::Guard {
                guard: Guard::DestReady { dest: d, .. },
                ..
            } => d == dest,
            st => weir_dps::ir::nested_blocks(st)
                .into_iter()
                .any(|b| ready(b, dest)),
        })
    }
    (0..e.dests.len())
        .filter(|&k| {
            e.sizes.iter().any(|(d, j, _)| *d == k && *j == 0)
                && f.dests
                    .get(k)
                    .is_some_and(|d| !d.unbounded && ready(&f.body.stmts, &d.name))
        })
        .collect()
}

/// `{a, b}` of the dims `name_d0`, `name_d1`, ...
fn dims_literal(name: &str, r: usize) -> String {
    let ds: Vec<String> = (0..r).map(|k| format!("{name}_d{k}")).collect();
    format!("(const int64_t[]){{{}}}", ds.join(", "))
}

/// What an entry's checks take from the ABI model: the checks (C
/// statements of `weir_args_NAME`) that the arrays of each tuple or record
/// parameter agree in the dims they share ([`crate::abi::Agree`]), with
/// what they check, and each parameter's name as its callers see it (a
/// leaf of `xs: []{a: f64}` is `xs_a`).
#[derive(Default)]
struct Boundary {
    agree: Vec<(String, crate::abi::Agree)>,
    names: Vec<String>,
}

impl Boundary {
    /// The name of parameter `i` in messages.
    fn name<'a>(&'a self, i: usize, p: &'a weir_dps::ir::Param) -> &'a str {
        match self.names.get(i) {
            Some(n) => n,
            None => weir_ir::display_name(&p.name),
        }
    }
}

fn boundary(e: &crate::lower::EntryInfo, f: &Fun, abi: &crate::abi::Abi) -> Boundary {
    let Some(ae) = abi.entries.iter().find(|a| a.name == e.name) else {
        return Boundary::default();
    };
    let names = if ae.params.len() == f.params.len() {
        ae.params.iter().map(|p| p.weir_name.clone()).collect()
    } else {
        Vec::new()
    };
    let mut v = Vec::new();
    for a in &ae.agree {
        let (Some(p), Some(q)) = (f.params.get(a.leaf), f.params.get(a.with)) else {
            continue;
        };
        let (DType::Array(_, pr), DType::Array(_, qr)) = (p.ty, q.ty) else {
            continue;
        };
        let (pn, qn) = (c_name(&p.name), c_name(&q.name));
        let c = format!(
            "    if (weir_check_agree(ctx, WEIR_LOC({}), {}, {}, {}, {pr}, {}, {}, {qr}, {})) return 1;\n",
            e.loc,
            c_string(&a.param),
            c_string(&a.leaf_what),
            dims_literal(&pn, pr),
            c_string(&a.with_what),
            dims_literal(&qn, qr),
            a.dims
        );
        v.push((c, a.clone()));
    }
    Boundary { agree: v, names }
}

/// The fast path's test of an [`crate::abi::Agree`]: its dims equal.
fn agree_dims(f: &Fun, a: &crate::abi::Agree) -> Vec<String> {
    match (f.params.get(a.leaf), f.params.get(a.with)) {
        (Some(p), Some(q)) => (0..a.dims)
            .map(|k| format!("{}_d{k} == {}_d{k}", c_name(&p.name), c_name(&q.name)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The argument check, shape computation, public shape function and entry
/// point of one entry.
fn entry_fns(
    s: &mut String,
    e: &crate::lower::EntryInfo,
    f: &Fun,
    b: &Boundary,
    light: bool,
    target: Target,
) {
    let lib = target == Target::Library;
    let vis = if lib { "static " } else { "" };
    // (the private names of its functions, `weirf_KIND_` + the escaped name,
    // and the entry and shape function: `weir c`'s public `weir_E`, marked
    // until `crate::names::privatize`, or private)
    let n = crate::lower::esc(&e.name);
    let entry = crate::lower::entry_fn(&e.name, target == Target::Program);
    let shape = crate::lower::shape_fn(&entry);
    let shape_shown = shape.replacen(crate::names::PUBLIC_MARK, "weir_", 1);
    let ps = entry_params(f);
    let args = entry_args(f);
    let unused =
        |ps: &[String]| -> Vec<String> { ps.iter().map(|p| format!("{p} WEIR_UNUSED")).collect() };
    // Argument check: every array's dims non-negative, its size in memory.
    let mut chk = vec!["weir_ctx *ctx WEIR_UNUSED".to_string()];
    chk.extend(unused(&ps));
    let _ = writeln!(
        s,
        "/* Arguments of `{}`: 0, or 1 with the error in ctx. */\nstatic int weirf_args_{n}({}) {{",
        e.name,
        chk.join(", ")
    );
    for (i, p) in f.params.iter().enumerate() {
        if let DType::Array(t, r) = p.ty {
            let pn = c_name(&p.name);
            let _ = writeln!(
                s,
                "    if (weir_check_arg(ctx, WEIR_LOC({}), {}, {pn}, {}, {r}, sizeof({}))) return 1;",
                e.loc,
                c_string(b.name(i, p)),
                dims_literal(&pn, r),
                ctype(t)
            );
        }
    }
    // (the arrays of a tuple or record parameter agree in the dims they share)
    for (c, _) in &b.agree {
        s.push_str(c);
    }
    s.push_str("    return 0;\n}\n\n");
    // Shape computation: the template, negative dims reported (when `report`)
    // only where they would be evaluated (every outer dim positive), and
    // clamped to 0, so that a destination of these dims can be allocated.
    let mut calc = vec!["weir_ctx *ctx".to_string(), "int report".to_string()];
    calc.extend(unused(&ps));
    for k in 0..f.dests.len() {
        calc.push(format!("int64_t *out{k}_dims"));
    }
    let _ = writeln!(
        s,
        "/* The result shape of `{}` (dps-ftilde's shape function), negative dims as 0;\n   returns 0, or 1 with the first error in ctx when `report`. */\nstatic inline int weirf_shape_calc_{n}({}) {{",
        e.name,
        calc.join(", ")
    );
    s.push_str("    int rc = 0, dz = 0, live = 1;\n    int64_t d = 0, count = 0;\n    (void)ctx; (void)report; (void)dz; (void)live; (void)d; (void)count;\n");
    let mut slices = 0usize;
    for (k, dp) in f.dests.iter().enumerate() {
        s.push_str("    live = 1;\n");
        for (j, dim) in dp.shape.iter().enumerate() {
            let loc = e
                .dim_locs
                .get(k)
                .and_then(|l| l.get(j))
                .copied()
                .unwrap_or(e.loc);
            // An argument's dim (checked) or a constant needs no check.
            let known = match dim {
                Dim::DimOf(..) => true,
                Dim::Const(c) => *c >= 0,
                _ => false,
            };
            // An existential dim's upper bound may come from sizes that are
            // never evaluated (the branch an `if` does not take): no error
            // of its own (the entry reports the taken branch's).
            let bound = f
                .results
                .iter()
                .any(|r| matches!(r, ResultPart::Size { dest, dim } if *dest == k && *dim == j));
            let dim = &hoist_slices(dim, s, &mut slices, "    ");
            if bound && !known {
                let _ = writeln!(s, "    d = {};", dim_c(dim));
                let _ = writeln!(s, "    out{k}_dims[{j}] = d < 0 ? 0 : d;");
            } else if known {
                let _ = writeln!(s, "    out{k}_dims[{j}] = {};", dim_c(dim));
            } else {
                let _ = writeln!(s, "    dz = 0;\n    d = {};", dim_c(dim));
                let _ = writeln!(
                    s,
                    "    if (report && live && !rc && dz) rc = weir_fail(ctx, WEIR_LOC({loc}), \"integer division by zero\");"
                );
                let _ = writeln!(
                    s,
                    "    if (report && live && !rc && d < 0) rc = weir_fail(ctx, WEIR_LOC({loc}), \"negative size %\" PRId64 \" (dimension {j} of result {k} of `{}`)\", d);",
                    e.name
                );
                let _ = writeln!(s, "    out{k}_dims[{j}] = d < 0 ? 0 : d;");
            }
            // An existential dim is an upper bound: the result may have no
            // rows at all, so the dims inside it are not known to be evaluated
            // (the entry itself checks them where it makes a row).
            if bound {
                s.push_str("    live = 0;\n");
            } else {
                let _ = writeln!(s, "    live = live && out{k}_dims[{j}] > 0;");
            }
            // Too large for memory: reported at the dim that makes it so.
            let _ = writeln!(
                s,
                "    if (report && !rc && !weir_count_ok(out{k}_dims, {}, sizeof({t}), &count)) rc = weir_too_large(ctx, WEIR_LOC({loc}), out{k}_dims, {}, sizeof({t}));",
                j + 1,
                j + 1,
                t = ctype(dp.elem)
            );
        }
    }
    s.push_str("    return rc;\n}\n\n");
    // The public shape function.
    let mut shp = vec!["weir_ctx *ctx".to_string()];
    shp.extend(unused(&ps));
    for k in 0..f.dests.len() {
        shp.push(format!("int64_t *out{k}_dims"));
    }
    let mut calc_args = vec!["ctx".to_string(), "1".to_string()];
    calc_args.extend(args.iter().cloned());
    for k in 0..f.dests.len() {
        calc_args.push(format!("out{k}_dims"));
    }
    let _ = writeln!(
        s,
        "/* Shape of the results of `{}`: fills each outK_dims (a negative dim that is\n   never evaluated, inside an empty array, as 0); returns 0, or 1 with\n   weir_error(ctx) = \"file:line:col: message\" (an invalid argument, a negative\n   size, a division by zero, a result too large for memory). */",
        e.name
    );
    let _ = writeln!(s, "{vis}int {shape}({}) {{", shp.join(", "));
    let mut chk_args = vec!["ctx".to_string()];
    chk_args.extend(args.iter().cloned());
    // (no context: nowhere to keep the error, WEIR_ERR_ARGUMENT returned)
    s.push_str(
        "    if (WEIR_UNLIKELY(!ctx)) return WEIR_ERR_ARGUMENT;\n    weir_error_clear(ctx);\n",
    );
    for k in 0..f.dests.len() {
        let _ = writeln!(
            s,
            "    if (WEIR_UNLIKELY(!out{k}_dims)) return weir_fail(ctx, WEIR_LOC({}), \"invalid argument: out{k}_dims of `%s` is NULL\", {});",
            e.loc,
            c_string(&format!("{}_shape", e.name))
        );
    }
    let _ = writeln!(
        s,
        "    if (weirf_args_{n}({})) return 1;\n    return weirf_shape_calc_{n}({});\n}}\n",
        chk_args.join(", "),
        calc_args.join(", ")
    );
    // The entry.
    let mut all = vec!["weir_ctx *ctx".to_string()];
    for (k, (p, r)) in e.dests.iter().enumerate() {
        all.push(format!("{} *out{k}", ctype(*p)));
        for j in 0..*r {
            all.push(format!("int64_t out{k}_d{j}"));
        }
    }
    all.extend(ps.clone());
    for (k, p) in e.scalar_results.iter().enumerate() {
        all.push(format!("{} *ret{k}", ctype(*p)));
    }
    let mut call = vec!["ctx".to_string()];
    for (k, (_, r)) in e.dests.iter().enumerate() {
        call.push(format!("out{k}"));
        for j in 0..*r {
            call.push(format!("out{k}_d{j}"));
        }
    }
    for p in &f.params {
        match p.ty {
            DType::Scalar(_) => call.push(c_name(&p.name)),
            DType::Array(t, r) => {
                call.push(format!("({} *){}", ctype(t), c_name(&p.name)));
                for k in 0..r {
                    call.push(format!("{}_d{k}", c_name(&p.name)));
                }
            }
        }
    }
    for k in 0..e.scalar_results.len() {
        call.push(format!("ret{k}"));
    }
    let _ = writeln!(
        s,
        "/* Entry point `{}`: writes its results into the caller's buffers, whose dims\n   must be exactly those of {shape_shown} (all of them are checked); returns 0,\n   or 1 with weir_error(ctx) set. Every array, argument or result, is a pointer\n   to its first element followed by its dims: dense and row-major (element\n   [i][j] of an n x m array at p[i * m + j]), no strides (a strided view must\n   be copied by the caller); arguments may share memory with each other but not\n   with a result (checked). */",
        e.name,
    );
    for (d, j, k) in &e.sizes {
        let _ = writeln!(
            s,
            "/* Result {d} of `{}` has an existential size: dim {j} of out{d} is an upper\n   bound; the entry writes the result densely at the front of out{d} and its\n   dim {j} into *ret{k}. */",
            e.name
        );
    }
    // The body checks the arguments and every destination dim before the
    // DPS function runs: a fast test inline, the full checks out of line.
    let mut calc_args = vec!["ctx".to_string(), "0".to_string()];
    calc_args.extend(args.iter().cloned());
    for k in 0..f.dests.len() {
        calc_args.push(format!("want{k}"));
    }
    // the entry's result shape into `want0`, `want1`, ... (both paths)
    let wants = |s: &mut String| {
        for (k, (_, r)) in e.dests.iter().enumerate() {
            let _ = writeln!(s, "    int64_t want{k}[{}];", (*r).max(1));
        }
        if !e.dests.is_empty() {
            let _ = writeln!(
                s,
                "    (void)weirf_shape_calc_{n}({});",
                calc_args.join(", ")
            );
        }
    };
    let mut chk_args = vec!["ctx".to_string()];
    chk_args.extend(args.iter().cloned());
    let names: Vec<String> = all
        .iter()
        .map(|p| p.rsplit([' ', '*']).next().unwrap_or("").to_string())
        .collect();
    // The slow path (cold, out of line): the full argument and destination
    // checks, then the body.
    let _ = writeln!(
        s,
        "static __attribute__((noinline, cold, unused)) int weirf_slow_{n}({}) {{",
        unused(&all).join(", ")
    );
    let _ = writeln!(
        s,
        "    if (weirf_args_{n}({})) return 1;",
        chk_args.join(", ")
    );
    wants(s);
    // (a result's pointer: where it is written)
    for k in 0..e.scalar_results.len() {
        let _ = writeln!(
            s,
            "    if (!ret{k}) return weir_fail(ctx, WEIR_LOC({}), \"invalid argument: ret{k} of `%s` (where a result is written) is NULL\", {});",
            e.loc,
            c_string(&e.name)
        );
    }
    // A result of existential outer size that the entry writes as it goes
    // (a filter: Guard::DestReady), in a destination with fewer rows than
    // the bound: computed into scratch of the bound's dims, then its rows
    // copied into the caller's, if they hold them (weir_dest_copy_back).
    let scratch = scratch_dests(e, f);
    if !scratch.is_empty() {
        s.push_str("    weir_mark weir_scratch_mark = weir_region_mark(ctx);\n");
    }
    // A result of existential outer size with a bound: no rows at all is
    // storage of no rows (not none: NULL with the bound's dims); more rows
    // than the bound are the bound's (the rest is not written).
    for (k, (t, r)) in e.dests.iter().enumerate() {
        let exist = e.sizes.iter().any(|(d, j, _)| *d == k && *j == 0);
        if !exist || f.dests.get(k).is_some_and(|d| d.unbounded) {
            continue;
        }
        let _ = writeln!(
            s,
            "    if (!out{k} && out{k}_d0 == 0 && want{k}[0] > 0) out{k} = ({} *)weir_empty();",
            ctype(*t)
        );
        let mut more = vec![format!("out{k}"), format!("out{k}_d0 > want{k}[0]")];
        more.extend((1..*r).map(|j| format!("out{k}_d{j} == want{k}[{j}]")));
        let _ = writeln!(s, "    if ({}) out{k}_d0 = want{k}[0];", more.join(" && "));
    }
    for (k, (t, r)) in e.dests.iter().enumerate() {
        let exist = e.sizes.iter().any(|(d, j, _)| *d == k && *j == 0);
        let unbounded = f.dests.get(k).is_some_and(|d| d.unbounded);
        let _ = writeln!(
            s,
            "    if (weir_check_dest(ctx, WEIR_LOC({}), {}, {k}, out{k}, {}, want{k}, {r}, sizeof({}), {})) return 1;",
            e.loc,
            c_string(&e.name),
            dims_literal(&format!("out{k}"), *r),
            ctype(*t),
            if unbounded { 2 } else { i32::from(exist) }
        );
    }
    // (checked after the dims, with the caller's pointers: a missing result
    // overlaps nothing)
    for (k, what, q, qb) in overlaps(e, f, b) {
        let _ = writeln!(
            s,
            "    if (weir_check_disjoint(ctx, WEIR_LOC({}), {}, {k}, out{k}, {}, {}, {q}, {qb})) return 1;",
            e.loc,
            c_string(&e.name),
            extent(&format!("out{k}"), e.dests[k].1, e.dests[k].0),
            c_string(&what),
        );
    }
    // (after the checks of the caller's destinations: scratch of the bound
    // in place of a short one, no longer missing)
    for &k in &scratch {
        let (t, r) = e.dests[k];
        let t = ctype(t);
        let mut short = vec![
            format!("out{k}"),
            format!("out{k}_d0 >= 0"),
            format!("out{k}_d0 < want{k}[0]"),
        ];
        short.extend((1..r).map(|j| format!("out{k}_d{j} == want{k}[{j}]")));
        // (the caller's pointer and dims, `weir_user{k}_d0`, ...)
        let dims: Vec<String> = (0..r).map(|j| format!("weir_user{k}_d{j} = 0")).collect();
        // (only the rows are read back; every dim is marked used)
        let unused: String = (0..r)
            .map(|j| format!("(void)weir_user{k}_d{j}; "))
            .collect();
        let keep: Vec<String> = (0..r)
            .map(|j| format!("            weir_user{k}_d{j} = out{k}_d{j};\n"))
            .collect();
        let _ = writeln!(
            s,
            "    {t} *weir_user{k} = NULL;\n    int64_t {};\n    {}\n    if ({}) {{\n        void *sc = weir_dest_scratch(ctx, want{k}, {r}, sizeof({t}));\n        if (sc) {{\n            weir_user{k} = out{k};\n{}            out{k} = ({t} *)sc;\n            out{k}_d0 = want{k}[0];\n            weir_dest_found(ctx, {k});\n        }}\n    }}",
            dims.join(", "),
            unused.trim_end(),
            short.join(" && "),
            keep.concat()
        );
    }
    for k in 0..e.dests.len() {
        // (no storage: a result too large for memory, or of no elements;
        // nothing is written into it, but its views are computed, and
        // arithmetic on NULL is undefined even with a zero offset; a
        // missing result is told by this address, Guard::DestRows)
        let _ = writeln!(s, "    if (!out{k}) out{k} = weir_nowhere();");
    }
    // (an argument of no elements may be NULL: the same)
    for p in &f.params {
        if let DType::Array(t, _) = p.ty {
            let pn = c_name(&p.name);
            let _ = writeln!(
                s,
                "    if (!{pn}) {pn} = (const {} *)weir_nowhere();",
                ctype(t)
            );
        }
    }
    // A failure of the leading checks of the arguments' sizes against each
    // other (`a: [n]f64` and `b: [n]f64` of different lengths) is the
    // caller's: WEIR_ERR_ARGUMENT, as a destination of the wrong dims is.
    let leading = leading_dim_checks(f);
    let caller_fault = if leading.is_empty() {
        String::new()
    } else {
        format!(
            "    if (rc && !({})) ctx->err_code = WEIR_ERR_ARGUMENT;\n",
            leading.join(" && ")
        )
    };
    let mut copy_back = String::new();
    for &k in &scratch {
        let (t, r) = e.dests[k];
        let ret = |j: usize| {
            e.sizes
                .iter()
                .find(|(d, dj, _)| *d == k && *dj == j)
                .map(|(_, _, rk)| format!("*ret{rk}"))
        };
        let rows = ret(0).unwrap_or_else(|| format!("want{k}[0]"));
        let mut elems = vec![rows.clone()];
        elems.extend((1..r).map(|j| ret(j).unwrap_or_else(|| format!("want{k}[{j}]"))));
        let _ = writeln!(
            copy_back,
            "    if (weir_user{k} && !rc) rc = weir_dest_copy_back(ctx, WEIR_LOC({}), {k}, weir_user{k}, weir_user{k}_d0, out{k}, {rows}, {}, sizeof({}));",
            e.loc,
            elems.join(" * "),
            ctype(t)
        );
    }
    if !scratch.is_empty() {
        let any: Vec<String> = scratch.iter().map(|k| format!("weir_user{k}")).collect();
        let _ = writeln!(
            copy_back,
            "    if ({}) weir_region_reset(ctx, weir_scratch_mark);",
            any.join(" || ")
        );
    }
    let _ = writeln!(
        s,
        "    int rc = {}({});\n{caller_fault}{copy_back}    weir_dest_reset(ctx);\n    return rc;\n}}\n",
        e.body_fn,
        call.join(", ")
    );
    // The fast path: dims small enough that no product can overflow, and
    // every destination dim equal to the result shape's (a few ns per call
    // matter on small kernels); anything else takes the slow path.
    let _ = writeln!(
        s,
        "static inline int weirf_body_{n}({}) {{",
        unused(&all).join(", ")
    );
    let mut fast = leading_dim_checks(f);
    fast.extend(b.agree.iter().flat_map(|(_, a)| agree_dims(f, a)));
    for p in &f.params {
        if let DType::Array(_, r) = p.ty {
            // (NULL, also of no elements: the slow path)
            fast.push(c_name(&p.name));
            fast.push(small_dims(&c_name(&p.name), r));
        }
    }
    fast.extend((0..e.scalar_results.len()).map(|k| format!("ret{k}")));
    wants(s);
    for (k, (_, r)) in e.dests.iter().enumerate() {
        fast.push(format!("out{k}"));
        // (a result with no bound takes any number of rows)
        let from = usize::from(f.dests.get(k).is_some_and(|d| d.unbounded));
        fast.extend((from..*r).map(|j| format!("out{k}_d{j} == want{k}[{j}]")));
        fast.push(small_dims(&format!("out{k}"), *r));
    }
    // (the extents as plain products: each dim is below 2^(56/r) here)
    for (k, _, q, _) in overlaps(e, f, b) {
        let (qt, qr) = if let Some(j) = q.strip_prefix("out").and_then(|j| j.parse::<usize>().ok())
        {
            e.dests.get(j).copied().unwrap_or((PrimType::F64, 0))
        } else {
            f.params
                .iter()
                .find_map(|p| match p.ty {
                    DType::Array(t, r) if c_name(&p.name) == q => Some((t, r)),
                    _ => None,
                })
                .unwrap_or((PrimType::F64, 0))
        };
        fast.push(format!(
            "weir_apart(out{k}, {}, {q}, {})",
            product_extent(&format!("out{k}"), e.dests[k].1, e.dests[k].0),
            product_extent(&q, qr, qt)
        ));
    }
    if !fast.is_empty() {
        let _ = writeln!(
            s,
            "    if (WEIR_UNLIKELY(!({})))\n        return weirf_slow_{n}({});",
            fast.join(" && "),
            names.join(", ")
        );
    }
    let _ = writeln!(s, "    return {}({});\n}}\n", e.body_fn, call.join(", "));
    let names: Vec<String> = all
        .iter()
        .map(|p| p.rsplit([' ', '*']).next().unwrap_or("").to_string())
        .collect();
    let _ = writeln!(s, "{vis}int {entry}({}) {{", all.join(", "));
    // (no context: nowhere to keep the error, WEIR_ERR_ARGUMENT returned)
    s.push_str("    if (WEIR_UNLIKELY(!ctx)) return WEIR_ERR_ARGUMENT;\n");
    let _ = writeln!(
        s,
        "    {}(ctx, weirf_body_{n}({}));",
        if light {
            "WEIR_ENTRY_LIGHT"
        } else {
            "WEIR_ENTRY"
        },
        names.join(", ")
    );
    s.push_str("}\n\n");
}

/// The whole C file. `main_entry`: also emit a `main` (for executables).
pub fn unit(u: &Unit, funs: &[Fun], source: &str, target: Target, abi: &crate::abi::Abi) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "/* Generated by weir from {source}. Do not edit. */");
    if target == Target::Library {
        s.push_str("#define WEIR_RT_LINK 1\n");
    }
    // The runtime is a header: not every helper is used by every program.
    s.push_str("#if defined(__clang__)\n#pragma clang diagnostic push\n#pragma clang diagnostic ignored \"-Wunused-function\"\n#endif\n");
    s.push_str(&runtime_text());
    s.push_str("#if defined(__clang__)\n#pragma clang diagnostic pop\n#endif\n");
    s.push_str(
        "\n/* ---------------------------------------------------------------- program */\n\n",
    );
    s.push_str("#define WEIR_UNUSED __attribute__((unused))\n");

    // A loop of a huge constant count (`replicate (2^61)`) writing into a
    // destination is never reached (the destination check fails first), but
    // gcc proves its last iterations would overflow and says so.
    s.push_str("#if defined(__GNUC__) && !defined(__clang__)\n#pragma GCC diagnostic ignored \"-Waggressive-loop-optimizations\"\n#endif\n");
    // A C local array (a small array of constant size) is read only where
    // the program wrote it: every read is checked against the length written
    // first. gcc's flow analysis cannot always follow those checks (a `++`
    // of an empty `scan` and a row, sliced empty: fuzz seed 4730 #429) and
    // warns that the array may be read before it is written; a heuristic,
    // not an error here.
    s.push_str("#if defined(__GNUC__) && !defined(__clang__)\n#pragma GCC diagnostic ignored \"-Wmaybe-uninitialized\"\n#endif\n");
    // `#pragma omp simd` asks for vectorisation a loop allows; clang warns
    // where it does not vectorise one (with the sanitizers, at -O1), which
    // computes the same: not an error under -Werror.
    s.push_str(
        "#if defined(__clang__)\n#pragma clang diagnostic ignored \"-Wpass-failed\"\n#endif\n",
    );
    s.push_str("static const char *const weir_locs[] WEIR_UNUSED = {\n");
    for l in &u.locs {
        let _ = writeln!(s, "    {},", c_string(l));
    }
    if u.locs.is_empty() {
        s.push_str("    \"\",\n");
    }
    s.push_str("};\n#define WEIR_LOC(k) (weir_locs[k])\n\n");
    // (the functions first, collecting their checks' cold error functions,
    // which are printed before them)
    FAIL_SITES.with(|f| *f.borrow_mut() = Some(Vec::new()));
    let mut fs = String::new();
    for f in &u.funcs {
        func(&mut fs, f, false);
    }
    let sites = FAIL_SITES
        .with(|f| f.borrow_mut().take())
        .unwrap_or_default();
    if !sites.is_empty() {
        s.push_str("/* The errors of the checks: cold, out of line. */\n");
    }
    for (name, body) in &sites {
        let _ = write!(
            s,
            "static __attribute__((cold, noinline)) void {name}{body}"
        );
    }
    if !sites.is_empty() {
        s.push('\n');
    }
    s.push_str(&fs);
    // Entry points: DPS functions with shape functions.
    if !u.entries.is_empty() {
        s.push_str(SHAPE_HELPERS);
    }
    for e in &u.entries {
        if let Some(f) = funs.iter().find(|f| f.name == e.name) {
            let b = boundary(e, f, abi);
            entry_fns(
                &mut s,
                e,
                f,
                &b,
                !crate::stack::uses_memory(u, &e.body_fn),
                target,
            );
        }
    }
    if target == Target::Executable {
        main_fn(&mut s, abi);
    }
    s
}

/// The executable's `main`, generated from the ABI model: one runner per
/// entry (inputs read and checked, destinations allocated from the shape
/// function, the retry protocol, timed calls, results written), then the
/// command line.
fn main_fn(s: &mut String, abi: &crate::abi::Abi) {
    use crate::abi::Result as R;
    for e in &abi.entries {
        let n = crate::lower::esc(&e.name);
        let _ = writeln!(
            s,
            "static int weirf_run_{n}(weir_ctx *ctx, weir_main_io *io, long runs, long warmup) {{"
        );
        // The command line is checked against the entry before anything is read.
        let _ = writeln!(
            s,
            "    weir_main_begin(io, {}, {}, {});",
            c_string(&e.name),
            e.params.len(),
            e.results.len()
        );
        // Every buffer is freed at `done`, on every path. (Parameters are
        // `p_NAME`: no clash with the runner's own names.)
        s.push_str("    int rc = 1;\n");
        // (parameter K is `pK_NAME`, its dims `pK_NAME_dims`, ...: no clash
        // between parameters, whatever their names)
        for (pk, p) in e.params.iter().enumerate().filter(|(_, p)| p.rank > 0) {
            let _ = writeln!(s, "    {} *p{pk}_{} = NULL;", ctype(p.elem), p.name);
        }
        for (k, d) in e.dests.iter().enumerate() {
            let _ = writeln!(s, "    {} *out{k} = NULL;", ctype(d.elem));
        }
        // Inputs: validated (dims against what is left of the input) before
        // anything is allocated; bools normalised to 0/1.
        let mut args = Vec::new();
        for (pk, p) in e.params.iter().enumerate() {
            let pn = format!("p{pk}_{}", p.name);
            let shown = c_string(&p.name);
            match (p.rank, p.elem) {
                (0, PrimType::Bool) => {
                    let _ = writeln!(
                        s,
                        "    unsigned char {pn}_byte;\n    weir_main_in_scalar(io, {pk}, {shown}, 'b', &{pn}_byte);\n    _Bool {pn} = {pn}_byte != 0;"
                    );
                    args.push(pn.clone());
                }
                (0, t) => {
                    let _ = writeln!(s, "    {} {pn};", ctype(t));
                    let _ = writeln!(
                        s,
                        "    weir_main_in_scalar(io, {pk}, {shown}, '{}', &{pn});",
                        kind_char(t)
                    );
                    args.push(pn.clone());
                }
                (r, t) => {
                    let _ = writeln!(s, "    int64_t {pn}_dims[{r}], {pn}_n;");
                    let _ = writeln!(
                        s,
                        "    {pn} = ({0} *)weir_main_in_array(io, {pk}, {shown}, '{1}', {pn}_dims, {r}, &{pn}_n);",
                        ctype(t),
                        kind_char(t)
                    );
                    if t == PrimType::Bool {
                        let _ = writeln!(s, "    weir_bools_normalize({pn}, {pn}_n);");
                    }
                    args.push(pn.clone());
                    for k in 0..r {
                        args.push(format!("{pn}_dims[{k}]"));
                    }
                }
            }
        }
        // The arrays of a tuple or record parameter agree in the dims they
        // share (else exit 2, before any result is allocated).
        for a in &e.agree {
            if let (Some(p), Some(q)) = (e.params.get(a.leaf), e.params.get(a.with)) {
                let _ = writeln!(
                    s,
                    "    weir_main_agree({}, {}, p{}_{}_dims, {}, {}, p{}_{}_dims, {}, {});",
                    c_string(&a.param),
                    c_string(&a.leaf_what),
                    a.leaf,
                    p.name,
                    p.rank,
                    c_string(&a.with_what),
                    a.with,
                    q.name,
                    q.rank,
                    a.dims
                );
            }
        }
        // Result shapes. A shape error (a negative size, a division by zero)
        // is not reported yet: the entry reports the first error in evaluation
        // order, with its location, as the interpreter does; only a result too
        // large to allocate stops here.
        let mut shape_args = vec!["ctx".to_string()];
        shape_args.extend(args.iter().cloned());
        for (k, d) in e.dests.iter().enumerate() {
            let _ = writeln!(s, "    int64_t out{k}_dims[{}] = {{0}};", d.rank.max(1));
            shape_args.push(format!("out{k}_dims"));
        }
        let _ = writeln!(
            s,
            "    char shape_err[sizeof ctx->err];\n    int shape_rc = {}({});\n    snprintf(shape_err, sizeof shape_err, \"%s\", weir_error(ctx));\n    int missing = 0;",
            crate::lower::shape_fn(&e.internal),
            shape_args.join(", ")
        );
        let mut call = vec!["ctx".to_string()];
        for (k, d) in e.dests.iter().enumerate() {
            // A result too large for memory (or that malloc refuses) is passed
            // as NULL: the entry reports the first error in evaluation order,
            // out of memory at the construct computing the result if nothing
            // fails before.
            let _ = writeln!(
                s,
                "    int64_t out{k}_n = 0;\n    if (weir_count_ok(out{k}_dims, {r}, sizeof({t}), &out{k}_n)) out{k} = ({t} *)weir_try_xmalloc((size_t)out{k}_n * sizeof({t}));\n    if (out{k}) memset(out{k}, 0, (size_t)out{k}_n * sizeof({t}));\n    else missing = 1;",
                t = ctype(d.elem),
                r = d.rank
            );
            call.push(format!("out{k}"));
            for j in 0..d.rank {
                call.push(format!("out{k}_dims[{j}]"));
            }
        }
        call.extend(args.iter().cloned());
        for (k, t) in e.rets.iter().enumerate() {
            let _ = writeln!(s, "    {} ret{k} = 0;", ctype(*t));
            call.push(format!("&ret{k}"));
        }
        let internal = &e.internal;
        // A result of existential size whose upper bound could not be
        // allocated: one call finds the rows it needs (weir_retry_rows), then
        // exactly that is allocated and the calls below compute it.
        if e.dests.iter().any(|d| d.size_ret.is_some()) {
            let _ = writeln!(
                s,
                "    if (missing && {internal}({})) {{\n        missing = 0;",
                call.join(", ")
            );
            for (k, d) in e.dests.iter().enumerate() {
                if d.size_ret.is_some() {
                    let _ = writeln!(
                        s,
                        "        if (!out{k} && weir_retry_rows(ctx, {k}) >= 0) {{\n            out{k}_dims[0] = weir_retry_rows(ctx, {k});\n            if (weir_count_ok(out{k}_dims, {r}, sizeof({t}), &out{k}_n)) out{k} = ({t} *)weir_try_xmalloc((size_t)out{k}_n * sizeof({t}));\n            if (out{k}) memset(out{k}, 0, (size_t)out{k}_n * sizeof({t}));\n        }}",
                        t = ctype(d.elem),
                        r = d.rank
                    );
                }
                let _ = writeln!(s, "        if (!out{k}) missing = 1;");
            }
            // (the shape function's out of memory was the bound's)
            s.push_str("        if (!missing) shape_rc = 0;\n    }\n");
        }
        // A result with no bound from the arguments: the shape function says
        // 0 rows; a first call learns the rows it needs (weir_retry_rows), one
        // such result per call (the entry stops at the first that does not fit).
        let unbounded: Vec<usize> = (0..e.dests.len())
            .filter(|k| e.dests[*k].unbounded)
            .collect();
        if !unbounded.is_empty() {
            let _ = writeln!(
                s,
                "    for (int again = 1, tries = 0; again && tries <= {} && !missing && !shape_rc && {internal}({}); tries++) {{\n        again = 0;",
                unbounded.len(),
                call.join(", ")
            );
            for k in &unbounded {
                let d = &e.dests[*k];
                let _ = writeln!(
                    s,
                    "        if (weir_retry_rows(ctx, {k}) >= 0) {{\n            again = 1;\n            free(out{k});\n            out{k} = NULL;\n            out{k}_dims[0] = weir_retry_rows(ctx, {k});\n            if (weir_count_ok(out{k}_dims, {r}, sizeof({t}), &out{k}_n)) out{k} = ({t} *)weir_try_xmalloc((size_t)out{k}_n * sizeof({t}));\n            if (out{k}) memset(out{k}, 0, (size_t)out{k}_n * sizeof({t}));\n            else missing = 1;\n        }}",
                    t = ctype(d.elem),
                    r = d.rank
                );
            }
            s.push_str("    }\n");
        }
        // Untimed warm-up calls (benchmarks: page faults, caches, the region's chunks).
        s.push_str("    for (long r = 0; r < warmup; r++) {\n");
        let _ = writeln!(s, "        if ({internal}({})) {{", call.join(", "));
        s.push_str("            fprintf(stderr, \"error: %s\\n\", weir_error(ctx));\n            goto done;\n        }\n");
        s.push_str("        __asm__ volatile(\"\" ::: \"memory\");\n    }\n");
        s.push_str("    uint64_t allocs_at_t0 = weir_ctx_stats(ctx)->sys_allocs;\n    uint64_t t0 = weir_now_ns();\n    uint64_t allocs_before_last = 0;\n");
        s.push_str("    for (long r = 0; r < runs; r++) {\n");
        s.push_str(
            "        if (r == runs - 1) allocs_before_last = weir_ctx_stats(ctx)->sys_allocs;\n",
        );
        let _ = writeln!(s, "        if ({internal}({})) {{", call.join(", "));
        s.push_str("            fprintf(stderr, \"error: %s\\n\", weir_error(ctx));\n            goto done;\n        }\n");
        s.push_str("        __asm__ volatile(\"\" ::: \"memory\");\n    }\n");
        s.push_str("    uint64_t t1 = weir_now_ns();\n");
        // The entry succeeded where the shape function saw an error: report it.
        s.push_str("    if (shape_rc || missing) {\n        fprintf(stderr, \"error: %s\\n\", shape_rc ? shape_err : \"out of memory: cannot allocate the result\");\n        goto done;\n    }\n");
        // Results of existential size: the entry wrote them densely at the
        // front; their sizes (at most the bounds allocated) are the dims.
        for (d, dest) in e.dests.iter().enumerate() {
            let sizes = dest
                .size_ret
                .iter()
                .map(|k| (0, *k))
                .chain(dest.inner_sizes.iter().copied());
            for (j, k) in sizes {
                let _ = writeln!(
                    s,
                    "    if (ret{k} < 0 || ret{k} > out{d}_dims[{j}]) {{ fprintf(stderr, \"error: internal error: a result size out of its bound\\n\"); goto done; }}\n    out{d}_dims[{j}] = ret{k};\n    (void)weir_count_ok(out{d}_dims, {r}, 1, &out{d}_n);",
                    r = dest.rank
                );
            }
        }
        // Write results in source order.
        for (k, r) in e.results.iter().enumerate() {
            match r {
                R::Scalar(sc) => {
                    let _ = writeln!(
                        s,
                        "    weir_main_out(io, {k}, '{}', NULL, 0, &ret{sc}, 1);",
                        kind_char(e.rets[*sc])
                    );
                }
                R::Array(d) => {
                    let dest = &e.dests[*d];
                    let _ = writeln!(
                        s,
                        "    weir_main_out(io, {k}, '{}', out{d}_dims, {r}, out{d}, out{d}_n);",
                        kind_char(dest.elem),
                        r = dest.rank
                    );
                }
            }
        }
        s.push_str("    weir_main_end(io);\n");
        s.push_str("    const weir_stats *st = weir_ctx_stats(ctx);\n");
        s.push_str(
            "    if (getenv(\"WEIR_STATS\")) fprintf(stderr, \"stats: runs=%ld total_ns=%\" PRIu64 \" ns_per_run=%.1f peak_rss_kb=%ld sys_allocs=%\" PRIu64 \" sys_allocs_last_run=%\" PRIu64 \" peak_bytes=%\" PRIu64 \" reserved_bytes=%\" PRIu64 \"\\n\", runs, t1 - t0, (double)(t1 - t0) / (double)runs, weir_peak_rss_kb(), st->sys_allocs - allocs_at_t0, st->sys_allocs - allocs_before_last, st->peak_bytes, st->reserved_bytes);\n",
        );
        s.push_str("    rc = 0;\ndone:\n");
        for (pk, p) in e.params.iter().enumerate().filter(|(_, p)| p.rank > 0) {
            let _ = writeln!(s, "    free(p{pk}_{});", p.name);
        }
        for k in 0..e.dests.len() {
            let _ = writeln!(s, "    free(out{k});");
        }
        s.push_str("    return rc;\n}\n\n");
    }
    s.push_str("int main(int argc, char **argv) {\n");
    s.push_str(MAIN_ARGS);
    for (k, e) in abi.entries.iter().enumerate() {
        let n = crate::lower::esc(&e.name);
        let cond = if k == 0 {
            format!("!entry || !strcmp(entry, {})", c_string(&e.name))
        } else {
            format!("entry && !strcmp(entry, {})", c_string(&e.name))
        };
        let _ = writeln!(
            s,
            "    {}if ({cond}) rc = weirf_run_{n}(ctx, &io, runs, warmup);",
            if k == 0 { "" } else { "else " }
        );
    }
    if !abi.entries.is_empty() {
        s.push_str(
            "    else { fprintf(stderr, \"weir: no entry point named %s\\n\", entry); rc = 2; }\n",
        );
    }
    s.push_str(
        "    weir_ctx_free(ctx);\n    free(io.pos);\n    free(io.outs);\n    return rc;\n}\n",
    );
}

/// The element kind of a parameter or result as the runtime's I/O functions
/// name it (`weir_main_in_array`, `weir_main_out`).
fn kind_char(t: PrimType) -> char {
    match t {
        PrimType::F64 => 'd',
        PrimType::F32 => 'f',
        PrimType::I64 => 'l',
        PrimType::I32 => 'i',
        PrimType::Bool => 'b',
        PrimType::I16 => 's',
        PrimType::I8 => 'c',
        PrimType::U64 => 'L',
        PrimType::U32 => 'I',
        PrimType::U16 => 'S',
        PrimType::U8 => 'C',
    }
}

/// The command line of an executable (`weir build`): options, positional
/// inputs (`.npy` files, scalar literals, `-`) and `-o` files into a
/// `weir_main_io`, the streams opened; a bad command line exits 2.
const MAIN_ARGS: &str = r#"    const char *entry = NULL, *in_path = NULL, *out_path = NULL;
    long runs = 1, warmup = 0;
    weir_main_io io;
    memset(&io, 0, sizeof io);
    io.pos = (const char **)calloc((size_t)argc + 1, sizeof *io.pos);
    io.outs = (const char **)calloc((size_t)argc + 1, sizeof *io.outs);
    if (!io.pos || !io.outs) { fprintf(stderr, "weir: out of memory\n"); goto bad_args; }
    int only_inputs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int literal = a[0] != '-' || !a[1] || (a[1] >= '0' && a[1] <= '9') || a[1] == '.' || !strcmp(a, "-Infinity") || !strcmp(a, "-inf");
        if (only_inputs || literal) io.pos[io.npos++] = a;
        else if (!strcmp(a, "--")) only_inputs = 1;
        else if (!strcmp(a, "-e") && i + 1 < argc) entry = argv[++i];
        else if (!strcmp(a, "-o") && i + 1 < argc) io.outs[io.nouts++] = argv[++i];
        else if (!strcmp(a, "--runs") && i + 1 < argc) runs = atol(argv[++i]);
        else if (!strcmp(a, "--warmup") && i + 1 < argc) warmup = atol(argv[++i]);
        else if (!strcmp(a, "--in") && i + 1 < argc) in_path = argv[++i];
        else if (!strcmp(a, "--out") && i + 1 < argc) out_path = argv[++i];
        else if (!strcmp(a, "--stats")) setenv("WEIR_STATS", "1", 1);
        else if (!strcmp(a, "--raw")) io.raw = 1;
        else if (!strcmp(a, "--text")) io.text = 1;
        else {
            fprintf(stderr, "usage: %s [-e ENTRY] [INPUT ...] [-o OUT ...] [--text] [--raw] [--in FILE] [--out FILE] [--runs N] [--warmup W] [--stats]\n"
                            "  INPUT: one per parameter, a .npy file, a scalar literal (3, 2.5, true) or - (stdin);\n"
                            "  without INPUTs, all inputs are read as concatenated .npy arrays from --in FILE or stdin.\n"
                            "  -o F.npy once per result, or one -o F.npz for all; else the results go to --out FILE or\n"
                            "  stdout as concatenated .npy (--text: one JSON line per result). --raw: Weir's binary format.\n", argv[0]);
            goto bad_args;
        }
    }
    if (runs < 1) runs = 1;
    if (warmup < 0) warmup = 0;
    if (out_path && io.nouts) { fprintf(stderr, "weir: give either -o files or --out, not both\n"); goto bad_args; }
    io.in = in_path ? fopen(in_path, "rb") : stdin;
    io.out = out_path ? fopen(out_path, "wb") : stdout;
    if (!io.in || !io.out) { fprintf(stderr, "weir: cannot open the input or output file\n"); goto bad_args; }
    weir_ctx *ctx = weir_ctx_new();
    if (!ctx) { fprintf(stderr, "weir: out of memory\n"); goto bad_args; }
    int rc = 2;
    if (0) {
    bad_args:
        free(io.pos);
        free(io.outs);
        return 2;
    }
"#;
