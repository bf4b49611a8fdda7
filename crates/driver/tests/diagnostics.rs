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

// ------------------------------------------------------------ internal names

/// A name the user never wrote, in a message: `None` if `text` has none, else
/// the offending word and why it is forbidden. The patterns:
///
/// * a word ending in `_N` (`m_11`, `n_3`, `t_42`): a fresh name of the core
///   IR, which gives every binder a numbered suffix; users see `m`, `n`
///   (`weir_ir::display_name`). `result_N` is exempt: the documented member
///   names of a `.npz` of results.
/// * `argN`: the names of a builtin's operands in its size checks (`map2 f a
///   b`: `arg2` is `b`); messages say "the second array".
/// * `ireduce`, `ireduce_by_index`, `update_slice`, `update_slice2` and the
///   backticked `` `update` ``, `` `update2` ``, `` `update3` ``: builtins the
///   optimizer and the elaborator make of `sum`/`reduce`, `reduce_by_index`
///   and `a with [i] = v`; a message names what the user wrote.
/// * `'tN` and `?N`: inference variables as the core printer writes them.
fn internal_name(text: &str) -> Option<(String, &'static str)> {
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    for w in words {
        if let Some((stem, digits)) = w.rsplit_once('_')
            && !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
            && stem.chars().any(|c| c.is_ascii_alphabetic())
            && stem != "result"
        {
            return Some((w.to_string(), "a fresh core name (`x_N`)"));
        }
        if let Some(n) = w.strip_prefix("arg")
            && !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
        {
            return Some((w.to_string(), "a builtin operand's internal name (`argN`)"));
        }
        if [
            "ireduce",
            "ireduce_by_index",
            "update_slice",
            "update_slice2",
        ]
        .contains(&w)
        {
            return Some((w.to_string(), "an internal builtin"));
        }
    }
    // two different sizes shown alike: a compiler temporary's name
    // (`` `t` and `t` are different sizes ``)
    if let Some(i) = text.find(" are different sizes") {
        let quoted: Vec<&str> = text[..i].split('`').collect();
        if quoted.len() >= 5 {
            let (a, b) = (quoted[quoted.len() - 4], quoted[quoted.len() - 2]);
            if a == b && quoted[quoted.len() - 3] == " and " {
                return Some((a.to_string(), "two sizes shown alike (a temporary's name)"));
            }
        }
    }
    for b in ["`update`", "`update2`", "`update3`"] {
        if text.contains(b) {
            return Some((b.to_string(), "an internal builtin"));
        }
    }
    let b = text.as_bytes();
    for (i, w) in b.windows(2).enumerate() {
        let next_digit = b.get(i + 2).is_some_and(|c| c.is_ascii_digit());
        if (w == b"'t" && next_digit) || (w[0] == b'?' && w[1].is_ascii_digit()) {
            let end = (i + 6).min(b.len());
            return Some((
                String::from_utf8_lossy(&b[i..end]).into_owned(),
                "an inference variable",
            ));
        }
    }
    None
}

/// The string literals of Rust or C source (escapes kept as written; raw
/// strings `r"..."`/`r#"..."#` read whole), each with its line.
fn string_literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line_of = |i: usize| src[..i].matches('\n').count() + 1;
    while i < b.len() {
        // (comments are skipped: their quotes are not literals)
        if b[i..].starts_with(b"//") {
            i = src[i..].find('\n').map_or(b.len(), |k| i + k);
            continue;
        }
        if b[i..].starts_with(b"/*") {
            i = src[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
            continue;
        }
        if b[i] == b'\'' {
            // a char literal ('"', '\''), or a lifetime: skip the quoted char
            if b.get(i + 1) == Some(&b'\\') {
                i += 4;
            } else if b.get(i + 2) == Some(&b'\'') {
                i += 3;
            } else {
                i += 1;
            }
            continue;
        }
        let raw = b[i] == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#'));
        if raw && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) {
            let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
            let open = i + 1 + hashes;
            if b.get(open) == Some(&b'"') {
                let close = format!("\"{}", "#".repeat(hashes));
                if let Some(k) = src[open + 1..].find(&close) {
                    out.push((line_of(i), src[open + 1..open + 1 + k].to_string()));
                    i = open + 1 + k + close.len();
                    continue;
                }
            }
        }
        if b[i] == b'"' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = j.min(b.len());
            out.push((line_of(i), src[start..end].to_string()));
            i = end + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// `{...}` placeholders of a format string as `N` (what they hold is data).
fn without_placeholders(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    out.push('N');
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The run-time messages of the sources: in the C runtime, every string
/// literal with a space (its messages; C code has no such literals); in the
/// C lowering, the literals of `message:` fields; in the IR's checks, the
/// interpreter and its value reader, every literal with a space (their
/// messages and format strings). `(file:line, text)`.
fn runtime_messages() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    let mut add = |rel: &str, only_messages: bool| {
        let text = std::fs::read_to_string(root.join(rel))
            .unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
        let lits = string_literals(&text);
        if only_messages {
            // the literals from each `message:` to the end of its field (a
            // `,` outside brackets)
            let mut spans = Vec::new();
            for (at, _) in text.match_indices("message:") {
                let mut depth = 0i32;
                let mut end = text.len();
                let mut in_str = false;
                let mut prev = ' ';
                for (k, c) in text[at + 8..].char_indices() {
                    if in_str {
                        if c == '"' && prev != '\\' {
                            in_str = false;
                        }
                    } else {
                        match c {
                            '"' => in_str = true,
                            '(' | '[' | '{' => depth += 1,
                            ')' | ']' | '}' if depth == 0 => {
                                end = at + 8 + k;
                                break;
                            }
                            ')' | ']' | '}' => depth -= 1,
                            ',' | ';' if depth == 0 => {
                                end = at + 8 + k;
                                break;
                            }
                            _ => {}
                        }
                    }
                    prev = if prev == '\\' && c == '\\' { ' ' } else { c };
                }
                let (l0, l1) = (
                    text[..at].matches('\n').count() + 1,
                    text[..end].matches('\n').count() + 1,
                );
                spans.push((l0, l1));
            }
            for (line, s) in lits {
                if spans.iter().any(|(a, b)| (*a..=*b).contains(&line)) {
                    out.push((format!("{rel}:{line}"), s));
                }
            }
        } else {
            for (line, s) in lits {
                if s.contains(' ') {
                    out.push((format!("{rel}:{line}"), s));
                }
            }
        }
    };
    let rt = root.join("crates/cgen/runtime");
    let mut headers: Vec<String> = std::fs::read_dir(&rt)
        .expect("crates/cgen/runtime")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".h"))
        .collect();
    headers.sort();
    assert!(
        !headers.is_empty(),
        "no runtime headers in {}",
        rt.display()
    );
    for h in &headers {
        add(&format!("crates/cgen/runtime/{h}"), false);
    }
    add("crates/cgen/src/lower.rs", true);
    add("crates/ir/src/lib.rs", false);
    add("crates/interp/src/eval.rs", false);
    add("crates/interp/src/value.rs", false);
    add("crates/interp/src/npy.rs", false);
    out
}

/// No message names what the user never wrote: every rendered diagnostic of
/// the corpus (compile-time, input and run-time errors: the snapshots) and
/// every run-time message of the sources is scanned for the patterns of
/// [`internal_name`].
#[test]
fn messages_name_no_internal_names() {
    let snaps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut leaks = Vec::new();
    let mut count = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&snaps)
        .expect("snapshots")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("diagnostics__corpus@") && n.ends_with(".snap"))
        })
        .collect();
    entries.sort();
    for p in &entries {
        let text = std::fs::read_to_string(p).expect("read a snapshot");
        // the rendering: after the header's second `---`
        let body = text.splitn(3, "---\n").nth(2).unwrap_or("");
        count += 1;
        for (i, line) in body.lines().enumerate() {
            // (the source excerpt's lines, `N │ code`, are the user's own text)
            let t = line.trim_start();
            let excerpt = t.split_once('│').is_some_and(|(n, _)| {
                !n.trim().is_empty() && n.trim().chars().all(|c| c.is_ascii_digit())
            });
            if excerpt {
                continue;
            }
            if let Some((w, why)) = internal_name(line) {
                leaks.push(format!(
                    "{}:{}: `{w}` ({why}): {line}",
                    p.file_name().unwrap_or_default().to_string_lossy(),
                    i + 1
                ));
            }
        }
    }
    assert!(
        count >= 45,
        "only {count} corpus snapshots in {}",
        snaps.display()
    );
    let msgs = runtime_messages();
    assert!(
        msgs.len() > 100,
        "only {} run-time messages found",
        msgs.len()
    );
    for (at, m) in &msgs {
        if let Some((w, why)) = internal_name(&without_placeholders(m)) {
            leaks.push(format!("{at}: `{w}` ({why}): \"{m}\""));
        }
    }
    assert!(
        leaks.is_empty(),
        "{} message(s) name what the user never wrote:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

/// The patterns catch what they are for, and pass the user's words.
#[test]
fn internal_name_patterns() {
    for bad in [
        "expected a value of type [m_11]f64",
        "parameter `arg2` needs size `n` = 2",
        "`ireduce_by_index` given a negative count",
        "in `update` of an array",
        "a size ?3",
        "type 't4",
        "size mismatch in the third argument of `map2`: `t` and `t` are different sizes",
    ] {
        assert!(internal_name(bad).is_some(), "not caught: {bad}");
    }
    for ok in [
        "expected a value of type [m]f64",
        "the second array given to `map2` has length 1, but the first has length 2",
        "write one .npy per result (`result_0`, ...)",
        "`reduce_by_index` of 3 indices and 2 values",
        "values of type f64 and i64, u8 x, int64_t, x2",
        "size mismatch in the third argument of `map2`: `n + 2` and `n + 1` are different sizes",
        "`n + 1` and `n + 1`, computed separately, are not known to be the same size",
    ] {
        assert_eq!(internal_name(ok), None, "{ok}");
    }
    // messages name a builtin by what the program wrote (an `ireduce_by_index`
    // the optimizer made is the user's `reduce_by_index`)
    for b in weir_ir::Builtin::ALL {
        let shown = format!("`{}`", b.source_name());
        assert_eq!(internal_name(&shown), None, "{b:?}");
    }
    assert_eq!(
        weir_ir::Builtin::IReduceByIndex.source_name(),
        "reduce_by_index"
    );
    assert_eq!(without_placeholders("`{}` of {n} ({k:?})"), "`N` of N (N)");
    let lits = string_literals("let a = \"x\\\"y\"; // \"no\"\nf(r#\"raw \"q\"\"#, '\"');");
    let texts: Vec<&str> = lits.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(texts, ["x\\\"y", "raw \"q\""]);
}
