//! The lexer (logos). Produces tokens with spans; bad characters become error tokens.

use crate::source::{FileId, Span};
use logos::Logos;

#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"--[^\n]*", allow_greedy = true))]
pub enum Tok {
    #[token("def")]
    Def,
    #[token("entry")]
    Entry,
    #[token("let")]
    Let,
    #[token("in")]
    In,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("loop")]
    Loop,
    #[token("for")]
    For,
    #[token("while")]
    While,
    #[token("do")]
    Do,
    #[token("with")]
    With,
    #[token("type")]
    Type,
    #[token("import")]
    Import,
    #[token("module")]
    Module,
    /// A string literal (its text without the quotes; no escapes).
    #[regex(r#""[^"\n]*""#, |lex| { let s = lex.slice(); s[1..s.len() - 1].to_string() })]
    Str(String),
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[regex(r"[A-Za-z_][A-Za-z0-9_']*", |lex| lex.slice().to_string())]
    Ident(String),
    /// Integer literal text (digits, underscores, optional suffix), parsed later.
    #[regex(r"[0-9][0-9_]*([iu](8|16|32|64))?", |lex| lex.slice().to_string())]
    #[regex(r"0x[0-9a-fA-F_]+([iu](8|16|32|64))?", |lex| lex.slice().to_string())]
    Int(String),
    /// Float literal text, parsed later.
    #[regex(r"[0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9]+)?(f32|f64)?", |lex| lex.slice().to_string())]
    #[regex(r"[0-9][0-9_]*[eE][+-]?[0-9]+(f32|f64)?", |lex| lex.slice().to_string())]
    #[regex(r"[0-9][0-9_]*(f32|f64)", |lex| lex.slice().to_string())]
    Float(String),
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    /// `?`: existential sizes of a result type, `?[k].[k]f64`
    #[token("?")]
    Question,
    #[token("\\")]
    Backslash,
    #[token("->")]
    Arrow,
    #[token("=")]
    Eq,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    StarStar,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("!")]
    Bang,
    #[token("++")]
    PlusPlus,
    #[token("|>")]
    Pipe,
    /// `f <| x`: application, loosest and right-associative
    #[token("<|")]
    PipeLeft,
    /// `f >-> g`: composition, `f` first
    #[token(">->")]
    ComposeRight,
    /// `g <-< f`: composition, `f` first
    #[token("<-<")]
    ComposeLeft,
    /// `&`, `|`, `^`: bitwise operators.
    #[token("&")]
    Amp,
    #[token("|")]
    Bar,
    #[token("^")]
    Caret,
    /// `<<`, `>>`, `>>>`: shifts.
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token(">>>")]
    UShr,
    #[token("'")]
    Quote,
    /// `#[`, the start of an annotation (`#[view] e`).
    #[token("#[")]
    HashBracket,
    /// A character no token starts with.
    Error(String),
    Eof,
}

impl Tok {
    /// How the token is shown in error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("identifier `{s}`"),
            Tok::Int(s) => format!("integer literal `{s}`"),
            Tok::Float(s) => format!("float literal `{s}`"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Error(s) => format!("unexpected character `{s}`"),
            Tok::Eof => "end of file".to_string(),
            t => format!("`{}`", t.text()),
        }
    }
    pub fn text(&self) -> &str {
        match self {
            Tok::Def => "def",
            Tok::Entry => "entry",
            Tok::Let => "let",
            Tok::In => "in",
            Tok::If => "if",
            Tok::Then => "then",
            Tok::Else => "else",
            Tok::Loop => "loop",
            Tok::For => "for",
            Tok::While => "while",
            Tok::Do => "do",
            Tok::With => "with",
            Tok::Type => "type",
            Tok::Import => "import",
            Tok::Module => "module",
            Tok::True => "true",
            Tok::False => "false",
            Tok::Ident(s) | Tok::Int(s) | Tok::Float(s) | Tok::Str(s) | Tok::Error(s) => s,
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Dot => ".",
            Tok::Question => "?",
            Tok::Backslash => "\\",
            Tok::Arrow => "->",
            Tok::Eq => "=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::StarStar => "**",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Bang => "!",
            Tok::PlusPlus => "++",
            Tok::Pipe => "|>",
            Tok::PipeLeft => "<|",
            Tok::ComposeRight => ">->",
            Tok::ComposeLeft => "<-<",
            Tok::Amp => "&",
            Tok::Bar => "|",
            Tok::Caret => "^",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::UShr => ">>>",
            Tok::Quote => "'",
            Tok::HashBracket => "#[",
            Tok::Eof => "<eof>",
        }
    }
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Lex a whole file. Never fails: unknown characters become [`Tok::Error`] tokens.
/// The last token is always [`Tok::Eof`].
pub fn lex(file: FileId, text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut lexer = Tok::lexer(text);
    while let Some(res) = lexer.next() {
        let r = lexer.span();
        let span = Span::new(file, r.start, r.end);
        let tok = match res {
            Ok(t) => t,
            Err(()) => Tok::Error(lexer.slice().to_string()),
        };
        out.push(Token { tok, span });
    }
    // End of file is reported just after the last token, on a line that exists.
    let end = out.last().map(|t: &Token| t.span.end as usize).unwrap_or(0);
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(file, end, end),
    });
    out
}

/// A `--` line comment: its text from `--` to the end of its line (without
/// the line break) and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub text: String,
    pub span: Span,
}

/// Lex like [`lex`], and also return the comments that [`lex`] skips, in
/// order (for the formatter). The text between two tokens is white space and
/// comments only (a character no token starts with is an error token), so
/// the comments are found in those gaps.
pub fn lex_with_comments(file: FileId, text: &str) -> (Vec<Token>, Vec<Comment>) {
    let toks = lex(file, text);
    let mut comments = Vec::new();
    let mut gap_start = 0usize;
    for t in &toks {
        let gap_end = (t.span.start as usize).max(gap_start).min(text.len());
        comments_in(file, text, gap_start, gap_end, &mut comments);
        gap_start = (t.span.end as usize).max(gap_end);
    }
    comments_in(file, text, gap_start, text.len(), &mut comments);
    (toks, comments)
}

/// The comments in `text[start..end]`, which holds no token.
fn comments_in(file: FileId, text: &str, start: usize, end: usize, out: &mut Vec<Comment>) {
    let bytes = text.as_bytes();
    let end = end.min(text.len());
    let mut i = start;
    while i < end {
        if bytes[i] == b'-' && bytes.get(i + 1) == Some(&b'-') {
            let stop = text[i..end].find('\n').map_or(end, |k| i + k);
            out.push(Comment {
                text: text[i..stop].to_string(),
                span: Span::new(file, i, stop),
            });
            i = stop;
        } else {
            i += 1;
        }
    }
}
