//! The error corpus: every `tests/errors/*.weir` program is malformed (or, for
//! `runtime_*` / `input_*` files, fails when run on bad input), and its rendered
//! diagnostic is snapshotted (`snapshots/diagnostics__corpus@NAME.weir.snap`).
//!
//! Each corpus file starts with comment lines:
//!
//! ```text
//! -- what is wrong (free text; the first line)
//! -- expect: L:C                  the primary location the error must report
//! -- expect: FILE:L:C             ... in a file the program imports (its name as
//!                                 shown, relative to tests/errors: `modules/x.weir`)
//! -- args: VALUES                 runtime_*/input_*: the entry's arguments as value text
//! -- expect-input-error: TEXT     input_*: reading the arguments must fail with TEXT
//! -- known-bug: Bn location L:C   the compiler currently reports L:C instead (BUGS.md Bn)
//! -- known-bug: Bn no-help        the diagnostic currently has no help line (BUGS.md Bn)
//! ```
//!
//! Each program is compiled as the file `tests/errors/NAME`, so its imports are
//! read from there (helper files live in `tests/errors/modules/`, which the
//! corpus does not run).
//!
//! Checks, besides the snapshot:
//! * compile-time cases must fail to compile; runtime/input cases must compile;
//! * every rendered diagnostic starts with `NAME:L:C: error[CODE]: ...` and has a
//!   `Help:` line (ariadne prints `help` as `Help: ...` in the report's footer);
//! * the first diagnostic (or the runtime error) is at the `expect:` location.
//!
//! A `known-bug` marker is strict: when the bug is fixed the test fails, asking for
//! the marker (and the BUGS.md entry) to be removed.
//!
//! Update snapshots with `INSTA_UPDATE=always cargo test -p weir-driver --test diagnostics`
//! (or `cargo insta test`), then review every changed `.snap` file.

use std::cell::RefCell;
use weir_driver::inputs::{Source, read_args};
use weir_driver::pipeline::render_runtime_error;
use weir_driver::{LoadError, run_entry};

/// What the header comments of one corpus file say.
#[derive(Default, Debug)]
struct Header {
    what: String,
    expect: Option<String>,
    args: Option<String>,
    input_error: Option<String>,
    /// (bug id, the location the compiler reports today)
    bug_location: Option<(String, String)>,
    /// bug id of a known missing help line
    bug_no_help: Option<String>,
}

fn parse_header(name: &str, text: &str) -> Header {
    let mut h = Header::default();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("--") else {
            break;
        };
        let rest = rest.trim();
        if i == 0 {
            h.what = rest.to_string();
            continue;
        }
        if let Some(v) = rest.strip_prefix("expect-input-error:") {
            h.input_error = Some(v.trim().to_string());
        } else if let Some(v) = rest.strip_prefix("expect:") {
            h.expect = Some(v.trim().to_string());
        } else if let Some(v) = rest.strip_prefix("args:") {
            h.args = Some(v.trim().to_string());
        } else if let Some(v) = rest.strip_prefix("known-bug:") {
            let words: Vec<&str> = v.split_whitespace().collect();
            match words.as_slice() {
                [id, "location", loc] => h.bug_location = Some((id.to_string(), loc.to_string())),
                [id, "no-help"] => h.bug_no_help = Some(id.to_string()),
                _ => panic!("{name}: malformed `known-bug:` line: {line}"),
            }
        }
    }
    assert!(
        !h.what.is_empty(),
        "{name}: the first line must be a `--` comment saying what is wrong"
    );
    h
}

/// The `file:line:col` a rendered diagnostic starts with (up to `: error[`).
fn location_of(rendered: &str) -> Option<&str> {
    let first = rendered.lines().next()?;
    let end = first.find(": error[")?;
    Some(&first[..end])
}

fn has_help(rendered: &str) -> bool {
    rendered.lines().any(|l| {
        let l = l.trim_start_matches(|c: char| c.is_whitespace() || c == '│');
        l.starts_with("Help: ") || l.starts_with("help: ")
    })
}

/// Check one rendered diagnostic's location and help against the header.
/// `first` is true for the diagnostic whose location is the file's primary location.
fn check_rendered(name: &str, h: &Header, rendered: &str, first: bool, errs: &mut Vec<String>) {
    let Some(loc) = location_of(rendered) else {
        errs.push(format!(
            "{name}: diagnostic does not start with `{name}:L:C: error[CODE]`:\n{rendered}"
        ));
        return;
    };
    // the file, then `line:col`; an imported file's location is given whole
    let mut parts: Vec<&str> = loc.rsplitn(3, ':').collect();
    parts.reverse();
    let (file, lc) = match parts.as_slice() {
        [file, l, c] if l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok() => {
            (*file, &loc[file.len() + 1..])
        }
        _ => {
            errs.push(format!(
                "{name}: diagnostic location `{loc}` is not `{name}:line:col`"
            ));
            return;
        }
    };
    if file != name && !file.ends_with(".weir") {
        errs.push(format!(
            "{name}: diagnostic location `{loc}` does not name the file"
        ));
        return;
    }
    let lc = if file == name { lc } else { loc };
    match &h.bug_no_help {
        None if !has_help(rendered) => errs.push(format!("{name}: diagnostic has no `Help:` line:\n{rendered}")),
        Some(id) if first && has_help(rendered) => errs.push(format!(
            "{name}: known bug {id} (missing help) seems fixed: remove the `known-bug: {id} no-help` line and the BUGS.md entry"
        )),
        _ => {}
    }
    if !first {
        return;
    }
    let Some(expect) = &h.expect else {
        errs.push(format!("{name}: no `-- expect: L:C` line"));
        return;
    };
    match &h.bug_location {
        None => {
            if lc != expect {
                errs.push(format!(
                    "{name}: error reported at {lc}, expected {expect}:\n{rendered}"
                ));
            }
        }
        Some((id, actual)) => {
            if lc == expect {
                errs.push(format!(
                    "{name}: known bug {id} (location) seems fixed: remove the `known-bug: {id} location` line and the BUGS.md entry"
                ));
            } else if lc != actual {
                errs.push(format!(
                    "{name}: error reported at {lc}; expected {expect} (known bug {id} reported {actual}):\n{rendered}"
                ));
            }
        }
    }
}

/// Compile a corpus program as the file `tests/errors/NAME` (its imports are
/// read from there; diagnostics name it `NAME`).
fn compile(name: &str, text: &str) -> Result<weir_driver::Compiled, LoadError> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/errors");
    weir_driver::pipeline::compile_source_in(name, text, &dir, weir_driver::pipeline::views())
}

fn check_compile_error(name: &str, text: &str, h: &Header, errs: &mut Vec<String>) -> String {
    match compile(name, text) {
        Ok(_) => {
            errs.push(format!(
                "{name}: compiled without errors, but it is in the error corpus"
            ));
            "(compiled without errors)\n".to_string()
        }
        Err(e) => {
            let all = e.render(false);
            match &e {
                LoadError::Io(m) => {
                    errs.push(format!("{name}: not a diagnostic (internal error?): {m}"))
                }
                LoadError::Diagnostics(sm, ds) => {
                    if ds.is_empty() {
                        errs.push(format!("{name}: failed with no diagnostics"));
                    }
                    for (i, d) in ds.iter().enumerate() {
                        check_rendered(name, h, &d.render(sm, false), i == 0, errs);
                    }
                    if location_of(&all)
                        != ds
                            .first()
                            .map(|d| d.render(sm, false))
                            .as_deref()
                            .and_then(location_of)
                    {
                        errs.push(format!(
                            "{name}: the rendering does not start with the first diagnostic"
                        ));
                    }
                }
            }
            all
        }
    }
}

fn check_run_error(name: &str, text: &str, h: &Header, errs: &mut Vec<String>) -> String {
    let compiled = match compile(name, text) {
        Ok(c) => c,
        Err(e) => {
            let r = e.render(false);
            errs.push(format!(
                "{name}: a runtime/input case must compile, but:\n{r}"
            ));
            return r;
        }
    };
    let Some(args) = &h.args else {
        errs.push(format!("{name}: no `-- args: VALUES` line"));
        return String::new();
    };
    let Some(entry) = compiled.program.entries().next() else {
        errs.push(format!("{name}: no entry point"));
        return String::new();
    };
    let vals = match read_args(entry, &[Source::Text(args.clone(), "test".into())]) {
        Ok(v) => v,
        Err(msg) => {
            match &h.input_error {
                Some(want) if msg.contains(want.as_str()) => {}
                Some(want) => errs.push(format!(
                    "{name}: input error `{msg}` does not contain `{want}`"
                )),
                None => errs.push(format!(
                    "{name}: unexpected input error (add `expect-input-error:`?): {msg}"
                )),
            }
            return format!("input error: {msg}\n");
        }
    };
    if let Some(want) = &h.input_error {
        errs.push(format!(
            "{name}: the input was accepted, but an input error containing `{want}` was expected"
        ));
    }
    match run_entry(&compiled, &entry.name, vals) {
        Ok(v) => {
            errs.push(format!(
                "{name}: ran successfully ({v:?}), but a runtime error was expected"
            ));
            format!("(ran successfully: {v:?})\n")
        }
        Err(e) => {
            let r = render_runtime_error(&compiled, &e, false);
            if h.input_error.is_none() {
                check_rendered(name, h, &r, true, errs);
            }
            r
        }
    }
}

#[test]
fn corpus() {
    let errors = RefCell::new(Vec::<String>::new());
    let count = RefCell::new(0usize);
    insta::glob!("../../../tests/errors", "*.weir", |path| {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let h = parse_header(&name, &text);
        let mut errs = Vec::new();
        let out = if name.starts_with("runtime_") || name.starts_with("input_") {
            check_run_error(&name, &text, &h, &mut errs)
        } else {
            if h.args.is_some() || h.input_error.is_some() {
                errs.push(format!(
                    "{name}: `args:`/`expect-input-error:` only apply to runtime_*/input_* files"
                ));
            }
            check_compile_error(&name, &text, &h, &mut errs)
        };
        *count.borrow_mut() += 1;
        // printed now too: a snapshot mismatch makes `glob!` panic before the summary below
        for e in &errs {
            eprintln!("corpus check failed: {e}\n");
        }
        errors.borrow_mut().extend(errs);
        insta::with_settings!({ description => h.what.clone(), omit_expression => true }, {
            insta::assert_snapshot!(out);
        });
    });
    let errors = errors.into_inner();
    let count = count.into_inner();
    assert!(
        count >= 45,
        "the corpus has {count} programs; it should have at least 45"
    );
    assert!(
        errors.is_empty(),
        "{} corpus check(s) failed:\n\n{}",
        errors.len(),
        errors.join("\n\n")
    );
}
