//! `a with [..] = v`: in-place updates of an element, a row, a slice or a
//! block of any rank.
//!
//! The shapes the IR has builtins for stay one builtin: an element or row
//! (`a with [i] = v`, up to three indices: `update`, `update2`, `update3`)
//! and a slice without a step after at most one index (`a with [s:e] = b`,
//! `a with [i][s:e] = b`: `update_slice`, `update_slice2`). Any other mix of
//! indices and slices (`b with [1:n-1, 1:n-1] = v`, `b with [i][0][1:n-1] =
//! v`, `a with [0:n:2] = v`) is a loop nest over the slices' positions,
//! updating the loop state in place: after every entry is checked against
//! its dimension (in order, the messages of indexing) and every dimension of
//! `v` against the place's (message "`with` writes ..."), each slice is a
//! counted loop, the value indexed one level per loop (so a `map` given as
//! `v` fuses into the element it computes, with no row of it made), and
//! the innermost statement an element update. Trailing `:` entries write
//! whole dimensions, so `a with [i, :] = v` is `a with [i] = v`.

use super::{Checker, Failed, R};
use weir_ir::*;
use weir_syntax::ast::{Expr, IndexEntry};
use weir_syntax::{Diagnostic, Span};

/// An entry of a general update, elaborated: an index, or a slice's start,
/// number of positions and step.
enum Part {
    Index(Atom),
    Slice {
        s: Atom,
        count: Atom,
        k: Option<Atom>,
    },
}

impl Checker<'_> {
    /// `a with [i][j] = v`, `a with [s:e] = b`, `a with [1:n-1, 1:n-1] = b`:
    /// one update builtin, or a loop nest of them (the uniqueness checker
    /// then makes sure `a` is not used again, so compiled code writes in
    /// place).
    #[inline(never)]
    pub(super) fn update(
        &mut self,
        a: &Expr,
        entries: &[IndexEntry],
        ispan: Span,
        v: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let (arr, ty) = self.expr(a, None)?;
        self.no_fun(&ty, a.span)?;
        let mut entries = entries;
        while let [rest @ .., IndexEntry::Slice(None, None, None, _)] = entries
            && !rest.is_empty()
        {
            entries = rest;
        }
        if entries.len() > 3 {
            return self.fail(
                Diagnostic::new("E0419", ispan, "this update's indices are not supported")
                    .with_label("indices of `with`")
                    .with_help("an update takes at most three indices and slices (`a with [i, j, k] = v`, `a with [1:n-1, 1:n-1] = b`, `a with [i][0][s:e] = b`), leaving out trailing `:`; for a deeper place update a row: `a with [i] = (copy a[i] with [j, k, l] = v)`"),
            );
        }
        let nidx = entries
            .iter()
            .take_while(|e| matches!(e, IndexEntry::Index(_)))
            .count();
        match &entries[nidx..] {
            [] => self.update_element(arr, ty, entries, a, v, span),
            [IndexEntry::Slice(s, e, None, sspan)] if nidx <= 1 => {
                self.update_slice(arr, ty, &entries[..nidx], (s, e, *sspan), a, v, span)
            }
            _ => self.update_nest(arr, ty, entries, a, v, span),
        }
    }

    /// The indices of `entries` (all indices), elaborated, and the type of
    /// the place they name.
    fn update_indices(
        &mut self,
        ty: &Type,
        entries: &[IndexEntry],
        a: &Expr,
    ) -> R<(Vec<Atom>, Type)> {
        let mut idx = Vec::new();
        let mut at = ty.clone();
        for e in entries {
            let IndexEntry::Index(i) = e else {
                return Err(Failed);
            };
            let (_, el) = self.expect_array(&at, a.span, "an update")?;
            idx.push(self.index_exp(i)?);
            at = el;
        }
        Ok((idx, at))
    }

    /// `a with [i] = v`, `a with [i][j] = v`, `a with [i][j][k] = v`.
    fn update_element(
        &mut self,
        arr: Atom,
        ty: Type,
        entries: &[IndexEntry],
        a: &Expr,
        v: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let (idx, at) = self.update_indices(&ty, entries, a)?;
        let (va, vt) = self.expr(v, Some(&at))?;
        self.no_fun(&vt, v.span)?;
        self.unify_at(&vt, &at, v.span, "in the value written by `with`")?;
        let p = Prim::element_update(arr, &idx, va).ok_or(Failed)?;
        Ok((self.emit("t", ty.clone(), Exp::Prim(p), span), ty))
    }

    /// `a with [s:e] = b`, `a with [i][s:e] = b`.
    #[allow(clippy::too_many_arguments)]
    fn update_slice(
        &mut self,
        arr: Atom,
        ty: Type,
        entries: &[IndexEntry],
        (s, e, sspan): (&Option<Box<Expr>>, &Option<Box<Expr>>, Span),
        a: &Expr,
        v: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let (mut idx, at) = self.update_indices(&ty, entries, a)?;
        let (_, el) = self.expect_array(&at, a.span, "an update")?;
        let end = match idx.first() {
            None => Exp::Prim(Prim::Length { a: arr.clone() }),
            Some(_) => Exp::Dim(arr.clone(), 1),
        };
        let (sa, ea) = self.slice_bounds(s, e, sspan, end, span)?;
        let want = Type::array(Size::Unknown, el.clone());
        let (va, vt) = self.expr(v, Some(&want))?;
        self.no_fun(&vt, v.span)?;
        let (_, vel) = self.expect_array(&vt, v.span, "the value written into a slice")?;
        self.unify_at(&vel, &el, v.span, "in the rows written by `with`")?;
        let p = match idx.pop() {
            None => Prim::UpdateSlice {
                a: arr,
                s: sa,
                e: ea,
                v: va,
            },
            Some(i) => Prim::UpdateSlice2 {
                a: arr,
                i,
                s: sa,
                e: ea,
                v: va,
            },
        };
        Ok((self.emit("t", ty.clone(), Exp::Prim(p), span), ty))
    }

    /// Any other mix of indices and slices: the checks, then a loop nest.
    fn update_nest(
        &mut self,
        arr: Atom,
        ty: Type,
        entries: &[IndexEntry],
        a: &Expr,
        v: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let i64 = Type::I64;
        let mut parts = Vec::new();
        let mut at = ty.clone();
        for (j, entry) in entries.iter().enumerate() {
            let (_, el) = self.expect_array(&at, a.span, "an update")?;
            at = el;
            let n = self.emit("n", i64.clone(), Exp::Dim(arr.clone(), j), span);
            match entry {
                IndexEntry::Index(i) => {
                    let ia = self.index_exp(i)?;
                    self.check(CheckKind::Index, vec![ia.clone(), n], span);
                    parts.push(Part::Index(ia));
                }
                IndexEntry::Slice(s, e, k, sspan) => {
                    let (sa, ea) = self.slice_bounds(s, e, *sspan, Exp::Atom(n.clone()), span)?;
                    self.check(CheckKind::Slice, vec![sa.clone(), ea.clone(), n], span);
                    let len = self.emit(
                        "n",
                        i64.clone(),
                        Exp::Bin(BinOp::Sub, ea.clone(), sa.clone()),
                        span,
                    );
                    let ka = self.step(k)?;
                    let count = match &ka {
                        None => len,
                        Some(ka) => {
                            self.check(CheckKind::Step, vec![ka.clone()], span);
                            // ceil(len / k), without overflow
                            let q = self.emit(
                                "n",
                                i64.clone(),
                                Exp::Bin(BinOp::Div, len.clone(), ka.clone()),
                                span,
                            );
                            let r = self.emit(
                                "n",
                                i64.clone(),
                                Exp::Bin(BinOp::Rem, len, ka.clone()),
                                span,
                            );
                            let z = Atom::Const(Const::I64(0));
                            let c = self.emit("c", Type::BOOL, Exp::Bin(BinOp::Gt, r, z), span);
                            let c =
                                self.emit("n", i64.clone(), Exp::Convert(PrimType::I64, c), span);
                            self.emit("n", i64.clone(), Exp::Bin(BinOp::Add, q, c), span)
                        }
                    };
                    parts.push(Part::Slice {
                        s: sa,
                        count,
                        k: ka,
                    });
                }
            }
        }
        // the value: one dimension per slice, of the place's elements
        let slices = parts
            .iter()
            .filter(|p| matches!(p, Part::Slice { .. }))
            .count();
        let want = (0..slices).fold(at.clone(), |t, _| Type::array(Size::Unknown, t));
        let (va, vt) = self.expr(v, Some(&want))?;
        self.no_fun(&vt, v.span)?;
        let mut vel = vt.clone();
        for _ in 0..slices {
            let (_, e) = self.expect_array(&vel, v.span, "the value written into a slice")?;
            vel = e;
        }
        self.unify_at(&vel, &at, v.span, "in the elements written by `with`")?;
        let counts: Vec<Atom> = parts
            .iter()
            .filter_map(|p| match p {
                Part::Slice { count, .. } => Some(count.clone()),
                Part::Index(_) => None,
            })
            .collect();
        for (d, count) in counts.into_iter().enumerate() {
            let got = self.emit("n", i64.clone(), Exp::Dim(va.clone(), d), span);
            let callee = self.current.clone();
            self.emit_size_check(got, count, &callee, "with", (d + 1).to_string(), span);
        }
        let ty = self.infer.resolve(&ty);
        let vt = self.infer.resolve(&vt);
        let r = self.nest(arr, &ty, &parts, Vec::new(), (va, vt), span)?;
        Ok((r, ty))
    }

    fn check(&mut self, kind: CheckKind, args: Vec<Atom>, span: Span) {
        self.emit(
            "chk",
            Type::I64,
            Exp::Check(Box::new(Check::new(kind, args, ""))),
            span,
        );
    }

    /// The statements updating `state` at `parts` (the indices before them
    /// `idx`) with `val` (of type `vt`, one dimension per slice left).
    #[allow(clippy::too_many_arguments)]
    fn nest(
        &mut self,
        state: Atom,
        ty: &Type,
        parts: &[Part],
        mut idx: Vec<Atom>,
        (val, vt): (Atom, Type),
        span: Span,
    ) -> R<Atom> {
        let mut parts = parts;
        while let [Part::Index(i), rest @ ..] = parts {
            idx.push(i.clone());
            parts = rest;
        }
        let p = match parts {
            [] => Prim::element_update(state, &idx, val).ok_or(Failed)?,
            [Part::Slice { s, count, k, .. }, rest @ ..] => {
                let Type::Array(_, row) = &vt else {
                    return Err(Failed);
                };
                let row = (**row).clone();
                let b = self.fresh_name("b");
                let r = self.fresh_name("r");
                self.push_block();
                let ra = Atom::Var(r.clone());
                let off = match k {
                    Some(k) => self.emit(
                        "i",
                        Type::I64,
                        Exp::Bin(BinOp::Mul, ra.clone(), k.clone()),
                        span,
                    ),
                    None => ra.clone(),
                };
                let at = self.emit("i", Type::I64, Exp::Bin(BinOp::Add, s.clone(), off), span);
                let x = self.emit("x", row.clone(), Exp::Index(val, ra), span);
                idx.push(at);
                let inner = self.nest(Atom::Var(b.clone()), ty, rest, idx, (x, row), span);
                let inner = match inner {
                    Ok(x) => x,
                    Err(e) => {
                        self.blocks.pop();
                        return Err(e);
                    }
                };
                let (body, _) = self.pop_block(inner, ty, &[b.clone(), r.clone()]);
                let exp = Exp::Loop {
                    state: (b, ty.clone()),
                    init: state,
                    form: LoopForm::For(r, count.clone()),
                    body,
                };
                return Ok(self.emit("t", ty.clone(), exp, span));
            }
            [Part::Index(_), ..] => return Err(Failed),
        };
        Ok(self.emit("t", ty.clone(), Exp::Prim(p), span))
    }
}
