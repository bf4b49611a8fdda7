//! Diagnostics: what went wrong, where, and how to fix it. Rendered with ariadne.

use crate::source::{SourceMap, Span};
use ariadne::{CharSet, Config, IndexType, Report, ReportKind};

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
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        let mut out = format!(
            "{}: error[{}]: {}\n",
            sources.location(self.span),
            self.code,
            self.message
        );
        let Some(file) = sources.get(self.span.file) else {
            return out;
        };
        let name = file.name.clone();
        // a label may be in another file (a definition in an imported file)
        let clamp = |s: Span| {
            let (n, len) = match sources.get(s.file) {
                Some(f) => (f.name.clone(), f.text.len()),
                None => (name.clone(), 0),
            };
            let a = (s.start as usize).min(len);
            let b = (s.end as usize).clamp(a, len);
            (n, a..b)
        };
        let config = Config::default()
            .with_color(color)
            .with_index_type(IndexType::Byte)
            .with_char_set(CharSet::Unicode);
        let mut report = Report::build(ReportKind::Error, clamp(self.span))
            .with_code(self.code)
            .with_message(&self.message)
            .with_config(config);
        let primary = if self.label.is_empty() {
            "here".to_string()
        } else {
            self.label.clone()
        };
        report = report.with_label(ariadne::Label::new(clamp(self.span)).with_message(primary));
        let mut files = vec![(name.clone(), file.text.as_str())];
        for l in &self.labels {
            let Some(f) = sources.get(l.span.file) else {
                continue;
            };
            if !files.iter().any(|(n, _)| *n == f.name) {
                files.push((f.name.clone(), f.text.as_str()));
            }
            report = report.with_label(ariadne::Label::new(clamp(l.span)).with_message(&l.message));
        }
        if let Some(h) = &self.help {
            report = report.with_help(h);
        }
        for n in &self.notes {
            report = report.with_note(n);
        }
        let mut buf = Vec::new();
        let cache = ariadne::sources(files);
        if report.finish().write(cache, &mut buf).is_ok() {
            out.push_str(&String::from_utf8_lossy(&buf));
        }
        out
    }
}

/// Render many diagnostics, separated by blank lines.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    diags
        .iter()
        .map(|d| d.render(sources, color))
        .collect::<Vec<_>>()
        .join("\n")
}
