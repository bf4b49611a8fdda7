//! An S-expression parser that writes its result straight into destinations
//! in a region (the paper's `parseSExprDPS`), next to the usual parser that
//! builds `Vec<SExpr>` bottom-up.
//!
//! Syntax: lists `( ... )`, integers (`-12`), strings (`"a\"b\n"`, escapes
//! `\n` and `\<char>`), symbols (any other run of characters up to a space, a
//! parenthesis or a quote).

use crate::{Dest, List, ListFill, Region};

/// A parsed S-expression, in a region.
#[derive(crate::Fill, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum SExpr<'r> {
    /// `( ... )`
    List(List<'r, SExpr<'r>>),
    /// An integer that fits `i64`.
    Int(i64),
    /// A string literal, escapes resolved.
    Str(&'r str),
    /// Any other token.
    Sym(&'r str),
}

/// Why a document is not an S-expression. Positions are byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The input ended inside a list or a string, or was empty.
    UnexpectedEof {
        /// Where the input ended.
        pos: usize,
    },
    /// A `)` with no list to close.
    UnexpectedClose {
        /// Its offset.
        pos: usize,
    },
    /// More than one expression at top level.
    TrailingInput {
        /// Where the extra input starts.
        pos: usize,
    },
    /// Lists nested deeper than [`MAX_DEPTH`].
    TooDeep {
        /// Where the limit was reached.
        pos: usize,
    },
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::UnexpectedEof { pos } => write!(f, "unexpected end of input at byte {pos}"),
            ParseError::UnexpectedClose { pos } => write!(f, "unexpected `)` at byte {pos}"),
            ParseError::TrailingInput { pos } => write!(f, "trailing input at byte {pos}"),
            ParseError::TooDeep { pos } => {
                write!(f, "lists nested deeper than {MAX_DEPTH} at byte {pos}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Nesting limit of both parsers (they recurse once per level).
pub const MAX_DEPTH: usize = 1000;

fn skip_ws(bs: &[u8], mut i: usize) -> usize {
    while i < bs.len() && bs[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn token_end(bs: &[u8], mut i: usize) -> usize {
    while i < bs.len() && !bs[i].is_ascii_whitespace() && !matches!(bs[i], b'(' | b')' | b'"') {
        i += 1;
    }
    i
}

fn parse_int(tok: &str) -> Option<i64> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    tok.parse().ok()
}

/// The string literal starting after the opening quote at `i`: its contents
/// (escapes resolved, in `buf` if there were any) and the offset after the
/// closing quote.
fn scan_string<'s>(
    src: &'s str,
    i: usize,
    buf: &'s mut String,
) -> Result<(&'s str, usize), ParseError> {
    let bs = src.as_bytes();
    let mut j = i;
    while j < bs.len() && bs[j] != b'"' && bs[j] != b'\\' {
        j += 1;
    }
    if j < bs.len() && bs[j] == b'"' {
        return Ok((&src[i..j], j + 1));
    }
    buf.clear();
    buf.push_str(&src[i..j]);
    let mut chars = src[j..].char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return Ok((buf.as_str(), j + k + 1)),
            '\\' => match chars.next() {
                Some((_, 'n')) => buf.push('\n'),
                Some((_, e)) => buf.push(e),
                None => break,
            },
            c => buf.push(c),
        }
    }
    Err(ParseError::UnexpectedEof { pos: src.len() })
}

/// Parses one S-expression (surrounded by optional whitespace) into `region`,
/// writing every node in its final place through destinations.
pub fn parse<'r>(region: &'r Region, src: &str) -> Result<&'r SExpr<'r>, ParseError> {
    let mut p = Dps {
        region,
        src,
        buf: String::new(),
    };
    // On error the structure keeps open holes and is simply dropped: its
    // cells are region memory, freed with the region. (The paper's Haskell
    // version must fill every hole with a default value instead.)
    let (built, d) = region.alloc::<SExpr<'r>>();
    let end = skip_ws(src.as_bytes(), p.sexpr(0, d, 0)?);
    if end < src.len() {
        return Err(ParseError::TrailingInput { pos: end });
    }
    Ok(built.complete())
}

struct Dps<'r, 's> {
    region: &'r Region,
    src: &'s str,
    buf: String,
}

impl<'r> Dps<'r, '_> {
    fn sexpr(
        &mut self,
        i: usize,
        d: Dest<'r, SExpr<'r>>,
        depth: usize,
    ) -> Result<usize, ParseError> {
        let bs = self.src.as_bytes();
        let i = skip_ws(bs, i);
        match bs.get(i) {
            None => Err(ParseError::UnexpectedEof { pos: i }),
            Some(b')') => Err(ParseError::UnexpectedClose { pos: i }),
            Some(b'(') if depth >= MAX_DEPTH => Err(ParseError::TooDeep { pos: i }),
            Some(b'(') => self.list(i + 1, d.fill_list(), depth + 1),
            Some(b'"') => {
                let (s, end) = scan_string(self.src, i + 1, &mut self.buf)?;
                d.fill_str().fill_leaf(self.region.alloc_str(s));
                Ok(end)
            }
            Some(_) => {
                let end = token_end(bs, i);
                let tok = &self.src[i..end];
                match parse_int(tok) {
                    Some(v) => d.fill_int().fill_leaf(v),
                    None => d.fill_sym().fill_leaf(self.region.alloc_str(tok)),
                }
                Ok(end)
            }
        }
    }

    /// The elements of a list up to its `)`: each new cons cell is written
    /// into the previous cell's tail hole, so no accumulator and no reversal.
    fn list(
        &mut self,
        mut i: usize,
        mut d: Dest<'r, List<'r, SExpr<'r>>>,
        depth: usize,
    ) -> Result<usize, ParseError> {
        let bs = self.src.as_bytes();
        loop {
            i = skip_ws(bs, i);
            match bs.get(i) {
                None => return Err(ParseError::UnexpectedEof { pos: i }),
                Some(b')') => {
                    d.fill_nil();
                    return Ok(i + 1);
                }
                Some(_) => {
                    let (dh, dt) = d.fill_cons();
                    i = self.sexpr(i, dh, depth)?;
                    d = dt;
                }
            }
        }
    }
}

/// Baseline in the same region and with the same result type as [`parse`],
/// but bottom-up: each list's elements are collected in a scratch `Vec`
/// (shared by all levels) and linked from the back when the list closes. It
/// separates what the arena buys (no per-node `malloc`) from what the
/// destinations buy (no scratch, no second pass over each list).
pub fn parse_region_bottom_up<'r>(
    region: &'r Region,
    src: &str,
) -> Result<&'r SExpr<'r>, ParseError> {
    let mut p = BottomUp {
        region,
        src,
        buf: String::new(),
        scratch: Vec::new(),
    };
    let (e, end) = p.sexpr(0, 0)?;
    let end = skip_ws(src.as_bytes(), end);
    if end < src.len() {
        return Err(ParseError::TrailingInput { pos: end });
    }
    Ok(region.alloc_value(e))
}

struct BottomUp<'r, 's> {
    region: &'r Region,
    src: &'s str,
    buf: String,
    scratch: Vec<SExpr<'r>>,
}

impl<'r> BottomUp<'r, '_> {
    fn sexpr(&mut self, i: usize, depth: usize) -> Result<(SExpr<'r>, usize), ParseError> {
        let bs = self.src.as_bytes();
        let i = skip_ws(bs, i);
        match bs.get(i) {
            None => Err(ParseError::UnexpectedEof { pos: i }),
            Some(b')') => Err(ParseError::UnexpectedClose { pos: i }),
            Some(b'(') if depth >= MAX_DEPTH => Err(ParseError::TooDeep { pos: i }),
            Some(b'(') => {
                let start = self.scratch.len();
                let mut j = i + 1;
                loop {
                    j = skip_ws(bs, j);
                    match bs.get(j) {
                        None => return Err(ParseError::UnexpectedEof { pos: j }),
                        Some(b')') => {
                            let region = self.region;
                            let mut list: List<'r, SExpr<'r>> = None;
                            for e in self.scratch.drain(start..).rev() {
                                list = Some(region.alloc_value(crate::Cons {
                                    head: e,
                                    tail: list,
                                }));
                            }
                            return Ok((SExpr::List(list), j + 1));
                        }
                        Some(_) => {
                            let (e, end) = self.sexpr(j, depth + 1)?;
                            self.scratch.push(e);
                            j = end;
                        }
                    }
                }
            }
            Some(b'"') => {
                let (s, end) = scan_string(self.src, i + 1, &mut self.buf)?;
                Ok((SExpr::Str(self.region.alloc_str(s)), end))
            }
            Some(_) => {
                let end = token_end(bs, i);
                let tok = &self.src[i..end];
                let e = match parse_int(tok) {
                    Some(v) => SExpr::Int(v),
                    None => SExpr::Sym(self.region.alloc_str(tok)),
                };
                Ok((e, end))
            }
        }
    }
}

/// The S-expression of the usual Rust parser: owned, `Vec` for lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SExprOwned {
    /// `( ... )`
    List(Vec<SExprOwned>),
    /// An integer.
    Int(i64),
    /// A string literal.
    Str(String),
    /// A symbol.
    Sym(String),
}

/// Baseline: the same grammar parsed bottom-up, each list collected in a
/// `Vec` and each string in a `String` (global allocator).
pub fn parse_owned(src: &str) -> Result<SExprOwned, ParseError> {
    let mut buf = String::new();
    let (e, end) = owned_sexpr(src, 0, &mut buf, 0)?;
    let end = skip_ws(src.as_bytes(), end);
    if end < src.len() {
        return Err(ParseError::TrailingInput { pos: end });
    }
    Ok(e)
}

fn owned_sexpr(
    src: &str,
    i: usize,
    buf: &mut String,
    depth: usize,
) -> Result<(SExprOwned, usize), ParseError> {
    let bs = src.as_bytes();
    let i = skip_ws(bs, i);
    match bs.get(i) {
        None => Err(ParseError::UnexpectedEof { pos: i }),
        Some(b')') => Err(ParseError::UnexpectedClose { pos: i }),
        Some(b'(') if depth >= MAX_DEPTH => Err(ParseError::TooDeep { pos: i }),
        Some(b'(') => {
            let mut items = Vec::new();
            let mut j = i + 1;
            loop {
                j = skip_ws(bs, j);
                match bs.get(j) {
                    None => return Err(ParseError::UnexpectedEof { pos: j }),
                    Some(b')') => return Ok((SExprOwned::List(items), j + 1)),
                    Some(_) => {
                        let (e, end) = owned_sexpr(src, j, buf, depth + 1)?;
                        items.push(e);
                        j = end;
                    }
                }
            }
        }
        Some(b'"') => {
            let (s, end) = scan_string(src, i + 1, buf)?;
            Ok((SExprOwned::Str(s.to_string()), end))
        }
        Some(_) => {
            let end = token_end(bs, i);
            let tok = &src[i..end];
            let e = match parse_int(tok) {
                Some(v) => SExprOwned::Int(v),
                None => SExprOwned::Sym(tok.to_string()),
            };
            Ok((e, end))
        }
    }
}

/// Converts a region S-expression to the owned form (for comparisons).
pub fn to_owned(e: &SExpr<'_>) -> SExprOwned {
    match *e {
        SExpr::List(l) => SExprOwned::List(crate::types::iter(&l).map(to_owned).collect()),
        SExpr::Int(v) => SExprOwned::Int(v),
        SExpr::Str(s) => SExprOwned::Str(s.to_string()),
        SExpr::Sym(s) => SExprOwned::Sym(s.to_string()),
    }
}

/// Number of atoms (non-list nodes) of a region S-expression.
pub fn count_atoms(e: &SExpr<'_>) -> usize {
    match e {
        SExpr::List(l) => crate::types::iter(l).map(count_atoms).sum(),
        _ => 1,
    }
}

/// Number of atoms of an owned S-expression.
pub fn count_atoms_owned(e: &SExprOwned) -> usize {
    match e {
        SExprOwned::List(l) => l.iter().map(count_atoms_owned).sum(),
        _ => 1,
    }
}
