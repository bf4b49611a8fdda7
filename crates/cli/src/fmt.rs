//! `weir fmt [--check] PATHS...`: format .weir files in place (the
//! formatter is `weir_syntax::fmt`; docs/fmt.md describes the style).

use crate::write_stdout;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use weir_driver::pipeline::MAX_SOURCE_BYTES;
use weir_interp::files::{read_text_bounded, read_text_from};
use weir_syntax::SourceMap;
use weir_syntax::diag::render_all;
use weir_syntax::fmt::{FormatError, format_source};

/// Where a text comes from: a file, or standard input (`-`).
enum Source {
    File(PathBuf),
    Stdin,
}

pub(crate) fn cmd_fmt(paths: &[PathBuf], check: bool, color: bool) -> ExitCode {
    let mut sources = Vec::new();
    let mut failed = false;
    for p in paths {
        if p.as_os_str() == "-" {
            sources.push(Source::Stdin);
        } else if p.is_dir() {
            let mut files = Vec::new();
            collect(p, &mut files);
            if files.is_empty() {
                eprintln!("warning: no .weir files in {}", p.display());
            }
            sources.extend(files.into_iter().map(Source::File));
        } else if p.exists() {
            // a file named on the command line is formatted whatever its name
            sources.push(Source::File(p.clone()));
        } else {
            eprintln!("error: {} does not exist", p.display());
            failed = true;
        }
    }
    let mut changed = 0usize;
    for s in &sources {
        match fmt_one(s, check, color) {
            Ok(true) => changed += 1,
            Ok(false) => {}
            Err(()) => failed = true,
        }
    }
    if check && changed > 0 {
        eprintln!(
            "{changed} file{} would be reformatted (run `weir fmt` on {})",
            if changed == 1 { "" } else { "s" },
            if changed == 1 { "it" } else { "them" }
        );
    }
    if failed || (check && changed > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The .weir files under a folder, sorted; hidden folders, `target`
/// folders and links to folders (which could make a cycle) are left out.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    for e in entries {
        let name = e.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.as_deref().unwrap_or("");
        let link = std::fs::symlink_metadata(&e).is_ok_and(|m| m.file_type().is_symlink());
        if e.is_dir() {
            if !link && !name.starts_with('.') && name != "target" {
                collect(&e, out);
            }
        } else if e.extension().is_some_and(|x| x == "weir") && !name.starts_with('.') {
            out.push(e);
        }
    }
}

/// Format one file (or stdin). Ok(true): it changed (or would, with
/// `check`); Err: it could not be formatted (reported already).
fn fmt_one(s: &Source, check: bool, color: bool) -> Result<bool, ()> {
    let (name, text) = match s {
        Source::File(p) => (
            p.display().to_string(),
            read_text_bounded(p, MAX_SOURCE_BYTES),
        ),
        Source::Stdin => (
            "<stdin>".to_string(),
            read_text_from(std::io::stdin().lock(), "standard input", MAX_SOURCE_BYTES),
        ),
    };
    let text = text.map_err(|e| eprintln!("error: {e}"))?;
    let mut map = SourceMap::new();
    let id = map.add(name.clone(), text.clone());
    let out = match format_source(id, &text) {
        Ok(out) => out,
        Err(FormatError::Syntax(diags)) => {
            eprint!("{}", render_all(&diags, &map, color));
            eprintln!("error: {name} has syntax errors; it is left as it is");
            return Err(());
        }
        Err(FormatError::Changed { span, message }) => {
            eprintln!(
                "error: {}: formatting would change the program here ({message}); {name} is left as it is (a bug of `weir fmt`: please report it with this file)",
                map.location(span)
            );
            return Err(());
        }
    };
    let differs = out != text;
    match s {
        Source::Stdin if !check => out!("{out}"),
        _ if check => {
            if differs {
                outln!("{name}");
            }
        }
        Source::File(p) => {
            if differs {
                std::fs::write(p, &out)
                    .map_err(|e| eprintln!("error: cannot write {name}: {e}"))?;
            }
        }
        Source::Stdin => {}
    }
    Ok(differs)
}
