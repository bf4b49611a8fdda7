//! The formatter (`weir fmt`) on the repository's own programs and on the
//! style files of tests/fmt.
//!
//! - every .weir file under examples/ and tests/ that parses: the output
//!   parses, holds the same tokens and comments, keeps the adjacencies Weir
//!   reads (`a[i]` against `a [i]`, the dots of `t.0`, `f64.pi`), and is its
//!   own format (idempotence); these checks are written here again, apart
//!   from the formatter's own check of its output;
//! - the same files with their spaces and indentation scrambled format to
//!   the same text (the layout depends on tokens and line breaks only), and
//!   with extra line breaks still format, correctly and idempotently;
//! - tests/fmt/NAME.weir formats to tests/fmt/NAME.expected (run with
//!   `UPDATE_EXPECT=1` to write the expected files after a style change,
//!   then review the diff).

use std::path::{Path, PathBuf};
use weir_syntax::FileId;
use weir_syntax::fmt::{FormatError, format_source};
use weir_syntax::lexer::{Tok, lex, lex_with_comments};
use weir_syntax::parse_file;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn weir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            weir_files(&e, out);
        } else if e.extension().is_some_and(|x| x == "weir") {
            out.push(e);
        }
    }
}

/// The files of examples/ and tests/ that parse, with their text.
fn corpus() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    weir_files(&root().join("examples"), &mut files);
    weir_files(&root().join("tests"), &mut files);
    let parsing: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            parse_file(FileId(0), &text)
                .1
                .is_empty()
                .then_some((f, text))
        })
        .collect();
    // the walk found the corpus (so that a moved folder cannot make this vacuous)
    assert!(
        parsing.len() >= 150,
        "only {} parsing .weir files found under examples/ and tests/",
        parsing.len()
    );
    parsing
}

fn format(name: &str, text: &str) -> String {
    match format_source(FileId(0), text) {
        Ok(out) => out,
        Err(FormatError::Syntax(e)) => panic!("{name}: syntax errors: {e:?}"),
        Err(FormatError::Changed { span, message }) => {
            panic!(
                "{name}: the formatter refused at byte {}: {message}",
                span.start
            )
        }
    }
}

/// The tokens (kind and spelling), without end of file.
fn tokens(text: &str) -> Vec<(Tok, String)> {
    lex(FileId(0), text)
        .into_iter()
        .filter(|t| t.tok != Tok::Eof)
        .map(|t| {
            let s = text.get(t.span.range()).unwrap_or("").to_string();
            (t.tok, s)
        })
        .collect()
}

fn comments(text: &str) -> Vec<String> {
    lex_with_comments(FileId(0), text)
        .1
        .into_iter()
        .map(|c| c.text.trim_end().to_string())
        .collect()
}

/// For each pair of neighbouring tokens whose adjacency Weir reads: whether
/// they touch.
fn adjacencies(text: &str) -> Vec<(usize, bool)> {
    let toks = lex(FileId(0), text);
    let operand = |t: &Tok| {
        matches!(
            t,
            Tok::Ident(_)
                | Tok::Int(_)
                | Tok::Float(_)
                | Tok::True
                | Tok::False
                | Tok::RParen
                | Tok::RBracket
                | Tok::RBrace
        )
    };
    (1..toks.len())
        .filter(|&k| {
            let (a, b) = (&toks[k - 1].tok, &toks[k].tok);
            *a == Tok::Dot || *b == Tok::Dot || (*b == Tok::LBracket && operand(a))
        })
        .map(|k| (k, toks[k - 1].span.end == toks[k].span.start))
        .collect()
}

/// Everything `weir fmt` promises about `out`, the format of `text`.
fn check_output(name: &str, text: &str, out: &str) {
    let errors = parse_file(FileId(0), out).1;
    assert!(
        errors.is_empty(),
        "{name}: the output does not parse: {errors:?}\n{out}"
    );
    assert_eq!(tokens(text), tokens(out), "{name}: the tokens changed");
    assert_eq!(
        comments(text),
        comments(out),
        "{name}: the comments changed"
    );
    let (was, is) = (adjacencies(text), adjacencies(out));
    if let Some((&(k, a), &(_, b))) = was.iter().zip(&is).find(|(x, y)| x != y) {
        let t = tokens(text);
        panic!(
            "{name}: `{}` and `{}` (tokens {} and {k}) {} and now {}",
            t[k - 1].1,
            t[k].1,
            k - 1,
            if a { "touched" } else { "did not touch" },
            if b { "do" } else { "do not" }
        );
    }
    assert_eq!(was.len(), is.len(), "{name}: the adjacencies changed");
    let again = format(name, out);
    assert!(
        again == out,
        "{name}: not idempotent; first differing line:\n{}",
        first_difference(out, &again)
    );
}

fn first_difference(a: &str, b: &str) -> String {
    for (k, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  {x:?}\n  {y:?}", k + 1);
        }
    }
    format!(
        "one is a prefix of the other ({} and {} lines)",
        a.lines().count(),
        b.lines().count()
    )
}

#[test]
fn corpus_formats_without_changing_meaning() {
    for (path, text) in corpus() {
        let name = path.display().to_string();
        let out = format(&name, &text);
        check_output(&name, &text, &out);
    }
}

/// A small deterministic random source (no dependency, same every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// `text` with the white space between its tokens and comments rewritten:
/// each gap keeps its line breaks (plus, with `breaks`, sometimes new ones),
/// the spaces and indentation become random, and a gap is emptied or
/// opened only where that cannot change the tokens or what they mean.
fn scramble(text: &str, rng: &mut Rng, breaks: bool) -> String {
    let (toks, comments) = lex_with_comments(FileId(0), text);
    // (start, end, is_comment) of everything in order
    let mut items: Vec<(usize, usize, bool)> = toks
        .iter()
        .filter(|t| t.tok != Tok::Eof)
        .map(|t| (t.span.start as usize, t.span.end as usize, false))
        .chain(
            comments
                .iter()
                .map(|c| (c.span.start as usize, c.span.end as usize, true)),
        )
        .collect();
    items.sort();
    let tok_at: std::collections::HashMap<usize, &Tok> = toks
        .iter()
        .map(|t| (t.span.start as usize, &t.tok))
        .collect();
    let mut out = String::new();
    let mut end = 0usize;
    let mut prev: Option<(usize, usize, bool)> = None;
    for &(s, e, is_comment) in &items {
        let gap = &text[end..s];
        let newlines = gap.matches('\n').count();
        let spaces = |rng: &mut Rng| " ".repeat(rng.next(4) as usize);
        if newlines > 0 {
            out.push_str(&"\n".repeat(newlines));
            out.push_str(&spaces(rng));
        } else if let Some((ps, pe, prev_comment)) = prev {
            let a = &text[ps..pe];
            let b = &text[s..e];
            let significant = match (tok_at.get(&ps), tok_at.get(&s)) {
                (Some(ta), Some(tb)) => {
                    **ta == Tok::Dot
                        || **tb == Tok::Dot
                        || (**tb == Tok::LBracket
                            && matches!(
                                ta,
                                Tok::Ident(_)
                                    | Tok::Int(_)
                                    | Tok::Float(_)
                                    | Tok::True
                                    | Tok::False
                                    | Tok::RParen
                                    | Tok::RBracket
                                    | Tok::RBrace
                            ))
                }
                _ => false,
            };
            let touching = gap.is_empty();
            // two tokens written together lex back as themselves
            let apart = !is_comment && !prev_comment && tokens(&format!("{a}{b}")).len() == 2;
            if breaks && !(significant && touching) && rng.next(6) == 0 {
                out.push('\n');
                out.push_str(&spaces(rng));
            } else if significant && touching {
                // `a[i]`, `t.0`: as they were
            } else if !significant && apart && rng.next(3) == 0 {
                // nothing between them
            } else {
                out.push_str(&" ".repeat(1 + rng.next(3) as usize));
            }
        }
        out.push_str(&text[s..e]);
        end = e;
        prev = Some((s, e, is_comment));
    }
    out.push_str(&text[end..]);
    out
}

#[test]
fn layout_ignores_the_input_spacing() {
    let mut rng = Rng(20);
    for (path, text) in corpus() {
        let name = path.display().to_string();
        let expected = format(&name, &text);
        for round in 0..3 {
            let messy = scramble(&text, &mut rng, false);
            assert_eq!(
                tokens(&messy),
                tokens(&text),
                "{name}: the scrambler broke it"
            );
            let out = format(&name, &messy);
            assert!(
                out == expected,
                "{name} (scrambled, round {round}): formats differently; first differing line:\n{}\n--- scrambled input:\n{messy}",
                first_difference(&expected, &out)
            );
        }
    }
}

#[test]
fn extra_line_breaks_format_correctly() {
    let mut rng = Rng(5);
    for (path, text) in corpus() {
        let name = path.display().to_string();
        for round in 0..2 {
            let messy = scramble(&text, &mut rng, true);
            assert_eq!(
                tokens(&messy),
                tokens(&text),
                "{name}: the scrambler broke it"
            );
            let out = format(&format!("{name} (with line breaks, round {round})"), &messy);
            check_output(&name, &messy, &out);
        }
    }
}

#[test]
fn style_files() {
    let dir = root().join("tests/fmt");
    let mut inputs = Vec::new();
    weir_files(&dir, &mut inputs);
    assert!(inputs.len() >= 5, "tests/fmt holds too few style files");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for input in inputs {
        let name = input.display().to_string();
        let text = std::fs::read_to_string(&input).unwrap_or_default();
        let out = format(&name, &text);
        check_output(&name, &text, &out);
        let expected_path = input.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &out).unwrap_or_else(|e| panic!("{name}: {e}"));
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "{}: missing (run with UPDATE_EXPECT=1 to write it)",
                expected_path.display()
            )
        });
        if out != expected {
            failures.push(format!("{name}: {}", first_difference(&expected, &out)));
        }
    }
    assert!(
        failures.is_empty(),
        "formatted differently from the .expected files (UPDATE_EXPECT=1 rewrites them):\n{}",
        failures.join("\n")
    );
}
