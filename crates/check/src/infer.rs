//! Unification-based inference of types and sizes.
//!
//! Type variables carry a [`Kind`] (what literals and operators require of them);
//! size variables are bound by unification. `strict` unification demands equal sizes
//! where both are known; `join` (for `if` branches and array literals) turns
//! disagreeing sizes into [`Size::Unknown`].

use weir_ir::print::size_to_string;
use weir_ir::{PrimType, Size, Type, display_name};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Any type.
    Any,
    /// A scalar (numeric or bool).
    Scalar,
    /// A numeric scalar.
    Num,
    /// An integer type (from an integer literal).
    Int,
    /// A float type (from a float literal).
    Float,
}

impl Kind {
    fn admits(self, p: PrimType) -> bool {
        match self {
            Kind::Any | Kind::Scalar => true,
            Kind::Num => p != PrimType::Bool,
            Kind::Int => p.is_int(),
            Kind::Float => p.is_float(),
        }
    }
    /// The meet of two constraints, if any.
    fn meet(self, other: Kind) -> Option<Kind> {
        use Kind::*;
        Some(match (self, other) {
            (Any, k) | (k, Any) => k,
            (Scalar, k) | (k, Scalar) => k,
            (Num, k) | (k, Num) => k,
            (Int, Int) => Int,
            (Float, Float) => Float,
            _ => return None,
        })
    }
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Any => "a value",
            Kind::Scalar => "a scalar",
            Kind::Num => "a number",
            Kind::Int => "an integer",
            Kind::Float => "a float",
        }
    }
}

#[derive(Debug, Clone)]
pub enum UnifyError {
    Type(Type, Type),
    Size(Size, Size),
    /// A kind constraint was violated: the constrained side's kind, the other side's
    /// type, and whether the constrained side is the one being checked ("found").
    Kind(Kind, Type, bool),
}

#[derive(Default)]
pub struct Infer {
    tys: Vec<(Option<Type>, Kind)>,
    sizes: Vec<Option<Size>>,
}

impl Infer {
    pub fn fresh(&mut self, kind: Kind) -> Type {
        self.tys.push((None, kind));
        Type::Infer((self.tys.len() - 1) as u32)
    }
    pub fn fresh_size(&mut self) -> Size {
        self.sizes.push(None);
        Size::Infer((self.sizes.len() - 1) as u32)
    }
    pub fn kind_of(&self, v: u32) -> Kind {
        self.tys.get(v as usize).map(|x| x.1).unwrap_or(Kind::Any)
    }

    /// Follow bindings at the top of a type.
    pub fn shallow(&self, t: &Type) -> Type {
        self.shallow_ref(t).clone()
    }
    /// Follow bindings at the top of a type, without copying it (the recursive
    /// walks below use this, so that they stay linear in the size of the type).
    fn shallow_ref<'a>(&'a self, t: &'a Type) -> &'a Type {
        let mut t = t;
        while let Type::Infer(v) = t {
            match self.tys.get(*v as usize).and_then(|x| x.0.as_ref()) {
                Some(b) => t = b,
                None => break,
            }
        }
        t
    }
    /// `t` with the bindings at its top followed, copying only a bound type.
    fn top<'a>(&self, t: &'a Type, copy: &'a mut Option<Type>) -> &'a Type {
        if matches!(t, Type::Infer(_)) {
            copy.insert(self.shallow(t))
        } else {
            t
        }
    }
    pub fn size(&self, s: &Size) -> Size {
        let mut s = s.clone();
        while let Size::Infer(v) = s {
            match self.sizes.get(v as usize).and_then(|x| x.clone()) {
                Some(b) => s = b,
                None => break,
            }
        }
        s
    }
    /// Resolve all bound variables (unbound ones stay).
    pub fn resolve(&self, t: &Type) -> Type {
        match self.shallow_ref(t) {
            Type::Array(s, e) => Type::array(self.size(s), self.resolve(e)),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.resolve(t)).collect()),
            Type::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.resolve(t)))
                    .collect(),
            ),
            Type::Fun(ps, r) => Type::Fun(
                ps.iter().map(|t| self.resolve(t)).collect(),
                Box::new(self.resolve(r)),
            ),
            t => t.clone(),
        }
    }

    fn occurs(&self, v: u32, t: &Type) -> bool {
        match self.shallow_ref(t) {
            Type::Infer(w) => v == *w,
            Type::Array(_, e) => self.occurs(v, e),
            Type::Tuple(ts) => ts.iter().any(|t| self.occurs(v, t)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.occurs(v, t)),
            Type::Fun(ps, r) => ps.iter().any(|t| self.occurs(v, t)) || self.occurs(v, r),
            Type::Prim(_) => false,
        }
    }

    fn bind_ty(&mut self, v: u32, t: &Type) -> Result<(), UnifyError> {
        let kind = self.kind_of(v);
        match self.shallow(t) {
            Type::Infer(w) => {
                if w == v {
                    return Ok(());
                }
                let kw = self.kind_of(w);
                let Some(k) = kind.meet(kw) else {
                    return Err(UnifyError::Type(Type::Infer(v), Type::Infer(w)));
                };
                self.tys[w as usize].1 = k;
                self.tys[v as usize].0 = Some(Type::Infer(w));
                Ok(())
            }
            Type::Prim(p) => {
                if !kind.admits(p) {
                    return Err(UnifyError::Kind(kind, Type::Prim(p), true));
                }
                self.tys[v as usize].0 = Some(Type::Prim(p));
                Ok(())
            }
            other => {
                if kind != Kind::Any {
                    return Err(UnifyError::Kind(kind, other, true));
                }
                if self.occurs(v, &other) {
                    return Err(UnifyError::Type(Type::Infer(v), other));
                }
                self.tys[v as usize].0 = Some(other);
                Ok(())
            }
        }
    }

    /// Constrain a type to a kind (e.g. numeric for `+`).
    pub fn constrain(&mut self, t: &Type, k: Kind) -> Result<(), UnifyError> {
        match self.shallow(t) {
            Type::Infer(v) => {
                let cur = self.kind_of(v);
                match cur.meet(k) {
                    Some(m) => {
                        self.tys[v as usize].1 = m;
                        Ok(())
                    }
                    None => Err(UnifyError::Kind(k, Type::Infer(v), false)),
                }
            }
            Type::Prim(p) if k.admits(p) => Ok(()),
            other => Err(UnifyError::Kind(k, other, false)),
        }
    }

    pub fn unify_size(&mut self, a: &Size, b: &Size) -> Result<(), UnifyError> {
        let a = self.size(a);
        let b = self.size(b);
        match (&a, &b) {
            (Size::Infer(v), _) => {
                if a != b {
                    self.sizes[*v as usize] = Some(b.clone());
                }
                Ok(())
            }
            (_, Size::Infer(w)) => {
                self.sizes[*w as usize] = Some(a.clone());
                Ok(())
            }
            (Size::Unknown, _) | (_, Size::Unknown) => Ok(()),
            _ if a == b => Ok(()),
            _ => Err(UnifyError::Size(a, b)),
        }
    }

    /// Unify two types; sizes must agree where both are known.
    pub fn unify(&mut self, a: &Type, b: &Type) -> Result<(), UnifyError> {
        let (mut ca, mut cb) = (None, None);
        let a = self.top(a, &mut ca);
        let b = self.top(b, &mut cb);
        match (a, b) {
            (Type::Infer(v), _) => self.bind_ty(*v, b),
            (_, Type::Infer(w)) => self.bind_ty(*w, a).map_err(|e| match e {
                UnifyError::Kind(k, t, found) => UnifyError::Kind(k, t, !found),
                e => e,
            }),
            (Type::Prim(p), Type::Prim(q)) if p == q => Ok(()),
            (Type::Array(s, x), Type::Array(t, y)) => {
                self.unify(x, y).map_err(|e| self.lift(e, a, b))?;
                self.unify_size(s, t)
            }
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(x, y).map_err(|e| self.lift(e, a, b))?;
                }
                Ok(())
            }
            (Type::Record(xs), Type::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
            {
                for ((_, x), (_, y)) in xs.iter().zip(ys) {
                    self.unify(x, y).map_err(|e| self.lift(e, a, b))?;
                }
                Ok(())
            }
            (Type::Fun(ps, r), Type::Fun(qs, s)) if ps.len() == qs.len() => {
                for (x, y) in ps.iter().zip(qs) {
                    self.unify(x, y).map_err(|e| self.lift(e, a, b))?;
                }
                self.unify(r, s).map_err(|e| self.lift(e, a, b))
            }
            _ => Err(UnifyError::Type(a.clone(), b.clone())),
        }
    }

    /// Report mismatches of components as mismatches of the whole types.
    fn lift(&self, e: UnifyError, a: &Type, b: &Type) -> UnifyError {
        match e {
            UnifyError::Type(..) | UnifyError::Kind(..) => UnifyError::Type(a.clone(), b.clone()),
            s => s,
        }
    }

    /// Like [`Infer::unify`] but sizes that disagree become unknown; returns the joined type.
    pub fn join(&mut self, a: &Type, b: &Type) -> Result<Type, UnifyError> {
        let (mut ca, mut cb) = (None, None);
        let ra = self.top(a, &mut ca);
        let rb = self.top(b, &mut cb);
        match (ra, rb) {
            (Type::Array(s, x), Type::Array(t, y)) => {
                let e = self.join(x, y).map_err(|e| self.lift(e, ra, rb))?;
                let s = self.size(s);
                let t = self.size(t);
                let sz = match (&s, &t) {
                    _ if s == t => s,
                    (Size::Infer(_), _) | (_, Size::Infer(_)) => {
                        self.unify_size(&s, &t)?;
                        self.size(&s)
                    }
                    _ => Size::Unknown,
                };
                Ok(Type::array(sz, e))
            }
            (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                let mut out = Vec::new();
                for (x, y) in xs.iter().zip(ys) {
                    out.push(self.join(x, y).map_err(|e| self.lift(e, ra, rb))?);
                }
                Ok(Type::Tuple(out))
            }
            (Type::Record(xs), Type::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
            {
                let mut out = Vec::new();
                for ((n, x), (_, y)) in xs.iter().zip(ys) {
                    out.push((
                        n.clone(),
                        self.join(x, y).map_err(|e| self.lift(e, ra, rb))?,
                    ));
                }
                Ok(Type::Record(out))
            }
            _ => {
                self.unify(ra, rb)?;
                Ok(ra.clone())
            }
        }
    }

    /// Human-readable type: sizes show their source names (`n` for `n_3`).
    pub fn show(&self, t: &Type) -> String {
        let t = self.resolve(t);
        let mut s = String::new();
        self.show_into(&mut s, &t);
        s
    }
    fn show_into(&self, s: &mut String, t: &Type) {
        match t {
            Type::Prim(p) => s.push_str(p.name()),
            Type::Array(sz, e) => {
                s.push('[');
                s.push_str(&self.show_size(sz));
                s.push(']');
                self.show_into(s, e);
            }
            Type::Tuple(ts) => {
                s.push('(');
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    self.show_into(s, t);
                }
                s.push(')');
            }
            Type::Record(fs) => {
                s.push('{');
                for (i, (n, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    s.push_str(n);
                    s.push_str(": ");
                    self.show_into(s, t);
                }
                s.push('}');
            }
            Type::Fun(ps, r) => {
                s.push('(');
                for p in ps {
                    self.show_into(s, p);
                    s.push_str(" -> ");
                }
                self.show_into(s, r);
                s.push(')');
            }
            Type::Infer(v) => s.push_str(match self.kind_of(*v) {
                Kind::Int => "integer",
                Kind::Float => "float",
                Kind::Num => "number",
                Kind::Scalar => "scalar",
                Kind::Any => "?",
            }),
        }
    }
    pub fn show_size(&self, sz: &Size) -> String {
        match self.size(sz) {
            Size::Var(v) => display_name(&v).to_string(),
            Size::Infer(_) | Size::Unknown => String::new(),
            s => size_to_string(&s),
        }
    }
}
