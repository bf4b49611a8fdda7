//! The text form of the shape language ([`Dim`]'s `Display`, and
//! [`crate::shape_to_string`]) read back: `dim a 0`, `(x + 1)`, `max(a, b)`,
//! `a[i, j]`, `most((l) = (n); for i < t do ((l + 1)))#0`. Used by the DPS
//! IR's parser for destination shapes; print → parse → print is stable.

use crate::dim::{Dim, SliceDim};
use weir_ir::parse::{Cursor, R};
use weir_syntax::lexer::Tok;

/// A shape, `[d, ...]`.
pub fn shape(c: &mut Cursor) -> R<Vec<Dim>> {
    c.expect(&Tok::LBracket)?;
    let v = dims_until(c, &Tok::RBracket)?;
    Ok(v)
}

fn dims_until(c: &mut Cursor, close: &Tok) -> R<Vec<Dim>> {
    let mut v = Vec::new();
    if c.peek() != close {
        v.push(dim(c)?);
        while c.peek() == &Tok::Comma {
            c.bump();
            v.push(dim(c)?);
        }
    }
    c.expect(close)?;
    Ok(v)
}

/// One size expression.
pub fn dim(c: &mut Cursor) -> R<Dim> {
    c.deeper()?;
    let r = dim_inner(c);
    c.shallower();
    r
}

fn int(c: &mut Cursor) -> R<i64> {
    let neg = if c.peek() == &Tok::Minus {
        c.bump();
        true
    } else {
        false
    };
    match c.peek().clone() {
        Tok::Int(t) => {
            let v = weir_syntax::parser::parse_int(&t).map(|(v, _)| if neg { -v } else { v });
            match v.and_then(|v| i64::try_from(v).ok()) {
                Some(v) => {
                    c.bump();
                    Ok(v)
                }
                None => c.err("integer out of range"),
            }
        }
        _ => c.err("expected an integer"),
    }
}

fn error_tok(c: &mut Cursor, text: &str) -> R<()> {
    match c.peek() {
        Tok::Error(s) if s == text => {
            c.bump();
            Ok(())
        }
        _ => c.err(format!("expected `{text}`")),
    }
}

fn dim_inner(c: &mut Cursor) -> R<Dim> {
    let b = Box::new;
    match c.peek().clone() {
        Tok::Int(_) | Tok::Minus => Ok(Dim::Const(int(c)?)),
        Tok::LParen => {
            c.bump();
            let x = dim(c)?;
            let op = c.bump();
            let y = dim(c)?;
            c.expect(&Tok::RParen)?;
            Ok(match op {
                Tok::Plus => Dim::Add(b(x), b(y)),
                Tok::Minus => Dim::Sub(b(x), b(y)),
                Tok::Star => Dim::Mul(b(x), b(y)),
                Tok::Slash => Dim::Div(b(x), b(y)),
                Tok::Percent => Dim::Rem(b(x), b(y)),
                _ => return c.err("expected `+`, `-`, `*`, `/` or `%`"),
            })
        }
        Tok::Ident(s) if (s == "max" || s == "min") && c.peek_at(1) == &Tok::LParen => {
            c.bump();
            c.bump();
            let x = dim(c)?;
            c.expect(&Tok::Comma)?;
            let y = dim(c)?;
            c.expect(&Tok::RParen)?;
            Ok(if s == "max" {
                Dim::Max(b(x), b(y))
            } else {
                Dim::Min(b(x), b(y))
            })
        }
        Tok::Ident(s) if s == "dim" && matches!(c.peek_at(1), Tok::Ident(_)) => {
            c.bump();
            let a = c.ident()?;
            let k = int(c)?;
            match usize::try_from(k) {
                Ok(k) => Ok(Dim::DimOf(a, k)),
                Err(_) => c.err("expected a dimension number"),
            }
        }
        Tok::Ident(s) if (s == "most" || s == "last") && c.peek_at(1) == &Tok::LParen => {
            c.bump();
            c.bump();
            c.expect(&Tok::LParen)?;
            let mut lens = Vec::new();
            if c.peek() != &Tok::RParen {
                lens.push(c.ident()?);
                while c.peek() == &Tok::Comma {
                    c.bump();
                    lens.push(c.ident()?);
                }
            }
            c.expect(&Tok::RParen)?;
            c.expect(&Tok::Eq)?;
            c.expect(&Tok::LParen)?;
            let init = dims_until(c, &Tok::RParen)?;
            error_tok(c, ";")?;
            c.expect(&Tok::For)?;
            let index = c.ident()?;
            c.expect(&Tok::Lt)?;
            let trips = dim(c)?;
            c.expect(&Tok::Do)?;
            c.expect(&Tok::LParen)?;
            let step = dims_until(c, &Tok::RParen)?;
            c.expect(&Tok::RParen)?;
            error_tok(c, "#")?;
            let which = match usize::try_from(int(c)?) {
                Ok(w) => w,
                Err(_) => return c.err("expected a leaf number"),
            };
            Ok(Dim::Slice(Box::new(SliceDim {
                lens,
                index,
                init,
                step,
                trips,
                which,
                most: s == "most",
            })))
        }
        Tok::Ident(_) => {
            let a = c.ident()?;
            if c.peek() == &Tok::LBracket {
                c.bump();
                let idx = dims_until(c, &Tok::RBracket)?;
                return Ok(Dim::Elem(a, idx));
            }
            Ok(Dim::Var(a))
        }
        _ => c.err("expected a size"),
    }
}

/// Parse one size expression (all of `text`).
pub fn parse_dim(text: &str) -> R<Dim> {
    let mut c = Cursor::new(text);
    let d = dim(&mut c)?;
    if c.peek() != &Tok::Eof {
        return c.err("expected the end of the size");
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_as_printed() {
        for t in [
            "3",
            "-3",
            "n_1",
            "dim a_2 1",
            "((n + 1) * (m - 2))",
            "((a / 2) % b)",
            "max(n, min(m, 0))",
            "a[0, (i + 1)]",
            "most((l1, l2) = (n, 0); for i < (t - 1) do ((l1 + 1), max(l2, i)))#1",
            "last(() = (); for i < 0 do ())#0",
        ] {
            let d = parse_dim(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(d.to_string(), t);
        }
    }

    #[test]
    fn malformed_sizes_are_errors() {
        for t in [
            "",
            "(n + )",
            "max(n)",
            "dim a",
            "most((l) = (n); for i < t do (l))",
            "a[",
            "(n ^ m)",
        ] {
            assert!(parse_dim(t).is_err(), "{t}");
        }
    }
}
