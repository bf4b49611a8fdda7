//! The formatter behind `weir fmt` (docs/fmt.md describes the style).
//!
//! # Design
//!
//! The formatter works on the **token stream**, not on the AST. The parser
//! is used only to validate the file first (a file with syntax errors is
//! reported and left as it is) and to validate the result; the layout is
//! computed by one left-to-right pass over the tokens with a small stack of
//! open constructs. A printer of the AST would have to drop or re-attach
//! comments, would rebuild what the parser desugars (`x |> f`, `let a[i] =
//! v`, negative literals), and would need a case for every construct others
//! add to the language; the token stream has none of these problems:
//!
//! - **Nothing is dropped or reordered.** The output holds exactly the input's
//!   tokens, in order, and its comments ([`crate::lexer::lex_with_comments`]),
//!   each comment's text unchanged (only its indentation and trailing white
//!   space are). Line breaks are the user's (as gofmt keeps them), except
//!   that runs of blank lines become one and a `def`/`entry` signature spread
//!   over several lines is joined when the joined line fits in
//!   [`MAX_WIDTH`] columns. Long lines are never broken.
//! - **White space that Weir reads is kept.** A `[` right after an operand
//!   indexes it (`a[i]`) where `f a [i]` passes an array, and `e.x`, `t.0`,
//!   `f64.pi`, `m.t` need the dot adjacent; so whether there is white space
//!   before such a `[` and on both sides of a `.` is copied from the input.
//!   Everywhere else spacing is the house style. (Minus is unary or binary
//!   by position, not by spacing: the parser reads `f -1` as `f - 1`, and it
//!   comes out so; a `-` after an operator, an opening bracket or a keyword
//!   is unary and is written against its operand: `f (-1)`.) Before two
//!   tokens are written without a space between them, the pair is lexed
//!   again, so that no two tokens fuse into one (`- -x` does not become the
//!   comment `--x`, `1 f32` does not become `1f32`).
//! - **The result is checked.** The output is lexed and parsed again; if its
//!   tokens, comments or significant adjacencies differ from the input's, or
//!   it does not parse, formatting fails with [`FormatError::Changed`] (a
//!   bug of the formatter) and the caller leaves the file unchanged.
//! - **Idempotent by construction.** The output depends only on the tokens,
//!   the comments, where lines break, where blank lines are and the
//!   adjacencies above, never on the input's columns; all of those are the
//!   same in the output, so formatting it again gives it back.
//! - **New syntax gets sensible defaults.** A token the formatter does not
//!   know (a new operator such as `<<` or `>->`, a literal with a new suffix)
//!   is spaced as a binary operator: one space either side, and a line
//!   starting with it continues the expression. Only brackets, `,`, `:`,
//!   `.`, `\`, `!`, `?`, `#[`, unary `-`, unique `*` (in types) and the
//!   keywords that open or divide constructs (`def`, `entry`, `type`,
//!   `import`, `module`, `let`/`in`, `if`/`then`/`else`, `loop`/`for`/
//!   `while`/`do`, `->`) are special. Local definitions (`let f (x: f64) :
//!   f64 = ...`) and operator sections with operands (`(2.0 *)`) need
//!   nothing new.
//!
//! # The pass
//!
//! Spacing is decided per pair of neighbouring tokens (`Pass::space_between`)
//! from the two tokens and a little context: whether they are in a type (a
//! type runs from a `:` to the next `,`, `=` or closing bracket, and fills
//! `(...)`/`{...}` opened in it, but not a size `[...]`), whether a `:` is a
//! slice's (directly inside an index bracket), whether a `-` is unary (what
//! precedes it does not end an operand).
//!
//! Indentation is decided for each token that starts a line from the stack
//! of open constructs (`Frame`): a definition, a bracket, `let`, `if`,
//! `loop` and a lambda, each with its phase (a `let`'s pattern, bound
//! expression or body; an `if`'s condition or branches; ...) and an anchor
//! column. A token that ends a phase or a construct (`in`, `then`, `else`,
//! `do`, `for`, `while`, `,`, a closing bracket, a chained `let`) takes the
//! construct's own column; the first line of an expression goes at its
//! construct's indentation; an argument continued on the next line lines up
//! with the function's first argument; any other continuation line lines
//! up with the start of its expression. A construct opened in the middle of
//! a line is anchored at that line's indentation, so that `build n (\i ->
//! build m (\j ->` puts the body two spaces in, not two per lambda; an `if`
//! is anchored at its own column, so its `else` can line up under it.

use crate::diag::Diagnostic;
use crate::lexer::{Comment, Tok, Token, lex, lex_with_comments};
use crate::parser::parse_file;
use crate::source::{FileId, Span};

/// A signature spread over several lines is joined when the line fits in this.
pub const MAX_WIDTH: usize = 100;
/// Spaces per indentation level.
pub const INDENT: usize = 2;

/// Why a file was not formatted.
#[derive(Clone, Debug)]
pub enum FormatError {
    /// The file does not parse; these are its errors (as every command
    /// reports them). It is left as it is.
    Syntax(Vec<Diagnostic>),
    /// The formatted text would not mean the same as the input: a bug of the
    /// formatter, caught by the check of its output. `span` is in the input.
    Changed { span: Span, message: String },
}

/// Format a whole file. `file` names it in the diagnostics.
pub fn format_source(file: FileId, text: &str) -> Result<String, FormatError> {
    let (_, errors) = parse_file(file, text);
    if !errors.is_empty() {
        return Err(FormatError::Syntax(errors));
    }
    let (toks, comments) = lex_with_comments(file, text);
    let out = layout(text, &toks, &comments);
    verify(file, text, &toks, &comments, &out)?;
    Ok(out)
}

// ------------------------------------------------------------------ tokens

/// Ends an operand, as far as the spelling goes: a `[` right after it is an
/// index, a `-` after it is binary.
fn operand_token(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Ident(_)
            | Tok::Int(_)
            | Tok::Float(_)
            | Tok::Str(_)
            | Tok::True
            | Tok::False
            | Tok::RParen
            | Tok::RBracket
            | Tok::RBrace
    )
}

fn is_opener(t: &Tok) -> bool {
    matches!(
        t,
        Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::HashBracket
    )
}

fn is_closer(t: &Tok) -> bool {
    matches!(t, Tok::RParen | Tok::RBracket | Tok::RBrace)
}

/// Would `a` and `b` written with nothing between them lex back as the same
/// two tokens?
fn lexes_apart(a: &str, b: &str) -> bool {
    let joined = format!("{a}{b}");
    let toks = lex(FileId(0), &joined);
    toks.len() == 3
        && toks[0].span.range() == (0..a.len())
        && toks[1].span.range() == (a.len()..joined.len())
}

// ------------------------------------------------------------------ the pass

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Root,
    /// A top-level item: `def`, `entry`, `type`, `import`, `module`.
    Item,
    /// `(`, `[`, `{` or `#[`.
    Paren,
    Let,
    If,
    Loop,
    Lambda,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// An item's signature, a loop's head (before `do`).
    Head,
    /// After an item's `=`, a `let`'s `in`, a loop's `do`, a lambda's `->`.
    Body,
    /// A `let`'s pattern.
    Pat,
    /// A `let`'s bound expression.
    Rhs,
    Cond,
    Then,
    Else,
    /// A lambda's parameters.
    Params,
    /// Brackets and the root.
    Open,
}

#[derive(Clone, Debug)]
struct Frame {
    kind: Kind,
    phase: Phase,
    /// The column the construct's lines are measured from.
    anchor: usize,
    /// Paren: the column of the first element when it follows the bracket
    /// on its line. Item: the column of its first `(` parameter.
    align: Option<usize>,
    /// Paren: whether `align` is decided (the first token inside was seen).
    seen_first: bool,
    /// Paren: the opening token; its column; the output line it is on.
    open: Tok,
    open_col: usize,
    open_line: usize,
    /// Everything inside is a type (`(`/`{` opened in a type).
    ty: bool,
    /// A type runs from a `:` (or a `type`'s `=`) to the next `,` or `=`.
    region: bool,
    /// The column of the current expression's first token.
    expr_start: Option<usize>,
    /// The column of the head of the application under way, and of its
    /// first argument once seen.
    app_head: Option<usize>,
    app_first: Option<usize>,
    /// The output line of the first argument; whether it spans lines (then
    /// the arguments after it go 2 deeper than the head instead).
    app_first_line: usize,
    app_first_spans: bool,
    /// Opened in the middle of a line (a loop's `for`/`do` then go 2 deeper
    /// than its anchor, the line's indentation).
    mid_line: bool,
}

impl Frame {
    fn new(kind: Kind, phase: Phase, anchor: usize) -> Frame {
        Frame {
            kind,
            phase,
            anchor,
            align: None,
            seen_first: false,
            open: Tok::Eof,
            open_col: anchor,
            open_line: 0,
            ty: false,
            region: false,
            expr_start: None,
            app_head: None,
            app_first: None,
            app_first_line: 0,
            app_first_spans: false,
            mid_line: false,
        }
    }

    /// Where a line continuing this construct goes.
    fn content(&self) -> usize {
        match (self.kind, self.phase) {
            (Kind::Root, _) => 0,
            (Kind::Item, Phase::Head) => self.align.unwrap_or(self.anchor + 2 * INDENT),
            (Kind::Item, _) => self.anchor + INDENT,
            (Kind::Paren, _) => self.align.unwrap_or(self.anchor + INDENT),
            (Kind::Let, Phase::Pat) => self.anchor + 2 * INDENT,
            (Kind::Let, Phase::Rhs) => self.anchor + INDENT,
            (Kind::Let, _) => self.anchor,
            (Kind::Lambda, Phase::Params) => self.anchor + 2 * INDENT,
            (Kind::If | Kind::Loop | Kind::Lambda, _) => self.anchor + INDENT,
        }
    }

    /// The least anchor of a construct opened inside this one in the middle
    /// of a line.
    fn floor(&self) -> usize {
        match (self.kind, self.phase) {
            (Kind::Item, Phase::Head) => self.anchor,
            (Kind::Item | Kind::If, _) => self.anchor + INDENT,
            (Kind::Loop | Kind::Lambda, Phase::Body) => self.anchor + INDENT,
            _ => self.anchor,
        }
    }

    fn in_type(&self) -> bool {
        self.ty || self.region
    }
}

/// What the next token needs to know about the previous one.
#[derive(Clone, Debug)]
struct Prev {
    idx: usize,
    /// Ends an operand (a `-` after it is binary, an atom after it an argument).
    ends_operand: bool,
    in_ty: bool,
    /// Nothing goes between it and the next token.
    glue_after: bool,
}

/// Something in the input: a token or a comment, and the line breaks
/// between it and what came before.
#[derive(Clone, Copy, Debug)]
enum El {
    Tok(usize),
    Comment(usize),
}

struct Pass<'a> {
    text: &'a str,
    toks: &'a [Token],
    comments: &'a [Comment],
    els: Vec<(El, usize)>,
    /// Tokens whose line break is dropped (joined signatures).
    joined: Vec<bool>,
    /// Whether each token has a space before it when on the same line as
    /// the previous one (filled in by the pass).
    spaces: Vec<bool>,
    out: String,
    line_start: usize,
    line_no: usize,
    line_indent: usize,
    stack: Vec<Frame>,
    prev: Option<Prev>,
    /// Comments on lines of their own, waiting for the next token's indentation.
    pending: Vec<(usize, bool)>,
}

/// The formatted text.
fn layout(text: &str, toks: &[Token], comments: &[Comment]) -> String {
    let toks = match toks.last() {
        Some(t) if t.tok == Tok::Eof => &toks[..toks.len() - 1],
        _ => toks,
    };
    let els = elements(text, toks, comments);
    let mut first = Pass::new(text, toks, comments, els.clone(), vec![false; toks.len()]);
    first.run();
    let joined = joins(&first);
    if !joined.iter().any(|j| *j) {
        return first.out;
    }
    let mut second = Pass::new(text, toks, comments, els, joined);
    second.run();
    second.out
}

/// Tokens and comments in order, each with the number of line breaks before it.
fn elements(text: &str, toks: &[Token], comments: &[Comment]) -> Vec<(El, usize)> {
    let mut els = Vec::with_capacity(toks.len() + comments.len());
    let (mut i, mut j) = (0, 0);
    let mut end = 0usize;
    let breaks = |from: usize, to: usize| -> usize {
        text.get(from..to.max(from))
            .map_or(0, |s| s.bytes().filter(|b| *b == b'\n').count())
    };
    while i < toks.len() || j < comments.len() {
        let take_tok = match (toks.get(i), comments.get(j)) {
            (Some(t), Some(c)) => t.span.start <= c.span.start,
            (Some(_), None) => true,
            _ => false,
        };
        if take_tok {
            let s = &toks[i].span;
            els.push((El::Tok(i), breaks(end, s.start as usize)));
            end = s.end as usize;
            i += 1;
        } else {
            let s = &comments[j].span;
            els.push((El::Comment(j), breaks(end, s.start as usize)));
            end = s.end as usize;
            j += 1;
        }
    }
    els
}

/// Which tokens lose their line break: those inside a `def`/`entry`
/// signature spread over lines, without comments, that fits on one line.
fn joins(p: &Pass) -> Vec<bool> {
    let toks = p.toks;
    let mut joined = vec![false; toks.len()];
    // line breaks before each token, and whether a comment comes before it
    let mut breaks = vec![0usize; toks.len()];
    let mut comment_before = vec![false; toks.len()];
    let mut trailing = vec![None::<usize>; toks.len()];
    let mut last_tok: Option<usize> = None;
    let mut seen_comment = false;
    for &(el, nl) in &p.els {
        match el {
            El::Tok(i) => {
                breaks[i] = nl;
                comment_before[i] = seen_comment;
                seen_comment = false;
                last_tok = Some(i);
            }
            El::Comment(c) => {
                if nl == 0
                    && let Some(t) = last_tok
                    && !seen_comment
                {
                    trailing[t] = Some(c);
                }
                seen_comment = true;
            }
        }
    }
    let width = |i: usize| p.tok_text(i).chars().count();
    let mut i = 0;
    while i < toks.len() {
        if !matches!(toks[i].tok, Tok::Def | Tok::Entry) {
            i += 1;
            continue;
        }
        // the signature: up to the first `=` outside brackets
        let mut depth = 0usize;
        let mut eq = None;
        let mut k = i + 1;
        while k < toks.len() {
            let t = &toks[k].tok;
            if is_opener(t) {
                depth += 1;
            } else if is_closer(t) {
                depth = depth.saturating_sub(1);
            } else if depth == 0 && *t == Tok::Eq {
                eq = Some(k);
                break;
            } else if matches!(
                t,
                Tok::Def | Tok::Entry | Tok::Type | Tok::Import | Tok::Module
            ) {
                break;
            }
            k += 1;
        }
        let Some(eq) = eq else {
            i = k;
            continue;
        };
        let spread = (i + 1..=eq).any(|k| breaks[k] > 0);
        let commented = (i + 1..=eq).any(|k| comment_before[k]);
        if spread && !commented {
            // the joined line: the signature and the rest of the `=`'s line
            let mut last = eq;
            while last + 1 < toks.len() && breaks[last + 1] == 0 && !comment_before[last + 1] {
                last += 1;
            }
            let mut w = width(i);
            for k in i + 1..=last {
                w += width(k) + usize::from(p.spaces[k]);
            }
            if let Some(c) = trailing[last] {
                w += 1 + p.comments[c].text.trim_end().chars().count();
            }
            if w <= MAX_WIDTH {
                for j in joined.iter_mut().take(eq + 1).skip(i + 1) {
                    *j = true;
                }
            }
        }
        i = eq + 1;
    }
    joined
}

impl<'a> Pass<'a> {
    fn new(
        text: &'a str,
        toks: &'a [Token],
        comments: &'a [Comment],
        els: Vec<(El, usize)>,
        joined: Vec<bool>,
    ) -> Pass<'a> {
        Pass {
            text,
            toks,
            comments,
            els,
            joined,
            spaces: vec![false; toks.len()],
            out: String::with_capacity(text.len() + text.len() / 8),
            line_start: 0,
            line_no: 0,
            line_indent: 0,
            stack: vec![Frame::new(Kind::Root, Phase::Open, 0)],
            prev: None,
            pending: Vec::new(),
        }
    }

    fn tok_text(&self, i: usize) -> &'a str {
        let text: &'a str = self.text;
        text.get(self.toks[i].span.range()).unwrap_or("")
    }

    fn comment_text(&self, c: usize) -> &'a str {
        let comments: &'a [Comment] = self.comments;
        comments[c].text.trim_end()
    }

    fn top(&self) -> &Frame {
        // the root is never popped
        &self.stack[self.stack.len() - 1]
    }

    fn top_mut(&mut self) -> &mut Frame {
        let n = self.stack.len() - 1;
        &mut self.stack[n]
    }

    fn col(&self) -> usize {
        self.out[self.line_start..].chars().count()
    }

    /// Start a new output line (after a blank one if `blank`), indented.
    fn new_line(&mut self, indent: usize, blank: bool) {
        if !self.out.is_empty() {
            let trimmed = self.out.trim_end_matches([' ', '\t']).len();
            self.out.truncate(trimmed);
            self.out.push('\n');
            self.line_no += 1;
            if blank {
                self.out.push('\n');
                self.line_no += 1;
            }
        }
        self.line_start = self.out.len();
        self.line_indent = indent;
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    fn run(&mut self) {
        let els = std::mem::take(&mut self.els);
        for &(el, nl) in &els {
            match el {
                El::Comment(c) => {
                    let on_line = self.out.len() > self.line_start;
                    if nl == 0 && on_line && self.pending.is_empty() {
                        // ends the line of the code before it
                        let t = self.comment_text(c);
                        self.out.push(' ');
                        self.out.push_str(t);
                    } else {
                        self.pending.push((c, nl >= 2));
                    }
                }
                El::Tok(i) => self.token(i, nl),
            }
        }
        self.els = els;
        self.flush_comments(0);
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        if !self.out.is_empty() {
            self.out.push('\n');
        }
    }

    /// Write the waiting comments, each on a line of its own.
    fn flush_comments(&mut self, indent: usize) {
        let pending = std::mem::take(&mut self.pending);
        for (c, blank) in pending {
            self.new_line(indent, blank);
            let t = self.comment_text(c);
            self.out.push_str(t);
        }
    }

    /// Index of the innermost frame, above the nearest bracket or item,
    /// that `want` accepts.
    fn find_open(&self, want: impl Fn(&Frame) -> bool) -> Option<usize> {
        for (k, f) in self.stack.iter().enumerate().rev() {
            if want(f) {
                return Some(k);
            }
            if !matches!(f.kind, Kind::Let | Kind::If | Kind::Loop | Kind::Lambda) {
                return None;
            }
        }
        None
    }

    fn is_item_start(&self, i: usize) -> bool {
        match self.toks[i].tok {
            Tok::Def | Tok::Entry | Tok::Type | Tok::Module => true,
            // `module m = import "p"`
            Tok::Import => !self
                .prev
                .as_ref()
                .is_some_and(|p| self.toks[p.idx].tok == Tok::Eq),
            _ => false,
        }
    }

    fn token(&mut self, i: usize, nl: usize) {
        let tok = &self.toks[i].tok;
        let prev = self.prev.clone();
        let prev_operand = prev.as_ref().is_some_and(|p| p.ends_operand);
        let adjacent = i > 0 && self.toks[i - 1].span.end == self.toks[i].span.start;
        let item_start = self.is_item_start(i);

        // 1. close what this token ends: `target` is the frame it belongs
        // to, `at` the indentation it takes at the start of a line
        let mut at: Option<usize> = None;
        let mut target: Option<usize> = None;
        if item_start {
            self.stack.truncate(1);
            at = Some(0);
        } else {
            target = match tok {
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    self.stack.iter().rposition(|f| f.kind == Kind::Paren)
                }
                Tok::Comma => self.find_paren(),
                Tok::In => self.find_open(|f| f.kind == Kind::Let && f.phase == Phase::Rhs),
                Tok::Then => self.find_open(|f| f.kind == Kind::If && f.phase == Phase::Cond),
                Tok::Else => self.find_open(|f| f.kind == Kind::If && f.phase == Phase::Then),
                Tok::Do | Tok::For | Tok::While => {
                    self.find_open(|f| f.kind == Kind::Loop && f.phase == Phase::Head)
                }
                // `let a = 1 let b = 2 in ...`: a chain without `in`
                Tok::Let if prev_operand => {
                    self.find_open(|f| f.kind == Kind::Let && f.phase == Phase::Rhs)
                }
                _ => None,
            };
            if let Some(k) = target {
                self.stack.truncate(k + 1);
                let f = &self.stack[k];
                at = Some(match f.kind {
                    Kind::Paren if *tok == Tok::Comma => f.open_col,
                    // `let s = loop s = 0` / `  for i < n do`: deeper than
                    // the line the loop starts on
                    Kind::Loop if f.mid_line => f.anchor + INDENT,
                    _ => f.anchor,
                });
            }
        }
        let closer = is_closer(tok) && target.is_some();
        // a closing bracket belongs to what is around it (`[n]f64`)
        let in_ty = match target {
            Some(k) if closer && k > 0 => self.stack[k - 1].in_type(),
            _ => self.top().in_type(),
        };
        let slice_colon = *tok == Tok::Colon
            && self.top().kind == Kind::Paren
            && self.top().open == Tok::LBracket
            && !self.top().in_type();
        let postfix = prev.as_ref().is_some_and(|p| {
            let pt = &self.toks[p.idx].tok;
            *pt == Tok::Dot
                || *tok == Tok::Dot
                || (*tok == Tok::LBracket && operand_token(pt) && adjacent)
        });
        let atom = !postfix
            && matches!(
                tok,
                Tok::Ident(_)
                    | Tok::Int(_)
                    | Tok::Float(_)
                    | Tok::Str(_)
                    | Tok::True
                    | Tok::False
                    | Tok::LParen
                    | Tok::LBracket
                    | Tok::LBrace
                    | Tok::Backslash
            );
        // tokens after which a new expression starts in their frame
        let starts_expr = match tok {
            Tok::Comma | Tok::In | Tok::Then | Tok::Else | Tok::Do | Tok::For | Tok::While => {
                target.is_some()
            }
            Tok::Eq => matches!(
                (self.top().kind, self.top().phase),
                (Kind::Let, Phase::Pat) | (Kind::Item, Phase::Head) | (Kind::Loop, Phase::Head)
            ),
            Tok::Arrow => self.top().kind == Kind::Lambda && self.top().phase == Phase::Params,
            _ => false,
        };

        // 2. the space before it, were it on the same line as the previous token
        let space = match &prev {
            Some(p) => self.space_between(p, i, in_ty, slice_colon),
            None => false,
        };
        self.spaces[i] = space;

        // 3. write it
        let starts_line = prev.is_none() || !self.pending.is_empty() || (nl > 0 && !self.joined[i]);
        if starts_line {
            let indent = at.unwrap_or_else(|| self.continuation(atom && prev_operand));
            self.flush_comments(indent);
            self.new_line(indent, nl >= 2);
        } else if space {
            self.out.push(' ');
        }
        let col = self.col();
        let text = self.tok_text(i);
        self.out.push_str(text);

        // 4. what it changes
        let line_no = self.line_no;
        // the first token of an expression (after `=`, `in`, `->`, ...)
        let first_in_block = !closer && self.top().expr_start.is_none();
        if !closer {
            let top = self.top_mut();
            // the first element of a bracket decides its alignment
            if top.kind == Kind::Paren && !top.seen_first {
                top.seen_first = true;
                if top.open_line == line_no {
                    top.align = Some(col);
                }
            }
            if !starts_expr && top.expr_start.is_none() {
                top.expr_start = Some(col);
            }
            // applications: a head, then arguments
            if atom {
                if !(prev_operand && top.app_head.is_some()) {
                    top.app_head = Some(col);
                    top.app_first = None;
                } else if top.app_first.is_none() {
                    top.app_first = Some(col);
                    top.app_first_line = line_no;
                    top.app_first_spans = false;
                }
            } else if !postfix {
                top.app_head = None;
                top.app_first = None;
            }
        }
        // where a construct opened here is measured from: a bracket or a
        // lambda from the line it is on; a `let` or `loop` from the line,
        // but inside what contains it
        let light_anchor = if starts_line { col } else { self.line_indent };
        let block_anchor = if starts_line {
            col
        } else {
            self.line_indent.max(self.top().floor())
        };
        // a `let` that starts an expression is measured as if the line
        // broke before it (`let a = let b = ... in` / `b + 1 in`)
        let let_anchor = if !starts_line && first_in_block {
            self.top().content()
        } else {
            block_anchor
        };
        let mut glue_after = false;
        let mut ends_operand = operand_token(tok);
        match tok {
            _ if item_start => {
                let mut f = Frame::new(Kind::Item, Phase::Head, 0);
                f.open = tok.clone();
                f.open_line = line_no;
                self.stack.push(f);
            }
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::HashBracket => {
                let top = self.top_mut();
                // `def f (x: f64)`: the first parameter lines up the others
                if top.kind == Kind::Item
                    && top.phase == Phase::Head
                    && top.align.is_none()
                    && top.open_line == line_no
                    && *tok == Tok::LParen
                {
                    top.align = Some(col);
                }
                let mut f = Frame::new(Kind::Paren, Phase::Open, light_anchor);
                f.open = tok.clone();
                f.open_col = col;
                f.open_line = line_no;
                // in a type, `(...)` and `{...}` hold types, `[...]` a size
                f.ty = in_ty && matches!(tok, Tok::LParen | Tok::LBrace);
                self.stack.push(f);
                glue_after = true;
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace if closer => {
                if let Some(k) = target {
                    // `#[view] e`: the annotation is no operand
                    ends_operand = self.stack[k].open != Tok::HashBracket;
                    let (open_line, open_col) = (self.stack[k].open_line, self.stack[k].open_col);
                    self.stack.truncate(k);
                    // a first argument over several lines
                    let top = self.top_mut();
                    if open_line != line_no
                        && top.app_first == Some(open_col)
                        && top.app_first_line == open_line
                    {
                        top.app_first_spans = true;
                    }
                }
            }
            Tok::Let => {
                // a chained `let` ends the previous binding's expression
                if let Some(k) = target {
                    self.stack[k].phase = Phase::Body;
                }
                self.stack
                    .push(Frame::new(Kind::Let, Phase::Pat, let_anchor));
            }
            Tok::If => {
                // `else if` continues the chain; another `if` is measured
                // from its own column
                let anchor = match (&prev, self.top()) {
                    (Some(p), f)
                        if !starts_line
                            && self.toks[p.idx].tok == Tok::Else
                            && f.kind == Kind::If =>
                    {
                        f.anchor
                    }
                    _ => col,
                };
                self.stack.push(Frame::new(Kind::If, Phase::Cond, anchor));
            }
            Tok::Loop => {
                let mut f = Frame::new(Kind::Loop, Phase::Head, block_anchor);
                f.mid_line = !starts_line;
                self.stack.push(f);
            }
            Tok::Backslash => {
                self.stack
                    .push(Frame::new(Kind::Lambda, Phase::Params, light_anchor));
                glue_after = true;
            }
            Tok::In | Tok::Then | Tok::Else | Tok::Do => {
                if let Some(k) = target {
                    self.stack[k].phase = match tok {
                        Tok::Then => Phase::Then,
                        Tok::Else => Phase::Else,
                        _ => Phase::Body,
                    };
                }
            }
            Tok::Arrow if starts_expr => self.top_mut().phase = Phase::Body,
            Tok::Eq => {
                let top = self.top_mut();
                if !top.ty {
                    top.region = false;
                }
                match (top.kind, top.phase) {
                    (Kind::Let, Phase::Pat) => top.phase = Phase::Rhs,
                    (Kind::Item, Phase::Head) => {
                        top.phase = Phase::Body;
                        // `type t = ...`
                        top.region = top.open == Tok::Type;
                    }
                    _ => {}
                }
            }
            Tok::Comma => {
                let top = self.top_mut();
                if !top.ty {
                    top.region = false;
                }
            }
            Tok::Colon => {
                if slice_colon {
                    glue_after = true;
                } else {
                    self.top_mut().region = true;
                }
            }
            Tok::Minus => glue_after = !prev_operand,
            Tok::Bang | Tok::Question => glue_after = true,
            Tok::Star => glue_after = in_ty,
            _ => {}
        }
        if starts_expr {
            let f = match target {
                Some(k) if !matches!(tok, Tok::Let) => &mut self.stack[k],
                _ => self.top_mut(),
            };
            f.expr_start = None;
            f.app_head = None;
            f.app_first = None;
        }
        self.prev = Some(Prev {
            idx: i,
            ends_operand,
            in_ty,
            glue_after,
        });
    }

    /// The indentation of a line that no closing token decides: the first
    /// line of an expression goes at its construct's indentation; an
    /// argument continued lines up with the first argument; any other line
    /// continuing an expression lines up with the expression's start.
    fn continuation(&self, argument: bool) -> usize {
        let top = self.top();
        if top.kind == Kind::Item && top.phase == Phase::Head {
            return top.content();
        }
        let Some(start) = top.expr_start else {
            return top.content();
        };
        match top.app_head {
            Some(head) if argument => match top.app_first {
                Some(first) if !top.app_first_spans => first,
                _ => head + INDENT,
            },
            _ => start,
        }
    }

    /// The innermost bracket, if no item lies between.
    fn find_paren(&self) -> Option<usize> {
        for (k, f) in self.stack.iter().enumerate().rev() {
            match f.kind {
                Kind::Paren => return Some(k),
                Kind::Item | Kind::Root => return None,
                _ => {}
            }
        }
        None
    }

    /// Whether token `i` is written with a space after the previous one.
    fn space_between(&self, p: &Prev, i: usize, in_ty: bool, slice_colon: bool) -> bool {
        let a = &self.toks[p.idx].tok;
        let b = &self.toks[i].tok;
        let adjacent = self.toks[p.idx].span.end == self.toks[i].span.start;
        let want = if matches!(b, Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Comma) {
            false
        } else if *a == Tok::Comma {
            true
        } else if *a == Tok::Dot || *b == Tok::Dot || (*b == Tok::LBracket && operand_token(a)) {
            // `e.x`, `a[i]` against `f a [i]`: as written
            !adjacent
        } else if p.glue_after {
            false
        } else if *b == Tok::Colon {
            // `(x: f64)`, `a[i:j]`, but `(x: f64) : f64` and `def f : f64`
            !slice_colon
                && (matches!(a, Tok::RParen | Tok::RBracket)
                    || (self.top().kind == Kind::Item && self.top().phase == Phase::Head))
        } else {
            // `[n]f64`, `[n](f64, f64)`
            !(*a == Tok::RBracket
                && p.in_ty
                && in_ty
                && matches!(b, Tok::Ident(_) | Tok::LParen | Tok::LBrace))
        };
        want || !lexes_apart(self.tok_text(p.idx), self.tok_text(i))
    }
}

// ------------------------------------------------------------------ the check

/// Check that `out` holds the same tokens and comments as `input`, with the
/// same significant adjacencies, and parses.
fn verify(
    file: FileId,
    input: &str,
    toks: &[Token],
    comments: &[Comment],
    out: &str,
) -> Result<(), FormatError> {
    let (otoks, ocomments) = lex_with_comments(file, out);
    let text = |s: &str, t: &Token| s.get(t.span.range()).unwrap_or("").to_string();
    let changed = |span: Span, message: String| Err(FormatError::Changed { span, message });
    let eof = Span::new(file, input.len(), input.len());
    for k in 0..toks.len().max(otoks.len()) {
        match (toks.get(k), otoks.get(k)) {
            (Some(a), Some(b)) if a.tok == b.tok && text(input, a) == text(out, b) => {}
            (Some(a), Some(b)) => {
                return changed(
                    a.span,
                    format!("{} became {}", a.tok.describe(), b.tok.describe()),
                );
            }
            (Some(a), None) => return changed(a.span, format!("{} was lost", a.tok.describe())),
            (None, Some(b)) => return changed(eof, format!("{} was added", b.tok.describe())),
            (None, None) => {}
        }
    }
    for k in 0..comments.len().max(ocomments.len()) {
        match (comments.get(k), ocomments.get(k)) {
            (Some(a), Some(b)) if a.text.trim_end() == b.text.trim_end() => {}
            (Some(a), _) => return changed(a.span, "a comment changed".to_string()),
            (None, _) => return changed(eof, "a comment was added".to_string()),
        }
    }
    for k in 1..toks.len() {
        let (a, b) = (&toks[k - 1], &toks[k]);
        let significant = a.tok == Tok::Dot
            || b.tok == Tok::Dot
            || (b.tok == Tok::LBracket && operand_token(&a.tok));
        if !significant {
            continue;
        }
        let was = a.span.end == b.span.start;
        let is = otoks[k - 1].span.end == otoks[k].span.start;
        if was != is {
            return changed(
                b.span,
                format!(
                    "the white space between `{}` and `{}` changed",
                    text(input, a),
                    text(input, b)
                ),
            );
        }
    }
    let (_, errors) = parse_file(file, out);
    if let Some(e) = errors.first() {
        return changed(eof, format!("the result does not parse: {}", e.message));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(s: &str) -> String {
        match format_source(FileId(0), s) {
            Ok(o) => o,
            Err(FormatError::Syntax(e)) => panic!("syntax error: {e:?}"),
            Err(FormatError::Changed { message, .. }) => panic!("changed: {message}"),
        }
    }

    #[test]
    fn spacing() {
        assert_eq!(
            fmt("def f(x:f64):f64=x+1.0*-x"),
            "def f (x: f64) : f64 = x + 1.0 * -x\n"
        );
        assert_eq!(
            fmt("def g [n] (a:[n]f64) (i:i64) : f64 = a[i]+ f a [i]"),
            "def g [n] (a: [n]f64) (i: i64) : f64 = a[i] + f a [i]\n"
        );
        assert_eq!(
            fmt("def h (x: i64) : i64 = - -x"),
            "def h (x: i64) : i64 = - -x\n"
        );
        assert_eq!(
            fmt("def h (x: i64) : i64 = f -1"),
            "def h (x: i64) : i64 = f - 1\n"
        );
        assert_eq!(
            fmt("def s [n] (a: [n]f64) : []f64 = a[ 1 : n-1 ]"),
            "def s [n] (a: [n]f64) : []f64 = a[1:n - 1]\n"
        );
        assert_eq!(
            fmt("def u (a: * [3]f64) : *[3]f64 = a with [ 0 ] = 1.0"),
            "def u (a: *[3]f64) : *[3]f64 = a with [0] = 1.0\n"
        );
    }

    /// The layout alone, without the parser's check: syntax that other
    /// changes are adding gets sensible spacing before the parser knows it.
    fn layout_only(s: &str) -> String {
        let (toks, comments) = lex_with_comments(FileId(0), s);
        layout(s, &toks, &comments)
    }

    #[test]
    fn unknown_syntax_gets_default_spacing() {
        // local function definitions
        assert_eq!(
            layout_only("def f (y: f64) : f64 =\n let g(x:f64):f64=x*2.0 in\n   g y"),
            "def f (y: f64) : f64 =\n  let g (x: f64) : f64 = x * 2.0 in\n  g y\n"
        );
        // operator sections with an operand
        assert_eq!(
            layout_only("def f (a: []f64) : []f64 = map (2.0*) (map ( *2.0) a)"),
            "def f (a: []f64) : []f64 = map (2.0 *) (map (* 2.0) a)\n"
        );
        // a character no token starts with yet (a new operator): spaced as
        // a binary operator
        assert_eq!(
            layout_only("def f (a: i64) : i64 = a&1"),
            "def f (a: i64) : i64 = a & 1\n"
        );
        // imports and modules
        assert_eq!(
            layout_only("module m = import \"lib/m\"\nimport   \"x\""),
            "module m = import \"lib/m\"\nimport \"x\"\n"
        );
    }

    #[test]
    fn crlf_and_tabs() {
        assert_eq!(
            fmt("def a (x: f64) : f64 =\r\n\tx +\r\n\t\t1.0 -- note\r\n"),
            "def a (x: f64) : f64 =\n  x +\n  1.0 -- note\n"
        );
    }

    #[test]
    fn empty_and_comment_only_files() {
        assert_eq!(fmt(""), "");
        assert_eq!(fmt("\n\n"), "");
        assert_eq!(fmt("\n  -- only\n\n"), "-- only\n");
        assert_eq!(
            fmt("def f (x: f64) : f64 = x -- no newline"),
            "def f (x: f64) : f64 = x -- no newline\n"
        );
    }

    /// The check of the output refuses what would change the program.
    #[test]
    fn the_check_catches_changes() {
        let input = "def f [n] (a: [n]f64) : f64 = a[0] -- first\n";
        let (toks, comments) = lex_with_comments(FileId(0), input);
        let check = |out: &str| verify(FileId(0), input, &toks, &comments, out);
        assert!(check(input).is_ok());
        assert!(check("def f [n] (a: [n]f64) : f64 =\n  a[0] -- first\n").is_ok());
        for bad in [
            // indexing became an argument
            "def f [n] (a: [n]f64) : f64 = a [0] -- first\n",
            // a token changed, or went
            "def f [n] (a: [n]f64) : f64 = b[0] -- first\n",
            "def f [n] (a: [n]f64) : f64 = a[0 -- first\n",
            // the comment changed, or went
            "def f [n] (a: [n]f64) : f64 = a[0] -- frist\n",
            "def f [n] (a: [n]f64) : f64 = a[0]\n",
            // a comment swallowed code
            "def f [n] (a: [n]f64) : f64 = -- first a[0]\n",
        ] {
            assert!(
                matches!(check(bad), Err(FormatError::Changed { .. })),
                "{bad}"
            );
        }
    }

    /// The layout never panics, whatever the tokens (unbalanced brackets,
    /// `in` without `let`, ...: what syntax the parser does not know yet
    /// looks like to it), and is stable on its own output.
    #[test]
    fn any_token_soup_is_laid_out() {
        let vocab = [
            "def", "entry", "type", "import", "module", "let", "in", "if", "then", "else", "loop",
            "for", "while", "do", "with", "x", "f64", "1", "2.5", "\"p\"", "(", ")", "[", "]", "{",
            "}", ",", ":", ".", "?", "\\", "->", "=", "==", "<", "-", "+", "*", "!", "|>", "#[",
            "&", "-- c", "\n", "\n\n", " ",
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..40 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let w = vocab[(seed >> 33) as usize % vocab.len()];
                text.push_str(w);
                text.push(if w == "-- c" { '\n' } else { ' ' });
            }
            let once = layout_only(&text);
            let tokens =
                |s: &str| -> Vec<Tok> { lex(FileId(0), s).into_iter().map(|t| t.tok).collect() };
            assert_eq!(tokens(&once), tokens(&text), "{text:?}");
            assert_eq!(layout_only(&once), once, "{text:?}");
        }
    }

    #[test]
    fn never_fuses_tokens() {
        assert!(!lexes_apart("-", "-x"));
        assert!(!lexes_apart("1", "f32"));
        assert!(lexes_apart("(", "-"));
    }

    #[test]
    fn syntax_errors_are_reported() {
        assert!(matches!(
            format_source(FileId(0), "def f (x: f64) : f64 = (x"),
            Err(FormatError::Syntax(_))
        ));
    }
}
