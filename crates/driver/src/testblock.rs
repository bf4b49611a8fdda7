//! Test blocks embedded in Weir comments (docs/language.md §8) and running them.

use crate::inputs::{Source, param_names};
use crate::pipeline::{Compiled, render_runtime_error, run_entry, run_entry_optimized};
use std::path::{Path, PathBuf};
use weir_interp::files::{MAX_INPUT_BYTES, read_text_bounded};
use weir_interp::value::{compare, count_values, parse_values};
use weir_interp::{Value, format_value};
use weir_ir::Type;

/// Where a case's values come from.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSrc {
    Inline(String),
    File(PathBuf),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    Output(ValueSrc),
    Error(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Entry points the case applies to (empty: the file's first entry).
    pub entries: Vec<String>,
    pub input: ValueSrc,
    pub expect: Expect,
    pub tolerance: f64,
    /// 1-based line of the `input` in the file.
    pub line: usize,
}

/// Default relative tolerance for floats.
pub const DEFAULT_TOLERANCE: f64 = 1e-9;

/// A `structure { NAME COUNT ... }` line: how many of each construct the
/// compiled entries of its block have ([`STRUCTURE`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Structure {
    /// Entry points it applies to (empty: the file's first entry).
    pub entries: Vec<String>,
    pub counts: Vec<(String, usize)>,
    /// 1-based line in the file.
    pub line: usize,
}

/// What a `structure` line counts, in the DPS program the C backend
/// compiles (after the allocation rules and the size assertions): the
/// entry's function and every function it calls. Static counts (a
/// statement in a loop counts once).
pub const STRUCTURE: &[(&str, &str)] = &[
    ("alloc", "arrays allocated (the buffers of `alloc` scopes)"),
    (
        "copy",
        "whole-array copies (not those of an array placed in its part: nothing to copy)",
    ),
    (
        "loop",
        "loops of any kind (`for`, `fold`, `reduce`, `loop`)",
    ),
    ("view", "views of any kind (no copy)"),
    ("transpose", "transposes realised as views"),
    ("reverse", "reverses realised as views"),
    (
        "replicate",
        "replicates of an array realised as views (stride 0)",
    ),
    (
        "stride",
        "strides (`a[s:e:k]`, `stride k a`) realised as views",
    ),
    (
        "reshape",
        "reshapes (`flatten`, `unflatten`) realised as views",
    ),
    ("call", "calls of other functions"),
    (
        "inplace",
        "loop states updated in place (one buffer, no copy per iteration)",
    ),
    ("check", "size checks left at run time"),
    (
        "index_check",
        "index and slice bounds checks left in the C (not proved in range)",
    ),
    (
        "wrap_add",
        "`i64` additions left wrapping in the C (`weir_add_i64`; a sum proved to lie below a loop bound is C's `+`, which the C compiler can vectorise through)",
    ),
    (
        "stack_array",
        "arrays of a small constant size (at most 512 bytes) kept in C local arrays, not the region",
    ),
];

/// The [`STRUCTURE`] keys counted in the imperative IR the C backend emits
/// (after its bounds-check proofs), not in the DPS program.
const C_KEYS: &[&str] = &["index_check", "wrap_add", "stack_array"];

/// Count a [`C_KEYS`] key in a function's lowered body.
fn count_c(body: &[weir_cgen::imp::Stmt], key: &str) -> usize {
    use weir_cgen::imp::{Exp, Stmt};
    let mut stmts = 0;
    let mut exps = 0;
    weir_cgen::imp::visit(
        body,
        &mut |s| {
            if key == "index_check"
                && matches!(s, Stmt::CheckIndex { .. } | Stmt::CheckSlice { .. })
            {
                stmts += 1;
            }
            if key == "stack_array"
                && matches!(
                    s,
                    Stmt::Alloc {
                        kind: weir_cgen::imp::AllocKind::Stack,
                        ..
                    }
                )
            {
                stmts += 1;
            }
        },
        &mut |e| {
            if key == "wrap_add" && matches!(e, Exp::Call(f, _) if f == "weir_add_i64") {
                exps += 1;
            }
        },
    );
    stmts + exps
}

/// The arrays placed in their consumer's storage, and the reshapes of them
/// (a copy from one into its part copies nothing, and is not counted).
fn placed_views(stmts: &[weir_dps::ir::Stmt], out: &mut Vec<String>) {
    use weir_dps::ir::View;
    for s in stmts {
        if let weir_dps::ir::Stmt::View { var, view, .. } = s
            && match view {
                View::Placed { .. } => true,
                View::Reshape(x, _) | View::Alias(x) => out.contains(x),
                _ => false,
            }
        {
            out.push(var.clone());
        }
        for b in weir_dps::ir::nested_blocks(s) {
            placed_views(b, out);
        }
    }
}

fn count_structure(stmts: &[weir_dps::ir::Stmt], key: &str, placed: &[String]) -> usize {
    use weir_dps::ir::{Stmt as S, View};
    let mut n = 0;
    for s in stmts {
        n += match (key, s) {
            ("alloc", S::Alloc { bufs, .. }) => bufs.len(),
            ("copy", S::Copy { src, .. }) if placed.contains(src) => 0,
            ("copy", S::Copy { .. }) => 1,
            ("loop", S::For { .. } | S::Fold { .. } | S::Reduce { .. } | S::Loop { .. }) => 1,
            ("view", S::View { .. }) => 1,
            (
                "transpose",
                S::View {
                    view: View::Transpose(_),
                    ..
                },
            ) => 1,
            (
                "reverse",
                S::View {
                    view: View::Reverse(_),
                    ..
                },
            ) => 1,
            (
                "replicate",
                S::View {
                    view: View::Replicate(..),
                    ..
                },
            ) => 1,
            (
                "stride",
                S::View {
                    view: View::Stride(..),
                    ..
                },
            ) => 1,
            (
                "reshape",
                S::View {
                    view: View::Reshape(..),
                    ..
                },
            ) => 1,
            ("call", S::Call { .. }) => 1,
            ("inplace", S::Loop { arrays, .. }) => arrays.iter().filter(|a| a.in_place).count(),
            ("check", S::Check { .. }) => 1,
            _ => 0,
        };
        for b in weir_dps::ir::nested_blocks(s) {
            n += count_structure(b, key, placed);
        }
    }
    n
}

fn calls_of(stmts: &[weir_dps::ir::Stmt], out: &mut Vec<String>) {
    for s in stmts {
        if let weir_dps::ir::Stmt::Call { fun, .. } = s {
            out.push(fun.clone());
        }
        for b in weir_dps::ir::nested_blocks(s) {
            calls_of(b, out);
        }
    }
}

/// Check the `structure` lines of a file against its compiled entries: one
/// outcome per entry and line. They describe the default views decision:
/// under another (`--views=none|all`) they are not checked.
pub fn check_structures(c: &Compiled, structures: &[Structure]) -> Vec<Outcome> {
    // (they describe the default views decision)
    if structures.is_empty() || c.views != weir_opt::Views::default() {
        return vec![];
    }
    let first_entry = c.program.entries().next().map(|d| d.name.clone());
    let dps = crate::pipeline::to_dps_partial(&c.optimized, true);
    let mut out = Vec::new();
    for st in structures {
        let entries = if st.entries.is_empty() {
            first_entry.iter().cloned().collect()
        } else {
            st.entries.clone()
        };
        for entry in entries {
            let failure = match &dps {
                Err(e) => Some(format!("the DPS translation failed: {}", e.render(false))),
                Ok((p, left_out)) => match p.find(&entry) {
                    None => Some(match left_out.iter().find(|(f, _)| *f == entry) {
                        Some(_) => format!("`{entry}` does not compile to C"),
                        None => format!("no entry point named `{entry}`"),
                    }),
                    Some(_) => {
                        // the entry and the functions it calls
                        let mut funs = vec![entry.clone()];
                        let mut k = 0;
                        while k < funs.len() {
                            if let Some(f) = p.find(&funs[k]) {
                                let mut called = Vec::new();
                                calls_of(&f.body.stmts, &mut called);
                                for g in called {
                                    if !funs.contains(&g) {
                                        funs.push(g);
                                    }
                                }
                            }
                            k += 1;
                        }
                        // the C-level keys count the lowered bodies (bounds
                        // checks on, as `weir run` compiles)
                        let lowered = st
                            .counts
                            .iter()
                            .any(|(k, _)| C_KEYS.contains(&k.as_str()))
                            .then(|| {
                                weir_cgen::lower(
                                    p,
                                    &weir_cgen::Options::default(),
                                    &|_| String::new(),
                                    false,
                                )
                            });
                        let wrong: Vec<String> = st
                            .counts
                            .iter()
                            .filter_map(|(key, want)| {
                                let got: usize = if C_KEYS.contains(&key.as_str()) {
                                    let Some(Ok(u)) = &lowered else {
                                        return Some(format!(
                                            "{key}: the C backend's lowering failed"
                                        ));
                                    };
                                    funs.iter()
                                        .filter_map(|f| {
                                            let c = weir_cgen::lower::fun_c_name(f);
                                            u.funcs.iter().find(|g| g.name == c)
                                        })
                                        .map(|g| count_c(&g.body, key))
                                        .sum()
                                } else {
                                    funs.iter()
                                        .filter_map(|f| p.find(f))
                                        .map(|f| {
                                            let mut placed = Vec::new();
                                            placed_views(&f.body.stmts, &mut placed);
                                            count_structure(&f.body.stmts, key, &placed)
                                        })
                                        .sum()
                                };
                                (got != *want).then(|| format!("{key} {got} (expected {want})"))
                            })
                            .collect();
                        (!wrong.is_empty()).then(|| {
                            format!(
                                "structure differs: {} (`weir dev --dump-after dps-simplify` shows the program)",
                                wrong.join(", ")
                            )
                        })
                    }
                },
            };
            out.push(Outcome {
                entry: format!("{entry} (structure)"),
                line: st.line,
                failure,
            });
        }
    }
    out
}

/// Extract the test cases of a file. `dir` resolves `@ path` references.
pub fn parse_blocks(text: &str, dir: &Path) -> Result<Vec<Case>, String> {
    parse_blocks_full(text, dir).map(|(c, _)| c)
}

/// The test cases and the `structure` lines of a file.
pub fn parse_blocks_full(text: &str, dir: &Path) -> Result<(Vec<Case>, Vec<Structure>), String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut structures = Vec::new();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "-- ==" {
            i += 1;
            continue;
        }
        // collect the block: following comment lines
        let mut block: Vec<(usize, String)> = Vec::new();
        i += 1;
        while i < lines.len() {
            let t = lines[i].trim_start();
            let Some(rest) = t.strip_prefix("--") else {
                break;
            };
            if rest.trim() == "==" {
                break;
            }
            block.push((i + 1, rest.strip_prefix(' ').unwrap_or(rest).to_string()));
            i += 1;
        }
        parse_block(&block, dir, &mut cases, &mut structures)?;
    }
    Ok((cases, structures))
}

fn parse_block(
    block: &[(usize, String)],
    dir: &Path,
    cases: &mut Vec<Case>,
    structures: &mut Vec<Structure>,
) -> Result<(), String> {
    let mut entries: Vec<String> = Vec::new();
    let mut tolerance = DEFAULT_TOLERANCE;
    let mut pending: Option<(ValueSrc, usize)> = None;
    let mut k = 0;
    // Read `{ ... }` possibly spanning lines, starting after `keyword` on line k.
    let braces = |k: &mut usize, rest: &str| -> Result<String, String> {
        let line = block[*k].0;
        let Some(start) = rest.find('{') else {
            return Err(format!("line {line}: expected `{{ values }}` or `@ file`"));
        };
        let mut acc = String::new();
        let mut cur = rest[start + 1..].to_string();
        // record values nest braces: the block ends at the `}` that closes
        // the first `{`
        let mut depth = 1usize;
        loop {
            let mut close = None;
            for (i, c) in cur.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            if let Some(end) = close {
                acc.push_str(&cur[..end]);
                if !cur[end + 1..].trim().is_empty() {
                    return Err(format!("line {}: unexpected text after `}}`", block[*k].0));
                }
                return Ok(acc);
            }
            acc.push_str(&cur);
            acc.push('\n');
            *k += 1;
            if *k >= block.len() {
                return Err(format!("line {line}: `{{` is never closed"));
            }
            cur = block[*k].1.clone();
        }
    };
    let src = |k: &mut usize, rest: &str| -> Result<ValueSrc, String> {
        let r = rest.trim();
        if let Some(p) = r.strip_prefix('@') {
            Ok(ValueSrc::File(dir.join(p.trim())))
        } else {
            braces(k, rest).map(ValueSrc::Inline)
        }
    };
    while k < block.len() {
        let (line, text) = (block[k].0, block[k].1.trim().to_string());
        if text.is_empty() {
            k += 1;
            continue;
        }
        if let Some(r) = text.strip_prefix("entry:") {
            entries = r.split_whitespace().map(String::from).collect();
        } else if let Some(r) = text.strip_prefix("tolerance:") {
            tolerance = r.trim().parse().map_err(|_| {
                format!(
                    "line {line}: `tolerance:` needs a number, found `{}`",
                    r.trim()
                )
            })?;
        } else if let Some(r) = text.strip_prefix("structure") {
            let body = braces(&mut k, r)?;
            let words: Vec<&str> = body.split_whitespace().collect();
            if words.is_empty() || !words.len().is_multiple_of(2) {
                return Err(format!(
                    "line {line}: `structure {{ NAME COUNT ... }}` needs pairs of a name and a count"
                ));
            }
            let mut counts = Vec::new();
            for pair in words.chunks(2) {
                if !STRUCTURE.iter().any(|(n, _)| *n == pair[0]) {
                    let names: Vec<&str> = STRUCTURE.iter().map(|(n, _)| *n).collect();
                    return Err(format!(
                        "line {line}: `structure` cannot count `{}` (it counts {})",
                        pair[0],
                        names.join(", ")
                    ));
                }
                let Ok(c) = pair[1].parse::<usize>() else {
                    return Err(format!(
                        "line {line}: `structure`: `{}` is not a count",
                        pair[1]
                    ));
                };
                counts.push((pair[0].to_string(), c));
            }
            structures.push(Structure {
                entries: entries.clone(),
                counts,
                line,
            });
        } else if let Some(r) = text.strip_prefix("input") {
            if let Some((_, l)) = &pending {
                return Err(format!("line {l}: this input has no `output` or `error:`"));
            }
            pending = Some((src(&mut k, r)?, line));
        } else if let Some(r) = text.strip_prefix("output") {
            let Some((input, l)) = pending.take() else {
                return Err(format!("line {line}: `output` without a preceding `input`"));
            };
            cases.push(Case {
                entries: entries.clone(),
                input,
                expect: Expect::Output(src(&mut k, r)?),
                tolerance,
                line: l,
            });
        } else if let Some(r) = text.strip_prefix("error:") {
            let Some((input, l)) = pending.take() else {
                return Err(format!("line {line}: `error:` without a preceding `input`"));
            };
            cases.push(Case {
                entries: entries.clone(),
                input,
                expect: Expect::Error(r.trim().to_string()),
                tolerance,
                line: l,
            });
        } else {
            return Err(format!(
                "line {line}: unknown test-block line `{text}` (expected entry:, input, output, error:, tolerance: or structure)"
            ));
        }
        k += 1;
    }
    if let Some((_, l)) = pending {
        return Err(format!("line {l}: this input has no `output` or `error:`"));
    }
    Ok(())
}

fn read_src(src: &ValueSrc) -> Result<Source, String> {
    match src {
        ValueSrc::Inline(t) => Ok(Source::Text(t.clone(), "the test block".into())),
        ValueSrc::File(p) if p.extension().is_some_and(|e| e == "npy") => {
            Ok(Source::Npy(p.clone()))
        }
        // a value file must be a regular file of bounded size (`@ /dev/zero` is an
        // error, not a hang)
        ValueSrc::File(p) => {
            read_text_bounded(p, MAX_INPUT_BYTES).map(|t| Source::Text(t, p.display().to_string()))
        }
    }
}

/// Parse expected output values for a result type; a tuple result may be given as
/// one value per component.
pub fn parse_expected(src: &ValueSrc, ret: &Type) -> Result<Value, String> {
    let text = match read_src(src)? {
        Source::Text(t, _) => t,
        Source::Npy(p) => return weir_interp::npy::read_npy_file(&p, ret),
    };
    let n = count_values(&text).map_err(|e| e.to_string())?;
    if let Type::Tuple(ts) = ret
        && n == ts.len()
        && n != 1
    {
        let named: Vec<(String, Type)> = ts
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("expected component {i}"), t.clone()))
            .collect();
        return parse_values(&text, &named)
            .map(Value::tuple)
            .map_err(|e| e.to_string());
    }
    parse_values(&text, &[("expected output".into(), ret.clone())])
        .map(|mut v| v.remove(0))
        .map_err(|e| e.to_string())
}

/// The arguments of a case for an entry.
pub fn case_args(c: &Compiled, entry: &str, src: &ValueSrc) -> Result<Vec<Value>, String> {
    let Some(d) = c.program.find(entry).filter(|d| d.entry) else {
        return Err(format!("no entry point named `{entry}`"));
    };
    let _ = param_names(d);
    let surface = c.program.surface.get(entry).map(|(ps, _)| ps.as_slice());
    crate::inputs::read_args_as(d, surface, &[read_src(src)?])
}

/// The outcome of one case.
pub struct Outcome {
    pub entry: String,
    pub line: usize,
    pub failure: Option<String>,
}

/// Run every case of a compiled file on the interpreter.
pub fn run_cases(c: &Compiled, cases: &[Case]) -> Vec<Outcome> {
    let first_entry = c.program.entries().next().map(|d| d.name.clone());
    let mut out = Vec::new();
    for case in cases {
        let entries = if case.entries.is_empty() {
            first_entry.iter().cloned().collect()
        } else {
            case.entries.clone()
        };
        if entries.is_empty() {
            out.push(Outcome {
                entry: "?".into(),
                line: case.line,
                failure: Some("the file has no entry point".into()),
            });
        }
        for entry in entries {
            let failure = run_case(c, &entry, case).err();
            out.push(Outcome {
                entry,
                line: case.line,
                failure,
            });
        }
    }
    out
}

fn run_case(c: &Compiled, entry: &str, case: &Case) -> Result<(), String> {
    let args = match (case_args(c, entry, &case.input), &case.expect) {
        (Ok(a), _) => a,
        (Err(e), Expect::Error(want)) if e.contains(want.as_str()) => return Ok(()),
        (Err(e), _) => return Err(format!("bad input: {e}")),
    };
    let ret = c
        .program
        .find(entry)
        .map(|d| d.ret.clone())
        .unwrap_or(Type::F64);
    let result = run_entry(c, entry, args.clone());
    // the optimized program must compute exactly the same (no float reassociation)
    let optimized = run_entry_optimized(c, entry, args);
    match (&result, &optimized) {
        (Ok(v), Ok(w)) => compare(w, v, 0.0)
            .map_err(|d| format!("the optimized program computes a different result: {d}"))?,
        (Ok(_), Err(e)) => {
            return Err(format!(
                "the optimized program fails where the program does not:\n{}",
                render_runtime_error(c, e, false)
            ));
        }
        (Err(e), Ok(_)) if e.message.starts_with("size mismatch") => {
            return Err(format!(
                "the optimized program lost a size check: {}",
                e.message
            ));
        }
        (Err(e), Err(f))
            if e.message.starts_with("size mismatch")
                && !f.message.starts_with("size mismatch") =>
        {
            return Err(format!(
                "the optimized program reports `{}` instead of `{}`",
                f.message, e.message
            ));
        }
        _ => {}
    }
    match (&case.expect, result) {
        (Expect::Output(src), Ok(v)) => {
            let expected = match c.program.surface.get(entry) {
                Some((_, r)) => parse_expected(src, r)?,
                None => parse_expected(src, &ret)?,
            };
            compare(&v, &expected, case.tolerance).map_err(|d| {
                let shown = format_value(&v);
                let shown = if shown.len() > 200 {
                    format!("{}...", &shown[..200])
                } else {
                    shown
                };
                format!("wrong result: {d}\n      result: {shown}")
            })
        }
        (Expect::Output(_), Err(e)) => Err(format!(
            "expected a result, but the program failed:\n{}",
            render_runtime_error(c, &e, false)
        )),
        (Expect::Error(want), Err(e)) => {
            if e.message.contains(want.as_str()) {
                Ok(())
            } else {
                Err(format!(
                    "expected an error containing `{want}`, got: {}",
                    e.message
                ))
            }
        }
        (Expect::Error(want), Ok(v)) => {
            let shown = format_value(&v);
            let shown = if shown.len() > 200 {
                format!("{}...", &shown[..200])
            } else {
                shown
            };
            Err(format!(
                "expected an error containing `{want}`, but it returned {shown}"
            ))
        }
    }
}

/// The relative tolerance between the compiled C and the interpreter for floats
/// (C may reorder associative reductions, `reduce`/`sum`, for vectorisation;
/// everything else is computed in the same order and agrees bit for bit).
pub const NATIVE_TOLERANCE: f64 = 1e-9;

/// The relative tolerance of compiled C built with `--fast-math` (floating
/// point reassociated and contracted into FMAs) against the interpreter.
pub const FAST_MATH_TOLERANCE: f64 = 1e-6;

/// Run every case of a file on the compiled executable `exe` (built from `c`
/// with a `main`), comparing with the reference interpreter: results agree
/// (integers exactly, floats within [`NATIVE_TOLERANCE`]) and errors are errors
/// of the same kind. `wrapper` runs the executable under e.g. valgrind.
pub fn run_cases_native(
    c: &Compiled,
    cases: &[Case],
    exe: &Path,
    wrapper: &[&str],
) -> Vec<Outcome> {
    run_cases_native_within(c, cases, exe, wrapper, NATIVE_TOLERANCE)
}

/// [`run_cases_native`] with floats compared within `min_tolerance` at least
/// (a case's own `tolerance:` where larger): [`FAST_MATH_TOLERANCE`] for an
/// executable built with `--fast-math`.
pub fn run_cases_native_within(
    c: &Compiled,
    cases: &[Case],
    exe: &Path,
    wrapper: &[&str],
    min_tolerance: f64,
) -> Vec<Outcome> {
    let first_entry = c.program.entries().next().map(|d| d.name.clone());
    let mut out = Vec::new();
    for case in cases {
        let entries = if case.entries.is_empty() {
            first_entry.iter().cloned().collect()
        } else {
            case.entries.clone()
        };
        for entry in entries {
            let failure = run_case_native(c, &entry, case, exe, wrapper, min_tolerance).err();
            out.push(Outcome {
                entry,
                line: case.line,
                failure,
            });
        }
    }
    out
}

fn run_case_native(
    c: &Compiled,
    entry: &str,
    case: &Case,
    exe: &Path,
    wrapper: &[&str],
    min_tolerance: f64,
) -> Result<(), String> {
    let args = match case_args(c, entry, &case.input) {
        Ok(a) => a,
        Err(_) => return Ok(()), // bad inputs are the interpreter run's business
    };
    let Some(d) = c.program.find(entry) else {
        return Err(format!("no entry `{entry}`"));
    };
    // The optimized program is the C backend's input (and agrees with the
    // elaborated one, checked by `run_cases`).
    let reference = run_entry_optimized(c, entry, args.clone());
    let native = crate::native::run_exe(exe, d, &args, 1, wrapper);
    match (reference, native) {
        (Ok(v), Ok((w, _))) => compare(&w, &v, min_tolerance.max(case.tolerance))
            .map_err(|d| format!("compiled C differs from the interpreter: {d}")),
        (Err(e), Err(crate::native::NativeError::Runtime(m))) => {
            let kind = |s: &str| {
                s.split(':')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let msg = m.splitn(4, ':').nth(3).unwrap_or(&m).trim().to_string();
            match &case.expect {
                Expect::Error(want) if !msg.contains(want.as_str()) => Err(format!(
                    "compiled C fails with `{msg}`, expected an error containing `{want}`"
                )),
                _ if kind(&msg) != kind(&e.message) => Err(format!(
                    "compiled C fails with `{msg}` where the interpreter fails with `{}`",
                    e.message
                )),
                // (at the same source location, where the interpreter has one)
                _ if e.span != weir_ir::Span::default()
                    && !m.starts_with(&format!("{}:", crate::native::locate(c, e.span))) =>
                {
                    Err(format!(
                        "compiled C fails with `{m}` where the interpreter fails at {}: `{}`",
                        crate::native::locate(c, e.span),
                        e.message
                    ))
                }
                _ => Ok(()),
            }
        }
        (_, Err(e)) => Err(format!(
            "compiled C fails where the interpreter does not: {e}"
        )),
        (Err(e), Ok(_)) => Err(format!(
            "compiled C succeeds where the interpreter fails with `{}`",
            e.message
        )),
    }
}
