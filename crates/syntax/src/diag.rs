//! Diagnostics: what went wrong, where, and how to fix it. Rendered with ariadne.

use crate::source::{FileId, SourceMap, Span};
use ariadne::{CharSet, Config, IndexType, Report, ReportKind};
use std::collections::HashMap;

/// A secondary location with a message.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A user-facing error with its primary span, extra labels and a fix suggestion.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Stable short code, e.g. `E0101`.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    /// Text placed under the primary span.
    pub label: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
        }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Render as text: a `file:line:col: error[CODE]: message` line, then the ariadne
    /// report with the source excerpt, labels and help. `color` enables ANSI colours.
    ///
    /// The size of the text is bounded whatever the source: a source line longer
    /// than [`MAX_LINE`] bytes is shown as windows around the labels' ends joined
    /// by `…`, lines no label touches are not handed to ariadne, and a message,
    /// label, help or note longer than [`MAX_TEXT`] bytes is cut with `…`.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        let mut out = format!(
            "{}: error[{}]: {}\n",
            sources.location(self.span),
            self.code,
            cut(&self.message)
        );
        let Some(file) = sources.get(self.span.file) else {
            return out;
        };
        // every label's file and byte range, clamped to its text; the primary first
        let mut spans: Vec<(FileId, usize, usize)> = Vec::new();
        for s in std::iter::once(self.span).chain(self.labels.iter().map(|l| l.span)) {
            let len = sources.get(s.file).map_or(0, |f| f.text.len());
            let a = (s.start as usize).min(len);
            let b = (s.end as usize).clamp(a, len);
            spans.push((s.file, a, b));
        }
        // the excerpt of each file that has a label, in the order first met
        let mut excerpts: Vec<(FileId, String, Excerpt)> = Vec::new();
        for &(f, ..) in &spans {
            if excerpts.iter().any(|(g, ..)| *g == f) {
                continue;
            }
            let Some(sf) = sources.get(f) else { continue };
            let ranges: Vec<(usize, usize)> = spans
                .iter()
                .filter(|(g, ..)| *g == f)
                .map(|&(_, a, b)| (a, b))
                .collect();
            excerpts.push((f, sf.name.clone(), Excerpt::new(&sf.text, &ranges)));
        }
        let name = file.name.clone();
        let at = |f: FileId, a: usize, b: usize| match excerpts.iter().find(|(g, ..)| *g == f) {
            Some((_, n, e)) => (n.clone(), e.map(a)..e.map(b)),
            None => (name.clone(), 0..0),
        };
        let config = Config::default()
            .with_color(color)
            .with_index_type(IndexType::Byte)
            .with_char_set(CharSet::Unicode);
        let (pf, pa, pb) = spans[0];
        let mut report = Report::build(ReportKind::Error, at(pf, pa, pb))
            .with_code(self.code)
            .with_message(cut(&self.message))
            .with_config(config);
        let primary = if self.label.is_empty() {
            "here".to_string()
        } else {
            cut(&self.label).into_owned()
        };
        report = report.with_label(ariadne::Label::new(at(pf, pa, pb)).with_message(primary));
        for (l, &(f, a, b)) in self.labels.iter().zip(&spans[1..]) {
            if sources.get(l.span.file).is_none() {
                continue;
            }
            report =
                report.with_label(ariadne::Label::new(at(f, a, b)).with_message(cut(&l.message)));
        }
        if let Some(h) = &self.help {
            report = report.with_help(cut(h));
        }
        for n in &self.notes {
            report = report.with_note(cut(n));
        }
        let mut buf = Vec::new();
        let cache = ariadne::sources(
            excerpts
                .iter()
                .map(|(_, n, e)| (n.clone(), e.text.as_str()))
                .collect::<Vec<_>>(),
        );
        if report.finish().write(cache, &mut buf).is_ok() {
            let text = String::from_utf8_lossy(&buf);
            if excerpts.iter().any(|(_, _, e)| e.cut) {
                // ariadne's `file:line:col` headers count columns in the cut
                // lines: put the source's back (a file's header is at its first
                // label, the primary's for the primary's file)
                let mut heads = excerpts.iter().map(|(f, n, _)| {
                    let s = spans.iter().find(|(g, ..)| g == f).map_or(0, |s| s.1);
                    (n.clone(), sources.location(Span::new(*f, s, s)))
                });
                for line in text.split_inclusive('\n') {
                    if line.contains("─[")
                        && let Some((n, loc)) = heads.next()
                        && let Some(i) = line.find(&format!("{n}:"))
                    {
                        let end = line[i..].find(' ').map_or(line.len(), |k| i + k);
                        out.push_str(&line[..i]);
                        out.push_str(&loc);
                        out.push_str(&line[end..]);
                        continue;
                    }
                    out.push_str(line);
                }
            } else {
                out.push_str(&text);
            }
        }
        out
    }
}

/// Source lines longer than this many bytes are shown in diagnostics as
/// windows around the labels (`…` marks what is left out).
pub const MAX_LINE: usize = 200;
/// The bytes shown on each side of a label's end in a cut line.
const WINDOW: usize = 60;
/// A message, label, help or note longer than this many bytes is cut (`…`).
pub const MAX_TEXT: usize = 2000;
/// At most this many diagnostics are rendered per file; the rest are
/// counted ("and N more errors in FILE").
pub const MAX_PER_FILE: usize = 50;

/// `s`, cut to [`MAX_TEXT`] bytes (at a character boundary) with `…`.
fn cut(s: &str) -> std::borrow::Cow<'_, str> {
    if s.len() <= MAX_TEXT {
        return s.into();
    }
    let mut k = MAX_TEXT;
    while !s.is_char_boundary(k) {
        k -= 1;
    }
    format!("{}…", &s[..k]).into()
}

/// The text ariadne is given for one file: as many lines as the source (so
/// line numbers hold), where a line no label touches is empty and a line
/// longer than [`MAX_LINE`] is cut to windows around the labels' ends.
struct Excerpt {
    text: String,
    /// Each label end's offset in the source and in `text`, sorted.
    points: Vec<(usize, usize)>,
    /// Whether some line was cut.
    cut: bool,
}

impl Excerpt {
    fn new(src: &str, ranges: &[(usize, usize)]) -> Excerpt {
        let mut ends: Vec<usize> = ranges.iter().flat_map(|&(a, b)| [a, b]).collect();
        ends.sort_unstable();
        ends.dedup();
        let mut text = String::new();
        let mut points = Vec::with_capacity(ends.len());
        let mut cut = false;
        let mut next = 0; // the first of `ends` not yet placed
        let mut start = 0;
        loop {
            let end = src[start..].find('\n').map_or(src.len(), |k| start + k);
            let touched = ranges.iter().any(|&(a, b)| a <= end && b >= start);
            let mut mine = Vec::new();
            while next < ends.len() && ends[next] <= end {
                mine.push(ends[next]);
                next += 1;
            }
            let line = &src[start..end];
            if !touched {
                // not shown: left empty (the label ends are on touched lines)
            } else if line.len() <= MAX_LINE {
                for &p in &mine {
                    points.push((p, text.len() + p - start));
                }
                text.push_str(line);
            } else {
                cut = true;
                // the windows, merged, in source offsets
                let mut wins: Vec<(usize, usize)> = Vec::new();
                let around: Vec<usize> = if mine.is_empty() {
                    vec![start]
                } else {
                    mine.clone()
                };
                for p in around {
                    let mut a = p.saturating_sub(WINDOW).max(start);
                    let mut b = (p + WINDOW).min(end);
                    while !src.is_char_boundary(a) {
                        a -= 1;
                    }
                    while !src.is_char_boundary(b) {
                        b += 1;
                    }
                    match wins.last_mut() {
                        Some(w) if a <= w.1 => w.1 = w.1.max(b),
                        _ => wins.push((a, b)),
                    }
                }
                let mut mi = 0;
                let mut last = start;
                for (a, b) in wins {
                    if a > last {
                        text.push('…');
                    }
                    while mi < mine.len() && mine[mi] <= b {
                        points.push((mine[mi], text.len() + mine[mi] - a));
                        mi += 1;
                    }
                    text.push_str(&src[a..b]);
                    last = b;
                }
                if last < end {
                    text.push('…');
                }
            }
            if end >= src.len() {
                break;
            }
            text.push('\n');
            start = end + 1;
        }
        Excerpt { text, points, cut }
    }

    /// Where the source offset `p` (a label's end) is in the text.
    fn map(&self, p: usize) -> usize {
        match self.points.binary_search_by_key(&p, |x| x.0) {
            Ok(i) => self.points[i].1,
            Err(_) => 0,
        }
    }
}

/// Render many diagnostics, separated by blank lines: at most
/// [`MAX_PER_FILE`] of each file (by the primary span's file), then a line
/// saying how many more there are.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut shown: HashMap<FileId, usize> = HashMap::new();
    let mut parts = Vec::new();
    for d in diags {
        let n = shown.entry(d.span.file).or_insert(0);
        *n += 1;
        if *n <= MAX_PER_FILE {
            parts.push(d.render(sources, color));
        }
    }
    let mut files: Vec<(FileId, usize)> = shown
        .into_iter()
        .filter(|(_, n)| *n > MAX_PER_FILE)
        .collect();
    files.sort_unstable();
    for (f, n) in files {
        let more = n - MAX_PER_FILE;
        parts.push(format!(
            "... and {more} more error{} in {} (only the first {MAX_PER_FILE} of a file are shown)\n",
            if more == 1 { "" } else { "s" },
            sources.name(f)
        ));
    }
    parts.join("\n")
}
