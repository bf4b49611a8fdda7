//! The reference interpreter of the core IR. It defines Weir's meaning: every later
//! stage must produce the same results (and the same runtime errors).

use crate::value::{Shape, Value, elem_shape, same_shape, shape_of};
use std::collections::HashMap;
use std::rc::Rc;
use weir_ir::*;

/// A runtime error with the Weir source location of the statement that failed.
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeError {
    pub message: String,
    pub span: Span,
}

type R<T> = Result<T, RuntimeError>;

#[derive(Clone, Copy)]
struct Closure<'p, 'e> {
    lambda: &'p Lambda,
    env: &'e Env<'p, 'e>,
}

/// Variables of one activation; lambdas run in a child whose parent is their definition site.
struct Env<'p, 'e> {
    vars: HashMap<&'p str, Value>,
    funs: HashMap<&'p str, Closure<'p, 'e>>,
    parent: Option<&'e Env<'p, 'e>>,
}

impl<'p, 'e> Env<'p, 'e> {
    fn new(parent: Option<&'e Env<'p, 'e>>) -> Self {
        Env {
            vars: HashMap::new(),
            funs: HashMap::new(),
            parent,
        }
    }
    fn get(&self, n: &str) -> Option<&Value> {
        let mut e = self;
        loop {
            if let Some(v) = e.vars.get(n) {
                return Some(v);
            }
            e = e.parent?;
        }
    }
    fn fun(&self, n: &str) -> Option<Closure<'p, 'e>> {
        let mut e = self;
        loop {
            if let Some(v) = e.funs.get(n) {
                return Some(*v);
            }
            e = e.parent?;
        }
    }
}

/// The interpreter of one program.
pub struct Interp<'p> {
    defs: HashMap<&'p str, &'p FunDef>,
    /// Maximum call depth (definitions cannot recurse, so this only guards malformed IR).
    depth: usize,
    /// Evaluation steps left (bodies entered plus statements), if limited.
    fuel: Option<u64>,
    /// Inside a shape probe ([`Interp::probe_shape`]): a read of an empty array
    /// is a stand-in of its element shape, a read out of bounds is the first
    /// element (which has every element's shape), and bounds checks pass.
    probing: usize,
}

fn err<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(RuntimeError {
        message: msg.into(),
        span,
    })
}

/// Check that all elements of a new array have the same shape (arrays are
/// rectangular), down to the shapes that empty arrays remember.
fn regular(xs: &[Value], span: Span, what: &str) -> R<()> {
    let Some(first) = xs.first() else {
        return Ok(());
    };
    if !matches!(first, Value::Array(_) | Value::Empty(_) | Value::Tuple(_)) {
        return Ok(());
    }
    for (i, x) in xs.iter().enumerate().skip(1) {
        if !same_shape(first, x) {
            return err(
                span,
                format!(
                    "size mismatch: {what} produced an irregular array (element 0 has shape {}, element {i} has shape {})",
                    shape_of(first),
                    shape_of(x)
                ),
            );
        }
    }
    Ok(())
}

/// The elements of an array value (none for an empty one); `None` for a non-array.
fn elements(v: &Value) -> Option<Rc<Vec<Value>>> {
    match v {
        Value::Array(xs) => Some(xs.clone()),
        Value::Empty(_) => Some(Rc::new(Vec::new())),
        _ => None,
    }
}

/// An empty array whose (absent) elements have shape `s`.
fn empty(s: Shape) -> Value {
    Value::Empty(Rc::new(s))
}

/// The array of `xs`, or, when there are none, an empty array whose elements
/// have the shape `s()`.
fn array_or(xs: Vec<Value>, s: impl FnOnce() -> Shape) -> Value {
    if xs.is_empty() {
        empty(s())
    } else {
        Value::array(xs)
    }
}

/// Steps a shape probe may take (see [`Interp::probe_shape`]).
const PROBE_STEPS: u64 = 100_000;
/// The largest array a shape probe may allocate, and the most scalars its
/// stand-in arguments may hold.
const PROBE_ELEMS: usize = 1 << 20;

thread_local! {
    /// The largest array [`alloc`] makes (bounded while a shape probe runs).
    static ALLOC_CAP: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// A vector for `n` values, or an out-of-memory error (never an abort).
fn alloc<T>(n: usize, span: Span) -> R<Vec<T>> {
    if n > ALLOC_CAP.with(|c| c.get()) {
        return err(span, "shape probe: array too large");
    }
    let mut v = Vec::new();
    match v.try_reserve_exact(n) {
        Ok(()) => Ok(v),
        Err(_) => err(
            span,
            format!("out of memory: cannot allocate an array of {n} elements"),
        ),
    }
}

/// A value of type `t` and shape `s` (zeros), for a shape probe; `None` where
/// the shape is not fully known or the value would hold more than `budget`
/// scalars.
fn stand_in(t: &Type, s: &Shape, budget: &mut usize) -> Option<Value> {
    match (t, s) {
        (Type::Prim(p), _) => {
            *budget = budget.checked_sub(1)?;
            Some(Value::from_const(Const::zero(*p)))
        }
        (Type::Array(..), Shape::Array(Some(0), es)) => Some(Value::Empty(es.clone())),
        (Type::Array(_, e), Shape::Array(Some(n), es)) => {
            let x = stand_in(e, es, budget)?;
            // The first element counted once; the rest share it.
            *budget = budget.checked_sub(*n)?;
            Some(Value::array(vec![x; *n]))
        }
        (Type::Tuple(ts), Shape::Tuple(ss)) if ts.len() == ss.len() => Some(Value::tuple(
            ts.iter()
                .zip(ss.iter())
                .map(|(t, s)| stand_in(t, s, budget))
                .collect::<Option<Vec<_>>>()?,
        )),
        _ => None,
    }
}

/// Inside a shape probe, the arrays given to `map2`/`zip`/... where the first
/// has elements and another is empty: the empty one gets one stand-in of its
/// elements' shape (`types`: the elements' types), which
/// [`Interp::same_lengths`] repeats, as a read of an empty array gives a
/// stand-in there (so `map2 f xs []` learns the shape `map` over the
/// lowered `build` learns).
fn stand_in_rows<'a>(
    arrays: &mut [Rc<Vec<Value>>],
    inputs: &[&'a Atom],
    types: &[&Type],
    atom: &impl Fn(&'a Atom) -> R<Value>,
) {
    if arrays.first().is_none_or(|a| a.is_empty()) {
        return;
    }
    for ((a, input), t) in arrays.iter_mut().zip(inputs).zip(types).skip(1) {
        if a.is_empty()
            && let Ok(whole) = atom(input)
            && let Some(x) = stand_in(t, &elem_shape(&whole), &mut PROBE_ELEMS.clone())
        {
            *a = Rc::new(vec![x]);
        }
    }
}

/// `n` copies of `x`, or an out-of-memory error.
fn copies(x: Value, n: usize, span: Span) -> R<Vec<Value>> {
    let mut v = alloc(n, span)?;
    v.extend(std::iter::repeat_n(x, n));
    Ok(v)
}

/// The shape of values of type `t`, with the sizes given by `size` (`None`: unknown).
fn type_shape(t: &Type, size: &dyn Fn(&Size) -> Option<usize>) -> Shape {
    match t {
        Type::Prim(_) => Shape::Scalar,
        Type::Array(s, e) => Shape::Array(size(s), Rc::new(type_shape(e, size))),
        Type::Tuple(ts) => Shape::Tuple(Rc::new(ts.iter().map(|t| type_shape(t, size)).collect())),
        _ => Shape::Unknown,
    }
}

/// The shape of the elements of arrays of type `t` (`[n]T`: the shape of `T`),
/// with sizes read from the environment; what the interpreter knows of the
/// elements of an empty array it makes without elements to look at.
fn elem_type_shape(t: &Type, env: &Env) -> Shape {
    match t {
        Type::Array(_, e) => type_shape(e, &|s| match s {
            Size::Const(c) => usize::try_from(*c).ok(),
            Size::Var(v) => match env.get(v) {
                Some(Value::I64(n)) => usize::try_from(*n).ok(),
                _ => None,
            },
            _ => None,
        }),
        _ => Shape::Unknown,
    }
}

/// Dimension `k` of a value (0: its length), reading the remembered shape of an
/// empty array's elements; `None` if the value is not that deeply an array.
fn dim_of(v: &Value, k: usize) -> Option<usize> {
    match v {
        Value::Array(xs) if k == 0 => Some(xs.len()),
        Value::Array(xs) => match xs.first() {
            Some(x) => dim_of(x, k - 1),
            None => Some(0),
        },
        Value::Empty(s) => {
            // `s` is the shape of the (absent) elements: dimension 1's
            let mut s: &Shape = s;
            for _ in 1..k {
                s = match s {
                    Shape::Array(_, e) => e,
                    Shape::Unknown => return Some(0),
                    _ => return None,
                };
            }
            if k == 0 {
                return Some(0);
            }
            match s {
                Shape::Array(n, _) => Some(n.unwrap_or(0)),
                Shape::Unknown => Some(0),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Give the empty arrays of an argument of type `t` the shape of their elements,
/// from the type's sizes (`sizes`: the size parameters bound by the arguments; a
/// size that nothing binds, or an unnamed one, is 0, as in compiled code).
fn complete(v: Value, t: &Type, sizes: &HashMap<&str, i64>) -> Value {
    let size = |s: &Size| -> Option<usize> {
        Some(match s {
            Size::Const(c) => usize::try_from(*c).unwrap_or(0),
            Size::Var(n) => sizes
                .get(n.as_str())
                .and_then(|x| usize::try_from(*x).ok())
                .unwrap_or(0),
            _ => 0,
        })
    };
    match (v, t) {
        (Value::Array(xs), Type::Array(_, e)) if xs.is_empty() => empty(type_shape(e, &size)),
        (Value::Array(xs), Type::Array(_, e))
            if matches!(**e, Type::Array(..) | Type::Tuple(_)) =>
        {
            Value::array(xs.iter().map(|x| complete(x.clone(), e, sizes)).collect())
        }
        (Value::Tuple(xs), Type::Tuple(ts)) if xs.len() == ts.len() => Value::tuple(
            xs.iter()
                .zip(ts)
                .map(|(x, t)| complete(x.clone(), t, sizes))
                .collect(),
        ),
        (v, _) => v,
    }
}

impl<'p> Interp<'p> {
    pub fn new(prog: &'p Program) -> Self {
        Interp {
            defs: prog.defs.iter().map(|d| (d.name.as_str(), d)).collect(),
            depth: 0,
            fuel: None,
            probing: 0,
        }
    }

    /// Limit evaluation to about `steps` steps (a body entered or a statement
    /// evaluated is one step); past it, evaluation stops with the error
    /// "evaluation step limit exceeded". For tools that run arbitrary programs
    /// (`weir fuzz`); without it, evaluation is unbounded.
    pub fn with_fuel(mut self, steps: u64) -> Self {
        self.fuel = Some(steps);
        self
    }

    fn burn(&mut self, span: Span) -> R<()> {
        if let Some(f) = &mut self.fuel {
            if *f == 0 {
                return err(span, "evaluation step limit exceeded");
            }
            *f -= 1;
        }
        Ok(())
    }

    /// Call a definition by name with argument values.
    pub fn call(&mut self, name: &str, args: Vec<Value>) -> R<Value> {
        let Some(d) = self.defs.get(name).copied() else {
            return err(Span::default(), format!("no function named `{name}`"));
        };
        // Values from outside do not know the shape of an empty array's elements:
        // take it from the parameter types, as compiled code does.
        let mut sizes: HashMap<&str, i64> = HashMap::new();
        for ((_, t), v) in d.params.iter().zip(&args) {
            let _ = bind_sizes(t, v, &mut sizes);
        }
        let args = args
            .into_iter()
            .zip(
                d.params
                    .iter()
                    .map(|(_, t)| t)
                    .chain(std::iter::repeat(&Type::BOOL)),
            )
            .map(|(v, t)| complete(v, t, &sizes))
            .collect();
        self.call_def(d, args, &[], d.span).map(Value::plain)
    }

    fn call_def<'e>(
        &mut self,
        d: &'p FunDef,
        args: Vec<Value>,
        funs: &[(usize, Closure<'p, 'e>)],
        span: Span,
    ) -> R<Value> {
        self.depth += 1;
        if self.depth > 10_000 {
            return err(span, "call depth exceeded");
        }
        let mut env: Env<'p, 'e> = Env::new(None);
        let mut sizes: HashMap<&str, i64> = HashMap::new();
        let mut vals = args.into_iter();
        for (i, (n, t)) in d.params.iter().enumerate() {
            if let Some((_, c)) = funs.iter().find(|(k, _)| *k == i) {
                env.funs.insert(n.as_str(), *c);
                continue;
            }
            let Some(v) = vals.next() else {
                return err(span, format!("`{}` called with too few arguments", d.name));
            };
            bind_sizes(t, &v, &mut sizes).map_err(|(s, want, got)| RuntimeError {
                message: format!(
                    "size mismatch in the call of `{}`: parameter `{}` needs size `{}` = {want}, but the argument has size {got}",
                    d.name,
                    display_name(n),
                    display_name(&s)
                ),
                span,
            })?;
            env.vars.insert(n.as_str(), v);
        }
        for s in &d.size_params {
            let v = sizes.get(s.as_str()).copied().unwrap_or(0);
            env.vars.insert(s.as_str(), Value::I64(v));
        }
        let r = self.body(&d.body, &mut env)?;
        let mut rs = sizes.clone();
        bind_sizes(&d.ret, &r, &mut rs).map_err(|(s, want, got)| RuntimeError {
            message: format!(
                "size mismatch: `{}` returns an array of size {got}, but its declared result type says `{}` = {want}",
                d.name,
                display_name(&s)
            ),
            span: d.span,
        })?;
        self.depth -= 1;
        Ok(r)
    }

    fn atom(&self, a: &Atom, env: &Env, span: Span) -> R<Value> {
        match a {
            Atom::Const(c) => Ok(Value::from_const(*c)),
            Atom::Var(v) => match env.get(v) {
                Some(x) => Ok(x.clone()),
                None => err(span, format!("internal error: variable `{v}` is unbound")),
            },
        }
    }

    fn body<'e>(&mut self, b: &'p Body, env: &mut Env<'p, 'e>) -> R<Value> {
        self.burn(b.stmts.first().map(|s| s.span).unwrap_or_default())?;
        for st in &b.stmts {
            self.burn(st.span)?;
            let v = self.exp(&st.exp, env, st.span, &st.ty)?;
            env.vars.insert(st.var.as_str(), v);
        }
        self.atom(&b.result, env, Span::default())
    }

    fn i64_atom(&self, a: &Atom, env: &Env, span: Span) -> R<i64> {
        match self.atom(a, env, span)? {
            Value::I64(v) => Ok(v),
            v => err(
                span,
                format!("internal error: expected an i64, found {}", v.kind_name()),
            ),
        }
    }

    fn array_atom(&self, a: &Atom, env: &Env, span: Span) -> R<Rc<Vec<Value>>> {
        match self.atom(a, env, span)? {
            Value::Array(v) => Ok(v),
            Value::Empty(_) => Ok(Rc::new(Vec::new())),
            v => err(
                span,
                format!("internal error: expected an array, found {}", v.kind_name()),
            ),
        }
    }

    fn closure<'e>(&self, f: &'p Fun, env: &'e Env<'p, 'e>, span: Span) -> R<Closure<'p, 'e>> {
        match f {
            Fun::Lambda(l) => Ok(Closure { lambda: l, env }),
            Fun::Var(v) => match env.fun(v) {
                Some(c) => Ok(c),
                None => err(span, format!("internal error: function `{v}` is unbound")),
            },
        }
    }

    fn apply_closure(&mut self, c: Closure<'p, '_>, args: Vec<Value>) -> R<Value> {
        let mut child = Env::new(Some(c.env));
        for ((n, _), v) in c.lambda.params.iter().zip(args) {
            child.vars.insert(n.as_str(), v);
        }
        self.body(&c.lambda.body, &mut child)
    }

    fn exp<'e>(&mut self, e: &'p Exp, env: &Env<'p, 'e>, span: Span, ty: &Type) -> R<Value> {
        match e {
            Exp::Atom(a) => self.atom(a, env, span),
            Exp::Bin(op, a, b) => {
                let x = self.atom(a, env, span)?;
                let y = self.atom(b, env, span)?;
                binop(*op, x, y, span)
            }
            Exp::Un(op, a) => {
                let x = self.atom(a, env, span)?;
                unop(*op, x, span)
            }
            Exp::Convert(p, a) => convert(*p, self.atom(a, env, span)?, span),
            Exp::Math(m, args) => {
                let vs: Vec<Value> = args
                    .iter()
                    .map(|a| self.atom(a, env, span))
                    .collect::<R<_>>()?;
                math(*m, &vs, span)
            }
            Exp::Tuple(xs) => Ok(Value::tuple(
                xs.iter()
                    .map(|a| self.atom(a, env, span))
                    .collect::<R<_>>()?,
            )),
            Exp::Proj(a, i) => match self.atom(a, env, span)? {
                Value::Tuple(xs) if *i < xs.len() => Ok(xs[*i].clone()),
                v => err(
                    span,
                    format!("internal error: projection of {}", v.kind_name()),
                ),
            },
            Exp::ArrayLit(xs) => {
                let vs: Vec<Value> = xs
                    .iter()
                    .map(|a| self.atom(a, env, span))
                    .collect::<R<_>>()?;
                regular(&vs, span, "an array literal")?;
                Ok(array_or(vs, || elem_type_shape(ty, env)))
            }
            Exp::Index(a, i) => {
                if self.probing > 0
                    && let Value::Empty(es) = self.atom(a, env, span)?
                {
                    return stand_in(ty, &es, &mut PROBE_ELEMS.clone())
                        .map_or_else(|| err(span, "shape probe: unknown row shape"), Ok);
                }
                let arr = self.array_atom(a, env, span)?;
                let i = self.i64_atom(i, env, span)?;
                if self.probing > 0
                    && let Some(first) = arr.first()
                    && usize::try_from(i).map_or(true, |i| i >= arr.len())
                {
                    // rows are regular: any row has the shape of the first
                    return Ok(first.clone());
                }
                index(&arr, i, span)
            }
            Exp::Dim(a, k) => {
                let v = self.atom(a, env, span)?;
                match dim_of(&v, *k) {
                    Some(n) => Ok(Value::I64(n as i64)),
                    None => err(span, "internal error: `dim` of a non-array"),
                }
            }
            Exp::CheckSize(c) => {
                let got = self.i64_atom(&c.got, env, span)?;
                let want = self.i64_atom(&c.want, env, span)?;
                // size checks pass inside a shape probe, as bounds checks do:
                // the rows of an empty array are never computed, and compiled
                // code's shape arithmetic goes on with the first array's size
                if got != want && self.probing == 0 {
                    return err(span, c.message(got, want));
                }
                Ok(Value::I64(got))
            }
            Exp::Check(c) => {
                let mut vals = Vec::with_capacity(c.args.len());
                let mut first = None;
                for a in &c.args {
                    let v = self.atom(a, env, span)?;
                    vals.push(match v.as_int() {
                        // (a u64 beyond i64's range is nonzero, all that
                        // `assert_nonzero` asks of it)
                        Some(x) => x as i64,
                        None => {
                            return err(
                                span,
                                format!("internal error: `{}` of {}", c.kind.name(), v.kind_name()),
                            );
                        }
                    });
                    first.get_or_insert(v);
                }
                let bounds = matches!(c.kind, CheckKind::Index | CheckKind::Slice);
                if let Err(m) = c.run(&vals)
                    && !(bounds && self.probing > 0)
                {
                    return err(span, m);
                }
                Ok(first.unwrap_or(Value::I64(0)))
            }
            Exp::Slice(a, s, e) => {
                let whole = self.atom(a, env, span)?;
                let arr = self.array_atom(a, env, span)?;
                let s = self.i64_atom(s, env, span)?;
                let e = self.i64_atom(e, env, span)?;
                if self.probing > 0
                    && e >= s
                    && (s < 0 || e as usize > arr.len())
                    && let Ok(n) = usize::try_from(e.wrapping_sub(s))
                {
                    // bounds checks pass inside a shape probe: the slice has
                    // its size, `e - s`, as compiled code's shape arithmetic
                    // says, of stand-ins of the elements' shape
                    let es = elem_shape(&whole);
                    let x = match (arr.first(), ty) {
                        (Some(x), _) => Some(x.clone()),
                        (None, Type::Array(_, et)) => stand_in(et, &es, &mut PROBE_ELEMS.clone()),
                        _ => None,
                    };
                    return match x {
                        _ if n == 0 => Ok(empty(es)),
                        Some(x) => Ok(Value::array(copies(x, n, span)?)),
                        None => err(span, "shape probe: unknown row shape"),
                    };
                }
                if s < 0 || e < s || e as usize > arr.len() {
                    return err(
                        span,
                        format!(
                            "slice [{s}:{e}] out of bounds for an array of length {}",
                            arr.len()
                        ),
                    );
                }
                Ok(array_or(arr[s as usize..e as usize].to_vec(), || {
                    elem_shape(&whole)
                }))
            }
            Exp::If(c, t, f) => {
                let c = matches!(self.atom(c, env, span)?, Value::Bool(true));
                let mut child = Env::new(Some(env));
                self.body(if c { t } else { f }, &mut child)
            }
            Exp::Call(name, args) => {
                let Some(d) = self.defs.get(name.as_str()).copied() else {
                    return err(span, format!("internal error: unknown function `{name}`"));
                };
                let mut vals = Vec::new();
                let mut funs = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    match a {
                        Arg::Atom(a) => vals.push(self.atom(a, env, span)?),
                        Arg::Fun(f) => funs.push((i, self.closure(f, env, span)?)),
                    }
                }
                self.call_def(d, vals, &funs, span)
            }
            Exp::Apply(f, args) => {
                let c = match env.fun(f) {
                    Some(c) => c,
                    None => return err(span, format!("internal error: function `{f}` is unbound")),
                };
                let vals: Vec<Value> = args
                    .iter()
                    .map(|a| self.atom(a, env, span))
                    .collect::<R<_>>()?;
                self.apply_closure(c, vals)
            }
            Exp::Prim(p) => self.prim(p, env, span, ty),
            Exp::Loop {
                state,
                init,
                form,
                body,
            } => {
                let mut s = self.atom(init, env, span)?;
                match form {
                    LoopForm::For(i, n) => {
                        let n = self.i64_atom(n, env, span)?;
                        for k in 0..n.max(0) {
                            let mut child = Env::new(Some(env));
                            child.vars.insert(state.0.as_str(), s);
                            child.vars.insert(i.as_str(), Value::I64(k));
                            s = self.body(body, &mut child)?;
                        }
                    }
                    LoopForm::While(c) => loop {
                        let mut child = Env::new(Some(env));
                        child.vars.insert(state.0.as_str(), s.clone());
                        if !matches!(self.body(c, &mut child)?, Value::Bool(true)) {
                            break;
                        }
                        let mut child = Env::new(Some(env));
                        child.vars.insert(state.0.as_str(), s);
                        s = self.body(body, &mut child)?;
                    },
                }
                Ok(s)
            }
        }
    }

    /// The shape of the elements of an array that `build`/`map` makes with no
    /// elements (so the lambda never runs for real): the shape the lambda's
    /// result has for stand-in arguments (`args`: index 0 for `build`, zeros of
    /// the input arrays' element shapes for `map`; see [`Self::probe_shape`]),
    /// met with what the statement's type `ty` says (a size the type knows
    /// wins: that run passes size checks, so `map2 f xs (replicate 0 y)` has
    /// `xs`'s length there, and the type the checker gave it, 0, which
    /// compiled code uses). Where the probe fails:
    /// the type's shape and, when the lambda's result is a variable from outside
    /// it (`\i -> x`), the shape of that value. docs/language.md §6.
    fn lambda_result_shape(
        &mut self,
        f: Closure<'p, '_>,
        args: Option<Vec<Value>>,
        ty: &Type,
        env: &Env,
    ) -> Shape {
        let from_type = elem_type_shape(ty, env);
        if let Some(s) = args.and_then(|a| self.probe_shape(f, a)) {
            return from_type.meet(&s);
        }
        let body = &f.lambda.body;
        if let Atom::Var(x) = &body.result
            && !body.stmts.iter().any(|st| st.var == *x)
            && !f.lambda.params.iter().any(|(p, _)| p == x)
            && let Some(v) = f.env.get(x)
        {
            return shape_of(v).meet(&from_type);
        }
        from_type
    }

    /// Run `f` on stand-in arguments to learn the shape of its result, within
    /// a budget of [`PROBE_STEPS`] steps and arrays of at most [`PROBE_ELEMS`]
    /// elements; `None` when it fails (its error is not the program's: the
    /// lambda never runs for real). Inside the probe a read of an empty array
    /// whose element shape is known gives a stand-in of that shape and bounds
    /// checks pass, so `build 0 (\i -> a[i])` (a `map` after lowering) learns
    /// the shape of `a`'s rows as `map` does. The shape of an array is computed from sizes
    /// alone wherever compiled code can compute it (the shape translation), so
    /// for those programs the stand-in values do not matter.
    fn probe_shape(&mut self, f: Closure<'p, '_>, args: Vec<Value>) -> Option<Shape> {
        let outer = self.fuel;
        let budget = outer.map_or(PROBE_STEPS, |x| x.min(PROBE_STEPS));
        self.fuel = Some(budget);
        let cap = ALLOC_CAP.with(|c| c.replace(c.get().min(PROBE_ELEMS)));
        self.probing += 1;
        let r = self.apply_closure(f, args);
        self.probing -= 1;
        ALLOC_CAP.with(|c| c.set(cap));
        let used = budget - self.fuel.unwrap_or(0);
        self.fuel = outer.map(|x| x.saturating_sub(used));
        r.ok().map(|v| shape_of(&v))
    }

    fn prim<'e>(&mut self, prim: &'p Prim, env: &Env<'p, 'e>, span: Span, ty: &Type) -> R<Value> {
        let builtin = prim.builtin();
        let atom = |a: &'p Atom| -> R<Value> { self.atom(a, env, span) };
        let arr = |a: &'p Atom| -> R<Rc<Vec<Value>>> {
            match atom(a)? {
                Value::Array(a) => Ok(a),
                Value::Empty(_) => Ok(Rc::new(Vec::new())),
                v => err(
                    span,
                    format!(
                        "internal error: `{}` expects an array, found {}",
                        builtin.source_name(),
                        v.kind_name()
                    ),
                ),
            }
        };
        let int = |a: &'p Atom| -> R<i64> {
            match atom(a)? {
                Value::I64(v) => Ok(v),
                v => err(
                    span,
                    format!(
                        "internal error: `{}` expects an i64, found {}",
                        builtin.source_name(),
                        v.kind_name()
                    ),
                ),
            }
        };
        let fun = |f: &'p Fun| -> R<Closure<'p, '_>> { self.closure(f, env, span) };
        let count = |n: i64, what: &str| -> R<usize> {
            if n < 0 {
                err(
                    span,
                    format!("`{}` given a negative {what} ({n})", builtin.source_name()),
                )
            } else {
                Ok(n as usize)
            }
        };
        match prim {
            Prim::Scatter { dest, is, vs } | Prim::ReduceByIndex { dest, is, vs, .. } => {
                // `reduce_by_index`'s `ne` is not needed: every slot starts
                // from the destination's element
                let op = match prim {
                    Prim::ReduceByIndex { op, .. } => Some(op),
                    _ => None,
                };
                let whole = atom(dest)?;
                if self.probing > 0 {
                    // in a shape probe size checks pass: the result has the
                    // destination's shape, whatever is written
                    return Ok(whole);
                }
                let dest = arr(dest)?;
                let is = arr(is)?;
                let vs = arr(vs)?;
                if is.len() != vs.len() {
                    return err(
                        span,
                        format!(
                            "size mismatch: `{}` of {} indices and {} values",
                            builtin.source_name(),
                            is.len(),
                            vs.len()
                        ),
                    );
                }
                if is.is_empty() {
                    return Ok(whole);
                }
                let op = match op {
                    Some(op) => Some(fun(op)?),
                    None => None,
                };
                let mut out = alloc(dest.len(), span)?;
                out.extend(dest.iter().cloned());
                for (i, v) in is.iter().zip(vs.iter()) {
                    let Value::I64(i) = *i else {
                        return err(span, "internal error: an index is not an i64");
                    };
                    // out-of-range indices are ignored
                    let Some(slot) = usize::try_from(i).ok().and_then(|i| out.get_mut(i)) else {
                        continue;
                    };
                    if let Some(f) = op {
                        let old = std::mem::replace(slot, Value::Bool(false));
                        let new = self.apply_closure(f, vec![old, v.clone()])?;
                        if let Some(slot) = out.get_mut(i as usize) {
                            *slot = new;
                        }
                    } else {
                        // an element replaces one of the destination's: it
                        // must have its shape (docs/language.md §5)
                        if !same_shape(slot, v) {
                            return err(
                                span,
                                format!(
                                    "size mismatch: `scatter` writes an element of shape {} where the destination's elements have shape {}",
                                    shape_of(v),
                                    shape_of(slot)
                                ),
                            );
                        }
                        *slot = v.clone();
                    }
                }
                regular(&out, span, builtin.source_name())?;
                Ok(array_or(out, || elem_shape(&whole)))
            }
            Prim::IReduceByIndex {
                dest,
                op,
                ne: _,
                m,
                f,
            } => {
                let whole = atom(dest)?;
                let dest = arr(dest)?;
                let op = fun(op)?;
                let m = int(m)?;
                let g = fun(f)?;
                if m <= 0 {
                    return Ok(whole);
                }
                let mut out = alloc(dest.len(), span)?;
                out.extend(dest.iter().cloned());
                for j in 0..m {
                    let Value::Tuple(iv) = self.apply_closure(g, vec![Value::I64(j)])? else {
                        return err(span, "internal error: a generated pair is not a tuple");
                    };
                    let (Some(Value::I64(i)), Some(v)) = (iv.first(), iv.get(1)) else {
                        return err(span, "internal error: a generated index is not an i64");
                    };
                    // out-of-range indices are ignored
                    let Some(slot) = usize::try_from(*i).ok().and_then(|i| out.get_mut(i)) else {
                        continue;
                    };
                    let old = std::mem::replace(slot, Value::Bool(false));
                    let new = self.apply_closure(op, vec![old, v.clone()])?;
                    if let Some(slot) = out.get_mut(*i as usize) {
                        *slot = new;
                    }
                }
                regular(&out, span, builtin.source_name())?;
                Ok(array_or(out, || elem_shape(&whole)))
            }
            Prim::Build { n, f } => {
                let n = count(int(n)?, "size")?;
                let f = fun(f)?;
                if n == 0 {
                    let probe = Some(vec![Value::I64(0)]);
                    return Ok(empty(self.lambda_result_shape(f, probe, ty, env)));
                }
                let mut out = alloc(n, span)?;
                for i in 0..n {
                    out.push(self.apply_closure(f, vec![Value::I64(i as i64)])?);
                }
                regular(&out, span, "build")?;
                Ok(Value::array(out))
            }
            Prim::IFold { f, init, n } => {
                let f = fun(f)?;
                let mut acc = atom(init)?;
                let n = int(n)?;
                for i in 0..n.max(0) {
                    acc = self.apply_closure(f, vec![acc, Value::I64(i)])?;
                }
                Ok(acc)
            }
            Prim::Length { a } => Ok(Value::I64(arr(a)?.len() as i64)),
            Prim::Map { f, a } | Prim::Map2 { f, a, .. } | Prim::Map3 { f, a, .. } => {
                let inputs: Vec<&'p Atom> = match prim {
                    Prim::Map2 { b, .. } => vec![a, b],
                    Prim::Map3 { b, c, .. } => vec![a, b, c],
                    _ => vec![a],
                };
                let f = fun(f)?;
                let mut arrays: Vec<Rc<Vec<Value>>> =
                    inputs.iter().copied().map(arr).collect::<R<_>>()?;
                if self.probing > 0 {
                    let types: Vec<&Type> = f.lambda.params.iter().map(|(_, t)| t).collect();
                    stand_in_rows(&mut arrays, &inputs, &types, &atom);
                }
                self.same_lengths(&mut arrays, span, builtin.source_name())?;
                let n = arrays[0].len();
                if n == 0 {
                    let mut budget = PROBE_ELEMS;
                    let probe = f
                        .lambda
                        .params
                        .iter()
                        .enumerate()
                        .map(|(i, (_, t))| {
                            let whole = atom(inputs.get(i)?).ok()?;
                            stand_in(t, &elem_shape(&whole), &mut budget)
                        })
                        .collect::<Option<Vec<Value>>>();
                    return Ok(empty(self.lambda_result_shape(f, probe, ty, env)));
                }
                let mut out = alloc(n, span)?;
                for i in 0..n {
                    let xs = arrays.iter().map(|a| a[i].clone()).collect();
                    out.push(self.apply_closure(f, xs)?);
                }
                regular(&out, span, builtin.source_name())?;
                Ok(Value::array(out))
            }
            Prim::Zip { a, b } | Prim::Zip3 { a, b, .. } => {
                let inputs: Vec<&'p Atom> = match prim {
                    Prim::Zip3 { c, .. } => vec![a, b, c],
                    _ => vec![a, b],
                };
                let mut arrays: Vec<Rc<Vec<Value>>> =
                    inputs.iter().copied().map(arr).collect::<R<_>>()?;
                if self.probing > 0
                    && let Some(Type::Tuple(parts)) = ty.elem()
                {
                    let types: Vec<&Type> = parts.iter().collect();
                    stand_in_rows(&mut arrays, &inputs, &types, &atom);
                }
                self.same_lengths(&mut arrays, span, builtin.source_name())?;
                let n = arrays[0].len();
                if n == 0 {
                    let shapes = inputs
                        .iter()
                        .map(|a| atom(a).map(|v| elem_shape(&v)))
                        .collect::<R<Vec<Shape>>>()?;
                    return Ok(empty(Shape::Tuple(Rc::new(shapes))));
                }
                Ok(Value::array(
                    (0..n)
                        .map(|i| Value::tuple(arrays.iter().map(|a| a[i].clone()).collect()))
                        .collect(),
                ))
            }
            Prim::Unzip { a } | Prim::Unzip3 { a } => {
                let whole = atom(a)?;
                let a = arr(a)?;
                let k = if matches!(prim, Prim::Unzip { .. }) {
                    2
                } else {
                    3
                };
                if a.is_empty() {
                    let from_type = |j: usize| match ty {
                        Type::Tuple(ts) => ts.get(j).map(|t| elem_type_shape(t, env)),
                        _ => None,
                    };
                    let shapes: Vec<Value> = (0..k)
                        .map(|j| {
                            let s = match elem_shape(&whole) {
                                Shape::Tuple(ss) if ss.len() == k => ss[j].clone(),
                                _ => Shape::Unknown,
                            };
                            empty(s.meet(&from_type(j).unwrap_or(Shape::Unknown)))
                        })
                        .collect();
                    return Ok(Value::tuple(shapes));
                }
                let mut cols: Vec<Vec<Value>> = vec![Vec::with_capacity(a.len()); k];
                for x in a.iter() {
                    match x {
                        Value::Tuple(t) if t.len() == k => {
                            for (c, v) in cols.iter_mut().zip(t.iter()) {
                                c.push(v.clone());
                            }
                        }
                        v => {
                            return err(
                                span,
                                format!("internal error: unzip of {}", v.kind_name()),
                            );
                        }
                    }
                }
                Ok(Value::tuple(cols.into_iter().map(Value::array).collect()))
            }
            Prim::Fold { op, init, a } => {
                let f = fun(op)?;
                let mut acc = atom(init)?;
                for x in arr(a)?.iter() {
                    acc = self.apply_closure(f, vec![acc, x.clone()])?;
                }
                Ok(acc)
            }
            Prim::Reduce { op, ne, a } => {
                let f = fun(op)?;
                let mut acc = atom(ne)?;
                for x in arr(a)?.iter() {
                    acc = self.apply_closure(f, vec![acc, x.clone()])?;
                }
                Ok(acc)
            }
            Prim::IReduce { op, ne, n, f } => {
                let op = fun(op)?;
                let mut acc = atom(ne)?;
                let n = int(n)?;
                let g = fun(f)?;
                for i in 0..n.max(0) {
                    let x = self.apply_closure(g, vec![Value::I64(i)])?;
                    acc = self.apply_closure(op, vec![acc, x])?;
                }
                Ok(acc)
            }
            Prim::Scan { op, ne, a } => {
                let f = fun(op)?;
                let mut acc = atom(ne)?;
                let whole = atom(a)?;
                let a = arr(a)?;
                if a.is_empty() {
                    return Ok(empty(elem_shape(&whole).meet(&shape_of(&acc))));
                }
                let mut out = alloc(a.len(), span)?;
                for x in a.iter() {
                    acc = self.apply_closure(f, vec![acc, x.clone()])?;
                    out.push(acc.clone());
                }
                regular(&out, span, "scan")?;
                Ok(Value::array(out))
            }
            Prim::Filter { p, a } => {
                let f = fun(p)?;
                let whole = atom(a)?;
                let mut out = Vec::new();
                // inside a shape probe a filter keeps nothing: the rows of an
                // empty `build` are as long as when every filter keeps nothing
                // (what compiled code computes from sizes; docs/language.md §6)
                let input = if self.probing > 0 {
                    Rc::new(Vec::new())
                } else {
                    arr(a)?
                };
                for x in input.iter() {
                    if matches!(self.apply_closure(f, vec![x.clone()])?, Value::Bool(true)) {
                        out.push(x.clone());
                    }
                }
                Ok(array_or(out, || elem_shape(&whole)))
            }
            Prim::Partition { p, a } | Prim::Partition2 { p, a, .. } => {
                // each element's part: 0 if `p` holds, else (partition2) 1 if
                // `q` holds, else the last; `q` is tested only where `p` fails
                let preds: Vec<&'p Fun> = match prim {
                    Prim::Partition2 { q, .. } => vec![p, q],
                    _ => vec![p],
                };
                let k = preds.len();
                let whole = atom(a)?;
                let mut parts: Vec<Vec<Value>> = vec![Vec::new(); k + 1];
                let fs = preds
                    .iter()
                    .copied()
                    .map(fun)
                    .collect::<Result<Vec<_>, _>>()?;
                // a shape probe keeps nothing in any part (as `filter`)
                let input = if self.probing > 0 {
                    Rc::new(Vec::new())
                } else {
                    arr(a)?
                };
                for x in input.iter() {
                    let mut part = k;
                    for (j, f) in fs.iter().enumerate() {
                        if matches!(self.apply_closure(*f, vec![x.clone()])?, Value::Bool(true)) {
                            part = j;
                            break;
                        }
                    }
                    if let Some(p) = parts.get_mut(part) {
                        p.push(x.clone());
                    }
                }
                Ok(Value::Tuple(Rc::new(
                    parts
                        .into_iter()
                        .map(|p| array_or(p, || elem_shape(&whole)))
                        .collect(),
                )))
            }
            Prim::Iota { n } => {
                let n = count(int(n)?, "size")?;
                let mut out = alloc(n, span)?;
                out.extend((0..n as i64).map(Value::I64));
                Ok(array_or(out, || Shape::Scalar))
            }
            Prim::Replicate { n, x } => {
                let n = count(int(n)?, "count")?;
                let x = atom(x)?;
                if n == 0 {
                    return Ok(empty(shape_of(&x)));
                }
                Ok(Value::array(copies(x, n, span)?))
            }
            Prim::Concat { a, b } => {
                // the rows of both arrays must have the same shape, even when one
                // (or both) of them is empty (docs/language.md §6)
                let (va, vc) = (atom(a)?, atom(b)?);
                let (ra, rc) = (elem_shape(&va), elem_shape(&vc));
                if !ra.compatible(&rc) {
                    return err(
                        span,
                        format!(
                            "size mismatch: `++` of arrays whose elements have different shapes ({ra} and {rc})"
                        ),
                    );
                }
                let a = arr(a)?;
                let c = arr(b)?;
                let mut out = alloc(a.len().saturating_add(c.len()), span)?;
                out.extend(a.iter().cloned());
                out.extend(c.iter().cloned());
                regular(&out, span, "concatenation (`++`)")?;
                Ok(array_or(out, || ra.meet(&rc)))
            }
            Prim::Split { k, a: array } => {
                let k = int(k)?;
                let a = arr(array)?;
                if self.probing > 0
                    && let Ok(ku) = usize::try_from(k)
                    && ku > a.len()
                {
                    // bounds checks pass inside a shape probe: the first part
                    // has its size `k` (compiled code's shape arithmetic), of
                    // stand-ins of the elements' shape; the rest is empty
                    let whole = atom(array)?;
                    let es = elem_shape(&whole);
                    let x = match (a.first(), ty) {
                        (Some(x), _) => Some(x.clone()),
                        (None, Type::Tuple(ts)) => match ts.first() {
                            Some(Type::Array(_, et)) => stand_in(et, &es, &mut PROBE_ELEMS.clone()),
                            _ => None,
                        },
                        _ => None,
                    };
                    let Some(x) = x else {
                        return err(span, "shape probe: unknown row shape");
                    };
                    return Ok(Value::tuple(vec![
                        Value::array(copies(x, ku, span)?),
                        empty(es),
                    ]));
                }
                if self.probing > 0 && k < 0 {
                    // ... and for a negative `k`, the first part holds nothing
                    // (a negative size, never evaluated) and the rest has
                    // `n - k` elements, as compiled code's shape arithmetic
                    // counts them, stand-ins past the array's end
                    let whole = atom(array)?;
                    let es = elem_shape(&whole);
                    let x = match (a.first(), ty) {
                        (Some(x), _) => Some(x.clone()),
                        (None, Type::Tuple(ts)) => match ts.get(1) {
                            Some(Type::Array(_, et)) => stand_in(et, &es, &mut PROBE_ELEMS.clone()),
                            _ => None,
                        },
                        _ => None,
                    };
                    let rest = usize::try_from(k.unsigned_abs())
                        .ok()
                        .and_then(|m| a.len().checked_add(m));
                    let (Some(x), Some(rest)) = (x, rest) else {
                        return err(span, "shape probe: unknown row shape");
                    };
                    return Ok(Value::tuple(vec![
                        empty(es),
                        Value::array(copies(x, rest, span)?),
                    ]));
                }
                if k < 0 || k as usize > a.len() {
                    return err(
                        span,
                        format!(
                            "index out of bounds: split at {k} of an array of length {}",
                            a.len()
                        ),
                    );
                }
                let (x, y) = a.split_at(k as usize);
                let whole = atom(array)?;
                Ok(Value::tuple(vec![
                    array_or(x.to_vec(), || elem_shape(&whole)),
                    array_or(y.to_vec(), || elem_shape(&whole)),
                ]))
            }
            Prim::Flatten { a } => {
                let whole = atom(a)?;
                let a = arr(a)?;
                let mut out = Vec::new();
                for row in a.iter() {
                    match row {
                        Value::Array(r) => out.extend(r.iter().cloned()),
                        Value::Empty(_) => {}
                        v => {
                            return err(
                                span,
                                format!("internal error: flatten of {}", v.kind_name()),
                            );
                        }
                    }
                }
                Ok(array_or(out, || match elem_shape(&whole) {
                    Shape::Array(_, e) => (*e).clone(),
                    _ => Shape::Unknown,
                }))
            }
            Prim::Unflatten { n, m, a: array } => {
                let n = count(int(n)?, "size")?;
                let m = count(int(m)?, "size")?;
                let a = arr(array)?;
                if n.checked_mul(m) != Some(a.len()) {
                    return err(
                        span,
                        format!(
                            "size mismatch: unflatten {n} {m} of an array of length {}",
                            a.len()
                        ),
                    );
                }
                let whole = atom(array)?;
                let row = elem_shape(&whole);
                if n == 0 {
                    return Ok(empty(Shape::Array(Some(m), Rc::new(row))));
                }
                if m == 0 {
                    return Ok(Value::array(copies(empty(row), n, span)?));
                }
                Ok(Value::array(
                    (0..n)
                        .map(|i| Value::array(a[i * m..(i + 1) * m].to_vec()))
                        .collect(),
                ))
            }
            Prim::Transpose { a } => {
                // `[n][m]A` to `[m][n]A`, also when `n` or `m` is 0
                let whole = atom(a)?;
                let a = arr(a)?;
                let rows: Vec<Rc<Vec<Value>>> = a
                    .iter()
                    .map(|r| {
                        elements(r).ok_or_else(|| RuntimeError {
                            message: format!("internal error: transpose of {}", r.kind_name()),
                            span,
                        })
                    })
                    .collect::<R<_>>()?;
                let (m, inner) = match elem_shape(&whole) {
                    Shape::Array(m, e) => (m.unwrap_or(0), (*e).clone()),
                    _ => (0, Shape::Unknown),
                };
                if a.is_empty() {
                    // `m` rows of no elements
                    if m == 0 {
                        return Ok(empty(Shape::Array(Some(0), Rc::new(inner))));
                    }
                    return Ok(Value::array(copies(empty(inner), m, span)?));
                }
                if m == 0 {
                    return Ok(empty(Shape::Array(Some(a.len()), Rc::new(inner))));
                }
                Ok(Value::array(
                    (0..m)
                        .map(|j| Value::array(rows.iter().map(|r| r[j].clone()).collect()))
                        .collect(),
                ))
            }
            Prim::Slide { w, step, a } => {
                let w = int(w)?;
                let s = int(step)?;
                let a = arr(a)?;
                if w < 1 || s < 1 {
                    return err(
                        span,
                        format!(
                            "invalid argument: slide needs a width and stride of at least 1 (got {w} and {s})"
                        ),
                    );
                }
                if w as usize > a.len() {
                    return err(
                        span,
                        format!(
                            "size mismatch: slide window {w} is wider than the array ({})",
                            a.len()
                        ),
                    );
                }
                let count = (a.len() - w as usize) / s as usize + 1;
                Ok(Value::array(
                    (0..count)
                        .map(|k| {
                            let st = k * s as usize;
                            Value::array(a[st..st + w as usize].to_vec())
                        })
                        .collect(),
                ))
            }
            Prim::Reverse { a: array } => {
                let a = arr(array)?;
                if a.is_empty() {
                    return atom(array);
                }
                Ok(Value::array(a.iter().rev().cloned().collect()))
            }
            Prim::Stride { k, a: array } => {
                let k = int(k)?;
                let a = arr(array)?;
                if k < 1 {
                    return err(
                        span,
                        format!("invalid argument: stride needs a step of at least 1 (got {k})"),
                    );
                }
                if a.is_empty() {
                    return atom(array);
                }
                Ok(Value::array(
                    a.iter().step_by(k as usize).cloned().collect(),
                ))
            }
            Prim::Rotate { k, a: array } => {
                let k = int(k)?;
                let a = arr(array)?;
                let n = a.len() as i64;
                if n == 0 {
                    return atom(array);
                }
                Ok(Value::array(
                    (0..n)
                        // `k mod n` first: `i + k` could overflow
                        .map(|i| a[((i + k.rem_euclid(n)) % n) as usize].clone())
                        .collect(),
                ))
            }
            Prim::Gather { a: array, is } => {
                let a = arr(array)?;
                let idx = arr(is)?;
                if idx.is_empty() {
                    return Ok(empty(elem_shape(&atom(array)?)));
                }
                let mut out = alloc(idx.len(), span)?;
                for i in idx.iter() {
                    let Value::I64(i) = i else {
                        return err(span, "internal error: gather index is not i64");
                    };
                    // bounds checks pass inside a shape probe, as for `a[i]`
                    // (what `gather` is lowered to): a stand-in of the
                    // elements' shape (fuzz seed 61, program 22736)
                    if self.probing > 0 && usize::try_from(*i).map_or(true, |i| i >= a.len()) {
                        let x = match (a.first(), ty) {
                            (Some(x), _) => Some(x.clone()),
                            (None, Type::Array(_, et)) => {
                                stand_in(et, &elem_shape(&atom(array)?), &mut PROBE_ELEMS.clone())
                            }
                            _ => None,
                        };
                        match x {
                            Some(x) => out.push(x),
                            None => return err(span, "shape probe: unknown row shape"),
                        }
                        continue;
                    }
                    out.push(index(&a, *i, span)?);
                }
                Ok(Value::array(out))
            }
            Prim::Pad { lo, hi, x, a } => {
                let lo = count(int(lo)?, "padding")?;
                let hi = count(int(hi)?, "padding")?;
                let x = atom(x)?;
                let whole = atom(a)?;
                let a = arr(a)?;
                // the padding must have the shape of the elements, even of an empty array
                let (sx, sa) = (shape_of(&x), elem_shape(&whole));
                if !sx.compatible(&sa) {
                    return err(
                        span,
                        format!(
                            "size mismatch: `pad` with a value of shape {sx} around elements of shape {sa}"
                        ),
                    );
                }
                if lo == 0 && hi == 0 {
                    return Ok(whole);
                }
                let mut out = alloc(lo.saturating_add(a.len()).saturating_add(hi), span)?;
                out.extend(std::iter::repeat_n(x.clone(), lo));
                out.extend(a.iter().cloned());
                out.extend(std::iter::repeat_n(x, hi));
                regular(&out, span, "pad")?;
                Ok(Value::array(out))
            }
            Prim::Copy { a } => atom(a),
            Prim::Update { .. }
            | Prim::Update2 { .. }
            | Prim::Update3 { .. }
            | Prim::UpdateSlice { .. }
            | Prim::UpdateSlice2 { .. } => {
                let Some((a, idx, slice, v)) = prim.update_parts() else {
                    return unreachable_update(span);
                };
                let whole = atom(a)?;
                let mut ix = Vec::with_capacity(idx.len());
                for i in idx {
                    ix.push(int(i)?);
                }
                let slice = match slice {
                    Some((s, e)) => Some((int(s)?, int(e)?)),
                    None => None,
                };
                let v = atom(v)?;
                if self.probing > 0 {
                    // an update keeps the array's shape
                    return Ok(whole);
                }
                update_at(&whole, &ix, slice, v, span)
            }
            Prim::ArgMax { a } | Prim::ArgMin { a } => {
                // the first best element in order; NaN is never best
                let max = matches!(prim, Prim::ArgMax { .. });
                let a = arr(a)?;
                let mut best: Option<(usize, &Value)> = None;
                for (i, x) in a.iter().enumerate() {
                    let better = |y: &Value| -> Option<bool> {
                        let o = num_cmp(x, y)?;
                        Some(if max {
                            o == Some(std::cmp::Ordering::Greater)
                        } else {
                            o == Some(std::cmp::Ordering::Less)
                        })
                    };
                    let nan = match x {
                        Value::F64(v) => v.is_nan(),
                        Value::F32(v) => v.is_nan(),
                        _ => false,
                    };
                    if nan {
                        continue;
                    }
                    match best {
                        None => best = Some((i, x)),
                        Some((_, y)) => match better(y) {
                            Some(true) => best = Some((i, x)),
                            Some(false) => {}
                            None => {
                                return err(span, "internal error: argmax of non-numbers");
                            }
                        },
                    }
                }
                Ok(Value::I64(best.map_or(-1, |(i, _)| i as i64)))
            }
            Prim::Sum { a } | Prim::Product { a } | Prim::Maximum { a } | Prim::Minimum { a } => {
                use Builtin::{Maximum, Product, Sum};
                let a = arr(a)?;
                let p = ty.prim().unwrap_or(PrimType::F64);
                let init = Value::from_const(match builtin {
                    Sum => Const::zero(p),
                    Product => Const::one(p),
                    Maximum => Const::lowest(p),
                    _ => Const::highest(p),
                });
                let mut acc = init;
                for x in a.iter() {
                    acc = match builtin {
                        Sum => binop(BinOp::Add, acc, x.clone(), span)?,
                        Product => binop(BinOp::Mul, acc, x.clone(), span)?,
                        Maximum => math(MathFn::Max, &[acc, x.clone()], span)?,
                        _ => math(MathFn::Min, &[acc, x.clone()], span)?,
                    };
                }
                Ok(acc)
            }
        }
    }
}

impl Interp<'_> {
    /// Check that the arrays given to `map2`/`zip`/... have one length. Inside
    /// a shape probe a mismatch is no error (size checks pass there, as bounds
    /// checks do): the first array's length wins, as in compiled code's shape
    /// arithmetic; a longer array is cut, a shorter one repeats its first
    /// element (rows are regular, so that has every element's shape). A
    /// shorter empty one was given a stand-in before ([`stand_in_rows`]);
    /// one whose elements' shape is unknown still fails the probe.
    fn same_lengths(&self, arrays: &mut [Rc<Vec<Value>>], span: Span, name: &str) -> R<()> {
        if self.probing > 0 {
            let n = arrays[0].len();
            for a in arrays.iter_mut().skip(1) {
                if a.len() > n {
                    *a = Rc::new(a[..n].to_vec());
                } else if a.len() < n
                    && let Some(first) = a.first()
                {
                    let mut v = a.to_vec();
                    v.extend(copies(first.clone(), n - a.len(), span)?);
                    *a = Rc::new(v);
                }
            }
        }
        same_lengths(arrays, span, name)
    }
}

fn same_lengths(arrays: &[Rc<Vec<Value>>], span: Span, name: &str) -> R<()> {
    let n = arrays[0].len();
    for (i, a) in arrays.iter().enumerate().skip(1) {
        if a.len() != n {
            return err(
                span,
                format!(
                    "size mismatch: the {} array given to `{name}` has length {}, but the first has length {n}",
                    match i {
                        1 => "second".to_string(),
                        2 => "third".to_string(),
                        3 => "fourth".to_string(),
                        4 => "fifth".to_string(),
                        i => format!("{}th", i + 1),
                    },
                    a.len()
                ),
            );
        }
    }
    Ok(())
}

fn unreachable_update(span: Span) -> R<Value> {
    err(span, "internal error: an update without its parts")
}

/// `a with [ix..][s:e] = v` (docs/language.md, in-place updates): the
/// indices checked in order as a read checks them, then the slice, then the
/// shape of what is written against what it replaces. The reference
/// semantics copies the spine it changes.
fn update_at(a: &Value, ix: &[i64], slice: Option<(i64, i64)>, v: Value, span: Span) -> R<Value> {
    if ix.is_empty() && slice.is_none() {
        fits(&v, a, span)?;
        return Ok(v);
    }
    let xs: &[Value] = match a {
        Value::Array(xs) => xs,
        Value::Empty(_) => &[],
        _ => return err(span, "internal error: an update of a non-array"),
    };
    if let Some((&i, rest)) = ix.split_first() {
        let old = index(xs, i, span)?;
        let new = update_at(&old, rest, slice, v, span)?;
        let mut out = alloc(xs.len(), span)?;
        out.extend(xs.iter().cloned());
        out[i as usize] = new;
        return Ok(Value::array(out));
    }
    match slice {
        None => err(span, "internal error: an update without indices"),
        Some((s, e)) => {
            if s < 0 || e < s || e as usize > xs.len() {
                return err(
                    span,
                    format!(
                        "slice [{s}:{e}] out of bounds for an array of length {}",
                        xs.len()
                    ),
                );
            }
            let (s, e) = (s as usize, e as usize);
            let vs: &[Value] = match &v {
                Value::Array(vs) => vs,
                Value::Empty(_) => &[],
                _ => return err(span, "internal error: a slice update by a non-array"),
            };
            let place = Value::array(xs[s..e].to_vec());
            let place = match (&place, xs.first()) {
                (Value::Array(p), Some(x)) if p.is_empty() => empty(shape_of(x)),
                _ => place,
            };
            fits(&v, &place, span)?;
            if vs
                .iter()
                .skip(1)
                .any(|y| vs.first().is_some_and(|x| !same_shape(x, y)))
            {
                return err(span, "internal error: an irregular array");
            }
            if vs.is_empty() {
                return Ok(a.clone());
            }
            let mut out = alloc(xs.len(), span)?;
            out.extend(xs[..s].iter().cloned());
            out.extend(vs.iter().cloned());
            out.extend(xs[e..].iter().cloned());
            Ok(Value::array(out))
        }
    }
}

/// The dims of each array leaf of a value (a tuple's components in order;
/// a scalar has none).
fn leaf_dims(v: &Value, out: &mut Vec<Vec<usize>>) {
    match v {
        Value::Tuple(cs) => cs.iter().for_each(|c| leaf_dims(c, out)),
        Value::Array(xs) if xs.first().is_some_and(|x| matches!(x, Value::Tuple(_))) => {
            // an array of tuples: one leaf per component, of the outer length too
            let mut inner = Vec::new();
            if let Some(x) = xs.first() {
                leaf_dims(x, &mut inner);
            }
            for mut d in inner {
                d.insert(0, xs.len());
                out.push(d);
            }
        }
        Value::Empty(sh) => {
            // (the dims an empty array knows: its absent elements' shape, as
            // far as it is known; an unknown shape fits every shape)
            let mut d = vec![0];
            let mut sh: &Shape = sh;
            while let Shape::Array(n, e) = sh {
                d.push(n.unwrap_or(0));
                sh = e;
            }
            out.push(d);
        }
        _ => {
            let mut d = Vec::new();
            let mut x = v;
            while let Value::Array(xs) = x {
                d.push(xs.len());
                match xs.first() {
                    Some(y) => x = y,
                    None => break,
                }
            }
            if let Value::Empty(_) = x {
                let mut inner = Vec::new();
                leaf_dims(x, &mut inner);
                d.extend(inner.into_iter().next().unwrap_or_default());
            }
            out.push(d);
        }
    }
}

/// `v`, written by an update, has the shape of `place`, what it replaces:
/// leaf by leaf, the compiled code's `assert_fits`.
fn fits(v: &Value, place: &Value, span: Span) -> R<()> {
    let (mut g, mut w) = (Vec::new(), Vec::new());
    leaf_dims(v, &mut g);
    leaf_dims(place, &mut w);
    for (g, w) in g.iter().zip(&w) {
        if g.iter().zip(w).any(|(x, y)| x != y) {
            let show = |d: &[usize]| d.iter().map(|n| format!("[{n}]")).collect::<String>();
            return err(
                span,
                format!(
                    "size mismatch: `with` writes a value of shape {} into a place of shape {}",
                    show(g),
                    show(w)
                ),
            );
        }
    }
    Ok(())
}

fn index(a: &[Value], i: i64, span: Span) -> R<Value> {
    if i < 0 || i as usize >= a.len() {
        return err(
            span,
            format!(
                "index out of bounds: index {i} in an array of length {}",
                a.len()
            ),
        );
    }
    Ok(a[i as usize].clone())
}

/// Match a value against a type's sizes, binding size variables.
fn bind_sizes<'t>(
    t: &'t Type,
    v: &Value,
    sizes: &mut HashMap<&'t str, i64>,
) -> Result<(), (String, i64, i64)> {
    match (t, v) {
        (Type::Array(s, e), Value::Array(xs)) => {
            bind_size(s, xs.len() as i64, sizes)?;
            if let Some(x) = xs.first() {
                bind_sizes(e, x, sizes)?;
            }
            Ok(())
        }
        (Type::Array(s, e), Value::Empty(row)) => {
            bind_size(s, 0, sizes)?;
            bind_shape(e, row, sizes)
        }
        (Type::Tuple(ts), Value::Tuple(xs)) => {
            for (t, x) in ts.iter().zip(xs.iter()) {
                bind_sizes(t, x, sizes)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Match one size of a type against a length, binding a size variable.
fn bind_size<'t>(
    s: &'t Size,
    n: i64,
    sizes: &mut HashMap<&'t str, i64>,
) -> Result<(), (String, i64, i64)> {
    match s {
        Size::Var(name) => match sizes.get(name.as_str()) {
            Some(&want) if want != n => Err((name.clone(), want, n)),
            Some(_) => Ok(()),
            None => {
                sizes.insert(name.as_str(), n);
                Ok(())
            }
        },
        Size::Const(c) if *c != n => Err((c.to_string(), *c, n)),
        _ => Ok(()),
    }
}

/// Match a type against the remembered shape of an empty array's elements
/// (unknown lengths match anything).
fn bind_shape<'t>(
    t: &'t Type,
    sh: &Shape,
    sizes: &mut HashMap<&'t str, i64>,
) -> Result<(), (String, i64, i64)> {
    match (t, sh) {
        (Type::Array(s, e), Shape::Array(n, row)) => {
            if let Some(n) = n {
                bind_size(s, *n as i64, sizes)?;
            }
            bind_shape(e, row, sizes)
        }
        (Type::Tuple(ts), Shape::Tuple(ss)) => {
            for (t, s) in ts.iter().zip(ss.iter()) {
                bind_shape(t, s, sizes)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Compare two numbers of one type (None: not numbers of one type; Some(None):
/// unordered, a NaN).
fn num_cmp(x: &Value, y: &Value) -> Option<Option<std::cmp::Ordering>> {
    match (x, y) {
        (Value::F64(a), Value::F64(b)) => Some(a.partial_cmp(b)),
        (Value::F32(a), Value::F32(b)) => Some(a.partial_cmp(b)),
        (Value::Bool(_), _) | (_, Value::Bool(_)) => None,
        _ if x.prim().is_some() && x.prim() == y.prim() => {
            Some(x.as_int()?.partial_cmp(&y.as_int()?))
        }
        _ => None,
    }
}

/// The integer operations of one type (docs/language.md §4): wrapping `+ - *`,
/// truncating `/ %` (an error on 0; `MIN / -1` wraps), `**` by squaring
/// (an error on a negative exponent), and the bitwise operators. A shift
/// count outside `0..width` (a negative one too) shifts every bit out: `<<`
/// and `>>>` give 0, `>>` gives 0 or (a negative signed value) -1.
macro_rules! int_ops {
    ($binop:ident, $V:ident, $t:ty, $ut:ty) => {
        #[allow(unused_comparisons)]
        fn $binop(op: BinOp, a: $t, b: $t, span: Span) -> R<Value> {
            use BinOp::*;
            let out_of_range = b < 0 || (b as u128) >= u128::from(<$t>::BITS);
            Ok(Value::$V(match op {
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Mul => a.wrapping_mul(b),
                Div if b == 0 => return err(span, "integer division by zero"),
                Rem if b == 0 => {
                    return err(span, "integer division by zero (remainder `%` by 0)");
                }
                Div => a.wrapping_div(b),
                Rem => a.wrapping_rem(b),
                Pow => {
                    if b < 0 {
                        return err(span, format!("negative exponent {b} in an integer power"));
                    }
                    let (mut r, mut x, mut e): ($t, $t, u128) = (1, a, b as u128);
                    while e > 0 {
                        if e & 1 == 1 {
                            r = r.wrapping_mul(x);
                        }
                        x = x.wrapping_mul(x);
                        e >>= 1;
                    }
                    r
                }
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                Shl if out_of_range => 0,
                Shl => a << b,
                Shr if out_of_range => {
                    if a < 0 {
                        !0
                    } else {
                        0
                    }
                }
                // arithmetic on signed types, logical on unsigned (Rust's `>>`)
                Shr => a >> b,
                UShr if out_of_range => 0,
                UShr => ((a as $ut) >> b) as $t,
                Eq => return Ok(Value::Bool(a == b)),
                Ne => return Ok(Value::Bool(a != b)),
                Lt => return Ok(Value::Bool(a < b)),
                Le => return Ok(Value::Bool(a <= b)),
                Gt => return Ok(Value::Bool(a > b)),
                Ge => return Ok(Value::Bool(a >= b)),
                And | Or | Concat => {
                    return err(
                        span,
                        format!("internal error: operator `{}` on integers", op.symbol()),
                    );
                }
            }))
        }
    };
}
int_ops!(binop_i64, I64, i64, u64);
int_ops!(binop_i32, I32, i32, u32);
int_ops!(binop_i16, I16, i16, u16);
int_ops!(binop_i8, I8, i8, u8);
int_ops!(binop_u64, U64, u64, u64);
int_ops!(binop_u32, U32, u32, u32);
int_ops!(binop_u16, U16, u16, u16);
int_ops!(binop_u8, U8, u8, u8);

pub fn binop(op: BinOp, x: Value, y: Value, span: Span) -> R<Value> {
    use BinOp::*;
    use Value::*;
    macro_rules! cmp {
        ($a:expr, $b:expr) => {
            Ok(Bool(match op {
                Eq => $a == $b,
                Ne => $a != $b,
                Lt => $a < $b,
                Le => $a <= $b,
                Gt => $a > $b,
                Ge => $a >= $b,
                _ => unreachable_op(op, span)?,
            }))
        };
    }
    match (x, y) {
        (F64(a), F64(b)) => match op {
            Add => Ok(F64(a + b)),
            Sub => Ok(F64(a - b)),
            Mul => Ok(F64(a * b)),
            Div => Ok(F64(a / b)),
            Rem => Ok(F64(a % b)),
            Pow => Ok(F64(a.powf(b))),
            _ => cmp!(a, b),
        },
        (F32(a), F32(b)) => match op {
            Add => Ok(F32(a + b)),
            Sub => Ok(F32(a - b)),
            Mul => Ok(F32(a * b)),
            Div => Ok(F32(a / b)),
            Rem => Ok(F32(a % b)),
            Pow => Ok(F32(a.powf(b))),
            _ => cmp!(a, b),
        },
        (I64(a), I64(b)) => binop_i64(op, a, b, span),
        (I32(a), I32(b)) => binop_i32(op, a, b, span),
        (I16(a), I16(b)) => binop_i16(op, a, b, span),
        (I8(a), I8(b)) => binop_i8(op, a, b, span),
        (U64(a), U64(b)) => binop_u64(op, a, b, span),
        (U32(a), U32(b)) => binop_u32(op, a, b, span),
        (U16(a), U16(b)) => binop_u16(op, a, b, span),
        (U8(a), U8(b)) => binop_u8(op, a, b, span),
        (Bool(a), Bool(b)) => match op {
            And => Ok(Bool(a && b)),
            Or => Ok(Bool(a || b)),
            _ => cmp!(a, b),
        },
        (x, y) => err(
            span,
            format!(
                "internal error: `{}` applied to {} and {}",
                op.symbol(),
                x.kind_name(),
                y.kind_name()
            ),
        ),
    }
}

fn unreachable_op(op: BinOp, span: Span) -> R<bool> {
    err(
        span,
        format!(
            "internal error: operator `{}` on these operands",
            op.symbol()
        ),
    )
}

/// `-x` (wrapping on integers) and `!x` (logical on bools, bitwise on integers).
pub fn unop(op: UnOp, x: Value, span: Span) -> R<Value> {
    Ok(match (op, x) {
        (UnOp::Neg, Value::F64(v)) => Value::F64(-v),
        (UnOp::Neg, Value::F32(v)) => Value::F32(-v),
        (UnOp::Not, Value::Bool(v)) => Value::Bool(!v),
        (op, v) if v.as_int().is_some() => {
            let (p, n) = (v.prim().unwrap_or(PrimType::I64), v.as_int().unwrap_or(0));
            // modulo 2^width, -n and !n = -n - 1 are exact
            Value::int(p, if op == UnOp::Neg { -n } else { -n - 1 })
        }
        (_, v) => {
            return err(
                span,
                format!("internal error: bad operand {}", v.kind_name()),
            );
        }
    })
}

/// A conversion between scalar types (docs/language.md §4.2): integer to
/// integer modulo 2^width (two's complement), float to integer truncating
/// and saturating (NaN to 0, Rust's `as`), integer to float rounding to
/// nearest, bool to a number 0 or 1, a number to bool `!= 0`.
pub fn convert(p: PrimType, v: Value, span: Span) -> R<Value> {
    let f = match v {
        Value::F64(x) => x,
        Value::F32(x) => {
            if p == PrimType::F32 {
                return Ok(Value::F32(x));
            }
            f64::from(x)
        }
        Value::Bool(b) => f64::from(u8::from(b)),
        ref v if v.as_int().is_some() => {
            let x = v.as_int().unwrap_or(0);
            return Ok(match p {
                // (i128 to float rounds to nearest once, as C's conversion)
                PrimType::F64 => Value::F64(x as f64),
                PrimType::F32 => Value::F32(x as f32),
                PrimType::Bool => Value::Bool(x != 0),
                _ => Value::int(p, x),
            });
        }
        v => {
            return err(
                span,
                format!("internal error: conversion of {}", v.kind_name()),
            );
        }
    };
    Ok(match p {
        PrimType::F64 => Value::F64(f),
        PrimType::F32 => Value::F32(f as f32),
        PrimType::Bool => Value::Bool(f != 0.0),
        PrimType::I64 => Value::I64(f as i64),
        PrimType::I32 => Value::I32(f as i32),
        PrimType::I16 => Value::I16(f as i16),
        PrimType::I8 => Value::I8(f as i8),
        PrimType::U64 => Value::U64(f as u64),
        PrimType::U32 => Value::U32(f as u32),
        PrimType::U16 => Value::U16(f as u16),
        PrimType::U8 => Value::U8(f as u8),
    })
}

pub fn math(m: MathFn, vs: &[Value], span: Span) -> R<Value> {
    use MathFn::*;
    let f1 = |f: fn(f64) -> f64, g: fn(f32) -> f32| -> R<Value> {
        match vs[0] {
            Value::F64(x) => Ok(Value::F64(f(x))),
            Value::F32(x) => Ok(Value::F32(g(x))),
            ref v => err(
                span,
                format!("internal error: `{}` of {}", m.name(), v.kind_name()),
            ),
        }
    };
    let int = vs[0].as_int().zip(vs[0].prim());
    match m {
        Sqrt => f1(f64::sqrt, f32::sqrt),
        Exp => f1(f64::exp, f32::exp),
        Log => f1(f64::ln, f32::ln),
        Sin => f1(f64::sin, f32::sin),
        Cos => f1(f64::cos, f32::cos),
        Tan => f1(f64::tan, f32::tan),
        Tanh => f1(f64::tanh, f32::tanh),
        Floor => f1(f64::floor, f32::floor),
        Ceil => f1(f64::ceil, f32::ceil),
        Lgamma => f1(libc_math::lgamma, libc_math::lgammaf),
        Popc | Clz | Ctz => {
            let Some((x, p)) = int else {
                return err(
                    span,
                    format!("internal error: `{}` of {}", m.name(), vs[0].kind_name()),
                );
            };
            // the bit pattern, `width` bits
            let w = p.bits();
            let bits = (x as u128) & ((1u128 << w) - 1);
            let n = match m {
                Popc => bits.count_ones(),
                Clz => bits.leading_zeros() - (128 - w),
                _ => bits.trailing_zeros().min(w),
            };
            Ok(Value::I32(n as i32))
        }
        // wrapping: abs of the least signed value is itself; of an unsigned, x
        Abs => match int {
            Some((x, p)) => Ok(Value::int(p, x.abs())),
            None => f1(f64::abs, f32::abs),
        },
        Atan2 | Pow | Min | Max => match (&vs[0], &vs[1]) {
            (Value::F64(a), Value::F64(b)) => Ok(Value::F64(match m {
                Atan2 => a.atan2(*b),
                Pow => a.powf(*b),
                Min => min_f64(*a, *b),
                _ => max_f64(*a, *b),
            })),
            (Value::F32(a), Value::F32(b)) => Ok(Value::F32(match m {
                Atan2 => a.atan2(*b),
                Pow => a.powf(*b),
                Min => min_f32(*a, *b),
                _ => max_f32(*a, *b),
            })),
            (a, b) if int.is_some() && a.prim() == b.prim() => {
                let (x, y) = (a.as_int().unwrap_or(0), b.as_int().unwrap_or(0));
                match m {
                    Min => Ok(if y < x { b.clone() } else { a.clone() }),
                    Max => Ok(if y > x { b.clone() } else { a.clone() }),
                    _ => err(span, format!("internal error: `{}` of integers", m.name())),
                }
            }
            _ => err(
                span,
                format!("internal error: `{}` of mixed operands", m.name()),
            ),
        },
    }
}

/// `min` and `max` of floats (docs/language.md §5), exactly as the C runtime's
/// `weir_fmin`/`weir_fmax`: IEEE 754-2019 `minimumNumber`/`maximumNumber`. A NaN
/// operand is ignored (the result is NaN only when both are), and `-0.0 < +0.0`,
/// so both are commutative and associative (up to which NaN comes out).
macro_rules! min_max {
    ($min:ident, $max:ident, $t:ty) => {
        pub fn $min(a: $t, b: $t) -> $t {
            if a < b {
                a
            } else if b < a {
                b
            } else if a == b {
                // equal: only zeros can differ, in sign
                if a.is_sign_negative() { a } else { b }
            } else if a.is_nan() {
                b
            } else {
                a
            }
        }
        pub fn $max(a: $t, b: $t) -> $t {
            if a > b {
                a
            } else if b > a {
                b
            } else if a == b {
                if a.is_sign_negative() { b } else { a }
            } else if a.is_nan() {
                b
            } else {
                a
            }
        }
    };
}
min_max!(min_f64, max_f64, f64);
min_max!(min_f32, max_f32, f32);

/// The C library's `lgamma`, the one compiled code calls (Rust's `std` calls the
/// C library for `exp`, `log`, `sin`, `cos`, `tan`, `tanh`, `atan2` and `pow`;
/// it has no `lgamma`), so that both backends agree bit for bit. The reentrant
/// `lgamma_r` computes the same value without writing the global `signgam`.
mod libc_math {
    use std::ffi::c_int;

    #[link(name = "m")]
    unsafe extern "C" {
        fn lgamma_r(x: f64, sign: *mut c_int) -> f64;
        fn lgammaf_r(x: f32, sign: *mut c_int) -> f32;
    }

    pub fn lgamma(x: f64) -> f64 {
        let mut sign: c_int = 0;
        // SAFETY: a pure C library function; `sign` is a valid place for its output.
        unsafe { lgamma_r(x, &mut sign) }
    }

    pub fn lgammaf(x: f32) -> f32 {
        let mut sign: c_int = 0;
        // SAFETY: as above.
        unsafe { lgammaf_r(x, &mut sign) }
    }
}

/// Describe a type for messages.
pub fn show_type(t: &Type) -> String {
    weir_ir::print::user_type_to_string(t)
}
