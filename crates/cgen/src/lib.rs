//! Weir's C backend: the imperative IR ([`imp`]), the lowering from the DPS IR
//! ([`lower`]) and the C printer ([`emit`]) with the runtime header
//! (`runtime/weir_rt.h`, embedded in every generated file).

pub mod emit;
pub mod imp;
pub mod lower;

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
    let u = lower::lower_program(p, opts, locate);
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

/// The C file for a program (`with_main`: include a `main` for executables).
pub fn to_c(u: &imp::Unit, p: &weir_dps::ir::Program, source: &str, with_main: bool) -> String {
    emit::unit(u, &p.funs, source, with_main)
}
