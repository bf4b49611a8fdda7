//! The DPS IR (DPS-F̃ of dps-ftilde §3.1, Fig. 4), in statement form.
//!
//! Every array-producing computation writes into a *destination*: an array
//! variable whose storage was allocated by an enclosing [`Stmt::Alloc`] scope (or,
//! for a function's result, by its caller). Scalars are ordinary variables. Tuples
//! are gone (flattened into their components; an array of tuples is a tuple of
//! arrays). All arrays are dense and row-major; a [`View`] (row, slice, alias,
//! reshape) names part of an existing array without copying.
//!
//! Compound statements (`alloc`, `if`, `fold`, `reduce`, `loop`) bind the scalar
//! results of their inner [`Block`] to `outs`, which are visible after them.

pub use weir_ir::{Atom, BinOp, Const, MathFn, Name, PrimType, Span, UnOp};
use weir_shape::Dim;

/// The type of a DPS variable: a scalar, or a dense row-major array of
/// `rank` dimensions (the shape stage's leaf type).
pub use weir_shape::walk::DType;

/// Scalar expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum SExp {
    Atom(Atom),
    Bin(BinOp, Atom, Atom),
    Un(UnOp, Atom),
    Convert(PrimType, Atom),
    Math(MathFn, Vec<Atom>),
    /// `a[i0, i1, ...]` with one index per dimension (bounds-checked).
    Load(Name, Vec<Atom>),
    /// `a[i0, i1, ...]` of an integer array as an `i64`, or 0 where an index
    /// is out of bounds: shape arithmetic, which never fails (a size read
    /// from an argument's elements, [`weir_shape::Dim::Elem`]; the
    /// program's own read reports a bad index where it is evaluated).
    LoadOr0(Name, Vec<Atom>),
    /// `dim a k`
    Dim(Name, usize),
    /// `a / b`, or 0 when `b` is 0: shape arithmetic, which must never fail (a
    /// size is checked where the construct that computes it is evaluated).
    DivOr0(Atom, Atom),
    /// `a % b`, or 0 when `b` is 0 (shape arithmetic, as [`SExp::DivOr0`]).
    RemOr0(Atom, Atom),
}

/// A view: a new name for (part of) an existing array, no copy.
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    /// The whole array under another name.
    Alias(Name),
    /// Row `i` of an array of rank ≥ 2 (bounds-checked).
    Row(Name, Atom),
    /// `a[s:e]` along the first dimension (bounds-checked).
    Slice(Name, Atom, Atom),
    /// The same elements with other dims (same element count, checked). The
    /// source must be dense ([`strided_views`]): a strided array is copied
    /// into storage of its own before it is reshaped.
    Reshape(Name, Vec<Atom>),
    /// `transpose a`: the first two dims swapped (rank ≥ 2), an index
    /// function change (strides swapped), no copy.
    Transpose(Name),
    /// `reverse a`: the rows in reverse order, an index function change
    /// (offset to the last row, outer stride negated), no copy.
    Reverse(Name),
    /// `replicate n a` of an array `a`: `n` rows that are all `a`, an index
    /// function change (a new outer dim of stride 0), no copy. `n` is not
    /// negative (checked before, where the interpreter checks it).
    Replicate(Atom, Name),
    /// `stride k a`: every `k`-th row of `a` from the first, an index
    /// function change (the outer stride times `k`, `(n + k - 1) / k`
    /// rows), no copy; `k >= 1` (checked before, [`Guard::Stride`]).
    Stride(Atom, Name),
    /// `d[lo:hi]` (bounds-checked), where the storage `root` that `d` is a
    /// view of exists; where it is missing (an entry result too large for
    /// memory, passed as none; a buffer whose lazy allocation was too large),
    /// storage of its own of the same dims, allocated here (out of memory at
    /// the view's construct). An array short-circuited into its consumer's
    /// storage ([`crate::shortcircuit`]) whose computation may fail before
    /// that storage is first used: its errors, and its own out-of-memory
    /// error, stay where the interpreter has them.
    Placed {
        part: Name,
        lo: Atom,
        hi: Atom,
        root: Name,
    },
}

impl View {
    /// The array the view reads.
    pub fn source(&self) -> &Name {
        match self {
            View::Alias(x)
            | View::Row(x, _)
            | View::Slice(x, ..)
            | View::Reshape(x, _)
            | View::Transpose(x)
            | View::Reverse(x)
            | View::Replicate(_, x)
            | View::Stride(_, x)
            | View::Placed { part: x, .. } => x,
        }
    }

    /// Is the view dense and row-major whenever its source is? (A
    /// transpose, a reverse or a replicate is not: its elements are laid
    /// out with the strides of its index function.)
    pub fn keeps_density(&self) -> bool {
        !matches!(
            self,
            View::Transpose(_) | View::Reverse(_) | View::Replicate(..) | View::Stride(..)
        )
    }
}

/// A size check made explicit (from the core IR's `assert_size`).
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub got: Atom,
    pub want: Atom,
    /// The message prefix; the run-time values are appended by the backend.
    pub message: weir_ir::SizeCheck,
}

/// One array allocated by an `alloc` scope.
///
/// The element count is 0 when a dim is 0 or negative (a negative size is an
/// error of the construct that computes it, reported where that construct is
/// evaluated, never by the allocation); an overflowing count is out of memory
/// at `span`.
#[derive(Clone, Debug, PartialEq)]
pub struct Buf {
    pub var: Name,
    pub elem: PrimType,
    pub dims: Vec<Atom>,
    /// The construct whose value the buffer holds (for out-of-memory errors).
    pub span: Span,
    /// Allocate only if all these counts are positive (else 0 elements): the
    /// trip counts of the loops the buffer was hoisted out of, so that a loop
    /// that never runs allocates nothing for its body.
    pub when: Vec<Atom>,
    /// Storage that starts empty (`dims` with an outer 0 rows) and is grown
    /// by [`Stmt::Grow`] where its rows are known (an `if` whose branch's
    /// length is known only inside the branch): in the region of this scope,
    /// which releases it; never hoisted out of a loop.
    pub grown: bool,
}

/// A run-time check of a construct's arguments, made where the construct is
/// evaluated, with the interpreter's message.
#[derive(Clone, Debug, PartialEq)]
pub enum Guard {
    /// A check of the core IR ([`weir_ir::Check`], its operands translated):
    /// the checks the optimizer made explicit, a `build`'s non-negative count
    /// (`assert_nonneg n build`), `unflatten`'s sizes (`assert_unflatten n m len`).
    Core(weir_ir::Check),
    /// `0 <= k <= len`: "index out of bounds: split at k of an array of length len".
    Split { k: Atom, len: Atom },
    /// `k >= 1` for `stride k a`: "invalid argument: stride needs a step of
    /// at least 1", the interpreter's message.
    Stride { k: Atom },
    /// `slide w s` of an array of length `len`: `w >= 1` and `s >= 1` ("invalid
    /// argument"), then `w <= len` ("size mismatch"), the interpreter's messages.
    Slide { w: Atom, s: Atom, len: Atom },
    /// Before the first write into `dest`, a result of an entry point: the
    /// caller could not allocate it (too large for memory, so it passed none),
    /// an out-of-memory error here, where the interpreter would fail to
    /// allocate the array, unless an earlier error came first.
    ///
    /// With `build` (the dims of the `build` of rows that makes `dest`, its
    /// count first): only unless the `build` fails in its first row. The
    /// interpreter allocates the list of the rows (a value per row), then
    /// the rows one at a time, so a row too large for memory fails where the
    /// first row is made, inside the `build` (a [`Guard::DestReady`] of the
    /// row there; fuzz seed 101, program 15495), when the list fits
    /// (`weir_first_row_fails`).
    DestReady { dest: Name, build: Vec<Atom> },
    /// Before writing the first `rows` rows of `dest`, a result of an entry
    /// point whose outer size is existential: the caller passed no storage
    /// (its upper bound was too large to allocate) or fewer rows. Out of
    /// memory, as [`Guard::DestReady`], but the runtime records the rows the
    /// result needs, so the caller can allocate exactly that and call again.
    DestRows { dest: Name, rows: Atom },
    /// After a `build` whose rows have an existential length (a `filter`
    /// per row): `at` is -1, or the first row whose length `got` differs
    /// from row 0's `first`: "size mismatch: build produced an irregular
    /// array (element 0 has shape [first][inner..], element at has shape
    /// [got][inner..])", the interpreter's message.
    Irregular {
        at: Atom,
        first: Atom,
        got: Atom,
        inner: Vec<Atom>,
    },
    /// Before the first write into a row of `dest`, a loop state's storage
    /// grown softly ([`Stmt::Grow`] with `soft`): out of memory here when the
    /// growth was skipped because one row is too large for memory; with
    /// `build` (the row is made by a `build` of rows, its dims, count first),
    /// only unless that `build` fails in its first row (as
    /// [`Guard::DestReady`]).
    Grown { dest: Name, build: Vec<Atom> },
    /// `got == want` dim by dim: the value an update (`a with [i] = v`)
    /// writes has the shape of the place it replaces: "size mismatch:
    /// `with` writes a value of shape [g..] into a place of shape [w..]",
    /// the interpreter's message.
    Fits { got: Vec<Atom>, want: Vec<Atom> },
}

/// An array part of a loop's state: `var` is the current state inside the body,
/// `next` the destination the body writes the new state into; the final state
/// ends in `out` (which holds the initial state when the loop starts). The
/// backend double-buffers with a scratch array of `dims`.
///
/// With `grow: Some(fin)` (a loop whose state changes length and whose
/// largest length is not known before it runs: a `while` loop, or a length
/// that depends on values computed in the loop), `dims` are `out`'s, the
/// initial state's; `next` starts empty and each iteration makes it large
/// enough with [`Stmt::Grow`] before writing it. The storage grown lives in
/// the region of the innermost `alloc` scope around the loop (the one that
/// allocates `out`, which is therefore never hoisted), and after the loop the
/// final state is bound to `fin`: the storage it ended in, whose outer dim is
/// a capacity (the loop's length scalar says how many rows hold the state).
#[derive(Clone, Debug, PartialEq)]
pub struct ArrState {
    pub var: Name,
    pub next: Name,
    pub out: Name,
    pub elem: PrimType,
    pub dims: Vec<Atom>,
    /// The loop (for out-of-memory errors of the scratch array).
    pub span: Span,
    pub grow: Option<Name>,
    /// The state is updated in place ([`crate::inplace`]): `var`, `next`
    /// and `out` are one buffer, and there is no scratch array.
    pub in_place: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    For(Name, Atom),
    /// The condition block sees the state; its one result is the condition.
    While(Block),
}

/// The operator of a `reduce`: `(a..) (b..) -> block`, associative with neutral
/// element `ne`.
#[derive(Clone, Debug, PartialEq)]
pub struct RedOp {
    pub a: Vec<Name>,
    pub b: Vec<Name>,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Let {
        var: Name,
        ty: PrimType,
        exp: SExp,
        span: Span,
    },
    Check {
        check: Check,
        span: Span,
    },
    /// A construct's argument check ([`Guard`]).
    Guard {
        guard: Guard,
        span: Span,
    },
    View {
        var: Name,
        elem: PrimType,
        rank: usize,
        view: View,
        span: Span,
    },
    /// `alloc` scope: the buffers exist while `body` runs.
    Alloc {
        outs: Vec<(Name, PrimType)>,
        bufs: Vec<Buf>,
        body: Block,
    },
    /// `for i < n { body }` (the value loop of a `build`; the body writes its element).
    For {
        i: Name,
        n: Atom,
        body: Vec<Stmt>,
    },
    /// `dest[idx..] = val` (one index per dimension).
    Store {
        dest: Name,
        idx: Vec<Atom>,
        val: Atom,
        span: Span,
    },
    /// Copy all of `src` into `dest` (dims must agree: checked unless proved).
    Copy {
        dest: Name,
        src: Name,
        span: Span,
    },
    If {
        outs: Vec<(Name, PrimType)>,
        cond: Atom,
        then: Block,
        els: Block,
    },
    /// Sequential indexed fold with scalar accumulators.
    Fold {
        outs: Vec<(Name, PrimType)>,
        acc: Vec<(Name, PrimType)>,
        init: Vec<Atom>,
        i: Name,
        n: Atom,
        body: Block,
    },
    /// Associative reduction of `elem` (computed per `i`) with `op`.
    Reduce {
        outs: Vec<(Name, PrimType)>,
        ne: Vec<Atom>,
        i: Name,
        n: Atom,
        elem: Block,
        op: RedOp,
    },
    /// A loop whose state may contain arrays (double-buffered).
    Loop {
        outs: Vec<(Name, PrimType)>,
        scalars: Vec<(Name, PrimType, Atom)>,
        arrays: Vec<ArrState>,
        form: LoopForm,
        /// Results: the next scalar state (the array parts are written to `next`).
        body: Block,
    },
    /// Make `dest`, the `next` of a growing loop state ([`ArrState::grow`]),
    /// hold at least `rows` rows before the iteration writes it: new storage
    /// (at least twice the old, so growing costs amortised O(1) per row) when
    /// it holds fewer. Its old contents are not kept (the body writes all of
    /// the next state). Out of memory at `span`.
    ///
    /// With `hint` (the largest length of a counted loop's state, from its
    /// shape slice), the first growth takes that many rows where memory
    /// allows, so the loop allocates once; where it does not, the storage
    /// grows as the iterations need it, and runs out of memory where one does.
    ///
    /// With `soft` (the dims of the `build` of rows that first writes the
    /// state, its count first): when the `build` fails in its first row (as
    /// [`Guard::DestReady`]: its list of rows fits, one row does not), the
    /// storage is not grown and no error is raised here; the interpreter
    /// fails inside the first row, where it allocates the row, so the
    /// storage is marked missing and a [`Guard::Grown`] fails where the first
    /// row is first written (fuzz seed 113, program 19032).
    Grow {
        dest: Name,
        rows: Atom,
        hint: Option<Atom>,
        soft: Vec<Atom>,
        span: Span,
    },
    /// Call of a DPS function: destinations first.
    Call {
        outs: Vec<(Name, PrimType)>,
        fun: Name,
        dests: Vec<Name>,
        args: Vec<Atom>,
        span: Span,
    },
}

/// Statements and scalar results.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub results: Vec<Atom>,
}

/// A parameter: a scalar or an array (whose dims travel with it).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Name,
    pub ty: DType,
}

/// A result destination of a function, with its shape as a function of the
/// parameters (the shape slice of dps-ftilde Fig. 7, after partial evaluation).
#[derive(Clone, Debug, PartialEq)]
pub struct DestParam {
    pub name: Name,
    pub elem: PrimType,
    pub shape: Vec<Dim>,
    /// For each dim, the construct that computed it (the location of a
    /// negative or overflowing size in the shape function).
    pub spans: Vec<Span>,
    /// An entry's result of existential outer size with no upper bound from
    /// the arguments: `shape[0]` is 0, and the caller may pass any number of
    /// rows (the entry fails with the rows it needs, `weir_retry_rows`,
    /// when they do not hold the result).
    pub unbounded: bool,
}

/// Where a result of the source-level function lives: a scalar result, or a
/// destination.
#[derive(Clone, Debug, PartialEq)]
pub enum ResultPart {
    Scalar(PrimType),
    Dest(usize),
    /// The size of dimension `dim` of destination `dest` (an `i64` result):
    /// that dim of the destination is an upper bound (an existential size,
    /// known once the function has run), and the function writes the first
    /// `size` rows, densely. Comes after every other result.
    Size {
        dest: usize,
        dim: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fun {
    pub name: Name,
    pub entry: bool,
    pub dests: Vec<DestParam>,
    pub params: Vec<Param>,
    /// The flattened results in source order.
    pub results: Vec<ResultPart>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub funs: Vec<Fun>,
}

impl Program {
    pub fn find(&self, name: &str) -> Option<&Fun> {
        self.funs.iter().find(|f| f.name == name)
    }
}

impl Block {
    /// Visit every statement list, nested ones included.
    pub fn for_each_stmt_mut(&mut self, f: &mut dyn FnMut(&mut Vec<Stmt>)) {
        walk_stmts_mut(&mut self.stmts, f);
    }
}

pub fn walk_stmts_mut(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Vec<Stmt>)) {
    f(stmts);
    for s in stmts.iter_mut() {
        for b in nested_blocks_mut(s) {
            walk_stmts_mut(b, f);
        }
    }
}

/// The statement lists nested directly in `s`.
pub fn nested_blocks_mut(s: &mut Stmt) -> Vec<&mut Vec<Stmt>> {
    match s {
        Stmt::Alloc { body, .. } => vec![&mut body.stmts],
        Stmt::For { body, .. } => vec![body],
        Stmt::If { then, els, .. } => vec![&mut then.stmts, &mut els.stmts],
        Stmt::Fold { body, .. } => vec![&mut body.stmts],
        Stmt::Reduce { elem, op, .. } => vec![&mut elem.stmts, &mut op.body.stmts],
        Stmt::Loop { form, body, .. } => {
            let mut v = vec![&mut body.stmts];
            if let LoopForm::While(c) = form {
                v.push(&mut c.stmts);
            }
            v
        }
        _ => vec![],
    }
}

/// The statement lists nested directly in `s` (reading).
pub fn nested_blocks(s: &Stmt) -> Vec<&Vec<Stmt>> {
    match s {
        Stmt::Alloc { body, .. } => vec![&body.stmts],
        Stmt::For { body, .. } => vec![body],
        Stmt::If { then, els, .. } => vec![&then.stmts, &els.stmts],
        Stmt::Fold { body, .. } => vec![&body.stmts],
        Stmt::Reduce { elem, op, .. } => vec![&elem.stmts, &op.body.stmts],
        Stmt::Loop { form, body, .. } => {
            let mut v = vec![&body.stmts];
            if let LoopForm::While(c) = form {
                v.push(&c.stmts);
            }
            v
        }
        _ => vec![],
    }
}

/// Every variable a statement reads directly (not inside nested blocks),
/// including destinations it writes through.
pub fn stmt_uses(s: &Stmt) -> Vec<&Name> {
    fn a(x: &Atom) -> Option<&Name> {
        match x {
            Atom::Var(v) => Some(v),
            Atom::Const(_) => None,
        }
    }
    let mut out: Vec<&Name> = Vec::new();
    match s {
        Stmt::Let { exp, .. } => match exp {
            SExp::Atom(x) | SExp::Un(_, x) | SExp::Convert(_, x) => out.extend(a(x)),
            SExp::Bin(_, x, y) => out.extend(a(x).into_iter().chain(a(y))),
            SExp::Math(_, xs) => out.extend(xs.iter().filter_map(a)),
            SExp::Load(arr, idx) | SExp::LoadOr0(arr, idx) => {
                out.push(arr);
                out.extend(idx.iter().filter_map(a));
            }
            SExp::Dim(arr, _) => out.push(arr),
            SExp::DivOr0(x, y) | SExp::RemOr0(x, y) => out.extend(a(x).into_iter().chain(a(y))),
        },
        Stmt::Check { check, .. } => out.extend(a(&check.got).into_iter().chain(a(&check.want))),
        Stmt::Guard { guard, .. } => {
            out.extend(guard_atoms(guard).into_iter().filter_map(a));
            if let Guard::DestReady { dest, .. }
            | Guard::DestRows { dest, .. }
            | Guard::Grown { dest, .. } = guard
            {
                out.push(dest);
            }
        }
        Stmt::View { view, .. } => match view {
            View::Alias(x) => out.push(x),
            View::Row(x, i) => {
                out.push(x);
                out.extend(a(i));
            }
            View::Slice(x, s, e) => {
                out.push(x);
                out.extend(a(s).into_iter().chain(a(e)));
            }
            View::Reshape(x, ds) => {
                out.push(x);
                out.extend(ds.iter().filter_map(a));
            }
            View::Transpose(x) | View::Reverse(x) => out.push(x),
            View::Replicate(n, x) | View::Stride(n, x) => {
                out.push(x);
                out.extend(a(n));
            }
            View::Placed { part, lo, hi, root } => {
                out.push(part);
                out.push(root);
                out.extend(a(lo).into_iter().chain(a(hi)));
            }
        },
        Stmt::Alloc { bufs, body, .. } => {
            for b in bufs {
                out.extend(b.dims.iter().filter_map(a));
                out.extend(b.when.iter().filter_map(a));
            }
            out.extend(body.results.iter().filter_map(a));
        }
        Stmt::For { n, .. } => out.extend(a(n)),
        Stmt::Store { dest, idx, val, .. } => {
            out.push(dest);
            out.extend(idx.iter().filter_map(a));
            out.extend(a(val));
        }
        Stmt::Copy { dest, src, .. } => {
            out.push(dest);
            out.push(src);
        }
        Stmt::If {
            cond, then, els, ..
        } => {
            out.extend(a(cond));
            out.extend(then.results.iter().filter_map(a));
            out.extend(els.results.iter().filter_map(a));
        }
        Stmt::Fold { init, n, body, .. } => {
            out.extend(init.iter().filter_map(a));
            out.extend(a(n));
            out.extend(body.results.iter().filter_map(a));
        }
        Stmt::Reduce {
            ne, n, elem, op, ..
        } => {
            out.extend(ne.iter().filter_map(a));
            out.extend(a(n));
            out.extend(elem.results.iter().filter_map(a));
            out.extend(op.body.results.iter().filter_map(a));
        }
        Stmt::Loop {
            scalars,
            arrays,
            form,
            body,
            ..
        } => {
            out.extend(scalars.iter().filter_map(|(_, _, i)| a(i)));
            for st in arrays {
                out.push(&st.out);
                out.extend(st.dims.iter().filter_map(a));
            }
            match form {
                LoopForm::For(_, n) => out.extend(a(n)),
                LoopForm::While(c) => out.extend(c.results.iter().filter_map(a)),
            }
            out.extend(body.results.iter().filter_map(a));
        }
        Stmt::Grow {
            dest,
            rows,
            hint,
            soft,
            ..
        } => {
            out.push(dest);
            out.extend(a(rows));
            out.extend(hint.iter().filter_map(a));
            out.extend(soft.iter().filter_map(a));
        }
        Stmt::Call { dests, args, .. } => {
            out.extend(dests.iter());
            out.extend(args.iter().filter_map(a));
        }
    }
    out
}

/// The atoms a guard reads.
pub fn guard_atoms(g: &Guard) -> Vec<&Atom> {
    match g {
        Guard::Core(c) => c.args.iter().collect(),
        Guard::Split { k, len } => vec![k, len],
        Guard::Stride { k } => vec![k],
        Guard::Slide { w, s, len } => vec![w, s, len],
        Guard::DestReady { build, .. } => build.iter().collect(),
        Guard::DestRows { rows, .. } => vec![rows],
        Guard::Grown { build, .. } => build.iter().collect(),
        Guard::Fits { got, want } => got.iter().chain(want).collect(),
        Guard::Irregular {
            at,
            first,
            got,
            inner,
        } => [at, first, got].into_iter().chain(inner).collect(),
    }
}

/// Variables a statement binds for the statements after it.
pub fn stmt_binds(s: &Stmt) -> Vec<&Name> {
    match s {
        Stmt::Let { var, .. } | Stmt::View { var, .. } => vec![var],
        Stmt::Loop { outs, arrays, .. } => outs
            .iter()
            .map(|(n, _)| n)
            .chain(arrays.iter().filter_map(|st| st.grow.as_ref()))
            .collect(),
        Stmt::Alloc { outs, .. }
        | Stmt::If { outs, .. }
        | Stmt::Fold { outs, .. }
        | Stmt::Reduce { outs, .. }
        | Stmt::Call { outs, .. } => outs.iter().map(|(n, _)| n).collect(),
        _ => vec![],
    }
}

/// The `out` buffers of the growing loop states ([`ArrState::grow`]) in
/// `stmts`, nested ones included: their `alloc` scope also holds the storage
/// the loop grows, so it must stay where it is. (Also the buffers grown in
/// place, [`Buf::grown`].)
pub fn grown_outs(stmts: &[Stmt]) -> Vec<Name> {
    let mut v = Vec::new();
    for s in stmts {
        if let Stmt::Alloc { bufs, .. } = s {
            v.extend(bufs.iter().filter(|b| b.grown).map(|b| b.var.clone()));
        }
        if let Stmt::Loop { arrays, .. } = s {
            v.extend(
                arrays
                    .iter()
                    .filter(|st| st.grow.is_some())
                    .map(|st| st.out.clone()),
            );
        }
        for b in nested_blocks(s) {
            v.extend(grown_outs(b));
        }
    }
    v
}

/// Does any statement in `stmts` (nested included) mention `v`?
pub fn mentions(stmts: &[Stmt], v: &str) -> bool {
    stmts.iter().any(|s| {
        stmt_uses(s).iter().any(|u| u.as_str() == v)
            || nested_blocks(s).iter().any(|b| mentions(b, v))
    })
}

/// Can this statement fail at run time (a check, a bounds-checked read or
/// view, an integer division, anything nested)? Conservative.
pub fn stmt_can_fail(s: &Stmt) -> bool {
    match s {
        Stmt::Let { exp, .. } => match exp {
            SExp::Atom(_)
            | SExp::Un(..)
            | SExp::Convert(..)
            | SExp::Math(..)
            | SExp::Dim(..)
            | SExp::DivOr0(..)
            | SExp::RemOr0(..)
            | SExp::LoadOr0(..) => false,
            SExp::Bin(op, ..) => matches!(op, BinOp::Div | BinOp::Rem | BinOp::Pow),
            SExp::Load(..) => true,
        },
        Stmt::Store { .. } | Stmt::Copy { .. } => false,
        Stmt::View {
            view:
                View::Alias(_)
                | View::Transpose(_)
                | View::Reverse(_)
                | View::Replicate(..)
                | View::Stride(..),
            ..
        } => false,
        _ => true,
    }
}

/// The array variables of `stmts` (nested ones included) that are not dense
/// and row-major: transposes and reverses, and the views of them (to a fixed
/// point). Their elements are addressed through their strides; a reshape or
/// a call needs a dense copy of them.
pub fn strided_views(stmts: &[Stmt]) -> std::collections::HashSet<Name> {
    fn go(stmts: &[Stmt], set: &mut std::collections::HashSet<Name>) -> bool {
        let mut changed = false;
        for s in stmts {
            if let Stmt::View { var, view, .. } = s
                && (!view.keeps_density() || set.contains(view.source()))
                && set.insert(var.clone())
            {
                changed = true;
            }
            for b in nested_blocks(s) {
                changed |= go(b, set);
            }
        }
        changed
    }
    let mut set = std::collections::HashSet::new();
    while go(stmts, &mut set) {}
    set
}
