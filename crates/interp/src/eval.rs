//! The reference interpreter of the core IR. It defines Weir's meaning: every later
//! stage must produce the same results (and the same runtime errors).

use crate::value::Value;
use std::collections::HashMap;
use std::rc::Rc;
use weir_ir::print::type_to_string;
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
}

fn err<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(RuntimeError {
        message: msg.into(),
        span,
    })
}

fn shape_of(v: &Value) -> Vec<usize> {
    v.shape()
}

/// Check that all elements of a new array have the same shape (arrays are rectangular).
fn regular(xs: &[Value], span: Span, what: &str) -> R<()> {
    if let Some(Value::Array(_)) = xs.first() {
        let s0 = shape_of(&xs[0]);
        for (i, x) in xs.iter().enumerate().skip(1) {
            let s = shape_of(x);
            if s != s0 {
                return err(
                    span,
                    format!(
                        "size mismatch: {what} produced an irregular array (element 0 has shape {s0:?}, element {i} has shape {s:?})"
                    ),
                );
            }
        }
    }
    Ok(())
}

impl<'p> Interp<'p> {
    pub fn new(prog: &'p Program) -> Self {
        Interp {
            defs: prog.defs.iter().map(|d| (d.name.as_str(), d)).collect(),
            depth: 0,
        }
    }

    /// Call a definition by name with argument values.
    pub fn call(&mut self, name: &str, args: Vec<Value>) -> R<Value> {
        let Some(d) = self.defs.get(name).copied() else {
            return err(Span::default(), format!("no function named `{name}`"));
        };
        self.call_def(d, args, &[], d.span)
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
            Atom::Const(c) => Ok(match c {
                Const::F64(v) => Value::F64(*v),
                Const::F32(v) => Value::F32(*v),
                Const::I64(v) => Value::I64(*v),
                Const::I32(v) => Value::I32(*v),
                Const::Bool(v) => Value::Bool(*v),
            }),
            Atom::Var(v) => match env.get(v) {
                Some(x) => Ok(x.clone()),
                None => err(span, format!("internal error: variable `{v}` is unbound")),
            },
        }
    }

    fn body<'e>(&mut self, b: &'p Body, env: &mut Env<'p, 'e>) -> R<Value> {
        for st in &b.stmts {
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
                Ok(match (op, x) {
                    (UnOp::Neg, Value::F64(v)) => Value::F64(-v),
                    (UnOp::Neg, Value::F32(v)) => Value::F32(-v),
                    (UnOp::Neg, Value::I64(v)) => Value::I64(v.wrapping_neg()),
                    (UnOp::Neg, Value::I32(v)) => Value::I32(v.wrapping_neg()),
                    (UnOp::Not, Value::Bool(v)) => Value::Bool(!v),
                    (_, v) => {
                        return err(
                            span,
                            format!("internal error: bad operand {}", v.kind_name()),
                        );
                    }
                })
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
                Ok(Value::array(vs))
            }
            Exp::Index(a, i) => {
                let arr = self.array_atom(a, env, span)?;
                let i = self.i64_atom(i, env, span)?;
                index(&arr, i, span)
            }
            Exp::Dim(a, k) => {
                let mut v = self.atom(a, env, span)?;
                for _ in 0..*k {
                    v = match v {
                        Value::Array(xs) => match xs.first() {
                            Some(x) => x.clone(),
                            None => return Ok(Value::I64(0)),
                        },
                        _ => return err(span, "internal error: `dim` of a non-array"),
                    };
                }
                match v {
                    Value::Array(xs) => Ok(Value::I64(xs.len() as i64)),
                    _ => err(span, "internal error: `dim` of a non-array"),
                }
            }
            Exp::CheckSize(c) => {
                let got = self.i64_atom(&c.got, env, span)?;
                let want = self.i64_atom(&c.want, env, span)?;
                if got != want {
                    return err(span, c.message(got, want));
                }
                Ok(Value::I64(got))
            }
            Exp::Slice(a, s, e) => {
                let arr = self.array_atom(a, env, span)?;
                let s = self.i64_atom(s, env, span)?;
                let e = self.i64_atom(e, env, span)?;
                if s < 0 || e < s || e as usize > arr.len() {
                    return err(
                        span,
                        format!(
                            "slice [{s}:{e}] out of bounds for an array of length {}",
                            arr.len()
                        ),
                    );
                }
                Ok(Value::array(arr[s as usize..e as usize].to_vec()))
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
            Exp::Prim(b, args) => self.prim(*b, args, env, span, ty),
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

    fn prim<'e>(
        &mut self,
        b: Builtin,
        args: &'p [Arg],
        env: &Env<'p, 'e>,
        span: Span,
        ty: &Type,
    ) -> R<Value> {
        use Builtin::*;
        let atom = |i: usize| -> R<Value> {
            match args.get(i) {
                Some(Arg::Atom(a)) => self.atom(a, env, span),
                _ => err(
                    span,
                    format!(
                        "internal error: argument {i} of `{}` is not a value",
                        b.name()
                    ),
                ),
            }
        };
        let arr = |i: usize| -> R<Rc<Vec<Value>>> {
            match atom(i)? {
                Value::Array(a) => Ok(a),
                v => err(
                    span,
                    format!(
                        "internal error: `{}` expects an array, found {}",
                        b.name(),
                        v.kind_name()
                    ),
                ),
            }
        };
        let int = |i: usize| -> R<i64> {
            match atom(i)? {
                Value::I64(v) => Ok(v),
                v => err(
                    span,
                    format!(
                        "internal error: `{}` expects an i64, found {}",
                        b.name(),
                        v.kind_name()
                    ),
                ),
            }
        };
        let fun = |i: usize| -> R<Closure<'p, '_>> {
            match args.get(i) {
                Some(Arg::Fun(f)) => self.closure(f, env, span),
                _ => err(
                    span,
                    format!(
                        "internal error: argument {i} of `{}` is not a function",
                        b.name()
                    ),
                ),
            }
        };
        let count = |n: i64, what: &str| -> R<usize> {
            if n < 0 {
                err(
                    span,
                    format!("`{}` given a negative {what} ({n})", b.name()),
                )
            } else {
                Ok(n as usize)
            }
        };
        match b {
            Build => {
                let n = count(int(0)?, "size")?;
                let f = fun(1)?;
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    out.push(self.apply_closure(f, vec![Value::I64(i as i64)])?);
                }
                regular(&out, span, "build")?;
                Ok(Value::array(out))
            }
            IFold => {
                let f = fun(0)?;
                let mut acc = atom(1)?;
                let n = int(2)?;
                for i in 0..n.max(0) {
                    acc = self.apply_closure(f, vec![acc, Value::I64(i)])?;
                }
                Ok(acc)
            }
            Length => Ok(Value::I64(arr(0)?.len() as i64)),
            Map | Map2 | Map3 => {
                let f = fun(0)?;
                let arrays: Vec<Rc<Vec<Value>>> = (1..args.len()).map(arr).collect::<R<_>>()?;
                same_lengths(&arrays, span, b.name())?;
                let n = arrays[0].len();
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let xs = arrays.iter().map(|a| a[i].clone()).collect();
                    out.push(self.apply_closure(f, xs)?);
                }
                regular(&out, span, b.name())?;
                Ok(Value::array(out))
            }
            Zip | Zip3 => {
                let arrays: Vec<Rc<Vec<Value>>> = (0..args.len()).map(arr).collect::<R<_>>()?;
                same_lengths(&arrays, span, b.name())?;
                let n = arrays[0].len();
                Ok(Value::array(
                    (0..n)
                        .map(|i| Value::tuple(arrays.iter().map(|a| a[i].clone()).collect()))
                        .collect(),
                ))
            }
            Unzip | Unzip3 => {
                let a = arr(0)?;
                let k = if b == Unzip { 2 } else { 3 };
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
            Fold => {
                let f = fun(0)?;
                let mut acc = atom(1)?;
                for x in arr(2)?.iter() {
                    acc = self.apply_closure(f, vec![acc, x.clone()])?;
                }
                Ok(acc)
            }
            Reduce => {
                let f = fun(0)?;
                let mut acc = atom(1)?;
                for x in arr(2)?.iter() {
                    acc = self.apply_closure(f, vec![acc, x.clone()])?;
                }
                Ok(acc)
            }
            IReduce => {
                let op = fun(0)?;
                let mut acc = atom(1)?;
                let n = int(2)?;
                let g = fun(3)?;
                for i in 0..n.max(0) {
                    let x = self.apply_closure(g, vec![Value::I64(i)])?;
                    acc = self.apply_closure(op, vec![acc, x])?;
                }
                Ok(acc)
            }
            Scan => {
                let f = fun(0)?;
                let mut acc = atom(1)?;
                let a = arr(2)?;
                let mut out = Vec::with_capacity(a.len());
                for x in a.iter() {
                    acc = self.apply_closure(f, vec![acc, x.clone()])?;
                    out.push(acc.clone());
                }
                regular(&out, span, "scan")?;
                Ok(Value::array(out))
            }
            Filter => {
                let f = fun(0)?;
                let mut out = Vec::new();
                for x in arr(1)?.iter() {
                    if matches!(self.apply_closure(f, vec![x.clone()])?, Value::Bool(true)) {
                        out.push(x.clone());
                    }
                }
                Ok(Value::array(out))
            }
            Iota => {
                let n = count(int(0)?, "size")?;
                Ok(Value::array((0..n as i64).map(Value::I64).collect()))
            }
            Replicate => {
                let n = count(int(0)?, "count")?;
                let x = atom(1)?;
                Ok(Value::array(vec![x; n]))
            }
            Concat => {
                let a = arr(0)?;
                let c = arr(1)?;
                let mut out = Vec::with_capacity(a.len() + c.len());
                out.extend(a.iter().cloned());
                out.extend(c.iter().cloned());
                regular(&out, span, "concatenation (`++`)")?;
                Ok(Value::array(out))
            }
            Split => {
                let k = int(0)?;
                let a = arr(1)?;
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
                Ok(Value::tuple(vec![
                    Value::array(x.to_vec()),
                    Value::array(y.to_vec()),
                ]))
            }
            Flatten => {
                let a = arr(0)?;
                let mut out = Vec::new();
                for row in a.iter() {
                    match row {
                        Value::Array(r) => out.extend(r.iter().cloned()),
                        v => {
                            return err(
                                span,
                                format!("internal error: flatten of {}", v.kind_name()),
                            );
                        }
                    }
                }
                Ok(Value::array(out))
            }
            Unflatten => {
                let n = count(int(0)?, "size")?;
                let m = count(int(1)?, "size")?;
                let a = arr(2)?;
                if n.checked_mul(m) != Some(a.len()) {
                    return err(
                        span,
                        format!(
                            "size mismatch: unflatten {n} {m} of an array of length {}",
                            a.len()
                        ),
                    );
                }
                Ok(Value::array(
                    (0..n)
                        .map(|i| Value::array(a[i * m..(i + 1) * m].to_vec()))
                        .collect(),
                ))
            }
            Transpose => {
                let a = arr(0)?;
                let rows: Vec<Rc<Vec<Value>>> = a
                    .iter()
                    .map(|r| match r {
                        Value::Array(x) => Ok(x.clone()),
                        v => err(
                            span,
                            format!("internal error: transpose of {}", v.kind_name()),
                        ),
                    })
                    .collect::<R<_>>()?;
                let m = rows.first().map(|r| r.len()).unwrap_or(0);
                Ok(Value::array(
                    (0..m)
                        .map(|j| Value::array(rows.iter().map(|r| r[j].clone()).collect()))
                        .collect(),
                ))
            }
            Slide => {
                let w = int(0)?;
                let s = int(1)?;
                let a = arr(2)?;
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
            Reverse => {
                let a = arr(0)?;
                Ok(Value::array(a.iter().rev().cloned().collect()))
            }
            Rotate => {
                let k = int(0)?;
                let a = arr(1)?;
                let n = a.len() as i64;
                if n == 0 {
                    return Ok(Value::Array(a));
                }
                Ok(Value::array(
                    (0..n)
                        .map(|i| a[(i + k).rem_euclid(n) as usize].clone())
                        .collect(),
                ))
            }
            Gather => {
                let a = arr(0)?;
                let idx = arr(1)?;
                let mut out = Vec::with_capacity(idx.len());
                for i in idx.iter() {
                    let Value::I64(i) = i else {
                        return err(span, "internal error: gather index is not i64");
                    };
                    out.push(index(&a, *i, span)?);
                }
                Ok(Value::array(out))
            }
            Pad => {
                let lo = count(int(0)?, "padding")?;
                let hi = count(int(1)?, "padding")?;
                let x = atom(2)?;
                let a = arr(3)?;
                let mut out = Vec::with_capacity(lo + a.len() + hi);
                out.extend(std::iter::repeat_n(x.clone(), lo));
                out.extend(a.iter().cloned());
                out.extend(std::iter::repeat_n(x, hi));
                regular(&out, span, "pad")?;
                Ok(Value::array(out))
            }
            Sum | Product | Maximum | Minimum => {
                let a = arr(0)?;
                let elem = match ty {
                    Type::Prim(PrimType::F32) => Some(Value::F32(0.0)),
                    Type::Prim(PrimType::I64) => Some(Value::I64(0)),
                    Type::Prim(PrimType::I32) => Some(Value::I32(0)),
                    _ => a.first().cloned(),
                };
                let init = match (b, &elem) {
                    (Sum, Some(Value::F32(_))) => Value::F32(0.0),
                    (Sum, Some(Value::I64(_))) => Value::I64(0),
                    (Sum, Some(Value::I32(_))) => Value::I32(0),
                    (Sum, _) => Value::F64(0.0),
                    (Product, Some(Value::F32(_))) => Value::F32(1.0),
                    (Product, Some(Value::I64(_))) => Value::I64(1),
                    (Product, Some(Value::I32(_))) => Value::I32(1),
                    (Product, _) => Value::F64(1.0),
                    (Maximum, Some(Value::F32(_))) => Value::F32(f32::NEG_INFINITY),
                    (Maximum, Some(Value::I64(_))) => Value::I64(i64::MIN),
                    (Maximum, Some(Value::I32(_))) => Value::I32(i32::MIN),
                    (Maximum, _) => Value::F64(f64::NEG_INFINITY),
                    (_, Some(Value::F32(_))) => Value::F32(f32::INFINITY),
                    (_, Some(Value::I64(_))) => Value::I64(i64::MAX),
                    (_, Some(Value::I32(_))) => Value::I32(i32::MAX),
                    _ => Value::F64(f64::INFINITY),
                };
                let mut acc = init;
                for x in a.iter() {
                    acc = match b {
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

fn same_lengths(arrays: &[Rc<Vec<Value>>], span: Span, name: &str) -> R<()> {
    let n = arrays[0].len();
    for (i, a) in arrays.iter().enumerate().skip(1) {
        if a.len() != n {
            return err(
                span,
                format!(
                    "size mismatch: the arrays given to `{name}` have lengths {n} and {} (argument {})",
                    a.len(),
                    i + 1
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
            let n = xs.len() as i64;
            match s {
                Size::Var(name) => match sizes.get(name.as_str()) {
                    Some(&want) if want != n => return Err((name.clone(), want, n)),
                    Some(_) => {}
                    None => {
                        sizes.insert(name.as_str(), n);
                    }
                },
                Size::Const(c) if *c != n => return Err((c.to_string(), *c, n)),
                _ => {}
            }
            if let Some(x) = xs.first() {
                bind_sizes(e, x, sizes)?;
            }
            Ok(())
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

fn int_pow(b: i64, e: i64, span: Span) -> R<i64> {
    if e < 0 {
        return err(span, format!("negative exponent {e} in an integer power"));
    }
    let mut r: i64 = 1;
    let mut b = b;
    let mut e = e as u64;
    while e > 0 {
        if e & 1 == 1 {
            r = r.wrapping_mul(b);
        }
        b = b.wrapping_mul(b);
        e >>= 1;
    }
    Ok(r)
}

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
        (I64(a), I64(b)) => match op {
            Add => Ok(I64(a.wrapping_add(b))),
            Sub => Ok(I64(a.wrapping_sub(b))),
            Mul => Ok(I64(a.wrapping_mul(b))),
            Div if b == 0 => err(span, "integer division by zero"),
            Rem if b == 0 => err(span, "integer division by zero (remainder `%` by 0)"),
            Div => Ok(I64(a.wrapping_div(b))),
            Rem => Ok(I64(a.wrapping_rem(b))),
            Pow => Ok(I64(int_pow(a, b, span)?)),
            _ => cmp!(a, b),
        },
        (I32(a), I32(b)) => match op {
            Add => Ok(I32(a.wrapping_add(b))),
            Sub => Ok(I32(a.wrapping_sub(b))),
            Mul => Ok(I32(a.wrapping_mul(b))),
            Div if b == 0 => err(span, "integer division by zero"),
            Rem if b == 0 => err(span, "integer division by zero (remainder `%` by 0)"),
            Div => Ok(I32(a.wrapping_div(b))),
            Rem => Ok(I32(a.wrapping_rem(b))),
            Pow => Ok(I32(int_pow(a as i64, b as i64, span)? as i32)),
            _ => cmp!(a, b),
        },
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

pub fn convert(p: PrimType, v: Value, span: Span) -> R<Value> {
    let f = match v {
        Value::F64(x) => x,
        Value::F32(x) => x as f64,
        Value::I64(x) => {
            return Ok(match p {
                PrimType::F64 => Value::F64(x as f64),
                PrimType::F32 => Value::F32(x as f32),
                PrimType::I64 => Value::I64(x),
                PrimType::I32 => Value::I32(x as i32),
                PrimType::Bool => Value::Bool(x != 0),
            });
        }
        Value::I32(x) => x as f64,
        Value::Bool(b) => f64::from(u8::from(b)),
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
        PrimType::I64 => Value::I64(f as i64),
        PrimType::I32 => Value::I32(f as i32),
        PrimType::Bool => Value::Bool(f != 0.0),
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
        Lgamma => f1(libm::lgamma, libm::lgammaf),
        Abs => match vs[0] {
            Value::I64(x) => Ok(Value::I64(x.wrapping_abs())),
            Value::I32(x) => Ok(Value::I32(x.wrapping_abs())),
            _ => f1(f64::abs, f32::abs),
        },
        Atan2 | Pow | Min | Max => match (&vs[0], &vs[1]) {
            (Value::F64(a), Value::F64(b)) => Ok(Value::F64(match m {
                Atan2 => a.atan2(*b),
                Pow => a.powf(*b),
                Min => fmin(*a, *b),
                _ => fmax(*a, *b),
            })),
            (Value::F32(a), Value::F32(b)) => Ok(Value::F32(match m {
                Atan2 => a.atan2(*b),
                Pow => a.powf(*b),
                Min => fmin(*a as f64, *b as f64) as f32,
                _ => fmax(*a as f64, *b as f64) as f32,
            })),
            (Value::I64(a), Value::I64(b)) => match m {
                Min => Ok(Value::I64(*a.min(b))),
                Max => Ok(Value::I64(*a.max(b))),
                _ => err(span, format!("internal error: `{}` of integers", m.name())),
            },
            (Value::I32(a), Value::I32(b)) => match m {
                Min => Ok(Value::I32(*a.min(b))),
                Max => Ok(Value::I32(*a.max(b))),
                _ => err(span, format!("internal error: `{}` of integers", m.name())),
            },
            _ => err(
                span,
                format!("internal error: `{}` of mixed operands", m.name()),
            ),
        },
    }
}

/// C's `fmin`: a NaN operand is ignored.
fn fmin(a: f64, b: f64) -> f64 {
    a.min(b)
}

/// C's `fmax`: a NaN operand is ignored.
fn fmax(a: f64, b: f64) -> f64 {
    a.max(b)
}

/// Describe a type for messages.
pub fn show_type(t: &Type) -> String {
    type_to_string(t)
}
