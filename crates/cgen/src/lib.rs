//! Weir's C backend: the imperative IR ([`imp`]), the lowering from the DPS IR
//! ([`lower`]) and the C printer ([`emit`]) with the runtime header
//! (`runtime/weir_rt.h`, embedded in every generated file).

pub mod abi;
pub mod alias;
pub mod emit;
pub mod imp;
pub mod lower;
pub mod stack;

/// How memory is managed (the ablation variants of dps-ftilde §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemMode {
    /// Bump region per context (the default; "DFBs").
    Region,
    /// malloc/free per alloc scope ("D", "DF", "DFB").
    Malloc,
    /// malloc, never free ("CL", "CLF").
    Leak,
    /// Boehm GC ("CG").
    Gc,
}

impl MemMode {
    /// The value of the runtime's `WEIR_MEM` macro.
    pub fn macro_value(self) -> u32 {
        match self {
            MemMode::Region => 0,
            MemMode::Malloc => 1,
            MemMode::Leak => 2,
            MemMode::Gc => 3,
        }
    }
}

/// Code generation options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub mem: MemMode,
    /// Bounds checks (off with `--unsafe`).
    pub checks: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mem: MemMode::Region,
            checks: true,
        }
    }
}

/// Lower a DPS program to the imperative IR (verified when `verify`).
pub fn lower(
    p: &weir_dps::ir::Program,
    opts: &Options,
    locate: &dyn Fn(weir_ir::Span) -> String,
    verify: bool,
) -> Result<imp::Unit, String> {
    let mut u = lower::lower_program(p, opts, locate);
    stack::run(&mut u);
    if verify {
        imp::verify(&u).map_err(|e| {
            format!(
                "internal compiler error: the imperative IR is invalid:\n  {}\nplease report this with the program that caused it",
                e.join("\n  ")
            )
        })?;
    }
    Ok(u)
}

/// The C names a function takes (its body; an entry point's exported
/// function, shape function and internal helpers).
fn c_symbols(f: &weir_dps::ir::Fun) -> Vec<String> {
    let n = lower::c_name(&f.name);
    let mut v = vec![lower::fun_c_name(&f.name)];
    if f.entry {
        for s in [
            format!("weir_{n}"),
            format!("weir_{n}_shape"),
            format!("weir_args_{n}"),
            format!("weir_shape_calc_{n}"),
            format!("weir_slow_{n}"),
            format!("weir_body_{n}"),
            format!("weir_run_{n}"),
        ] {
            v.push(s);
        }
    }
    v
}

/// Every `weir_…` identifier of the runtime and of the code the emitter writes
/// around the functions (a function's C name must be none of them).
fn reserved_symbols() -> std::collections::HashSet<String> {
    let mut set = std::collections::HashSet::new();
    for text in [emit::RUNTIME, emit::WEIR_H, include_str!("emit.rs")] {
        let b = text.as_bytes();
        let mut i = 0;
        while let Some(k) = text[i..].find("weir_") {
            let start = i + k;
            let boundary =
                start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_');
            let mut end = start;
            while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                end += 1;
            }
            // `weir_args_` and the like are prefixes of per-entry names
            if boundary && !text[start..end].ends_with('_') {
                set.insert(text[start..end].to_string());
            }
            i = end.max(start + 1);
        }
    }
    set
}

/// Functions whose C names clash with the runtime's or with another function's
/// (entry points `count` and `f_x` would be `weir_count`, a runtime function, and
/// `weir_f_x`, the body of `x`): each with its message. The C backend leaves them
/// out (a symbol prefix per library is the general fix).
pub fn symbol_clashes(p: &weir_dps::ir::Program) -> Vec<(String, String)> {
    let reserved = reserved_symbols();
    let mut owner: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for f in &p.funs {
        let syms = c_symbols(f);
        let clash = syms.iter().find_map(|s| {
            // (`weir_err_K`: the cold error functions of the checks, emit.rs)
            let err_site = s
                .strip_prefix("weir_err_")
                .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()));
            if reserved.contains(s) || err_site {
                Some(format!(
                    "the C name `{s}` of `{}` is already a name of Weir's C runtime",
                    f.name
                ))
            } else {
                owner
                    .get(s)
                    .map(|o| format!("the C name `{s}` of `{}` is also a C name of `{o}`", f.name))
            }
        });
        match clash {
            Some(m) => out.push((f.name.clone(), m)),
            None => {
                for s in syms {
                    owner.insert(s, f.name.clone());
                }
            }
        }
    }
    out
}

/// The C file for a program (`with_main`: include a `main` for executables,
/// generated from the ABI model `abi` of the program's entries).
pub fn to_c(
    u: &imp::Unit,
    p: &weir_dps::ir::Program,
    source: &str,
    with_main: bool,
    abi: &abi::Abi,
) -> String {
    let target = if with_main {
        emit::Target::Executable
    } else {
        emit::Target::Program
    };
    emit::unit(u, &p.funs, source, target, abi)
}

/// The C file of a library: the program's code with its entries `static`,
/// then the exported wrappers `PREFIX_NAME` of the ABI model.
pub fn to_c_library(
    u: &imp::Unit,
    p: &weir_dps::ir::Program,
    source: &str,
    abi: &abi::Abi,
) -> String {
    let mut s = emit::unit(u, &p.funs, source, emit::Target::Library, abi);
    s.push_str(&abi::wrappers(abi));
    s
}

/// The runtime object's C source (`weir lib` compiles it into every library).
pub fn runtime_object_source() -> String {
    format!(
        "/* Weir's C runtime, the exported functions of weir.h (generated by weir). */\n#define WEIR_RT_BUILD 1\n{}",
        emit::runtime_text()
    )
}
