//! The ABI model: what a caller of compiled Weir code sees, computed once
//! from the lowered program. The C header and exported wrappers of `weir
//! lib`, its JSON manifest (read by the Python package), and the Rust
//! bindings of `weir-rs` are all generated from it.
//!
//! Calling convention of an entry `e` of library `L` (C symbol `L_e`):
//!
//! ```c
//! int L_e(weir_ctx *ctx,
//!         T0 *out0, int64_t out0_d0, ...,      /* each destination: its dims */
//!         const T *a, int64_t a_d0, ..., T s,  /* each parameter, in order */
//!         T *ret0, ...);                       /* scalar results, then sizes */
//! int L_e_shape(weir_ctx *ctx, <parameters>, int64_t *out0_dims, ...);
//! ```
//!
//! Both return 0, or 1 with the error in the context (`weir_error`). Arrays
//! are dense, row-major, and owned by the caller. A result of existential
//! outer size gets a destination of the shape function's upper bound and
//! its size through a `ret` pointer; an unbounded one (upper bound 0) is
//! called again with the rows `weir_retry_rows` asks for.

use crate::lower::{EntryInfo, pub_name as c_name};
use std::fmt::Write;
use weir_dps::ir::{DType, Fun, ResultPart};
use weir_ir::PrimType;

/// A library's (or program's) ABI.
#[derive(Clone, Debug, PartialEq)]
pub struct Abi {
    /// The symbol prefix (`weir` for a program's own functions).
    pub prefix: String,
    /// The Weir source file.
    pub source: String,
    pub entries: Vec<Entry>,
}

/// One entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The Weir name.
    pub name: String,
    /// The C function the generated code defines (`weir_NAME`).
    pub internal: String,
    /// The exported symbol (`PREFIX_NAME`) and its shape function.
    pub symbol: String,
    pub shape_symbol: String,
    /// The source signature (`entry f (a: [n]f64) : [n]f64`), for documentation.
    pub signature: String,
    pub params: Vec<Param>,
    pub dests: Vec<Dest>,
    /// The `retK` pointers: scalar results, then returned sizes.
    pub rets: Vec<PrimType>,
    /// The results in source order.
    pub results: Vec<Result>,
    /// The arrays of a tuple or record parameter that must agree in dims
    /// they share, checked before anything else.
    pub agree: Vec<Agree>,
}

/// Two arrays a tuple or record parameter is passed as, whose first `dims`
/// dims must be equal: the dims of the array of tuples or records (a
/// component that is itself an array has more dims of its own). Checked by
/// the entry, its shape function and an executable's `main` before any
/// memory is touched; an argument error naming the parameter and both
/// sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct Agree {
    /// The parameter's Weir name (`xs`).
    pub param: String,
    /// The array checked (an index into [`Entry::params`]) and what it is
    /// in the user's words (``field `b` ``, ``component `1` ``).
    pub leaf: usize,
    pub leaf_what: String,
    /// The array it is checked against: an earlier one of the parameter.
    pub with: usize,
    pub with_what: String,
    pub dims: usize,
}

/// A step of the path from a tuple or record parameter to one of its
/// leaves: the field name or component number, and the number of array
/// dims around the tuple or record it selects from (`[]{a: f64}`: 1).
pub type LeafStep = (String, usize);

/// The path of a leaf of a tuple or record parameter.
pub type LeafPath = Vec<LeafStep>;

/// A parameter: a scalar (rank 0) passed by value, or an array passed as a
/// pointer and its dims.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The C name (unique among the entry's names).
    pub name: String,
    /// The name in the Weir source (a leaf of a tuple or record parameter:
    /// `b_pos_x`), before the C name's fix-ups; bindings show it (Python
    /// keyword arguments).
    pub weir_name: String,
    pub elem: PrimType,
    pub rank: usize,
}

/// A destination: storage the caller provides for an array result.
#[derive(Clone, Debug, PartialEq)]
pub struct Dest {
    pub elem: PrimType,
    pub rank: usize,
    /// Its outer size is existential: the shape function gives an upper
    /// bound, the entry writes the size into `ret[k]`.
    pub size_ret: Option<usize>,
    /// No upper bound from the arguments: the shape function says 0 rows;
    /// call again with `weir_retry_rows(ctx, dest)` rows.
    pub unbounded: bool,
    /// Inner dims that are existential (`[n][]f64` of a `filter` per row):
    /// (dim, K of `retK`). The shape function gives upper bounds; the entry
    /// writes the result densely at the front of the destination, with these
    /// dims' sizes in the `ret`s.
    pub inner_sizes: Vec<(usize, usize)>,
}

/// A result of the source-level function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    /// An array in destination `k`.
    Array(usize),
    /// A scalar in `ret[k]`.
    Scalar(usize),
}

/// C keywords and the standard macros a header includes: not parameter names.
const C_RESERVED: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "true",
    "false",
    "NULL",
    "errno",
    "int64_t",
    "int32_t",
    "uint64_t",
    "size_t",
    "class",
    "new",
    "delete",
    "this",
    "template",
    "namespace",
    "operator",
    "private",
    "public",
    "protected",
    "virtual",
    "try",
    "catch",
    "throw",
    "using",
    "typename",
    "friend",
    "mutable",
    "explicit",
    "export",
    "asm",
    "and",
    "or",
    "not",
    "xor",
    "nullptr",
    "constexpr",
    "decltype",
    "noexcept",
    "alignas",
    "alignof",
];

/// The name of an element type in Weir's syntax.
pub fn elem_name(t: PrimType) -> &'static str {
    t.name()
}

/// The C type of an element in a public header (`bool`: `<stdbool.h>`,
/// usable from C++ too).
pub fn header_ctype(t: PrimType) -> &'static str {
    match t {
        PrimType::Bool => "bool",
        t => crate::emit::ctype(t),
    }
}

/// A parameter that is one leaf of a tuple or record parameter (the shape
/// translation names them `x_12c3`: leaf 3 of `x_12`): the parameter's
/// core name and the leaf's index.
fn tuple_leaf(name: &str) -> Option<(&str, usize)> {
    let c = name.rfind('c')?;
    let k: usize = name[c + 1..].parse().ok()?;
    let base = &name[..c];
    let u = base.rfind('_')?;
    (u + 1 < base.len() && base[u + 1..].chars().all(|d| d.is_ascii_digit())).then_some((base, k))
}

/// The ABI of a lowered program's entries. `prefix`: the exported symbols'
/// prefix; `signature`: the source signature of an entry, by name;
/// `leaf_path`: the path of leaf `k` of an entry's tuple or record parameter
/// (by its source name), if known: its fields (`pos`, `x`: named `pos_x`),
/// each with the array dims around the tuple or record it selects from
/// (which dims the leaves share: [`Agree`]).
pub fn model(
    entries: &[EntryInfo],
    funs: &[Fun],
    prefix: &str,
    source: &str,
    signature: &dyn Fn(&str) -> String,
    leaf_path: &dyn Fn(&str, &str, usize) -> Option<LeafPath>,
) -> Abi {
    let mut out = Vec::new();
    for e in entries {
        let Some(f) = funs.iter().find(|f| f.name == e.name) else {
            continue;
        };
        let n = c_name(&e.name);
        let mut params = Vec::new();
        let mut taken: Vec<String> = vec!["ctx".into()];
        // (the leaves of tuple and record parameters: core name, path)
        let mut leaves: Vec<(usize, &str, Vec<LeafStep>)> = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            // the display name where it is unique, else the C name; a leaf of
            // a tuple or record parameter is named by its path (`b_pos_x`)
            let leaf = tuple_leaf(&p.name).and_then(|(base, k)| {
                let shown = weir_ir::display_name(base);
                let path = leaf_path(&e.name, shown, k).filter(|p| !p.is_empty())?;
                let names: Vec<&str> = path.iter().map(|(n, _)| n.as_str()).collect();
                let name = format!("{shown}_{}", names.join("_"));
                leaves.push((i, base, path));
                Some(name)
            });
            let weir_name = match leaf {
                Some(l) => l,
                None => weir_ir::display_name(&p.name).to_string(),
            };
            let mut name = c_name(&weir_name);
            if taken.contains(&name) || name.starts_with("out") || name.starts_with("ret") {
                name = c_name(&p.name);
            }
            // (a runtime name gets a `p_`, as does one the C implementation
            // reserves, `__x` or `_X`; a C keyword or macro a `_`)
            let reserved = name.starts_with("__")
                || name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase());
            if name.to_ascii_lowercase().starts_with("weir") || reserved {
                name.insert_str(0, "p_");
            }
            // (an array's dims `NAME_dK` are parameters too)
            let rank = match p.ty {
                DType::Array(_, r) => r,
                DType::Scalar(_) => 0,
            };
            let dims =
                |n: &str| -> Vec<String> { (0..rank).map(|k| format!("{n}_d{k}")).collect() };
            while C_RESERVED.contains(&name.as_str())
                || c_macro_like(&name)
                || taken.contains(&name)
                || dims(&name).iter().any(|d| taken.contains(d))
            {
                name.push('_');
            }
            taken.push(name.clone());
            taken.extend(dims(&name));
            let (elem, rank) = match p.ty {
                DType::Scalar(t) => (t, 0),
                DType::Array(t, r) => (t, r),
            };
            params.push(Param {
                name,
                weir_name,
                elem,
                rank,
            });
        }
        let dests = e
            .dests
            .iter()
            .enumerate()
            .map(|(k, (t, r))| Dest {
                elem: *t,
                rank: *r,
                size_ret: e
                    .sizes
                    .iter()
                    .find(|(d, j, _)| *d == k && *j == 0)
                    .map(|(_, _, ret)| *ret),
                unbounded: f.dests.get(k).is_some_and(|d| d.unbounded),
                inner_sizes: e
                    .sizes
                    .iter()
                    .filter(|(d, j, _)| *d == k && *j > 0)
                    .map(|(_, j, ret)| (*j, *ret))
                    .collect(),
            })
            .collect();
        let mut results = Vec::new();
        let mut sc = 0;
        for r in &f.results {
            match r {
                ResultPart::Scalar(_) => {
                    results.push(Result::Scalar(sc));
                    sc += 1;
                }
                ResultPart::Dest(k) => results.push(Result::Array(*k)),
                ResultPart::Size { .. } => {}
            }
        }
        out.push(Entry {
            name: e.name.clone(),
            internal: crate::lower::entry_fn(&e.name, false),
            symbol: format!("{prefix}_{n}"),
            shape_symbol: format!("{prefix}_{n}_shape"),
            signature: signature(&e.name),
            dests,
            rets: e.scalar_results.clone(),
            results,
            agree: agreements(&leaves)
                .into_iter()
                .filter(|a| {
                    let rank = |i: usize| params.get(i).map_or(0, |p: &Param| p.rank);
                    rank(a.leaf) >= a.dims && rank(a.with) >= a.dims
                })
                .collect(),
            params,
        });
    }
    Abi {
        prefix: prefix.to_string(),
        source: source.to_string(),
        entries: out,
    }
}

/// The checks that the leaves of each tuple or record parameter agree in
/// the dims they share (`leaves`: parameter index, core name of the
/// parameter, path): each leaf against the earlier leaf of its parameter
/// with which it shares the most dims (the leaves of one tuple or record
/// share the array dims around it; an earlier leaf was checked against its
/// own, so all of them agree).
fn agreements(leaves: &[(usize, &str, Vec<LeafStep>)]) -> Vec<Agree> {
    // (the dims two paths share: those around the tuple or record where
    // they part)
    let shared = |a: &[LeafStep], b: &[LeafStep]| -> usize {
        a.iter()
            .zip(b)
            .find(|((x, _), (y, _))| x != y)
            .map_or(0, |((_, d), _)| *d)
    };
    let what = |path: &[LeafStep]| -> String {
        let names: Vec<&str> = path.iter().map(|(n, _)| n.as_str()).collect();
        let kind = if names.iter().all(|n| n.bytes().all(|b| b.is_ascii_digit())) {
            "component"
        } else {
            "field"
        };
        format!("{kind} `{}`", names.join("."))
    };
    let mut out = Vec::new();
    for (j, (leaf, base, path)) in leaves.iter().enumerate() {
        let best = leaves[..j]
            .iter()
            .filter(|(_, b, _)| b == base)
            .map(|(i, _, p)| (shared(p, path), *i, p))
            .filter(|(d, _, _)| *d > 0)
            .fold(
                None,
                |best: Option<(usize, usize, &Vec<LeafStep>)>, c| match best {
                    Some(b) if b.0 >= c.0 => Some(b),
                    _ => Some(c),
                },
            );
        if let Some((dims, with, with_path)) = best {
            out.push(Agree {
                param: weir_ir::display_name(base).to_string(),
                leaf: *leaf,
                leaf_what: what(path),
                with,
                with_what: what(with_path),
                dims,
            });
        }
    }
    out
}

impl Entry {
    /// The C parameters of the entry (`public`: header types).
    pub fn c_params(&self, public: bool) -> Vec<String> {
        let ty = |t| {
            if public {
                header_ctype(t)
            } else {
                crate::emit::ctype(t)
            }
        };
        let mut v = vec!["weir_ctx *ctx".to_string()];
        for (k, d) in self.dests.iter().enumerate() {
            v.push(format!("{} *out{k}", ty(d.elem)));
            v.extend((0..d.rank).map(|j| format!("int64_t out{k}_d{j}")));
        }
        v.extend(self.param_decls(public));
        for (k, t) in self.rets.iter().enumerate() {
            v.push(format!("{} *ret{k}", ty(*t)));
        }
        v
    }

    /// The C parameters of the shape function.
    pub fn c_shape_params(&self, public: bool) -> Vec<String> {
        let mut v = vec!["weir_ctx *ctx".to_string()];
        v.extend(self.param_decls(public));
        v.extend((0..self.dests.len()).map(|k| format!("int64_t *out{k}_dims")));
        v
    }

    fn param_decls(&self, public: bool) -> Vec<String> {
        let mut v = Vec::new();
        for p in &self.params {
            let t = if public {
                header_ctype(p.elem)
            } else {
                crate::emit::ctype(p.elem)
            };
            if p.rank == 0 {
                v.push(format!("{t} {}", p.name));
            } else {
                v.push(format!("const {t} *{}", p.name));
                v.extend((0..p.rank).map(|k| format!("int64_t {}_d{k}", p.name)));
            }
        }
        v
    }

    /// The argument names of a call passing every parameter on.
    pub fn c_args(params: &[String]) -> Vec<String> {
        params
            .iter()
            .map(|p| p.rsplit([' ', '*']).next().unwrap_or("").to_string())
            .collect()
    }
}

/// A parameter name that may be a macro of the C library (`M_PI`,
/// `INT64_MAX`, `PRId64`, `errno`, `assert`, `stdin`): all capitals (two
/// characters or more), `PRI…`/`SCN…`, or a lower-case one it defines.
/// It gets a `_`.
fn c_macro_like(name: &str) -> bool {
    const LOWER: &[&str] = &[
        "assert",
        "stdin",
        "stdout",
        "stderr",
        "alloca",
        "offsetof",
        "va_arg",
        "va_start",
        "va_end",
        "va_copy",
        "va_list",
        "isnan",
        "isinf",
        "isfinite",
        "isnormal",
        "signbit",
        "fpclassify",
        "isgreater",
        "isgreaterequal",
        "isless",
        "islessequal",
        "islessgreater",
        "isunordered",
        "linux",
        "unix",
        "major",
        "minor",
        "makedev",
        "complex",
        "imaginary",
        "static_assert",
        "noreturn",
        "alignof",
        "thread_local",
        "getc",
        "putc",
        "getchar",
        "putchar",
        "st_atime",
        "st_mtime",
        "st_ctime",
        "math_errhandling",
        "setjmp",
        "typeof",
        "typeof_unqual",
    ];
    let caps = name.len() >= 2
        && name
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    // (with a `_` at its end, none is)
    !name.ends_with('_')
        && (caps || name.starts_with("PRI") || name.starts_with("SCN") || LOWER.contains(&name))
}

/// `name` as a C identifier prefix: it must be one, not start with `weir`
/// (the runtime's names) and not be a C keyword.
pub fn check_prefix(name: &str) -> std::result::Result<(), String> {
    let ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(format!(
            "the library name `{name}` is not a C identifier: use letters, digits and `_`, not starting with a digit"
        ));
    }
    if name.to_ascii_lowercase().starts_with("weir") || name.starts_with("__") {
        return Err(format!(
            "the library name `{name}` may clash with Weir's runtime (`weir_…`) or the C implementation (`__…`): choose another with --name"
        ));
    }
    Ok(())
}

/// The library's public header.
pub fn header(abi: &Abi, weir_h: &str) -> String {
    let guard = format!("{}_H", abi.prefix.to_ascii_uppercase());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* {p}.h -- the C API of the Weir library `{p}`, compiled from {src} by weir {v}.\n * Generated: do not edit. Link with lib{p}.a (Weir's runtime is inside) and -lm,\n * or with -l{p} and a run path for lib{p}.so (-Wl,-rpath,DIR).\n *\n * Every entry function takes a context (weir_ctx_new), its destinations\n * (caller-allocated storage for the array results, with their dims), its\n * arguments, and pointers for its scalar results; it returns 0, or 1 with\n * the error in the context: weir_error(ctx) is \"file.weir:LINE:COL: message\",\n * weir_error_code(ctx) its kind (a NULL\n * context: WEIR_ERR_ARGUMENT returned). Arrays are dense and row-major (element\n * [i][j] of an n x m array at p[i * m + j]) and stay the caller's.\n * Each entry's shape function gives the dims its destinations must have;\n * every dim of every destination is checked (WEIR_ERR_ARGUMENT on a\n * mismatch), and a destination must not overlap an argument.\n */\n#ifndef {guard}\n#define {guard}\n\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n",
        p = abi.prefix,
        src = abi.source,
        v = env!("CARGO_PKG_VERSION"),
    );
    s.push_str(weir_h);
    let _ = writeln!(
        s,
        "\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n/* The ABI this library was built for (compare with weir_abi_version()). */\n#define {guard_base}_WEIR_ABI {abi_v}\n",
        guard_base = abi.prefix.to_ascii_uppercase(),
        abi_v = 1
    );
    for e in &abi.entries {
        let _ = writeln!(s, "/* ---- `{}`: {}", e.name, e.signature.trim());
        let _ = writeln!(s, " *");
        for p in &e.params {
            if p.rank == 0 {
                let _ = writeln!(s, " *   {}: {} scalar", p.name, elem_name(p.elem));
            } else {
                let _ = writeln!(
                    s,
                    " *   {}: {}-d array of {} ({} with dims {})",
                    p.name,
                    p.rank,
                    elem_name(p.elem),
                    p.name,
                    (0..p.rank)
                        .map(|k| format!("{}_d{k}", p.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        // (the arrays of an array of tuples or records: one length)
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for a in &e.agree {
            let names = [a.with, a.leaf].map(|k| e.params.get(k).map_or("", |p| p.name.as_str()));
            match groups.iter_mut().find(|(p, _)| *p == a.param) {
                Some((_, g)) => {
                    g.extend(names.iter().filter(|n| !g.contains(n)).collect::<Vec<_>>())
                }
                None => groups.push((&a.param, names.to_vec())),
            }
        }
        for (param, names) in &groups {
            let _ = writeln!(
                s,
                " *   {}: the components of `{param}`, an array of tuples or records:\n *     they must agree in the dims of the array (checked: WEIR_ERR_ARGUMENT)",
                names.join(", ")
            );
        }
        for (i, r) in e.results.iter().enumerate() {
            match r {
                Result::Scalar(k) => {
                    let _ = writeln!(
                        s,
                        " *   result {i}: {} scalar in *ret{k}",
                        elem_name(e.rets[*k])
                    );
                }
                Result::Array(k) => {
                    let d = &e.dests[*k];
                    let _ = write!(
                        s,
                        " *   result {i}: {}-d array of {} in out{k} (dims from {})",
                        d.rank,
                        elem_name(d.elem),
                        e.shape_symbol
                    );
                    if let Some(ret) = d.size_ret {
                        if d.unbounded {
                            let _ = write!(
                                s,
                                ";\n *     its outer size is data-dependent with no bound: pass any number of\n *     rows; if they are too few the call fails with WEIR_ERR_NOMEM (\"too\n *     small\") and weir_retry_rows(ctx, {k}) rows are needed; the size is in *ret{ret}"
                            );
                        } else {
                            let _ = write!(
                                s,
                                ";\n *     its outer size is data-dependent: out{k}_d0 is an upper bound, the\n *     result is the first *ret{ret} rows (fewer rows than the bound do if the\n *     result fits, else WEIR_ERR_NOMEM, \"too small\", with weir_retry_rows(ctx, {k}))"
                            );
                        }
                    }
                    for (j, ret) in &d.inner_sizes {
                        let _ = write!(
                            s,
                            ";\n *     its dim {j} is data-dependent: out{k}_d{j} is an upper bound, the\n *     result is written densely at the front of out{k} with dim {j} = *ret{ret}"
                        );
                    }
                    s.push('\n');
                }
            }
        }
        s.push_str(" */\n");
        let _ = writeln!(s, "int {}({});", e.symbol, e.c_params(true).join(", "));
        let _ = writeln!(
            s,
            "/* The dims of `{}`'s destinations: fills each outK_dims[rank]; 0, or 1 with the error. */\nint {}({});\n",
            e.name,
            e.shape_symbol,
            e.c_shape_params(true).join(", ")
        );
    }
    let _ = writeln!(s, "#ifdef __cplusplus\n}}\n#endif\n\n#endif /* {guard} */");
    s
}

/// The exported wrappers of a library (after the generated code, which
/// defines the internal `weir_NAME` functions as `static`).
pub fn wrappers(abi: &Abi) -> String {
    let mut s = String::from(
        "\n/* ---------------------------------------------------------------- exports */\n\n",
    );
    for e in &abi.entries {
        let ps = e.c_params(false);
        let _ = writeln!(
            s,
            "__attribute__((visibility(\"default\"))) int {}({}) {{\n    return {}({});\n}}\n",
            e.symbol,
            ps.join(", "),
            e.internal,
            Entry::c_args(&ps).join(", ")
        );
        let ps = e.c_shape_params(false);
        let _ = writeln!(
            s,
            "__attribute__((visibility(\"default\"))) int {}({}) {{\n    return {}({});\n}}\n",
            e.shape_symbol,
            ps.join(", "),
            crate::lower::shape_fn(&e.internal),
            Entry::c_args(&ps).join(", ")
        );
    }
    s
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The manifest (JSON): the ABI for bindings that read it at run time.
pub fn manifest(abi: &Abi) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{{\n  \"weir_abi\": 1,\n  \"weir_version\": {},\n  \"library\": {},\n  \"source\": {},\n  \"entries\": [",
        json_str(env!("CARGO_PKG_VERSION")),
        json_str(&abi.prefix),
        json_str(&abi.source)
    );
    for (i, e) in abi.entries.iter().enumerate() {
        let params: Vec<String> = e
            .params
            .iter()
            .map(|p| {
                format!(
                    "{{\"name\": {}, \"weir_name\": {}, \"elem\": \"{}\", \"rank\": {}}}",
                    json_str(&p.name),
                    json_str(&p.weir_name),
                    elem_name(p.elem),
                    p.rank
                )
            })
            .collect();
        let dests: Vec<String> = e
            .dests
            .iter()
            .map(|d| {
                let inner: Vec<String> = d
                    .inner_sizes
                    .iter()
                    .map(|(j, k)| format!("[{j}, {k}]"))
                    .collect();
                format!(
                    "{{\"elem\": \"{}\", \"rank\": {}, \"size_ret\": {}, \"unbounded\": {}, \"inner_size_rets\": [{}]}}",
                    elem_name(d.elem),
                    d.rank,
                    d.size_ret.map_or("null".to_string(), |k| k.to_string()),
                    d.unbounded,
                    inner.join(", ")
                )
            })
            .collect();
        let rets: Vec<String> = e
            .rets
            .iter()
            .map(|t| format!("\"{}\"", elem_name(*t)))
            .collect();
        let results: Vec<String> = e
            .results
            .iter()
            .map(|r| match r {
                Result::Array(k) => format!("{{\"kind\": \"array\", \"dest\": {k}}}"),
                Result::Scalar(k) => format!("{{\"kind\": \"scalar\", \"ret\": {k}}}"),
            })
            .collect();
        let _ = write!(
            s,
            "    {{\n      \"name\": {},\n      \"symbol\": {},\n      \"shape_symbol\": {},\n      \"signature\": {},\n      \"params\": [{}],\n      \"dests\": [{}],\n      \"rets\": [{}],\n      \"results\": [{}]\n    }}",
            json_str(&e.name),
            json_str(&e.symbol),
            json_str(&e.shape_symbol),
            json_str(e.signature.trim()),
            params.join(", "),
            dests.join(", "),
            rets.join(", "),
            results.join(", ")
        );
        s.push_str(if i + 1 < abi.entries.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    s.push_str("  ]\n}\n");
    s
}
