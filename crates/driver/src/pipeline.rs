//! The pipeline, assembled in one place: parse → check/elaborate → (verify) → run.
//!
//! Passes are listed in [`PASSES`]; `weir dev --dump-after PASS` prints the program
//! after any of them. The IR verifier runs after every core-IR pass in debug builds
//! and tests.

use std::path::Path;
use weir_interp::{Interp, RuntimeError, Value};
use weir_ir::Program;
use weir_syntax::{Diagnostic, SourceMap, Span, ast};

/// The passes, in order, with what they produce.
pub const PASSES: &[(&str, &str)] = &[
    ("parse", "the surface AST"),
    (
        "elaborate",
        "the typed A-normal-form core IR (after name resolution, type and size inference)",
    ),
];

/// A successfully checked program.
pub struct Compiled {
    pub sources: SourceMap,
    pub ast: ast::Program,
    /// The elaborated core IR (what the reference interpreter defines).
    pub program: Program,
    /// The same program after the optimizer (`weir_opt`).
    pub optimized: Program,
    /// The views decision it was optimized with.
    pub views: weir_opt::Views,
}

/// Why a program could not be loaded.
pub enum LoadError {
    /// The file could not be read.
    Io(String),
    /// Parse or type errors.
    Diagnostics(SourceMap, Vec<Diagnostic>),
}

impl LoadError {
    /// Render for the terminal.
    pub fn render(&self, color: bool) -> String {
        match self {
            LoadError::Io(m) => format!("error: {m}\n"),
            LoadError::Diagnostics(sm, ds) => {
                let mut s = weir_syntax::diag::render_all(ds, sm, color);
                s.push_str(&format!(
                    "\n{} error{} found.\n",
                    ds.len(),
                    if ds.len() == 1 { "" } else { "s" }
                ));
                s
            }
        }
    }
}

/// Should the IR verifier run after each pass?
pub fn verify_enabled() -> bool {
    cfg!(debug_assertions) || std::env::var_os("WEIR_VERIFY").is_some()
}

/// Run the verifier; a failure is a compiler bug, reported as an internal error.
pub fn verify(prog: &Program, after: &str) -> Result<(), String> {
    weir_ir::verify::verify_program(prog).map_err(|errs| {
        format!(
            "internal compiler error: the core IR is invalid after pass `{after}`:\n  {}\nplease report this with the program that caused it",
            errs.join("\n  ")
        )
    })
}

/// Compile source text (the name is used in messages; its imports are read
/// relative to the name's directory, or the current directory).
pub fn compile_source(name: &str, text: &str) -> Result<Compiled, LoadError> {
    compile_source_views(name, text, views())
}

/// The directory a source named `name` imports from: the name's, or the
/// current directory.
fn source_dir(name: &str) -> &Path {
    match Path::new(name).parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Read and compile a file with a given views decision.
pub fn compile_file_views(path: &Path, v: weir_opt::Views) -> Result<Compiled, LoadError> {
    let text = weir_interp::files::read_text_bounded(path, MAX_SOURCE_BYTES)
        .map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?;
    compile_source_views(&path.display().to_string(), &text, v)
}

/// [`compile_source`] with a given views decision.
pub fn compile_source_views(
    name: &str,
    text: &str,
    v: weir_opt::Views,
) -> Result<Compiled, LoadError> {
    compile_source_in(name, text, source_dir(name), v)
}

/// Compile source text named `name` as if it were a file in `dir` (its
/// imports are read from there), with a given views decision.
pub fn compile_source_in(
    name: &str,
    text: &str,
    dir: &Path,
    v: weir_opt::Views,
) -> Result<Compiled, LoadError> {
    let loaded = crate::modules::load(name, text, dir, &crate::modules::Disk);
    let (sources, ast, mut diags) = (loaded.sources, loaded.program, loaded.diags);
    if loaded.incomplete {
        return Err(LoadError::Diagnostics(sources, diags));
    }
    let (program, cdiags) = weir_check::check_program(&ast);
    diags.extend(cdiags);
    if !diags.is_empty() {
        return Err(LoadError::Diagnostics(sources, diags));
    }
    if verify_enabled() {
        verify(&program, "elaborate").map_err(LoadError::Io)?;
    }
    let optimized = match optimize_views(&program, None, v) {
        Ok(p) => p,
        Err(e) => {
            return Err(too_large(&program).map_or(LoadError::Io(e), |d| {
                LoadError::Diagnostics(sources, vec![d])
            }));
        }
    };
    Ok(Compiled {
        sources,
        ast,
        program,
        optimized,
        views: v,
    })
}

/// E0422 where inlining makes `program` too large (`weir_opt::inline`'s
/// budget: a function argument passed down a chain of definitions that each
/// call the next several times), located at the call.
fn too_large(program: &Program) -> Option<Diagnostic> {
    let e = weir_opt::inline::run_limited(&mut program.clone()).err()?;
    Some(
        Diagnostic::new("E0422", e.span, e.to_string())
            .with_label("this call passes the limit")
            .with_help("a call that passes a function argument is specialised, a copy of the definition with the function put in; pass a function down fewer calls, or make the function a definition that the others call by name"),
    )
}

/// The views decision of this process (`--views=none|heuristic|all`; the
/// default is [`weir_opt::Views::Heuristic`]): 0 heuristic, 1 none, 2 all.
static VIEWS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Set the views decision every later compilation in this process uses.
pub fn set_views(v: weir_opt::Views) {
    let k = match v {
        weir_opt::Views::Heuristic => 0,
        weir_opt::Views::None => 1,
        weir_opt::Views::All => 2,
    };
    VIEWS.store(k, std::sync::atomic::Ordering::Relaxed);
}

/// The views decision compilations use ([`set_views`]).
pub fn views() -> weir_opt::Views {
    match VIEWS.load(std::sync::atomic::Ordering::Relaxed) {
        1 => weir_opt::Views::None,
        2 => weir_opt::Views::All,
        _ => weir_opt::Views::Heuristic,
    }
}

/// Run the optimizer, with the verifier after every pass where enabled; stop after
/// the first run of `stop_after` if given.
pub fn optimize(program: &Program, stop_after: Option<&str>) -> Result<Program, String> {
    optimize_views(program, stop_after, views())
}

/// [`optimize`] with a given views decision.
pub fn optimize_views(
    program: &Program,
    stop_after: Option<&str>,
    views: weir_opt::Views,
) -> Result<Program, String> {
    let check = verify_enabled();
    let mut after = |p: &Program, name: &str| if check { verify(p, name) } else { Ok(()) };
    weir_opt::optimize(
        program,
        weir_opt::Options {
            after_pass: &mut after,
            stop_after,
            skip: &[],
            views,
        },
    )
}

/// The optimizer without some of its iterated passes (ablation variants).
pub fn optimize_skipping(program: &Program, skip: &[&str]) -> Result<Program, String> {
    let check = verify_enabled();
    let mut after = |p: &Program, name: &str| if check { verify(p, name) } else { Ok(()) };
    weir_opt::optimize(
        program,
        weir_opt::Options {
            after_pass: &mut after,
            stop_after: None,
            skip,
            views: views(),
        },
    )
}

/// The largest source file read: 64 MiB.
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;

/// Read and compile a file.
pub fn compile_file(path: &Path) -> Result<Compiled, LoadError> {
    // a source file must be a regular file of bounded size (`/dev/zero` or a
    // FIFO would never end)
    let text = weir_interp::files::read_text_bounded(path, MAX_SOURCE_BYTES)
        .map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?;
    compile_source(&path.display().to_string(), &text)
}

/// Run an entry point of the elaborated (unoptimized) program on the reference
/// interpreter: the definition of what the program computes.
pub fn run_entry(c: &Compiled, entry: &str, args: Vec<Value>) -> Result<Value, RuntimeError> {
    let mut it = Interp::new(&c.program);
    it.call(entry, args)
}

/// Run an entry point of the optimized program on the interpreter.
pub fn run_entry_optimized(
    c: &Compiled,
    entry: &str,
    args: Vec<Value>,
) -> Result<Value, RuntimeError> {
    let mut it = Interp::new(&c.optimized);
    it.call(entry, args)
}

/// Render a runtime error with its source location.
pub fn render_runtime_error(c: &Compiled, e: &RuntimeError, color: bool) -> String {
    if e.span == Span::default() && c.sources.files().is_empty() {
        return format!("error: {}\n", e.message);
    }
    let code = if e.message.starts_with("index out of bounds") || e.message.starts_with("slice") {
        "E0901"
    } else if e.message.starts_with("size mismatch") {
        "E0902"
    } else if e.message.starts_with("integer division") {
        "E0903"
    } else {
        "E0900"
    };
    let help = match code {
        "E0901" => {
            "indices run from 0 to length - 1; check the index, or guard it with `if i < length a then ... else ...`"
        }
        "E0902" => {
            "the arrays' sizes differ at run time; check the input shapes, or slice the arrays to a common size"
        }
        "E0903" => "guard the divisor: `if d == 0 then ... else x / d`",
        _ => "check the arguments of this operation against docs/language.md §5",
    };
    Diagnostic::new(code, e.span, format!("runtime error: {}", e.message))
        .with_label("failed here")
        .with_help(help)
        .render(&c.sources, color)
}

/// Every pass, in order, with what it produces.
pub fn all_passes() -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<(&str, &str)> = PASSES.to_vec();
    v.extend(weir_opt::pass_names());
    v.extend([
        (
            "shape",
            "each compiled entry's shape function as core IR (`e_shape`: its result dims), optimized",
        ),
        ("dps", "the destination-passing-style IR (dps-ftilde §3)"),
        (
            "dps-simplify",
            "the DPS IR after the allocation simplifications (Fig. 8)",
        ),
        (
            "mem",
            "the memory of every array of the final DPS IR: its block and its LMAD index function (funmem-lmad §3)",
        ),
    ]);
    v
}

/// The program after a named pass, as text (`None`: no such pass). The optimizer's
/// iterated passes show the program after their first run; `optimize` after all.
pub fn dump_after(c: &Compiled, pass: &str) -> Option<Result<String, String>> {
    match pass {
        "parse" => Some(Ok(format!("{:#?}\n", c.ast))),
        "elaborate" | "check" | "core" => Some(Ok(weir_ir::print::program_to_string(&c.program))),
        "optimize" => Some(Ok(weir_ir::print::program_to_string(&c.optimized))),
        "dps" => Some(
            to_dps(c, false)
                .map(|p| weir_dps::print::program_to_string(&p))
                .map_err(|e| e.render(false)),
        ),
        "shape" => Some(
            to_dps_partial(&c.optimized, false)
                .map_err(|e| e.render(false))
                .and_then(|(p, _)| shape_program(&p))
                .map(|q| weir_ir::print::program_to_string(&q)),
        ),
        "dps-simplify" => Some(
            to_dps(c, true)
                .map(|p| weir_dps::print::program_to_string(&p))
                .map_err(|e| e.render(false)),
        ),
        "mem" => Some(
            to_dps(c, true)
                .map(|p| weir_dps::mem::program_to_string(&p))
                .map_err(|e| e.render(false)),
        ),
        p if weir_opt::pass_names().iter().any(|(n, _)| *n == p) => {
            Some(optimize(&c.program, Some(p)).map(|q| weir_ir::print::program_to_string(&q)))
        }
        _ => None,
    }
}

/// The shape functions of the functions of a DPS program, as core IR (issue
/// 15, `weir_shape::to_core`): for each function `e` with an array result,
/// `e_shape`, a function of its flattened parameters returning every result
/// dim in order (for an entry, what the C shape function `weir_e_shape`
/// computes: an existential dim's upper bound, 0 for a result with no bound;
/// for another function, the template its callers substitute). Verified,
/// optimized by `weir_opt` (verified after each pass where enabled).
pub fn shape_program(dps: &weir_dps::ir::Program) -> Result<Program, String> {
    let mut prog = Program::default();
    for f in &dps.funs {
        let sig = weir_shape::to_core::ShapeSig {
            name: f.name.clone(),
            params: f
                .params
                .iter()
                .map(|p| (p.name.clone(), p.ty.prim(), p.ty.rank()))
                .collect(),
            results: f.dests.iter().map(|d| d.shape.clone()).collect(),
            span: f.span,
        };
        if sig.results.iter().all(Vec::is_empty) {
            continue;
        }
        let Some(def) = weir_shape::to_core::shape_fun(&sig) else {
            return Err(format!(
                "internal compiler error: the shape of `{}` names something other than its parameters",
                f.name
            ));
        };
        prog.defs.push(def);
    }
    verify(&prog, "shape")?;
    optimize(&prog, None)
}

/// The DPS translation of the optimized program (dps-ftilde §3), verified; with
/// `simplify`, after the allocation simplifications of Fig. 8.
pub fn to_dps(c: &Compiled, simplify: bool) -> Result<weir_dps::ir::Program, LoadError> {
    to_dps_from(c, &c.optimized, simplify)
}

/// The DPS translation of a given core program of `c` (e.g. an unfused one).
pub fn to_dps_from(
    c: &Compiled,
    core: &Program,
    simplify: bool,
) -> Result<weir_dps::ir::Program, LoadError> {
    let (p, left_out) = to_dps_partial(core, simplify)?;
    if left_out.is_empty() {
        Ok(p)
    } else {
        Err(LoadError::Diagnostics(
            c.sources.clone(),
            left_out.into_iter().map(|(_, d)| d).collect(),
        ))
    }
}

/// The DPS translation of the functions of `core` that the C backend can
/// compile, and for each one it cannot, its name and error (E0801).
pub fn to_dps_partial(
    core: &Program,
    simplify: bool,
) -> Result<(weir_dps::ir::Program, Vec<(String, Diagnostic)>), LoadError> {
    let (mut p, errs) = weir_dps::translate::translate_partial(core);
    let left_out = errs
        .into_iter()
        .map(|(f, e)| {
            let mut d = Diagnostic::new("E0801", e.span, e.message)
                .with_label("the C backend cannot compile this")
                .with_help(e.help);
            if let Some((span, label)) = e.note
                && span != e.span
            {
                d = d.with_secondary(span, label);
            }
            (f, d)
        })
        .collect();
    verify_dps(&p, "dps")?;
    if simplify {
        let check = verify_enabled();
        let mut err = None;
        let mut after = |q: &weir_dps::ir::Program, name: &str| {
            if check
                && err.is_none()
                && let Err(e) = verify_dps(q, name)
            {
                err = Some(e);
            }
        };
        // (the `++`s computed eagerly, `pad`s are `++`s by now, and the
        // flattens and unflattens)
        let mut eager = std::collections::HashSet::new();
        fn concats(
            b: &weir_ir::Body,
            core: &Program,
            out: &mut std::collections::HashSet<weir_ir::Span>,
        ) {
            for s in &b.stmts {
                if let weir_ir::Exp::Prim(
                    weir_ir::Prim::Concat { .. }
                    | weir_ir::Prim::Pad { .. }
                    | weir_ir::Prim::Flatten { .. }
                    | weir_ir::Prim::Unflatten { .. },
                ) = &s.exp
                    && core.effect_at(s.span) == Some(weir_ir::Effect::Eager)
                {
                    out.insert(s.span);
                }
                weir_ir::visit::for_each_nested_body_ref(&s.exp, &mut |nb| concats(nb, core, out));
            }
        }
        if !core.effects.is_empty() {
            for d in &core.defs {
                concats(&d.body, core, &mut eager);
            }
        }
        weir_dps::simplify::run_eager(&mut p, &eager, &mut after);
        weir_dps::checks::run(&mut p, &mut after);
        weir_dps::peel::run(&mut p, &mut after);
        if let Some(e) = err {
            return Err(e);
        }
    }
    Ok((p, left_out))
}

fn verify_dps(p: &weir_dps::ir::Program, after: &str) -> Result<(), LoadError> {
    if !verify_enabled() {
        return Ok(());
    }
    weir_dps::verify::verify_program(p).map_err(|errs| {
        LoadError::Io(format!(
            "internal compiler error: the DPS IR is invalid after `{after}`:\n  {}\n{}\nplease report this with the program that caused it",
            errs.join("\n  "),
            weir_dps::print::program_to_string(p)
        ))
    })
}
