//! The core IR verifier: scoping, unique names, types (up to sizes), sizes where known,
//! no recursion, no inference leftovers. Runs after every pass in tests and debug builds.

use crate::print::type_to_string;
use crate::*;
use std::collections::{HashMap, HashSet};

/// Verify a whole program. Returns every problem found, each naming the function.
pub fn verify_program(prog: &Program) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    let mut sigs: HashMap<&str, &FunDef> = HashMap::new();
    for d in &prog.defs {
        if sigs.contains_key(d.name.as_str()) {
            errors.push(format!("function `{}` defined twice", d.name));
        }
        let mut v = V {
            sigs: &sigs,
            scope: Vec::new(),
            seen: HashSet::new(),
            errors: Vec::new(),
        };
        v.fundef(d);
        errors.extend(
            v.errors
                .into_iter()
                .map(|e| format!("in `{}`: {e}", d.name)),
        );
        sigs.insert(d.name.as_str(), d);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

struct V<'a> {
    sigs: &'a HashMap<&'a str, &'a FunDef>,
    scope: Vec<(Name, Type)>,
    seen: HashSet<Name>,
    errors: Vec<String>,
}

type T = Result<Type, String>;

fn has_infer(t: &Type) -> bool {
    match t {
        Type::Infer(_) => true,
        Type::Prim(_) => false,
        Type::Array(s, e) => matches!(s, Size::Infer(_)) || has_infer(e),
        Type::Tuple(ts) => ts.iter().any(has_infer),
        // records are the checker's: elaboration erases them to tuples
        Type::Record(_) => true,
        Type::Fun(ps, r) => ps.iter().any(has_infer) || has_infer(r),
    }
}

fn arr(t: &Type, what: &str) -> Result<(Size, Type), String> {
    match t {
        Type::Array(s, e) => Ok((s.clone(), (**e).clone())),
        _ => Err(format!(
            "{what}: expected an array, found {}",
            type_to_string(t)
        )),
    }
}

fn expect_same(a: &Type, b: &Type, what: &str) -> Result<(), String> {
    if a.same_shape(b) && sizes_compatible(a, b) {
        Ok(())
    } else {
        Err(format!(
            "{what}: {} vs {}",
            type_to_string(a),
            type_to_string(b)
        ))
    }
}

/// Two constant sizes that differ are incompatible; everything else may match at run time.
fn sizes_compatible(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Array(s, x), Type::Array(t, y)) => {
            let ok = !matches!((s, t), (Size::Const(p), Size::Const(q)) if p != q);
            ok && sizes_compatible(x, y)
        }
        (Type::Tuple(xs), Type::Tuple(ys)) => {
            xs.iter().zip(ys).all(|(x, y)| sizes_compatible(x, y))
        }
        _ => true,
    }
}

fn fun_type(f: &Type, n: usize, what: &str) -> Result<(Vec<Type>, Type), String> {
    match f {
        Type::Fun(ps, r) if ps.len() == n => Ok((ps.clone(), (**r).clone())),
        _ => Err(format!(
            "{what}: expected a function of {n} parameters, found {}",
            type_to_string(f)
        )),
    }
}

fn numeric(t: &Type, what: &str) -> Result<PrimType, String> {
    match t {
        Type::Prim(p) if *p != PrimType::Bool => Ok(*p),
        _ => Err(format!(
            "{what}: expected a numeric scalar, found {}",
            type_to_string(t)
        )),
    }
}

impl<'a> V<'a> {
    fn bind(&mut self, n: &Name, t: &Type) {
        if !self.seen.insert(n.clone()) {
            self.errors.push(format!("name `{n}` bound twice"));
        }
        if has_infer(t) {
            self.errors.push(format!(
                "`{n}` has an unresolved type {}",
                type_to_string(t)
            ));
        }
        self.check_sizes(t, n);
        self.scope.push((n.clone(), t.clone()));
    }

    fn check_sizes(&mut self, t: &Type, ctx: &str) {
        match t {
            Type::Array(s, e) => {
                if let Size::Var(v) = s {
                    match self.lookup(v) {
                        Some(Type::Prim(PrimType::I64)) => {}
                        Some(other) => {
                            let o = type_to_string(&other);
                            self.errors.push(format!(
                                "size `{v}` in the type of `{ctx}` has type {o}, not i64"
                            ))
                        }
                        None => self
                            .errors
                            .push(format!("size `{v}` in the type of `{ctx}` is not in scope")),
                    }
                }
                self.check_sizes(e, ctx);
            }
            Type::Tuple(ts) => ts.iter().for_each(|t| self.check_sizes(t, ctx)),
            Type::Fun(ps, r) => {
                ps.iter().for_each(|t| self.check_sizes(t, ctx));
                self.check_sizes(r, ctx);
            }
            _ => {}
        }
    }

    fn lookup(&self, n: &str) -> Option<Type> {
        self.scope
            .iter()
            .rev()
            .find(|(m, _)| m == n)
            .map(|(_, t)| t.clone())
    }

    fn fundef(&mut self, d: &FunDef) {
        for s in &d.size_params {
            self.bind(s, &Type::I64);
        }
        for (n, t) in &d.params {
            self.bind(n, t);
        }
        if d.ret.has_fun() {
            self.errors
                .push("a function cannot return a function".into());
        }
        if d.entry && d.params.iter().any(|(_, t)| t.has_fun()) {
            self.errors
                .push("an entry point cannot take functions".into());
        }
        match self.body(&d.body) {
            Ok(t) => {
                if let Err(e) = expect_same(&t, &d.ret, "result type") {
                    self.errors.push(e);
                }
            }
            Err(e) => self.errors.push(e),
        }
    }

    fn body(&mut self, b: &Body) -> T {
        let mark = self.scope.len();
        for st in &b.stmts {
            if matches!(&st.exp, Exp::ArrayLit(xs) if xs.is_empty()) {
                if !matches!(st.ty, Type::Array(..)) {
                    self.errors.push(format!(
                        "statement `{}`: an empty array literal needs an array type",
                        st.var
                    ));
                }
                self.bind(&st.var, &st.ty);
                continue;
            }
            match self.exp(&st.exp) {
                Ok(t) => {
                    if let Err(e) = expect_same(&t, &st.ty, &format!("statement `{}`", st.var)) {
                        self.errors.push(e);
                    }
                }
                Err(e) => self.errors.push(format!("statement `{}`: {e}", st.var)),
            }
            self.bind(&st.var, &st.ty);
        }
        let r = self.atom(&b.result);
        self.scope.truncate(mark);
        r
    }

    fn atom(&self, a: &Atom) -> T {
        match a {
            Atom::Const(c) => Ok(Type::Prim(c.prim())),
            Atom::Var(v) => self
                .lookup(v)
                .ok_or_else(|| format!("variable `{v}` is not in scope")),
        }
    }

    fn lambda(&mut self, l: &Lambda) -> T {
        let mark = self.scope.len();
        for (n, t) in &l.params {
            self.bind(n, t);
        }
        let r = self.body(&l.body);
        self.scope.truncate(mark);
        let r = r?;
        expect_same(&r, &l.ret, "lambda result")?;
        if l.ret.has_fun() {
            return Err("a lambda cannot return a function".into());
        }
        Ok(Type::Fun(
            l.params.iter().map(|p| p.1.clone()).collect(),
            Box::new(l.ret.clone()),
        ))
    }

    fn arg(&mut self, a: ArgRef<'_>) -> T {
        match a {
            ArgRef::Atom(a) => self.atom(a),
            ArgRef::Fun(Fun::Var(v)) => match self.lookup(v) {
                Some(t @ Type::Fun(..)) => Ok(t),
                Some(t) => Err(format!(
                    "`{v}` is used as a function but has type {}",
                    type_to_string(&t)
                )),
                None => Err(format!("function variable `{v}` is not in scope")),
            },
            ArgRef::Fun(Fun::Lambda(l)) => self.lambda(l),
        }
    }

    fn exp(&mut self, e: &Exp) -> T {
        match e {
            Exp::Atom(a) => self.atom(a),
            Exp::Bin(op, a, b) => {
                let ta = self.atom(a)?;
                let tb = self.atom(b)?;
                expect_same(&ta, &tb, "operands")?;
                match op {
                    BinOp::And | BinOp::Or => {
                        expect_same(&ta, &Type::BOOL, "boolean operator")?;
                        Ok(Type::BOOL)
                    }
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        if ta.prim().is_none() {
                            return Err("comparison of non-scalars".into());
                        }
                        Ok(Type::BOOL)
                    }
                    BinOp::Concat => Err("`++` must be elaborated to `concat`".into()),
                    op if op.is_bitwise() => {
                        if !ta.prim().is_some_and(PrimType::is_int) {
                            return Err(format!(
                                "`{}` needs integers, found {}",
                                op.symbol(),
                                type_to_string(&ta)
                            ));
                        }
                        Ok(ta)
                    }
                    _ => {
                        numeric(&ta, "arithmetic")?;
                        Ok(ta)
                    }
                }
            }
            Exp::Un(op, a) => {
                let t = self.atom(a)?;
                match op {
                    UnOp::Neg => {
                        numeric(&t, "negation")?;
                    }
                    UnOp::Not => {
                        if !t.prim().is_some_and(|p| p == PrimType::Bool || p.is_int()) {
                            return Err(format!(
                                "not: expected a bool or an integer, found {}",
                                type_to_string(&t)
                            ));
                        }
                    }
                }
                Ok(t)
            }
            Exp::Convert(p, a) => {
                let t = self.atom(a)?;
                if t.prim().is_none() {
                    return Err("conversion of a non-scalar".into());
                }
                Ok(Type::Prim(*p))
            }
            Exp::Math(m, args) => {
                if args.len() != m.arity() {
                    return Err(format!("`{}` takes {} arguments", m.name(), m.arity()));
                }
                let t0 = self.atom(&args[0])?;
                let p = numeric(&t0, m.name())?;
                if !p.is_float() && !m.allows_int() {
                    return Err(format!("`{}` needs a float", m.name()));
                }
                if m.bit_count() && !p.is_int() {
                    return Err(format!("`{}` needs an integer", m.name()));
                }
                for a in &args[1..] {
                    expect_same(&self.atom(a)?, &t0, m.name())?;
                }
                Ok(Type::Prim(m.result(p)))
            }
            Exp::Tuple(xs) => Ok(Type::Tuple(
                xs.iter().map(|a| self.atom(a)).collect::<Result<_, _>>()?,
            )),
            Exp::Proj(a, i) => match self.atom(a)? {
                Type::Tuple(ts) if *i < ts.len() => Ok(ts[*i].clone()),
                t => Err(format!("projection .{i} of {}", type_to_string(&t))),
            },
            Exp::ArrayLit(xs) => {
                let ts: Vec<Type> = xs.iter().map(|a| self.atom(a)).collect::<Result<_, _>>()?;
                let Some(first) = ts.first() else {
                    return Err("empty array literal".into());
                };
                for t in &ts[1..] {
                    if !t.same_shape(first) {
                        return Err("array literal elements differ in type".into());
                    }
                }
                Ok(Type::array(Size::Const(ts.len() as i64), first.clone()))
            }
            Exp::Index(a, i) => {
                let (_, el) = arr(&self.atom(a)?, "index")?;
                expect_same(&self.atom(i)?, &Type::I64, "index")?;
                Ok(el)
            }
            Exp::Slice(a, s, e) => {
                let (_, el) = arr(&self.atom(a)?, "slice")?;
                expect_same(&self.atom(s)?, &Type::I64, "slice start")?;
                expect_same(&self.atom(e)?, &Type::I64, "slice end")?;
                Ok(Type::array(Size::Unknown, el))
            }
            Exp::Dim(a, k) => {
                let t = self.atom(a)?;
                if t.rank() <= *k {
                    return Err(format!("dim {k} of a value of type {}", type_to_string(&t)));
                }
                Ok(Type::I64)
            }
            Exp::CheckSize(c) => {
                expect_same(&self.atom(&c.got)?, &Type::I64, "assert_size")?;
                expect_same(&self.atom(&c.want)?, &Type::I64, "assert_size")?;
                Ok(Type::I64)
            }
            Exp::Check(c) => {
                let what = c.kind.name();
                if c.args.len() != c.kind.arity() {
                    return Err(format!(
                        "`{what}` takes {} operands, given {}",
                        c.kind.arity(),
                        c.args.len()
                    ));
                }
                if c.kind.has_what() == c.what.is_empty() {
                    return Err(format!("`{what}`: bad message name `{}`", c.what));
                }
                let mut first = None;
                for a in &c.args {
                    let t = self.atom(a)?;
                    if c.kind == CheckKind::NonZero && t.prim().is_some_and(PrimType::is_int) {
                        first.get_or_insert(t);
                        continue;
                    }
                    expect_same(&t, &Type::I64, what)?;
                    first.get_or_insert(t);
                }
                Ok(first.unwrap_or(Type::I64))
            }
            Exp::If(c, t, f) => {
                expect_same(&self.atom(c)?, &Type::BOOL, "condition")?;
                let tt = self.body(t)?;
                let tf = self.body(f)?;
                if !tt.same_shape(&tf) {
                    return Err(format!(
                        "if branches: {} vs {}",
                        type_to_string(&tt),
                        type_to_string(&tf)
                    ));
                }
                Ok(tt)
            }
            Exp::Call(f, args) => {
                let d = *self
                    .sigs
                    .get(f.as_str())
                    .ok_or_else(|| format!("call of `{f}`, which is not an earlier definition"))?;
                if d.params.len() != args.len() {
                    return Err(format!(
                        "`{f}` takes {} arguments, given {}",
                        d.params.len(),
                        args.len()
                    ));
                }
                for ((_, pt), a) in d.params.iter().zip(args) {
                    let at = self.arg(a.as_arg_ref())?;
                    if !at.same_shape(pt) {
                        return Err(format!(
                            "argument of `{f}`: {} vs {}",
                            type_to_string(&at),
                            type_to_string(pt)
                        ));
                    }
                }
                Ok(erase_sizes(&d.ret, &d.size_params, &d.params))
            }
            Exp::Apply(f, args) => {
                let ft = self
                    .lookup(f)
                    .ok_or_else(|| format!("`{f}` is not in scope"))?;
                let (ps, r) = fun_type(&ft, args.len(), "apply")?;
                for (p, a) in ps.iter().zip(args) {
                    let at = self.atom(a)?;
                    if !at.same_shape(p) {
                        return Err(format!(
                            "argument: {} vs {}",
                            type_to_string(&at),
                            type_to_string(p)
                        ));
                    }
                }
                Ok(r)
            }
            Exp::Prim(p) => {
                let ts: Vec<Type> = p
                    .args()
                    .into_iter()
                    .map(|a| self.arg(a))
                    .collect::<Result<_, _>>()?;
                prim_type(p.builtin(), &ts)
            }
            Exp::Loop {
                state,
                init,
                form,
                body,
            } => {
                let ti = self.atom(init)?;
                expect_same(&ti, &state.1, "loop initial state")?;
                let mark = self.scope.len();
                self.bind(&state.0, &state.1);
                match form {
                    LoopForm::For(i, n) => {
                        expect_same(&self.atom(n)?, &Type::I64, "loop bound")?;
                        self.bind(i, &Type::I64);
                    }
                    LoopForm::While(c) => {
                        let tc = self.body(c)?;
                        expect_same(&tc, &Type::BOOL, "loop condition")?;
                    }
                }
                let tb = self.body(body);
                self.scope.truncate(mark);
                let tb = tb?;
                if !tb.same_shape(&state.1) {
                    return Err(format!(
                        "loop body returns {} but the state is {}",
                        type_to_string(&tb),
                        type_to_string(&state.1)
                    ));
                }
                Ok(state.1.clone())
            }
        }
    }
}

/// The callee's result type as seen by a caller: sizes that are not known there become unknown.
fn erase_sizes(t: &Type, _size_params: &[Name], _params: &[(Name, Type)]) -> Type {
    match t {
        Type::Array(s, e) => {
            let s = match s {
                Size::Const(c) => Size::Const(*c),
                _ => Size::Unknown,
            };
            Type::array(s, erase_sizes(e, _size_params, _params))
        }
        Type::Tuple(ts) => Type::Tuple(
            ts.iter()
                .map(|t| erase_sizes(t, _size_params, _params))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// The result type of a builtin applied to arguments of the given types (sizes loosely).
pub fn prim_type(b: Builtin, ts: &[Type]) -> T {
    use Builtin::*;
    let name = b.name();
    let u = Size::Unknown;
    match b {
        Build => {
            expect_same(&ts[0], &Type::I64, name)?;
            let (ps, r) = fun_type(&ts[1], 1, name)?;
            expect_same(&ps[0], &Type::I64, name)?;
            Ok(Type::array(u, r))
        }
        IFold => {
            let (ps, r) = fun_type(&ts[0], 2, name)?;
            expect_same(&ps[0], &ts[1], "ifold state")?;
            expect_same(&r, &ts[1], "ifold result")?;
            expect_same(&ps[1], &Type::I64, name)?;
            expect_same(&ts[2], &Type::I64, name)?;
            Ok(ts[1].clone())
        }
        Length => {
            arr(&ts[0], name)?;
            Ok(Type::I64)
        }
        Map | Map2 | Map3 => {
            let n = ts.len() - 1;
            let (ps, r) = fun_type(&ts[0], n, name)?;
            for (p, t) in ps.iter().zip(&ts[1..]) {
                let (_, el) = arr(t, name)?;
                expect_same(p, &el, name)?;
            }
            Ok(Type::array(u, r))
        }
        Zip | Zip3 => {
            let els = ts
                .iter()
                .map(|t| arr(t, name).map(|x| x.1))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Type::array(u, Type::Tuple(els)))
        }
        Unzip | Unzip3 => {
            let (_, el) = arr(&ts[0], name)?;
            match el {
                Type::Tuple(cs) if cs.len() == if b == Unzip { 2 } else { 3 } => Ok(Type::Tuple(
                    cs.into_iter()
                        .map(|c| Type::array(Size::Unknown, c))
                        .collect(),
                )),
                t => Err(format!("{name} of {}", type_to_string(&t))),
            }
        }
        Fold => {
            let (ps, r) = fun_type(&ts[0], 2, name)?;
            let (_, el) = arr(&ts[2], name)?;
            expect_same(&ps[0], &ts[1], "fold state")?;
            expect_same(&r, &ts[1], "fold result")?;
            expect_same(&ps[1], &el, "fold element")?;
            Ok(ts[1].clone())
        }
        Reduce | Scan => {
            let (ps, r) = fun_type(&ts[0], 2, name)?;
            let (_, el) = arr(&ts[2], name)?;
            expect_same(&ps[0], &el, name)?;
            expect_same(&ps[1], &el, name)?;
            expect_same(&r, &el, name)?;
            expect_same(&ts[1], &el, name)?;
            Ok(if b == Reduce { el } else { Type::array(u, el) })
        }
        Filter => {
            let (ps, r) = fun_type(&ts[0], 1, name)?;
            let (_, el) = arr(&ts[1], name)?;
            expect_same(&ps[0], &el, name)?;
            expect_same(&r, &Type::BOOL, name)?;
            Ok(Type::array(u, el))
        }
        Partition | Partition2 => {
            let k = if b == Partition { 1 } else { 2 };
            let (_, el) = arr(&ts[k], name)?;
            for t in &ts[..k] {
                let (ps, r) = fun_type(t, 1, name)?;
                expect_same(&ps[0], &el, name)?;
                expect_same(&r, &Type::BOOL, name)?;
            }
            Ok(Type::Tuple(vec![Type::array(u.clone(), el); k + 1]))
        }
        Iota => {
            expect_same(&ts[0], &Type::I64, name)?;
            Ok(Type::array(u, Type::I64))
        }
        Replicate => {
            expect_same(&ts[0], &Type::I64, name)?;
            Ok(Type::array(u, ts[1].clone()))
        }
        Concat => {
            let (_, a) = arr(&ts[0], name)?;
            let (_, c) = arr(&ts[1], name)?;
            // rows of different known sizes are well typed (the checker joins
            // them): a run-time size mismatch, not an invalid program
            if !a.same_shape(&c) {
                expect_same(&a, &c, name)?;
            }
            Ok(Type::array(u, a))
        }
        Split => {
            expect_same(&ts[0], &Type::I64, name)?;
            let (_, el) = arr(&ts[1], name)?;
            Ok(Type::Tuple(vec![
                Type::array(Size::Unknown, el.clone()),
                Type::array(Size::Unknown, el),
            ]))
        }
        Flatten => {
            let (_, row) = arr(&ts[0], name)?;
            let (_, el) = arr(&row, name)?;
            Ok(Type::array(u, el))
        }
        Unflatten => {
            expect_same(&ts[0], &Type::I64, name)?;
            expect_same(&ts[1], &Type::I64, name)?;
            let (_, el) = arr(&ts[2], name)?;
            Ok(Type::array(Size::Unknown, Type::array(Size::Unknown, el)))
        }
        Transpose => {
            let (_, row) = arr(&ts[0], name)?;
            let (_, el) = arr(&row, name)?;
            Ok(Type::array(Size::Unknown, Type::array(Size::Unknown, el)))
        }
        Slide => {
            expect_same(&ts[0], &Type::I64, name)?;
            expect_same(&ts[1], &Type::I64, name)?;
            let (_, el) = arr(&ts[2], name)?;
            Ok(Type::array(Size::Unknown, Type::array(Size::Unknown, el)))
        }
        Reverse => {
            arr(&ts[0], name)?;
            Ok(ts[0].clone())
        }
        Rotate => {
            expect_same(&ts[0], &Type::I64, name)?;
            arr(&ts[1], name)?;
            Ok(ts[1].clone())
        }
        Stride => {
            expect_same(&ts[0], &Type::I64, name)?;
            let (_, el) = arr(&ts[1], name)?;
            Ok(Type::array(Size::Unknown, el))
        }
        Gather => {
            let (_, el) = arr(&ts[0], name)?;
            let (_, ix) = arr(&ts[1], name)?;
            expect_same(&ix, &Type::I64, "gather indices")?;
            Ok(Type::array(u, el))
        }
        Scatter => {
            let (s, el) = arr(&ts[0], name)?;
            let (_, ix) = arr(&ts[1], name)?;
            expect_same(&ix, &Type::I64, "scatter indices")?;
            let (_, ve) = arr(&ts[2], name)?;
            expect_same(&ve, &el, "scatter values")?;
            Ok(Type::array(s, el))
        }
        ReduceByIndex => {
            let (s, el) = arr(&ts[0], name)?;
            let (ps, r) = fun_type(&ts[1], 2, name)?;
            expect_same(&ps[0], &el, name)?;
            expect_same(&ps[1], &el, name)?;
            expect_same(&r, &el, name)?;
            expect_same(&ts[2], &el, "reduce_by_index neutral element")?;
            let (_, ix) = arr(&ts[3], name)?;
            expect_same(&ix, &Type::I64, "reduce_by_index indices")?;
            let (_, ve) = arr(&ts[4], name)?;
            expect_same(&ve, &el, "reduce_by_index values")?;
            Ok(Type::array(s, el))
        }
        IReduceByIndex => {
            let (s, el) = arr(&ts[0], name)?;
            let (ps, r) = fun_type(&ts[1], 2, name)?;
            expect_same(&ps[0], &el, name)?;
            expect_same(&ps[1], &el, name)?;
            expect_same(&r, &el, name)?;
            expect_same(&ts[2], &el, "ireduce_by_index neutral element")?;
            expect_same(&ts[3], &Type::I64, "ireduce_by_index count")?;
            let (qs, g) = fun_type(&ts[4], 1, name)?;
            expect_same(&qs[0], &Type::I64, name)?;
            expect_same(
                &g,
                &Type::Tuple(vec![Type::I64, el.clone()]),
                "ireduce_by_index generated (index, value)",
            )?;
            Ok(Type::array(s, el))
        }
        Pad => {
            expect_same(&ts[0], &Type::I64, name)?;
            expect_same(&ts[1], &Type::I64, name)?;
            let (_, el) = arr(&ts[3], name)?;
            expect_same(&ts[2], &el, "pad value")?;
            Ok(Type::array(u, el))
        }
        Copy => {
            arr(&ts[0], name)?;
            Ok(ts[0].clone())
        }
        Update | Update2 | Update3 | UpdateSlice | UpdateSlice2 => {
            // indices, then the slice's bounds, then the value
            let (nidx, slice) = match b {
                Update => (1, false),
                Update2 => (2, false),
                Update3 => (3, false),
                UpdateSlice => (0, true),
                _ => (1, true),
            };
            let mut at = ts[0].clone();
            for k in 0..nidx {
                expect_same(&ts[1 + k], &Type::I64, "update index")?;
                at = arr(&at, name)?.1;
            }
            if slice {
                expect_same(&ts[1 + nidx], &Type::I64, "update slice start")?;
                expect_same(&ts[2 + nidx], &Type::I64, "update slice end")?;
                let (_, el) = arr(&at, name)?;
                let (_, vel) = arr(&ts[3 + nidx], name)?;
                expect_same(&vel, &el, "update slice value")?;
            } else {
                expect_same(&ts[1 + nidx], &at, "update value")?;
            }
            Ok(ts[0].clone())
        }
        ArgMax | ArgMin => {
            let (_, el) = arr(&ts[0], name)?;
            numeric(&el, name)?;
            Ok(Type::I64)
        }
        Sum | Product | Maximum | Minimum => {
            let (_, el) = arr(&ts[0], name)?;
            numeric(&el, name)?;
            Ok(el)
        }
        IReduce => {
            let (ps, r) = fun_type(&ts[0], 2, name)?;
            let (qs, e) = fun_type(&ts[3], 1, name)?;
            expect_same(&ps[0], &ts[1], name)?;
            expect_same(&ps[1], &ts[1], name)?;
            expect_same(&r, &ts[1], name)?;
            expect_same(&e, &ts[1], name)?;
            expect_same(&qs[0], &Type::I64, name)?;
            expect_same(&ts[2], &Type::I64, name)?;
            Ok(ts[1].clone())
        }
    }
}
