//! The Rust bindings of a Weir library, generated from its ABI model as
//! the library's manifest gives it ([`crate::manifest`]): per entry `e`, a
//! function `e` that allocates its results, `e_into` that writes them into
//! the caller's arrays (entries without results of existential size) and
//! `e_shape` that gives their dims, all over `ndarray` views and calling
//! the library's C symbols. Every path it writes is absolute and goes
//! through `weir_rs` (`::weir_rs::ndarray::Array1`), so the crate that
//! includes it needs no `ndarray` of its own.

use crate::manifest::{Abi, Entry, Res};
use std::collections::HashSet;
use std::fmt::Write;

/// Rust's keywords (strict and reserved, all editions): an identifier
/// among them is written raw (`r#type`).
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// `name` (a C identifier) as a Rust identifier.
fn ident(name: &str) -> String {
    if matches!(name, "self" | "Self" | "super" | "crate" | "_") {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// The Rust type of a Weir element type (the same name).
fn rty(t: &str) -> &str {
    t
}

/// An ndarray type `Base{rank}<'_, T>` (`Base` of `ArrayView`, `ArrayViewMut`, `Array`).
fn array_ty(base: &str, elem: &str, rank: usize, lifetime: bool) -> String {
    let lt = if lifetime { "'_, " } else { "" };
    if (1..=6).contains(&rank) {
        format!("::weir_rs::ndarray::{base}{rank}<{lt}{}>", rty(elem))
    } else {
        format!("::weir_rs::ndarray::{base}D<{lt}{}>", rty(elem))
    }
}

fn dim_ty(rank: usize) -> String {
    if (1..=6).contains(&rank) {
        format!("::weir_rs::ndarray::Ix{rank}")
    } else {
        "::weir_rs::ndarray::IxDyn".into()
    }
}

/// `x` for one, `(x, y)` for several, `()` for none.
fn tuple(items: &[String]) -> String {
    match items {
        [one] => one.clone(),
        _ => format!("({})", items.join(", ")),
    }
}

/// One line of documentation (no line breaks).
fn doc_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Gen<'a> {
    abi: &'a Abi,
    s: String,
}

/// The Rust name of an entry: its C name, the symbol without the
/// library's prefix.
fn rust_name(abi: &Abi, e: &Entry) -> String {
    let n = e
        .symbol
        .strip_prefix(abi.library.as_str())
        .and_then(|s| s.strip_prefix('_'))
        .unwrap_or(&e.symbol);
    if n.is_empty() {
        e.symbol.clone()
    } else {
        n.to_string()
    }
}

impl Gen<'_> {
    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.s.push_str("    ");
        }
        self.s.push_str(text);
        self.s.push('\n');
    }

    fn externs(&mut self) {
        self.line(1, "mod __weir_ffi {");
        self.line(2, "use ::weir_rs::__private::weir_ctx;");
        self.line(2, "unsafe extern \"C\" {");
        for e in &self.abi.entries {
            let mut ps = vec!["ctx: *mut weir_ctx".to_string()];
            for (k, d) in e.dests.iter().enumerate() {
                ps.push(format!("out{k}: *mut {}", rty(d.elem)));
                ps.extend((0..d.rank).map(|j| format!("out{k}_d{j}: i64")));
            }
            let params = param_decls(e);
            ps.extend(params.iter().cloned());
            for (k, t) in e.rets.iter().enumerate() {
                ps.push(format!("ret{k}: *mut {}", rty(t)));
            }
            self.line(
                3,
                &format!(
                    "pub(super) fn {}({}) -> ::std::ffi::c_int;",
                    e.symbol,
                    ps.join(", ")
                ),
            );
            let mut ps = vec!["ctx: *mut weir_ctx".to_string()];
            ps.extend(params);
            ps.extend((0..e.dests.len()).map(|k| format!("out{k}_dims: *mut i64")));
            self.line(
                3,
                &format!(
                    "pub(super) fn {}({}) -> ::std::ffi::c_int;",
                    e.shape_symbol,
                    ps.join(", ")
                ),
            );
        }
        self.line(2, "}");
        self.line(1, "}");
    }

    /// The documentation of an entry's functions.
    fn doc(&mut self, e: &Entry, what: &str) {
        self.line(1, &format!("/// {what}"));
        self.line(1, "///");
        self.line(1, "/// ```text");
        self.line(1, &format!("/// {}", doc_line(&e.signature)));
        self.line(1, "/// ```");
        self.line(1, "///");
        self.line(
            1,
            &format!(
                "/// Entry `{}` of `{}` (C symbols `{}`, `{}`).",
                doc_line(&e.name),
                doc_line(&self.abi.source),
                e.symbol,
                e.shape_symbol
            ),
        );
        for (i, r) in e.results.iter().enumerate() {
            if let Res::Array(k) = r
                && let Some(d) = e.dests.get(*k)
                && d.size_ret.is_some()
            {
                let how = if d.unbounded {
                    "with no bound from the arguments: the call is repeated with the rows the entry asks for"
                } else {
                    "the result is the rows the entry returns of the shape function's upper bound"
                };
                self.line(
                    1,
                    &format!(
                        "/// Result {i}: its outer size is known only after the call ({how})."
                    ),
                );
            }
        }
        self.line(1, "///");
        self.line(1, "/// # Errors");
        self.line(1, "///");
        self.line(
            1,
            "/// [`ErrorCode::Argument`](::weir_rs::ErrorCode::Argument) when the arrays' dims do not match the entry's types (or a destination's the shape function's), [`ErrorCode::Program`](::weir_rs::ErrorCode::Program) when the program fails (an index out of bounds, a failed assertion), [`ErrorCode::OutOfMemory`](::weir_rs::ErrorCode::OutOfMemory).",
        );
    }

    /// `ctx: &mut Context, a: ArrayView1<'_, f64>, s: f64, ...`, after the
    /// destinations `dests`.
    fn rust_params(&self, e: &Entry, dests: &[String]) -> String {
        let mut v = vec!["ctx: &mut ::weir_rs::Context".to_string()];
        v.extend(dests.iter().cloned());
        for p in &e.params {
            let t = if p.rank == 0 {
                rty(p.elem).to_string()
            } else {
                array_ty("ArrayView", p.elem, p.rank, true)
            };
            v.push(format!("{}: {t}", ident(&p.name)));
        }
        v.join(", ")
    }

    /// The arguments: standard-layout copies where needed.
    fn prepare_args(&mut self, e: &Entry) {
        for p in &e.params {
            if p.rank > 0 {
                let n = ident(&p.name);
                self.line(2, &format!("let {n} = __rt::arg(&{n});"));
            }
        }
    }

    /// The C arguments of the parameters.
    fn c_args(e: &Entry) -> Vec<String> {
        let mut v = Vec::new();
        for p in &e.params {
            let n = ident(&p.name);
            if p.rank == 0 {
                v.push(n);
            } else {
                v.push(format!("{n}.as_ptr()"));
                v.extend((0..p.rank).map(|k| format!("__rt::dim(&{n}, {k})")));
            }
        }
        v
    }

    /// A call of the shape function into `__w_dK`.
    fn shape_call(&mut self, e: &Entry) {
        for (k, d) in e.dests.iter().enumerate() {
            self.line(2, &format!("let mut __w_d{k} = [0i64; {}];", d.rank));
        }
        let mut args = vec!["ctx.as_ptr()".to_string()];
        args.extend(Self::c_args(e));
        args.extend((0..e.dests.len()).map(|k| format!("__w_d{k}.as_mut_ptr()")));
        self.line(
            2,
            "// SAFETY: the arrays are contiguous with the dims passed, each dims array has its destination's rank",
        );
        self.line(
            2,
            &format!(
                "let __w_st = unsafe {{ __weir_ffi::{}({}) }};",
                e.shape_symbol,
                args.join(", ")
            ),
        );
        self.line(2, "__rt::check(ctx, __w_st)?;");
    }

    fn ret_decls(&mut self, e: &Entry, indent: usize) {
        for (k, t) in e.rets.iter().enumerate() {
            self.line(
                indent,
                &format!("let mut __w_r{k}: {} = Default::default();", rty(t)),
            );
        }
    }

    /// The entry, allocating its results.
    fn alloc_fn(&mut self, e: &Entry) {
        let name = rust_name(self.abi, e);
        let mut ret_tys = Vec::new();
        for r in &e.results {
            match r {
                Res::Array(k) => {
                    let d = &e.dests[*k];
                    ret_tys.push(array_ty("Array", d.elem, d.rank, false));
                }
                Res::Scalar(k) => ret_tys.push(rty(e.rets[*k]).to_string()),
            }
        }
        self.doc(e, &format!("Calls `{}`, allocating its results.", e.name));
        self.line(
            1,
            &format!(
                "pub fn {}({}) -> ::std::result::Result<{}, ::weir_rs::Error> {{",
                ident(&name),
                self.rust_params(e, &[]),
                tuple(&ret_tys)
            ),
        );
        self.prepare_args(e);
        let unbounded: Vec<usize> = (0..e.dests.len())
            .filter(|&k| e.dests[k].unbounded)
            .collect();
        if !e.dests.is_empty() {
            self.shape_call(e);
        }
        let mut locals: Vec<String> = (0..e.dests.len()).map(|k| format!("__w_b{k}")).collect();
        locals.extend((0..e.rets.len()).map(|k| format!("__w_r{k}")));
        let ind = if unbounded.is_empty() {
            2
        } else {
            self.line(2, "let mut __w_tries = 0u32;");
            self.line(
                2,
                &format!(
                    "let ({},) = loop {{",
                    locals
                        .iter()
                        .map(|l| format!("mut {l}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            3
        };
        for (k, d) in e.dests.iter().enumerate() {
            self.line(
                ind,
                &format!(
                    "let mut __w_b{k} = __rt::buffer::<{}>(&__w_d{k})?;",
                    rty(d.elem)
                ),
            );
        }
        self.ret_decls(e, ind);
        let mut args = vec!["ctx.as_ptr()".to_string()];
        for (k, d) in e.dests.iter().enumerate() {
            args.push(format!("__w_b{k}.as_mut_ptr()"));
            args.extend((0..d.rank).map(|j| format!("__w_d{k}[{j}]")));
        }
        args.extend(Self::c_args(e));
        args.extend((0..e.rets.len()).map(|k| format!("&mut __w_r{k}")));
        self.line(
            ind,
            "// SAFETY: each destination has the dims passed (from the shape function), the arguments are contiguous with theirs",
        );
        self.line(
            ind,
            &format!(
                "let __w_st = unsafe {{ __weir_ffi::{}({}) }};",
                e.symbol,
                args.join(", ")
            ),
        );
        if !unbounded.is_empty() {
            self.line(ind, "if __w_tries < 8 {");
            self.line(ind + 1, "let mut __w_again = false;");
            for k in &unbounded {
                self.line(
                    ind + 1,
                    &format!(
                        "if let Some(__w_rows) = __rt::retry_rows(ctx, __w_st, {k}) {{ __w_d{k}[0] = __w_rows; __w_again = true; }}"
                    ),
                );
            }
            self.line(ind + 1, "if __w_again { __w_tries += 1; continue; }");
            self.line(ind, "}");
        }
        self.line(ind, "__rt::check(ctx, __w_st)?;");
        if !unbounded.is_empty() {
            self.line(ind, &format!("break ({},);", locals.join(", ")));
            self.line(2, "};");
        }
        let mut out = Vec::new();
        for r in &e.results {
            match r {
                Res::Array(k) => {
                    let d = &e.dests[*k];
                    let mut sizes: Vec<String> = d
                        .size_ret
                        .iter()
                        .map(|r| format!("(0, __w_r{r})"))
                        .collect();
                    sizes.extend(
                        d.inner_sizes
                            .iter()
                            .map(|(j, r)| format!("({j}, __w_r{r})")),
                    );
                    let rows = format!("&[{}]", sizes.join(", "));
                    out.push(format!(
                        "__rt::finish::<{}, {}>(__w_b{k}, &__w_d{k}, {rows})?",
                        rty(d.elem),
                        dim_ty(d.rank)
                    ));
                }
                Res::Scalar(k) => out.push(format!("__w_r{k}")),
            }
        }
        self.line(2, &format!("Ok({})", tuple(&out)));
        self.line(1, "}");
        self.s.push('\n');
    }

    /// The entry writing into the caller's destinations.
    fn dest_fn(&mut self, e: &Entry) {
        let name = rust_name(self.abi, e);
        let dname = |k: usize| {
            if e.dests.len() == 1 {
                "out".to_string()
            } else {
                format!("out{k}")
            }
        };
        let dests: Vec<String> = e
            .dests
            .iter()
            .enumerate()
            .map(|(k, d)| {
                format!(
                    "{}: {}",
                    dname(k),
                    array_ty("ArrayViewMut", d.elem, d.rank, true)
                )
            })
            .collect();
        let scalars: Vec<String> = e
            .results
            .iter()
            .filter_map(|r| match r {
                Res::Scalar(k) => Some(*k),
                Res::Array(_) => None,
            })
            .map(|k| rty(e.rets[k]).to_string())
            .collect();
        self.doc(
            e,
            &format!(
                "Calls `{}` with the caller's destinations (in result order, the dims `{}_shape` gives; a view not in standard layout is written through a copy), returning its scalar results.",
                e.name, name
            ),
        );
        self.line(
            1,
            &format!(
                "pub fn {name}_into({}) -> ::std::result::Result<{}, ::weir_rs::Error> {{",
                self.rust_params(e, &dests),
                tuple(&scalars)
            ),
        );
        self.prepare_args(e);
        for k in 0..e.dests.len() {
            self.line(
                2,
                &format!("let mut __w_o{k} = __rt::Dest::new({});", dname(k)),
            );
        }
        self.ret_decls(e, 2);
        let mut args = vec!["ctx.as_ptr()".to_string()];
        for (k, d) in e.dests.iter().enumerate() {
            args.push(format!("__w_o{k}.ptr()"));
            args.extend((0..d.rank).map(|j| format!("__w_o{k}.dim({j})")));
        }
        args.extend(Self::c_args(e));
        args.extend((0..e.rets.len()).map(|k| format!("&mut __w_r{k}")));
        self.line(
            2,
            "// SAFETY: each destination is contiguous with the dims passed (Weir checks them), the arguments likewise",
        );
        self.line(
            2,
            &format!(
                "let __w_st = unsafe {{ __weir_ffi::{}({}) }};",
                e.symbol,
                args.join(", ")
            ),
        );
        self.line(2, "__rt::check(ctx, __w_st)?;");
        for k in 0..e.dests.len() {
            self.line(2, &format!("__w_o{k}.finish();"));
        }
        let out: Vec<String> = e
            .results
            .iter()
            .filter_map(|r| match r {
                Res::Scalar(k) => Some(format!("__w_r{k}")),
                Res::Array(_) => None,
            })
            .collect();
        self.line(2, &format!("Ok({})", tuple(&out)));
        self.line(1, "}");
        self.s.push('\n');
    }

    /// The shape function: the dims of the destinations.
    fn shape_fn(&mut self, e: &Entry) {
        let name = rust_name(self.abi, e);
        let tys: Vec<String> = e
            .dests
            .iter()
            .map(|d| format!("[usize; {}]", d.rank))
            .collect();
        self.doc(
            e,
            &format!(
                "The dims of `{}`'s array results, in destination order (of a result of existential outer size: an upper bound, 0 rows when there is none).",
                e.name
            ),
        );
        self.line(
            1,
            &format!(
                "pub fn {name}_shape({}) -> ::std::result::Result<{}, ::weir_rs::Error> {{",
                self.rust_params(e, &[]),
                tuple(&tys)
            ),
        );
        self.prepare_args(e);
        self.shape_call(e);
        let out: Vec<String> = (0..e.dests.len())
            .map(|k| format!("__rt::dims(__w_d{k})?"))
            .collect();
        self.line(2, &format!("Ok({})", tuple(&out)));
        self.line(1, "}");
        self.s.push('\n');
    }
}

fn param_decls(e: &Entry) -> Vec<String> {
    let mut v = Vec::new();
    for p in &e.params {
        let n = ident(&p.name);
        if p.rank == 0 {
            v.push(format!("{n}: {}", rty(p.elem)));
        } else {
            v.push(format!("{n}: *const {}", rty(p.elem)));
            v.extend((0..p.rank).map(|k| format!("{}_d{k}: i64", p.name)));
        }
    }
    v
}

/// The Rust module `pub mod NAME { ... }` of a library, from its manifest
/// `NAME.json` (as `weir lib` writes it), or why it cannot be generated (a
/// manifest weir-rs cannot read, two entries whose functions would share a
/// name).
pub fn generate(manifest: &str) -> Result<String, String> {
    generate_abi(&crate::manifest::parse(manifest)?)
}

/// [`generate`] of a read manifest.
pub(crate) fn generate_abi(abi: &Abi) -> Result<String, String> {
    let mut names = HashSet::new();
    for e in &abi.entries {
        let n = rust_name(abi, e);
        let fns = [n.clone(), format!("{n}_into"), format!("{n}_shape")];
        for f in fns {
            if !names.insert(f.clone()) {
                return Err(format!(
                    "the entries of {} would define the Rust function `{f}` twice (an entry `X` defines `X`, `X_into` and `X_shape`): rename one",
                    abi.source
                ));
            }
        }
    }
    let mut g = Gen {
        abi,
        s: String::new(),
    };
    let _ = writeln!(
        g.s,
        "// Generated by weir-rs from {}: do not edit.\n",
        doc_line(&abi.source)
    );
    let _ = writeln!(
        g.s,
        "/// The Weir library `{p}`: the entries of `{src}` (weir {v}), over `ndarray` arrays.\n///\n/// Every function takes a [`Context`](::weir_rs::Context); arrays in standard layout are passed without a copy.\n#[allow(unused, unused_mut, clippy::all, clippy::pedantic, clippy::too_many_arguments)]\npub mod {p} {{\n    use ::weir_rs::__private as __rt;\n",
        p = abi.library,
        src = doc_line(&abi.source),
        v = doc_line(&abi.weir_version),
    );
    g.externs();
    g.s.push('\n');
    for e in &abi.entries {
        g.alloc_fn(e);
        if !e.dests.is_empty()
            && e.dests
                .iter()
                .all(|d| d.size_ret.is_none() && d.inner_sizes.is_empty())
        {
            g.dest_fn(e);
        }
        g.shape_fn(e);
    }
    g.s.push_str("}\n");
    Ok(g.s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::tests::SAMPLE;

    #[test]
    fn bindings_of_a_manifest() {
        let text = generate(SAMPLE).unwrap();
        for want in [
            "pub mod k {",
            "(weir 0.1.0)",
            "pub fn above(ctx: &mut ::weir_rs::Context, t: f64, xs: ::weir_rs::ndarray::ArrayView1<'_, f64>) -> ::std::result::Result<(::weir_rs::ndarray::Array1<f64>, i64), ::weir_rs::Error> {",
            "pub fn above_shape(",
            "pub(super) fn k_above(ctx: *mut weir_ctx, out0: *mut f64, out0_d0: i64, t: f64, xs: *const f64, xs_d0: i64, ret0: *mut i64, ret1: *mut i64) -> ::std::ffi::c_int;",
            "pub fn nothing(ctx: &mut ::weir_rs::Context, x: f64) -> ::std::result::Result<f64, ::weir_rs::Error> {",
            "m: ::weir_rs::ndarray::ArrayView2<'_, u8>, mask: ::weir_rs::ndarray::ArrayView1<'_, bool>",
            "__rt::finish::<f32, ::weir_rs::ndarray::Ix2>(__w_b1, &__w_d1, &[(1, __w_r0)])?",
            "/// entry above (t: f64) (xs: []f64) : ([]f64, i64)",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        // no `_into` for an existential result, nor for an entry without arrays
        assert!(!text.contains("pub fn above_into"));
        assert!(!text.contains("pub fn nothing_into"));
        assert!(!text.contains("pub fn grid_into"));
    }

    /// Every `ndarray` the bindings name is weir-rs's re-export, so the
    /// crate including them needs no `ndarray` (or may have any version).
    #[test]
    fn ndarray_is_only_named_through_weir_rs() {
        let text = generate(SAMPLE).unwrap();
        let mut at = 0;
        let mut seen = 0;
        while let Some(k) = text[at..].find("ndarray") {
            let i = at + k;
            assert!(
                text[..i].ends_with("::weir_rs::") || text[..i].ends_with('`'),
                "a bare ndarray path at {i}: {}",
                &text[i.saturating_sub(40)..(i + 40).min(text.len())]
            );
            seen += 1;
            at = i + 7;
        }
        assert!(seen > 10);
    }

    #[test]
    fn keywords_are_raw_identifiers() {
        let m = SAMPLE
            .replace("\"name\": \"t\"", "\"name\": \"impl\"")
            .replace("\"name\": \"xs\"", "\"name\": \"self\"")
            .replace("\"k_above\"", "\"k_move\"")
            .replace("\"k_above_shape\"", "\"k_move_shape\"");
        let text = generate(&m).unwrap();
        for want in [
            "pub fn r#move(ctx: &mut ::weir_rs::Context, r#impl: f64, self_: ::weir_rs::ndarray::ArrayView1<'_, f64>)",
            "pub fn move_shape(",
            "let self_ = __rt::arg(&self_);",
            "r#impl: f64, self_: *const f64, self_d0: i64",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
    }

    #[test]
    fn entries_whose_functions_clash_are_an_error() {
        let m = SAMPLE
            .replace("\"k_nothing\"", "\"k_above_shape\"")
            .replace("\"k_nothing_shape\"", "\"k_x_shape\"");
        let e = generate(&m).unwrap_err();
        assert!(e.contains("`above_shape` twice"), "{e}");
        assert!(generate("{}").is_err());
    }
}
