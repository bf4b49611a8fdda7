//! The text form of the core IR. [`crate::parse`] reads it back.
//!
//! ```text
//! def add3 [n_0] (a_1: [n_0]f64) (b_2: [n_0]f64) : [n_0]f64 = {
//!   let t_3: [n_0]f64 = map2 (\(x_4: f64) (y_5: f64) : f64 -> {
//!     let s_6: f64 = x_4 + y_5
//!     in s_6
//!   }) a_1 b_2
//!   in t_3
//! }
//! ```

use crate::*;
use std::fmt::Write;

pub fn type_to_string(t: &Type) -> String {
    let mut s = String::new();
    write_type(&mut s, t);
    s
}

/// A type as the user writes it, for messages: sizes by their source names
/// (`[n]f64` for the core `[n_3]f64`, see [`crate::display_name`]), a size
/// the program does not name (an inference variable) as `[]`.
pub fn user_type_to_string(t: &Type) -> String {
    fn user(t: &Type) -> Type {
        match t {
            Type::Array(sz, e) => {
                let sz = match sz {
                    Size::Var(v) => Size::Var(crate::display_name(v).to_string()),
                    Size::Infer(_) => Size::Unknown,
                    s => s.clone(),
                };
                Type::Array(sz, Box::new(user(e)))
            }
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(user).collect()),
            Type::Record(fs) => {
                Type::Record(fs.iter().map(|(n, t)| (n.clone(), user(t))).collect())
            }
            Type::Fun(ps, r) => Type::Fun(ps.iter().map(user).collect(), Box::new(user(r))),
            t => t.clone(),
        }
    }
    type_to_string(&user(t))
}

/// The text form of a [`Check`]: `assert_index i n`, `assert_nonneg n build`, ...
pub fn check_to_string(c: &Check) -> String {
    let mut s = c.kind.name().to_string();
    for a in &c.args {
        s.push(' ');
        s.push_str(&atom_to_string(a));
    }
    if c.kind.has_what() {
        s.push(' ');
        s.push_str(&c.what);
    }
    s
}

pub fn size_to_string(sz: &Size) -> String {
    match sz {
        Size::Const(c) => c.to_string(),
        Size::Var(v) => v.clone(),
        Size::Unknown => String::new(),
        Size::Infer(i) => format!("?{i}"),
    }
}

fn write_type(s: &mut String, t: &Type) {
    match t {
        Type::Prim(p) => s.push_str(p.name()),
        Type::Array(sz, e) => {
            let _ = write!(s, "[{}]", size_to_string(sz));
            write_type(s, e);
        }
        Type::Tuple(ts) => {
            s.push('(');
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_type(s, t);
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
                write_type(s, t);
            }
            s.push('}');
        }
        Type::Fun(ps, r) => {
            s.push('(');
            for p in ps {
                write_type(s, p);
                s.push_str(" -> ");
            }
            write_type(s, r);
            s.push(')');
        }
        Type::Infer(i) => {
            let _ = write!(s, "'t{i}");
        }
    }
}

/// Float text that reads back to the same bits (`1.0`, `1e-7`, `inf`, `nan`).
pub fn float_text(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        let s = format!("{v:?}");
        if s.contains('.') || s.contains('e') || s.contains("inf") {
            s
        } else {
            format!("{s}.0")
        }
    }
}

pub fn f32_text(v: f32) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        let s = format!("{v:?}");
        if s.contains('.') || s.contains('e') {
            s
        } else {
            format!("{s}.0")
        }
    }
}

pub fn const_to_string(c: &Const) -> String {
    match c {
        Const::F64(v) => format!("{}f64", float_text(*v)),
        Const::F32(v) => format!("{}f32", f32_text(*v)),
        Const::Bool(b) => b.to_string(),
        c => format!("{}{}", c.as_int().unwrap_or(0), c.prim().name()),
    }
}

pub fn atom_to_string(a: &Atom) -> String {
    match a {
        Atom::Var(v) => v.clone(),
        Atom::Const(c) => const_to_string(c),
    }
}

struct Printer {
    out: String,
}

impl Printer {
    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str("  ");
        }
    }

    fn body(&mut self, b: &Body, level: usize) {
        self.out.push_str("{\n");
        for st in &b.stmts {
            self.indent(level + 1);
            let _ = write!(self.out, "let {}: {} = ", st.var, type_to_string(&st.ty));
            self.exp(&st.exp, level + 1);
            self.out.push('\n');
        }
        self.indent(level + 1);
        self.out.push_str("in ");
        self.out.push_str(&atom_to_string(&b.result));
        self.out.push('\n');
        self.indent(level);
        self.out.push('}');
    }

    fn lambda(&mut self, l: &Lambda, level: usize) {
        self.out.push_str("(\\");
        for (n, t) in &l.params {
            let _ = write!(self.out, "({n}: {}) ", type_to_string(t));
        }
        let _ = write!(self.out, ": {} -> ", type_to_string(&l.ret));
        self.body(&l.body, level);
        self.out.push(')');
    }

    fn arg(&mut self, a: ArgRef<'_>, level: usize) {
        match a {
            ArgRef::Atom(a) => self.out.push_str(&atom_to_string(a)),
            ArgRef::Fun(Fun::Var(v)) => {
                let _ = write!(self.out, "(fn {v})");
            }
            ArgRef::Fun(Fun::Lambda(l)) => self.lambda(l, level),
        }
    }

    fn atoms(&mut self, xs: &[Atom], sep: &str) {
        let v: Vec<String> = xs.iter().map(atom_to_string).collect();
        self.out.push_str(&v.join(sep));
    }

    fn exp(&mut self, e: &Exp, level: usize) {
        match e {
            Exp::Atom(a) => self.out.push_str(&atom_to_string(a)),
            Exp::Bin(op, a, b) => {
                let _ = write!(
                    self.out,
                    "{} {} {}",
                    atom_to_string(a),
                    op.symbol(),
                    atom_to_string(b)
                );
            }
            Exp::Un(op, a) => {
                let o = match op {
                    UnOp::Neg => "neg",
                    UnOp::Not => "not",
                };
                let _ = write!(self.out, "{o} {}", atom_to_string(a));
            }
            Exp::Convert(p, a) => {
                let _ = write!(self.out, "{} {}", p.name(), atom_to_string(a));
            }
            Exp::Math(m, args) => {
                self.out.push_str(m.name());
                for a in args {
                    self.out.push(' ');
                    self.out.push_str(&atom_to_string(a));
                }
            }
            Exp::Tuple(xs) => {
                self.out.push('(');
                self.atoms(xs, ", ");
                self.out.push(')');
            }
            Exp::Proj(a, i) => {
                let _ = write!(self.out, "{}.{i}", atom_to_string(a));
            }
            Exp::ArrayLit(xs) => {
                self.out.push('[');
                self.atoms(xs, ", ");
                self.out.push(']');
            }
            Exp::Index(a, i) => {
                let _ = write!(self.out, "{}[{}]", atom_to_string(a), atom_to_string(i));
            }
            Exp::Slice(a, s, e) => {
                let _ = write!(
                    self.out,
                    "{}[{}:{}]",
                    atom_to_string(a),
                    atom_to_string(s),
                    atom_to_string(e)
                );
            }
            Exp::Dim(a, k) => {
                let _ = write!(self.out, "dim {} {k}", atom_to_string(a));
            }
            Exp::CheckSize(c) => {
                let _ = write!(
                    self.out,
                    "assert_size {} {} {} {} {}",
                    atom_to_string(&c.got),
                    atom_to_string(&c.want),
                    c.callee,
                    c.param,
                    c.size
                );
            }
            Exp::Check(c) => self.out.push_str(&check_to_string(c)),
            Exp::If(c, t, f) => {
                let _ = write!(self.out, "if {} then ", atom_to_string(c));
                self.body(t, level);
                self.out.push_str(" else ");
                self.body(f, level);
            }
            Exp::Call(f, args) => {
                let _ = write!(self.out, "call {f}");
                for a in args {
                    self.out.push(' ');
                    self.arg(a.as_arg_ref(), level);
                }
            }
            Exp::Apply(f, args) => {
                let _ = write!(self.out, "apply {f}");
                for a in args {
                    self.out.push(' ');
                    self.out.push_str(&atom_to_string(a));
                }
            }
            Exp::Prim(p) => {
                self.out.push_str(p.builtin().name());
                for a in p.args() {
                    self.out.push(' ');
                    self.arg(a, level);
                }
            }
            Exp::Loop {
                state,
                init,
                form,
                body,
            } => {
                let _ = write!(
                    self.out,
                    "loop ({}: {}) = {} ",
                    state.0,
                    type_to_string(&state.1),
                    atom_to_string(init)
                );
                match form {
                    LoopForm::For(i, n) => {
                        let _ = write!(self.out, "for {i} < {} do ", atom_to_string(n));
                    }
                    LoopForm::While(c) => {
                        self.out.push_str("while ");
                        self.body(c, level);
                        self.out.push_str(" do ");
                    }
                }
                self.body(body, level);
            }
        }
    }
}

/// Print one function definition.
pub fn fundef_to_string(d: &FunDef) -> String {
    let mut p = Printer { out: String::new() };
    p.out.push_str(if d.entry { "entry " } else { "def " });
    p.out.push_str(&d.name);
    for s in &d.size_params {
        let _ = write!(p.out, " [{s}]");
    }
    for (n, t) in &d.params {
        let _ = write!(p.out, " ({n}: {})", type_to_string(t));
    }
    let _ = write!(p.out, " : {} = ", type_to_string(&d.ret));
    p.body(&d.body, 0);
    p.out.push('\n');
    p.out
}

/// Print a whole program.
pub fn program_to_string(prog: &Program) -> String {
    prog.defs
        .iter()
        .map(fundef_to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Print a body at indentation 0 (for debugging).
pub fn body_to_string(b: &Body) -> String {
    let mut p = Printer { out: String::new() };
    p.body(b, 0);
    p.out
}

pub fn exp_to_string(e: &Exp) -> String {
    let mut p = Printer { out: String::new() };
    p.exp(e, 0);
    p.out
}
