//! Imperative IR → C text: one C function per Weir function, an exported DPS
//! entry point and shape function per entry, and (for executables) a `main`
//! that reads inputs in Weir's binary format, runs an entry and writes its
//! results. This is also the imperative IR's text printer.

use crate::imp::*;
use crate::lower::c_name;
use std::fmt::Write;
use weir_dps::ir::{DType, Fun, ResultPart};
use weir_dps::shape::Dim;

pub const RUNTIME: &str = include_str!("../runtime/weir_rt.h");

pub fn ctype(p: PrimType) -> &'static str {
    match p {
        PrimType::F64 => "double",
        PrimType::F32 => "float",
        PrimType::I64 => "int64_t",
        PrimType::I32 => "int32_t",
        PrimType::Bool => "_Bool",
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
        Exp::Offset(p, o) => format!("({p} + {})", exp(o)),
        Exp::Select(c, a, b) => format!("({} ? {} : {})", exp(c), exp(a), exp(b)),
        Exp::Loc(k) => format!("WEIR_LOC({k})"),
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
            if let Some((op, acc)) = simd {
                let _ = writeln!(s, "{pad}#pragma omp simd reduction({op}:{acc})");
            }
            let _ = writeln!(s, "{pad}for (int64_t {i} = 0; {i} < {}; {i}++) {{", exp(n));
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
        Stmt::Alloc {
            ptr,
            elem,
            elems,
            kind,
            loc,
        } => {
            let f = match kind {
                AllocKind::Region => "weir_region_alloc",
                AllocKind::Sys => "weir_sys_alloc",
            };
            let t = ctype(*elem);
            let _ = writeln!(
                s,
                "{pad}{t} *{ptr} WEIR_UNUSED = ({t} *){f}(ctx, weir_bytes(ctx, {}, sizeof({t}), WEIR_LOC({loc})));",
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
                "{pad}if ({dst} != {src}) memcpy({dst}, {src}, (size_t){} * sizeof({}));",
                exp(elems),
                ctype(*elem)
            );
        }
        Stmt::CheckIndex { idx, len, loc } => {
            let _ = writeln!(
                s,
                "{pad}weir_check_index(ctx, {}, {}, WEIR_LOC({loc}));",
                exp(idx),
                exp(len)
            );
        }
        Stmt::CheckSlice { lo, hi, len, loc } => {
            let _ = writeln!(
                s,
                "{pad}weir_check_slice(ctx, {}, {}, {}, WEIR_LOC({loc}));",
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
            let _ = writeln!(
                s,
                "{pad}if (WEIR_UNLIKELY({g} != {w})) weir_fail(ctx, WEIR_LOC({loc}), \"{m}\", (int64_t)({a}), (int64_t)({b}));"
            );
        }
        Stmt::Call(f, xs) => {
            let args: Vec<String> = xs.iter().map(exp).collect();
            let _ = writeln!(s, "{pad}{f}({});", args.join(", "));
        }
        Stmt::Comment(c) => {
            let _ = writeln!(s, "{pad}/* {c} */");
        }
    }
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
            CTy::Ptr(p, false) if n.starts_with("out") => {
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
    let _ = writeln!(
        s,
        "{}void {}({}) {{",
        if public { "" } else { "static " },
        f.name,
        params.join(", ")
    );
    stmts(s, &f.body, 1);
    s.push_str("}\n\n");
}

/// The C expression of a shape template (parameters' dims and scalars).
fn dim_c(d: &Dim) -> String {
    match d {
        Dim::Const(c) => format!("INT64_C({c})"),
        Dim::Var(v) => c_name(v),
        Dim::DimOf(a, k) => format!("{}_d{k}", c_name(a)),
        Dim::Add(a, b) => format!("({} + {})", dim_c(a), dim_c(b)),
        Dim::Sub(a, b) => format!("({} - {})", dim_c(a), dim_c(b)),
        Dim::Mul(a, b) => format!("({} * {})", dim_c(a), dim_c(b)),
        Dim::Div(a, b) => format!("({} / {})", dim_c(a), dim_c(b)),
        Dim::Max(a, b) => format!("({0} > {1} ? {0} : {1})", dim_c(a), dim_c(b)),
        Dim::Min(a, b) => format!("({0} < {1} ? {0} : {1})", dim_c(a), dim_c(b)),
    }
}

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

/// The whole C file. `main_entry`: also emit a `main` (for executables).
pub fn unit(u: &Unit, funs: &[Fun], source: &str, with_main: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "/* Generated by weir from {source}. Do not edit. */");
    // The runtime is a header: not every helper is used by every program.
    s.push_str("#if defined(__clang__)\n#pragma clang diagnostic push\n#pragma clang diagnostic ignored \"-Wunused-function\"\n#endif\n");
    s.push_str(RUNTIME);
    s.push_str("#if defined(__clang__)\n#pragma clang diagnostic pop\n#endif\n");
    s.push_str(
        "\n/* ---------------------------------------------------------------- program */\n\n",
    );
    s.push_str("#define WEIR_UNUSED __attribute__((unused))\n");
    s.push_str("static const char *const weir_locs[] = {\n");
    for l in &u.locs {
        let _ = writeln!(s, "    {},", c_string(l));
    }
    if u.locs.is_empty() {
        s.push_str("    \"\",\n");
    }
    s.push_str("};\n#define WEIR_LOC(k) (weir_locs[k])\n\n");
    s.push_str(
        "/* Product of two dimensions, failing cleanly on overflow. */\n\
         static inline WEIR_UNUSED int64_t weir_mul_dims(weir_ctx *ctx, int64_t a, int64_t b) {\n    \
         int64_t r;\n    \
         if (WEIR_UNLIKELY(__builtin_mul_overflow(a, b, &r))) weir_fail(ctx, WEIR_LOC(0), \"array size overflow: %\" PRId64 \" x %\" PRId64, a, b);\n    \
         return r;\n}\n\n",
    );
    for f in &u.funcs {
        func(&mut s, f, false);
    }
    // Entry points: DPS functions with shape functions.
    for e in &u.entries {
        let Some(f) = funs.iter().find(|f| f.name == e.name) else {
            continue;
        };
        let ps = entry_params(f);
        // Shape function.
        let mut shp: Vec<String> = ps.iter().map(|p| format!("{p} WEIR_UNUSED")).collect();
        for (k, d) in f.dests.iter().enumerate() {
            let _ = d;
            shp.push(format!("int64_t *out{k}_dims"));
        }
        let _ = writeln!(
            s,
            "/* Shape of the results of `{}` (dps-ftilde's shape function): fills each outK_dims. */",
            e.name
        );
        let _ = writeln!(
            s,
            "void weir_{}_shape({}) {{",
            c_name(&e.name),
            shp.join(", ")
        );
        for (k, d) in f.dests.iter().enumerate() {
            for (j, dim) in d.shape.iter().enumerate() {
                let _ = writeln!(s, "    out{k}_dims[{j}] = {};", dim_c(dim));
            }
        }
        s.push_str("}\n\n");
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
            "/* Entry point `{}`: writes its results into the caller's buffers (sized by\n   weir_{}_shape); returns 0, or 1 with weir_error(ctx) set. */",
            e.name,
            c_name(&e.name)
        );
        // A trampoline that is never inlined keeps the body's locals out of the
        // function that calls setjmp (no clobbering by longjmp).
        let tramp: Vec<String> = all.iter().map(|p| format!("{p} WEIR_UNUSED")).collect();
        let _ = writeln!(
            s,
            "static __attribute__((noinline)) void weir_body_{}({}) {{\n    {}({});\n}}\n",
            c_name(&e.name),
            tramp.join(", "),
            e.body_fn,
            call.join(", ")
        );
        let names: Vec<String> = all
            .iter()
            .map(|p| p.rsplit([' ', '*']).next().unwrap_or("").to_string())
            .collect();
        let _ = writeln!(s, "int weir_{}({}) {{", c_name(&e.name), all.join(", "));
        let _ = writeln!(
            s,
            "    WEIR_ENTRY(ctx, weir_body_{}({}));",
            c_name(&e.name),
            names.join(", ")
        );
        s.push_str("}\n\n");
    }
    if with_main {
        main_fn(&mut s, u, funs);
    }
    s
}

fn main_fn(s: &mut String, u: &Unit, funs: &[Fun]) {
    // One runner per entry.
    for e in &u.entries {
        let Some(f) = funs.iter().find(|f| f.name == e.name) else {
            continue;
        };
        let n = c_name(&e.name);
        let _ = writeln!(
            s,
            "static int weir_run_{n}(weir_ctx *ctx, FILE *in, FILE *out, long runs, long warmup) {{"
        );
        let mut args = Vec::new();
        let mut shape_args = Vec::new();
        for p in &f.params {
            let pn = c_name(&p.name);
            match p.ty {
                DType::Scalar(t) => {
                    let _ = writeln!(s, "    {} {pn};", ctype(t));
                    let _ = writeln!(s, "    weir_read_exact(in, &{pn}, sizeof {pn});");
                    args.push(pn.clone());
                }
                DType::Array(t, r) => {
                    let _ = writeln!(s, "    int64_t {pn}_dims[{r}];");
                    let _ = writeln!(s, "    weir_read_exact(in, {pn}_dims, sizeof {pn}_dims);");
                    let _ = writeln!(s, "    int64_t {pn}_n = 1;");
                    let _ = writeln!(
                        s,
                        "    for (int k = 0; k < {r}; k++) {{ if ({pn}_dims[k] < 0 || __builtin_mul_overflow({pn}_n, {pn}_dims[k], &{pn}_n)) {{ fprintf(stderr, \"weir: bad input dimensions\\n\"); exit(2); }} }}"
                    );
                    let _ = writeln!(
                        s,
                        "    {0} *{pn} = ({0} *)weir_xmalloc((size_t){pn}_n * sizeof({0}) + 1);",
                        ctype(t)
                    );
                    let _ = writeln!(
                        s,
                        "    weir_read_exact(in, {pn}, (size_t){pn}_n * sizeof({}));",
                        ctype(t)
                    );
                    args.push(pn.clone());
                    for k in 0..r {
                        args.push(format!("{pn}_dims[{k}]"));
                    }
                }
            }
        }
        shape_args.extend(args.iter().cloned());
        let mut call = vec!["ctx".to_string()];
        for (k, (t, r)) in e.dests.iter().enumerate() {
            let _ = writeln!(s, "    int64_t out{k}_dims[{}];", (*r).max(1));
            shape_args.push(format!("out{k}_dims"));
            let _ = t;
        }
        let _ = writeln!(s, "    weir_{n}_shape({});", shape_args.join(", "));
        for (k, (t, r)) in e.dests.iter().enumerate() {
            let _ = writeln!(s, "    int64_t out{k}_n = 1;");
            let _ = writeln!(
                s,
                "    for (int k = 0; k < {r}; k++) {{ if (out{k}_dims[k] < 0 || __builtin_mul_overflow(out{k}_n, out{k}_dims[k], &out{k}_n)) {{ fprintf(stderr, \"error: result size overflow or negative size\\n\"); exit(1); }} }}"
            );
            let _ = writeln!(
                s,
                "    {0} *out{k} = ({0} *)weir_xmalloc((size_t)out{k}_n * sizeof({0}) + 1);",
                ctype(*t)
            );
            let _ = writeln!(
                s,
                "    memset(out{k}, 0, (size_t)out{k}_n * sizeof({}));",
                ctype(*t)
            );
            call.push(format!("out{k}"));
            for j in 0..*r {
                call.push(format!("out{k}_dims[{j}]"));
            }
        }
        call.extend(args.iter().cloned());
        for (k, t) in e.scalar_results.iter().enumerate() {
            let _ = writeln!(s, "    {} ret{k} = 0;", ctype(*t));
            call.push(format!("&ret{k}"));
        }
        // Untimed warm-up calls (benchmarks: page faults, caches, the region's chunks).
        s.push_str("    for (long r = 0; r < warmup; r++) {\n");
        let _ = writeln!(s, "        if (weir_{n}({})) {{", call.join(", "));
        s.push_str("            fprintf(stderr, \"error: %s\\n\", weir_error(ctx));\n            return 1;\n        }\n");
        s.push_str("        __asm__ volatile(\"\" ::: \"memory\");\n    }\n");
        s.push_str("    uint64_t allocs_at_t0 = weir_ctx_stats(ctx)->sys_allocs;\n    uint64_t t0 = weir_now_ns();\n    uint64_t allocs_before_last = 0;\n");
        s.push_str("    for (long r = 0; r < runs; r++) {\n");
        s.push_str(
            "        if (r == runs - 1) allocs_before_last = weir_ctx_stats(ctx)->sys_allocs;\n",
        );
        let _ = writeln!(s, "        if (weir_{n}({})) {{", call.join(", "));
        s.push_str("            fprintf(stderr, \"error: %s\\n\", weir_error(ctx));\n            return 1;\n        }\n");
        s.push_str("        __asm__ volatile(\"\" ::: \"memory\");\n    }\n");
        s.push_str("    uint64_t t1 = weir_now_ns();\n");
        // Write results in source order.
        let mut d = 0;
        let mut sc = 0;
        for r in &f.results {
            match r {
                ResultPart::Scalar(_) => {
                    let _ = writeln!(s, "    weir_write_all(out, &ret{sc}, sizeof ret{sc});");
                    sc += 1;
                }
                ResultPart::Dest(_) => {
                    let (t, r) = e.dests[d];
                    let _ = writeln!(
                        s,
                        "    weir_write_all(out, out{d}_dims, {r} * sizeof(int64_t));"
                    );
                    let _ = writeln!(
                        s,
                        "    weir_write_all(out, out{d}, (size_t)out{d}_n * sizeof({}));",
                        ctype(t)
                    );
                    d += 1;
                }
            }
        }
        s.push_str("    fflush(out);\n");
        for p in &f.params {
            if let DType::Array(..) = p.ty {
                let _ = writeln!(s, "    free({});", c_name(&p.name));
            }
        }
        for k in 0..e.dests.len() {
            let _ = writeln!(s, "    free(out{k});");
        }
        s.push_str("    const weir_stats *st = weir_ctx_stats(ctx);\n");
        s.push_str(
            "    if (getenv(\"WEIR_STATS\")) fprintf(stderr, \"stats: runs=%ld total_ns=%\" PRIu64 \" ns_per_run=%.1f peak_rss_kb=%ld sys_allocs=%\" PRIu64 \" sys_allocs_last_run=%\" PRIu64 \" peak_bytes=%\" PRIu64 \" reserved_bytes=%\" PRIu64 \"\\n\", runs, t1 - t0, (double)(t1 - t0) / (double)runs, weir_peak_rss_kb(), st->sys_allocs - allocs_at_t0, st->sys_allocs - allocs_before_last, st->peak_bytes, st->reserved_bytes);\n",
        );
        s.push_str("    return 0;\n}\n\n");
    }
    s.push_str("int main(int argc, char **argv) {\n");
    s.push_str(
        "    const char *entry = NULL, *in_path = NULL, *out_path = NULL;\n    long runs = 1, warmup = 0;\n",
    );
    s.push_str("    for (int i = 1; i < argc; i++) {\n");
    s.push_str("        if (!strcmp(argv[i], \"-e\") && i + 1 < argc) entry = argv[++i];\n");
    s.push_str(
        "        else if (!strcmp(argv[i], \"--runs\") && i + 1 < argc) runs = atol(argv[++i]);\n",
    );
    s.push_str(
        "        else if (!strcmp(argv[i], \"--warmup\") && i + 1 < argc) warmup = atol(argv[++i]);\n",
    );
    s.push_str(
        "        else if (!strcmp(argv[i], \"--in\") && i + 1 < argc) in_path = argv[++i];\n",
    );
    s.push_str(
        "        else if (!strcmp(argv[i], \"--out\") && i + 1 < argc) out_path = argv[++i];\n",
    );
    s.push_str(
        "        else if (!strcmp(argv[i], \"--stats\")) setenv(\"WEIR_STATS\", \"1\", 1);\n",
    );
    s.push_str("        else { fprintf(stderr, \"usage: %s [-e ENTRY] [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]\\n\", argv[0]); return 2; }\n    }\n");
    s.push_str("    if (runs < 1) runs = 1;\n    if (warmup < 0) warmup = 0;\n");
    s.push_str("    FILE *in = in_path ? fopen(in_path, \"rb\") : stdin;\n    FILE *out = out_path ? fopen(out_path, \"wb\") : stdout;\n");
    s.push_str("    if (!in || !out) { fprintf(stderr, \"weir: cannot open the input or output file\\n\"); return 2; }\n");
    s.push_str("    weir_ctx *ctx = weir_ctx_new();\n    if (!ctx) { fprintf(stderr, \"weir: out of memory\\n\"); return 2; }\n    int rc = 2;\n");
    for (k, e) in u.entries.iter().enumerate() {
        let n = c_name(&e.name);
        let cond = if k == 0 {
            format!("!entry || !strcmp(entry, {})", c_string(&e.name))
        } else {
            format!("entry && !strcmp(entry, {})", c_string(&e.name))
        };
        let _ = writeln!(
            s,
            "    {}if ({cond}) rc = weir_run_{n}(ctx, in, out, runs, warmup);",
            if k == 0 { "" } else { "else " }
        );
    }
    if !u.entries.is_empty() {
        s.push_str(
            "    else { fprintf(stderr, \"weir: no entry point named %s\\n\", entry); rc = 2; }\n",
        );
    }
    s.push_str("    weir_ctx_free(ctx);\n    return rc;\n}\n");
}
