//! The checker's resource limits (issue 46): whatever the program, the
//! types it builds stay small enough for every later stage. (The parser
//! bounds the rest: nesting, `parser::MAX_DEPTH`, and the elements of an array
//! literal, `parser::MAX_LITERAL`.)
//!
//! * A type may nest at most [`MAX_DEPTH`] levels (the parser's limit: later
//!   stages recurse on types), hold at most [`MAX_TYPE_SIZE`] parts, and an
//!   array at most [`MAX_RANK`] dimensions. The syntax bounds a type written
//!   out, but abbreviations, definitions and `let`s can build larger ones
//!   (`type t2 = (t1, t1)`, `def r2 x = replicate 1 (r1 x)`), so the limits
//!   hold where a type is made: every abbreviation's expansion, every
//!   annotation, every expression's type (E0004, E0026, E0027).
//!
//! Abbreviations resolve in near-linear time: each is expanded once, in an
//! order where what it names comes first ([`abbreviation_order`]), and
//! memoized; a use expands nothing more.

use super::{Checker, R};
use std::collections::{HashMap, HashSet};
use weir_ir::Type;
use weir_syntax::ast::{self, TypeExp};
use weir_syntax::parser::MAX_DEPTH;
use weir_syntax::{Diagnostic, Span};

/// The most dimensions an array may have.
pub const MAX_RANK: usize = 32;
/// The most parts (scalars, arrays, tuples, record fields) a type may have.
pub const MAX_TYPE_SIZE: usize = 100_000;

/// What is wrong with a type that passes a limit.
pub(super) enum Over {
    Depth,
    Rank(usize),
    Size,
}

/// Check `t` against the limits, without recursion (it may be deep) and
/// stopping as soon as one is passed (it may be huge).
pub(super) fn over(t: &Type) -> Option<Over> {
    let mut stack: Vec<(&Type, usize, usize)> = vec![(t, 1, 0)];
    let mut parts = 0usize;
    while let Some((t, depth, rank)) = stack.pop() {
        parts += 1;
        if parts > MAX_TYPE_SIZE {
            return Some(Over::Size);
        }
        if depth > MAX_DEPTH {
            return Some(Over::Depth);
        }
        match t {
            Type::Array(_, e) => {
                if rank + 1 > MAX_RANK {
                    // the full rank, for the message (arrays of arrays only)
                    let mut r = rank + 1;
                    let mut e: &Type = e;
                    while let Type::Array(_, x) = e {
                        r += 1;
                        e = x;
                    }
                    return Some(Over::Rank(r));
                }
                stack.push((e, depth + 1, rank + 1));
            }
            Type::Tuple(ts) => stack.extend(ts.iter().map(|x| (x, depth + 1, rank))),
            Type::Record(fs) => stack.extend(fs.iter().map(|(_, x)| (x, depth + 1, rank))),
            Type::Fun(ps, r) => {
                stack.extend(ps.iter().map(|x| (x, depth + 1, 0)));
                stack.push((r, depth + 1, 0));
            }
            Type::Prim(_) | Type::Infer(_) => {}
        }
    }
    None
}

/// The type abbreviations in an order where each comes after those it
/// names, and the set of those that name themselves, directly or through
/// others (E0108) or through one that does. Iterative (a chain of
/// abbreviations may be as long as the file).
pub(super) fn abbreviation_order(
    types: &HashMap<String, ast::TypeDef>,
) -> (Vec<String>, HashSet<String>) {
    fn named<'a>(t: &'a TypeExp, out: &mut Vec<&'a [ast::Ident]>) {
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            match t {
                TypeExp::Named(path, _) => out.push(path),
                TypeExp::Array(_, e, _) | TypeExp::Unique(e, _) => stack.push(e),
                TypeExp::Tuple(ts, _) => stack.extend(ts),
                TypeExp::Record(fs, _) => stack.extend(fs.iter().map(|(_, t)| t)),
                TypeExp::Fun(ps, r, _) => {
                    stack.extend(ps);
                    stack.push(r);
                }
                TypeExp::Prim(..) => {}
            }
        }
    }
    let refs = |name: &str| -> Vec<String> {
        let mut paths = Vec::new();
        if let Some(d) = types.get(name) {
            named(&d.ty, &mut paths);
        }
        paths
            .iter()
            .map(|p| {
                p.iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .filter(|n| types.contains_key(n))
            .collect()
    };
    // 0: not seen, 1: being visited (on the stack), 2: done
    let mut state: HashMap<&str, u8> = HashMap::new();
    let mut order = Vec::new();
    let mut bad: HashSet<String> = HashSet::new();
    let mut names: Vec<&String> = types.keys().collect();
    names.sort();
    for root in names {
        if state.contains_key(root.as_str()) {
            continue;
        }
        // (name, the names it refers to, the next of them to visit)
        let mut stack: Vec<(&str, Vec<String>, usize)> = vec![(root, refs(root), 0)];
        state.insert(root, 1);
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let next = top.1[top.2].clone();
                top.2 += 1;
                let Some((key, _)) = types.get_key_value(&next) else {
                    continue;
                };
                match state.get(key.as_str()) {
                    None => {
                        state.insert(key, 1);
                        let r = refs(key);
                        stack.push((key, r, 0));
                    }
                    Some(1) => {
                        // a cycle: every abbreviation on the stack from `key` up
                        let from = stack.iter().position(|(n, ..)| *n == key).unwrap_or(0);
                        for (n, ..) in &stack[from..] {
                            bad.insert(n.to_string());
                        }
                    }
                    _ => {
                        if bad.contains(key.as_str())
                            && let Some(top) = stack.last()
                        {
                            bad.insert(top.0.to_string());
                        }
                    }
                }
            } else {
                let (n, ..) = stack.pop().unwrap_or_default();
                state.insert(n, 2);
                if bad.contains(n)
                    && let Some(parent) = stack.last()
                {
                    bad.insert(parent.0.to_string());
                }
                order.push(n.to_string());
            }
        }
    }
    (order, bad)
}

impl Checker<'_> {
    /// Fail with the diagnostic of a type at `span` that passes a limit
    /// (`what`: what the type is of, for the message).
    pub(super) fn within_limits(&mut self, t: &Type, span: Span, what: &str) -> R<()> {
        let Some(o) = over(t) else { return Ok(()) };
        let d = match o {
            Over::Depth => Diagnostic::new("E0004", span, format!("type nested too deeply: {what}"))
                .with_label(format!("its type nests more than {MAX_DEPTH} levels deep"))
                .with_help("types nest at most 400 levels deep, however they are built (abbreviations, tuples of tuples); flatten the data into several values"),
            Over::Rank(r) => Diagnostic::new("E0026", span, format!("too many dimensions: {what} is an array of {r} dimensions"))
                .with_label(format!("an array of more than {MAX_RANK} dimensions"))
                .with_help(format!("an array has at most {MAX_RANK} dimensions; flatten some of them (`flatten`, or index arithmetic on fewer dimensions)")),
            Over::Size => Diagnostic::new("E0027", span, format!("type too large: {what}"))
                .with_label(format!("its type has more than {MAX_TYPE_SIZE} parts"))
                .with_help("a type (with the abbreviations, tuples and records it is built from) has at most 100000 parts; use arrays instead of tuples of tuples"),
        };
        self.fail(d)
    }
}
