//! The C names of generated code, and the private namespace.
//!
//! A Weir name reaches C in three ways only: as a C local (an IR variable,
//! [`crate::lower::c_name`]: lower-case and ending in `_N`, or `Zv…Z`, never
//! starting with `weir`), as a user-visible entry point (`weir c`'s
//! `weir_E`/`weir_E_shape`, a library's `NAME_E`/`NAME_E_shape`, where a
//! library name never starts with `weir`, in any case), and escaped after a
//! private prefix. Everything else the backend names is private:
//!
//! - `weirf_KIND_` + the escaped Weir name ([`crate::lower::esc`], which is
//!   injective): a function's body `weirf_f_`, an entry's argument check
//!   `weirf_args_`, shape computation `weirf_shape_calc_`, fast and slow
//!   paths `weirf_body_`/`weirf_slow_`, the entry and its shape function
//!   `weirf_e_`/`weirf_s_` (executables and libraries), the executable's
//!   runner `weirf_run_`;
//! - `weiri_…`: every `weir_…` name of the runtime (`runtime/weir_rt.h`,
//!   its integer helpers `weir_min_i32`, ... included) and of the emitter
//!   (`weir_locs`, `weir_err_K`) other than the documented API of `weir.h`,
//!   renamed by [`privatize`] as the C text is finished (the sources keep
//!   `weir_`).
//!
//! No Weir name gives an identifier starting `weirf_` or `weiri_` (the
//! fifth character of `weir_E` is `_`), so the only clashes left are among
//! the user-visible names, reported by [`public_clashes`].

use std::collections::HashSet;

/// The documented runtime API: every `weir_…` identifier of `weir.h`.
pub fn api_names() -> HashSet<String> {
    let mut set = HashSet::new();
    let text = crate::emit::WEIR_H;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &text[start..i];
            if w.starts_with("weir_") {
                set.insert(w.to_string());
            }
        } else {
            i += 1;
        }
    }
    set
}

/// The marker of `weir c`'s public entry points while the C text is made
/// (`weirP_E`, which [`privatize`] makes `weir_E`).
pub const PUBLIC_MARK: &str = "weirP_";

/// The C text with every identifier `weir_X` that is not the runtime's API
/// renamed `weiri_X`, and the public marks `weirP_X` made `weir_X`. String
/// and character literals, comments and numbers are left as they are.
pub fn privatize(text: &str) -> String {
    let api = api_names();
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map_or(b.len(), |k| i + k);
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &text[start..i];
            let new = if let Some(r) = w.strip_prefix(PUBLIC_MARK) {
                Some(format!("weir_{r}"))
            } else if let Some(r) = w.strip_prefix("weir_") {
                (!api.contains(w)).then(|| format!("weiri_{r}"))
            } else {
                None
            };
            if let Some(n) = new {
                out.push_str(&text[copied..start]);
                out.push_str(&n);
                copied = i;
            }
        } else {
            i += 1;
        }
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    out
}

/// The user-visible C names of the entries of `p` that clash, each with
/// the entry and the message: `weir c`'s `weir_E` and `weir_E_shape`
/// (`library` None) with the runtime's API or with each other's; a
/// library's `NAME_E` and `NAME_E_shape` with each other's or with a macro
/// of its header. (Executables have none: their entries are private.)
pub fn public_clashes(p: &weir_dps::ir::Program, library: Option<&str>) -> Vec<(String, String)> {
    let api = api_names();
    let prefix = library.unwrap_or("weir");
    let upper = prefix.to_ascii_uppercase();
    let macros = [format!("{upper}_H"), format!("{upper}_WEIR_ABI")];
    let mut owner: std::collections::HashMap<String, String> = Default::default();
    let mut out = Vec::new();
    for f in p.funs.iter().filter(|f| f.entry) {
        let n = format!("{prefix}_{}", crate::lower::pub_name(&f.name));
        let names = [n.clone(), format!("{n}_shape")];
        let clash = names.iter().find_map(|s| {
            if api.contains(s) || library.is_some() && s.to_ascii_lowercase().starts_with("weir") {
                Some(format!(
                    "the C name `{s}` of entry `{}` is a name of Weir's runtime API",
                    f.name
                ))
            } else if library.is_some() && macros.contains(s) {
                Some(format!(
                    "the C name `{s}` of entry `{}` is a macro of the library's header",
                    f.name
                ))
            } else {
                owner.get(s).map(|o| {
                    format!(
                        "the C name `{s}` of entry `{}` is also a C name of entry `{o}`",
                        f.name
                    )
                })
            }
        });
        match clash {
            Some(m) => out.push((f.name.clone(), m)),
            None => {
                for s in names {
                    owner.insert(s, f.name.clone());
                }
            }
        }
    }
    out
}
