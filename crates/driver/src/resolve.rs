//! Name resolution across files: rewrites one file's definitions so that every
//! name that refers to a top-level definition or type abbreviation (its own, a
//! plainly imported one, or a module's `m.f` / `m.t`) is the flat program's
//! name for it ([`crate::modules`] chooses those names).
//!
//! The walk is scope-aware: a `let`, lambda or loop variable, a parameter or a
//! size that shadows a top-level name is left alone, and so is a builtin's name
//! (`sum` inside a file is always the builtin). `m.f` where `m` is a module and
//! not a local variable becomes the variable `m.f`'s flat name; `f64.NAME` and
//! `f32.NAME` name the built-in float modules. Any other `e.name` is a record's
//! field and is left to the checker.

use std::collections::HashMap;
use weir_syntax::ast::{self, Expr, ExprKind, IndexEntry, LoopForm, Pat, SizeExp, TypeExp};
use weir_syntax::{Diagnostic, Span};

/// One name in scope: what the flat program calls it, and where it is defined.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub canonical: String,
    pub span: Span,
}

/// A module's members: values and types by their names in the module.
#[derive(Clone, Debug, Default)]
pub(crate) struct Members {
    /// How the module is shown in messages (its file).
    pub shown: String,
    pub values: HashMap<String, Entry>,
    pub types: HashMap<String, Entry>,
}

/// What one file sees at the top level.
#[derive(Debug, Default)]
pub(crate) struct Scope<'a> {
    pub values: HashMap<String, Entry>,
    pub types: HashMap<String, Entry>,
    /// `module m = import "..."` aliases, and `f64`/`f32` where loaded.
    pub modules: HashMap<String, &'a Members>,
    /// Every definition and type of the program by its flat name, with the
    /// file that has it: a name out of scope here must not reach the checker,
    /// which would find it.
    pub everywhere: Option<&'a Everywhere>,
}

/// The flat names of every file's definitions and types (with the file).
#[derive(Debug, Default)]
pub(crate) struct Everywhere {
    pub values: HashMap<String, String>,
    pub types: HashMap<String, String>,
}

/// E0104 (E0006 for a type): a name that is another file's, not in scope.
fn out_of_scope(name: &str, file: &str, span: Span, ty: bool) -> Diagnostic {
    let (code, what) = if ty {
        ("E0006", "type")
    } else {
        ("E0104", "name")
    };
    Diagnostic::new(code, span, format!("unknown {what} `{name}`"))
        .with_label("not in scope")
        .with_help(format!(
            "`{name}` is defined in {file}, which this file does not import: import it (a file sees its own definitions and those of the files it imports, not theirs)"
        ))
}

/// A builtin's, a math function's or a conversion's name (never renamed).
pub(crate) fn is_reserved(name: &str) -> bool {
    weir_ir::Builtin::from_surface_name(name).is_some()
        || weir_ir::MathFn::from_name(name).is_some()
        || weir_ir::PrimType::from_name(name).is_some()
        || name == "call"
        || name == "apply"
}

/// The scalar types that are also built-in modules: `f64.isnan`,
/// `i64.maximum`, ... (their names are conversions too, so never "a module,
/// not a value").
pub(crate) const FLOAT_MODULES: [&str; 10] = [
    "f64", "f32", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
];

/// Edit distance (insertions, deletions, substitutions, adjacent swaps).
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let sub = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut v = sub.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The candidate closest in spelling to `name`, if close enough (one edit in
/// a short name, two from six letters on).
pub(crate) fn closest<'c>(
    name: &str,
    candidates: impl Iterator<Item = &'c str>,
) -> Option<&'c str> {
    let most = (name.chars().count() / 3).clamp(1, 2);
    candidates
        .map(|c| (distance(c, name), c))
        .filter(|(d, c)| *d <= most && *d < c.len())
        .min()
        .map(|(_, c)| c)
}

/// `a`, `a` and `b`, `a`, `b` and `c` (each in backquotes, sorted).
pub(crate) fn listing(names: &[String], prefix: &str) -> String {
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    let mut v: Vec<String> = sorted.iter().map(|n| format!("`{prefix}{n}`")).collect();
    match v.len() {
        0 => "nothing".into(),
        1 => v.remove(0),
        _ => {
            let last = v.pop().unwrap_or_default();
            format!("{} and {last}", v.join(", "))
        }
    }
}

/// Rewrites the names of one file's items.
pub(crate) struct Renamer<'s, 'a> {
    scope: &'s Scope<'a>,
    /// Local variables and sizes, innermost last.
    locals: Vec<String>,
    pub diags: Vec<Diagnostic>,
    /// Set when the current item had a resolution error.
    failed: bool,
}

impl<'s, 'a> Renamer<'s, 'a> {
    pub fn new(scope: &'s Scope<'a>) -> Self {
        Renamer {
            scope,
            locals: Vec::new(),
            diags: Vec::new(),
            failed: false,
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
        self.failed = true;
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|l| l == name)
    }

    /// Rename a definition in place; false if a name in it could not be
    /// resolved (reported).
    pub fn def(&mut self, d: &mut ast::Def) -> bool {
        self.failed = false;
        self.locals.clear();
        for s in d.size_params.iter().chain(&d.exists) {
            self.locals.push(s.name.clone());
        }
        for p in &d.params {
            bind_names(&p.pat, &mut self.locals);
            sizes_named(&p.ty, &mut self.locals);
        }
        for p in &mut d.params {
            self.pat_types(&mut p.pat);
            self.ty(&mut p.ty);
        }
        if let Some(t) = &mut d.ret {
            self.ty(t);
        }
        self.expr(&mut d.body);
        self.locals.clear();
        !self.failed
    }

    /// Rename a type abbreviation's type in place; false on an error (reported).
    pub fn type_def(&mut self, t: &mut ast::TypeDef) -> bool {
        self.failed = false;
        self.locals.clear();
        self.ty(&mut t.ty);
        !self.failed
    }

    fn ty(&mut self, t: &mut TypeExp) {
        match t {
            TypeExp::Prim(..) => {}
            TypeExp::Array(size, elem, _) => {
                if let SizeExp::Expr(e) = size {
                    self.expr(e);
                }
                self.ty(elem);
            }
            TypeExp::Tuple(ts, _) => ts.iter_mut().for_each(|t| self.ty(t)),
            TypeExp::Fun(ps, r, _) => {
                ps.iter_mut().for_each(|t| self.ty(t));
                self.ty(r);
            }
            TypeExp::Unique(t, _) => self.ty(t),
            TypeExp::Record(fs, _) => fs.iter_mut().for_each(|(_, t)| self.ty(t)),
            TypeExp::Named(path, span) => {
                let span = *span;
                match path.as_slice() {
                    [t] => match self.scope.types.get(&t.name) {
                        Some(e) => {
                            if e.canonical != t.name {
                                path[0].name = e.canonical.clone();
                            }
                        }
                        None => {
                            if let Some(file) =
                                self.scope.everywhere.and_then(|w| w.types.get(&t.name))
                            {
                                let d = out_of_scope(&t.name, file, t.span, true);
                                self.error(d);
                            }
                        }
                    },
                    [m, t] => {
                        let Some(members) = self.scope.modules.get(&m.name) else {
                            // not a module: the checker reports the unknown type
                            return;
                        };
                        match members.types.get(&t.name) {
                            Some(e) => {
                                *path = vec![ast::Ident {
                                    name: e.canonical.clone(),
                                    span,
                                }]
                            }
                            None => {
                                let d = self.no_member(&m.name, members, &t.name, t.span, true);
                                self.error(d);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// The types in a pattern's annotations.
    fn pat_types(&mut self, p: &mut Pat) {
        match p {
            Pat::Var(_, t) | Pat::Wild(_, t) => {
                if let Some(t) = t {
                    self.ty(t);
                }
            }
            Pat::Tuple(ps, _) => ps.iter_mut().for_each(|p| self.pat_types(p)),
            Pat::Record(fs, _) => fs.iter_mut().for_each(|(_, p)| self.pat_types(p)),
        }
    }

    /// The "no member" error for `m.name`.
    fn no_member(
        &self,
        m: &str,
        members: &Members,
        name: &str,
        span: Span,
        ty: bool,
    ) -> Diagnostic {
        let (what, names): (&str, Vec<String>) = if ty {
            ("type", members.types.keys().cloned().collect())
        } else {
            ("definition", members.values.keys().cloned().collect())
        };
        let near = closest(name, names.iter().map(|s| s.as_str()));
        let mut help = match near {
            Some(n) => format!("did you mean `{m}.{n}`? "),
            None => String::new(),
        };
        help.push_str(&format!(
            "module `{m}` ({}) has the {what}s {}",
            members.shown,
            listing(&names, &format!("{m}.")),
        ));
        Diagnostic::new(
            "E0704",
            span,
            format!("module `{m}` has no {what} `{name}`"),
        )
        .with_label(format!("not in `{m}`"))
        .with_help(help)
    }

    /// Resolve `m.name` (`m` not a local): `Some(replacement)` when `m` is a
    /// module (the replacement is `Error` after a reported error).
    fn member(&mut self, m: &ast::Ident, name: &ast::Ident, span: Span) -> Option<ExprKind> {
        let members = *self.scope.modules.get(&m.name)?;
        if let Some(e) = members.values.get(&name.name) {
            return Some(ExprKind::Var(ast::Ident {
                name: e.canonical.clone(),
                span,
            }));
        }
        let d = if FLOAT_MODULES.contains(&m.name.as_str()) {
            float_member_error(&m.name, members, &name.name, name.span)
        } else {
            self.no_member(&m.name, members, &name.name, name.span, false)
        };
        self.error(d);
        Some(ExprKind::Error)
    }

    fn expr(&mut self, e: &mut Expr) {
        let span = e.span;
        let replace = match &mut e.kind {
            ExprKind::Var(id) => self.var(id),
            ExprKind::Int(..)
            | ExprKind::Float(..)
            | ExprKind::Bool(_)
            | ExprKind::OpSection(_)
            | ExprKind::Error => None,
            ExprKind::Tuple(es) | ExprKind::ArrayLit(es) => {
                es.iter_mut().for_each(|e| self.expr(e));
                None
            }
            ExprKind::Record(fs) => {
                fs.iter_mut().for_each(|(_, e)| self.expr(e));
                None
            }
            ExprKind::Field(base, name) => {
                if let ExprKind::Var(m) = &base.kind
                    && !self.is_local(&m.name)
                    && let Some(k) = self.member(&m.clone(), &name.clone(), span)
                {
                    Some(k)
                } else {
                    self.expr(base);
                    None
                }
            }
            ExprKind::RecordUpdate(r, _, v) => {
                self.expr(r);
                self.expr(v);
                None
            }
            ExprKind::Index(a, entries) => {
                self.expr(a);
                self.entries(entries);
                None
            }
            ExprKind::Proj(a, _, _) | ExprKind::Unary(_, a) | ExprKind::Effect(_, _, a) => {
                self.expr(a);
                None
            }
            ExprKind::Coerce(a, t) => {
                self.expr(a);
                self.ty(t);
                None
            }
            ExprKind::Apply(f, args) => {
                self.expr(f);
                args.iter_mut().for_each(|a| self.expr(a));
                None
            }
            ExprKind::Binary(_, a, b, _) => {
                self.expr(a);
                self.expr(b);
                None
            }
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
                None
            }
            ExprKind::Let(p, v, body) => {
                self.expr(v);
                self.pat_types(p);
                let mark = self.locals.len();
                bind_names(p, &mut self.locals);
                self.expr(body);
                self.locals.truncate(mark);
                None
            }
            ExprKind::Lambda(ps, body) => {
                let mark = self.locals.len();
                for p in ps.iter() {
                    bind_names(p, &mut self.locals);
                }
                for p in ps.iter_mut() {
                    self.pat_types(p);
                }
                self.expr(body);
                self.locals.truncate(mark);
                None
            }
            ExprKind::Loop(p, init, form, body) => {
                self.expr(init);
                self.pat_types(p);
                let mark = self.locals.len();
                match form {
                    LoopForm::For(i, n) => {
                        self.expr(n);
                        self.locals.push(i.name.clone());
                    }
                    LoopForm::ForIn(x, xs) => {
                        self.expr(xs);
                        self.pat_types(x);
                        bind_names(x, &mut self.locals);
                    }
                    LoopForm::While(c) => {
                        bind_names(p, &mut self.locals);
                        self.expr(c);
                    }
                }
                bind_names(p, &mut self.locals);
                self.expr(body);
                self.locals.truncate(mark);
                None
            }
            ExprKind::Update(a, entries, _, v) => {
                self.expr(a);
                self.entries(entries);
                self.expr(v);
                None
            }
            ExprKind::LeftSection(a, _) | ExprKind::RightSection(_, a) => {
                self.expr(a);
                None
            }
            ExprKind::Compose(f, g, _) => {
                self.expr(f);
                self.expr(g);
                None
            }
            ExprKind::LetFun(lf, rest) => {
                // the function's own name is not in scope in its body (no
                // recursion); its parameters and size parameters are
                let mark = self.locals.len();
                for s in &lf.size_params {
                    self.locals.push(s.name.clone());
                }
                for p in lf.params.iter() {
                    bind_names(p, &mut self.locals);
                }
                for p in lf.params.iter_mut() {
                    self.pat_types(p);
                }
                if let Some(t) = &mut lf.ret {
                    self.ty(t);
                }
                self.expr(&mut lf.body);
                self.locals.truncate(mark);
                self.locals.push(lf.name.name.clone());
                self.expr(rest);
                self.locals.truncate(mark);
                None
            }
        };
        if let Some(kind) = replace {
            e.kind = kind;
        }
    }

    fn entries(&mut self, entries: &mut [IndexEntry]) {
        for en in entries {
            match en {
                IndexEntry::Index(e) => self.expr(e),
                IndexEntry::Slice(a, b, c, _) => {
                    for e in [a, b, c].into_iter().flatten() {
                        self.expr(e);
                    }
                }
            }
        }
    }

    /// A variable: renamed to the flat name of the top-level item it names.
    fn var(&mut self, id: &mut ast::Ident) -> Option<ExprKind> {
        if self.is_local(&id.name) || is_reserved(&id.name) {
            return None;
        }
        if let Some(e) = self.scope.values.get(&id.name) {
            if e.canonical != id.name {
                id.name = e.canonical.clone();
            }
            return None;
        }
        if self.scope.modules.contains_key(&id.name) && !FLOAT_MODULES.contains(&id.name.as_str()) {
            let d = Diagnostic::new(
                "E0704",
                id.span,
                format!("`{}` is a module, not a value", id.name),
            )
            .with_label("a module")
            .with_help(format!(
                "use one of its definitions, as in `{}.name`",
                id.name
            ));
            self.error(d);
            return Some(ExprKind::Error);
        }
        // unknown here: a module may define it
        let mut homes: Vec<&String> = self
            .scope
            .modules
            .iter()
            .filter(|(m, ms)| {
                !FLOAT_MODULES.contains(&m.as_str()) && ms.values.contains_key(&id.name)
            })
            .map(|(m, _)| m)
            .collect();
        homes.sort();
        if let Some(m) = homes.first() {
            let d = Diagnostic::new("E0104", id.span, format!("unknown name `{}`", id.name))
                .with_label("not in scope")
                .with_help(format!("module `{m}` defines it: write `{m}.{}`", id.name));
            self.error(d);
            return Some(ExprKind::Error);
        }
        if let Some(file) = self.scope.everywhere.and_then(|w| w.values.get(&id.name)) {
            let d = out_of_scope(&id.name, file, id.span, false);
            self.error(d);
            return Some(ExprKind::Error);
        }
        futhark_spelling(id)
    }
}

/// Futhark's prelude names that no Weir definition shadows, as Weir's
/// spelling of them (docs/language.md, "Spellings"): `tabulate` is `build`;
/// the others are the functions `take = \n xs -> xs[:n]`, `drop = \n xs ->
/// xs[n:]`, `indices = \xs -> iota (length xs)`, `const = \x _ -> x`, `or =
/// \xs -> reduce (||) false xs`, `and = \xs -> reduce (&&) true xs` (the
/// names in them are builtins, which no program redefines).
fn futhark_spelling(id: &mut ast::Ident) -> Option<ExprKind> {
    let sp = id.span;
    let e = |kind: ExprKind| Expr { kind, span: sp };
    let var = |n: &str| {
        e(ExprKind::Var(ast::Ident {
            name: n.to_string(),
            span: sp,
        }))
    };
    let pat = |n: &str| {
        Pat::Var(
            ast::Ident {
                name: n.to_string(),
                span: sp,
            },
            None,
        )
    };
    let lambda = |ps: &[&str], body: Expr| {
        ExprKind::Lambda(ps.iter().map(|p| pat(p)).collect(), Box::new(body))
    };
    let apply = |f: &str, args: Vec<Expr>| e(ExprKind::Apply(Box::new(var(f)), args));
    let reduce = |op: ast::BinOp, ne: bool| {
        lambda(
            &["xs"],
            apply(
                "reduce",
                vec![e(ExprKind::OpSection(op)), e(ExprKind::Bool(ne)), var("xs")],
            ),
        )
    };
    Some(match id.name.as_str() {
        "tabulate" => {
            id.name = "build".to_string();
            return None;
        }
        "take" => lambda(
            &["n", "xs"],
            e(ExprKind::Index(
                Box::new(var("xs")),
                vec![IndexEntry::Slice(None, Some(Box::new(var("n"))), None, sp)],
            )),
        ),
        "drop" => lambda(
            &["n", "xs"],
            e(ExprKind::Index(
                Box::new(var("xs")),
                vec![IndexEntry::Slice(Some(Box::new(var("n"))), None, None, sp)],
            )),
        ),
        "indices" => lambda(
            &["xs"],
            apply("iota", vec![apply("length", vec![var("xs")])]),
        ),
        "const" => ExprKind::Lambda(vec![pat("x"), Pat::Wild(sp, None)], Box::new(var("x"))),
        "or" => reduce(ast::BinOp::Or, false),
        "and" => reduce(ast::BinOp::And, true),
        _ => return None,
    })
}

/// E0016: `f64.NAME` that is neither a constant nor a function of the module.
pub(crate) fn float_member_error(
    ty: &str,
    members: &Members,
    name: &str,
    span: Span,
) -> Diagnostic {
    let int = weir_syntax::ast::PrimType::from_name(ty).is_some_and(|p| p.is_int());
    let consts: Vec<String> = if int {
        &weir_syntax::parser::INT_CONSTANTS[..]
    } else {
        &weir_syntax::parser::FLOAT_CONSTANTS[..]
    }
    .iter()
    .map(|c| c.to_string())
    .collect();
    let (c1, c2) = if int { ("f64", "i32") } else { ("i32", "u8") };
    let all: Vec<String> = members.values.keys().cloned().collect();
    let near = closest(name, consts.iter().chain(all.iter()).map(|s| s.as_str()));
    // (the conversions `f64.i32`, ... are summed up, not listed)
    let funs: Vec<String> = all
        .iter()
        .filter(|f| weir_syntax::ast::PrimType::from_name(f).is_none())
        .cloned()
        .collect();
    let mut help = match near {
        Some(n) => format!("did you mean `{ty}.{n}`? "),
        None => String::new(),
    };
    help.push_str(&format!(
        "the constants are {}; the functions are {}, and the conversions from every other scalar type (`{ty}.{c1} x`, `{ty}.{c2} x`, ...)",
        listing(&consts, &format!("{ty}.")),
        listing(&funs, &format!("{ty}."))
    ));
    Diagnostic::new(
        "E0016",
        span,
        format!("`{ty}` has no constant or function `{name}`"),
    )
    .with_label(format!("not in `{ty}`"))
    .with_help(help)
}

/// The variables a pattern binds.
fn bind_names(p: &Pat, out: &mut Vec<String>) {
    match p {
        Pat::Var(id, _) => out.push(id.name.clone()),
        Pat::Wild(..) => {}
        Pat::Tuple(ps, _) => ps.iter().for_each(|p| bind_names(p, out)),
        Pat::Record(fs, _) => fs.iter().for_each(|(_, p)| bind_names(p, out)),
    }
}

/// The size names (`[n]`) a type mentions.
fn sizes_named(t: &TypeExp, out: &mut Vec<String>) {
    match t {
        TypeExp::Prim(..) | TypeExp::Named(..) => {}
        TypeExp::Array(size, elem, _) => {
            if let SizeExp::Named(id) = size {
                out.push(id.name.clone());
            }
            sizes_named(elem, out);
        }
        TypeExp::Tuple(ts, _) => ts.iter().for_each(|t| sizes_named(t, out)),
        TypeExp::Fun(ps, r, _) => {
            ps.iter().for_each(|t| sizes_named(t, out));
            sizes_named(r, out);
        }
        TypeExp::Unique(t, _) => sizes_named(t, out),
        TypeExp::Record(fs, _) => fs.iter().for_each(|(_, t)| sizes_named(t, out)),
    }
}

/// Does the program mention the built-in module `m` (`m.NAME` other than a
/// constant, which the parser has already read)?
pub(crate) fn mentions_module(prog: &ast::Program, m: &str) -> bool {
    fn expr(e: &Expr, m: &str) -> bool {
        match &e.kind {
            ExprKind::Field(base, _) => {
                matches!(&base.kind, ExprKind::Var(id) if id.name == m) || expr(base, m)
            }
            ExprKind::Var(_)
            | ExprKind::Int(..)
            | ExprKind::Float(..)
            | ExprKind::Bool(_)
            | ExprKind::OpSection(_)
            | ExprKind::Error => false,
            ExprKind::Tuple(es) | ExprKind::ArrayLit(es) => es.iter().any(|e| expr(e, m)),
            ExprKind::Record(fs) => fs.iter().any(|(_, e)| expr(e, m)),
            ExprKind::RecordUpdate(a, _, b) | ExprKind::Binary(_, a, b, _) => {
                expr(a, m) || expr(b, m)
            }
            ExprKind::Index(a, en) => expr(a, m) || entries(en, m),
            ExprKind::Proj(a, _, _)
            | ExprKind::Unary(_, a)
            | ExprKind::Effect(_, _, a)
            | ExprKind::Coerce(a, _) => expr(a, m),
            ExprKind::Apply(f, args) => expr(f, m) || args.iter().any(|e| expr(e, m)),
            ExprKind::If(a, b, c) => expr(a, m) || expr(b, m) || expr(c, m),
            ExprKind::Let(p, a, b) => pat(p, m) || expr(a, m) || expr(b, m),
            ExprKind::Lambda(ps, b) => ps.iter().any(|p| pat(p, m)) || expr(b, m),
            ExprKind::Loop(p, init, form, body) => {
                pat(p, m)
                    || expr(init, m)
                    || match form {
                        LoopForm::For(_, n) => expr(n, m),
                        LoopForm::ForIn(x, xs) => pat(x, m) || expr(xs, m),
                        LoopForm::While(c) => expr(c, m),
                    }
                    || expr(body, m)
            }
            ExprKind::Update(a, en, _, v) => expr(a, m) || entries(en, m) || expr(v, m),
            ExprKind::LeftSection(a, _) | ExprKind::RightSection(_, a) => expr(a, m),
            ExprKind::Compose(f, g, _) => expr(f, m) || expr(g, m),
            ExprKind::LetFun(lf, rest) => {
                lf.params.iter().any(|p| pat(p, m))
                    || lf.ret.as_ref().is_some_and(|t| ty(t, m))
                    || expr(&lf.body, m)
                    || expr(rest, m)
            }
        }
    }
    fn entries(en: &[IndexEntry], m: &str) -> bool {
        en.iter().any(|x| match x {
            IndexEntry::Index(e) => expr(e, m),
            IndexEntry::Slice(a, b, c, _) => [a, b, c].into_iter().flatten().any(|e| expr(e, m)),
        })
    }
    fn pat(p: &Pat, m: &str) -> bool {
        match p {
            Pat::Var(_, t) | Pat::Wild(_, t) => t.as_ref().is_some_and(|t| ty(t, m)),
            Pat::Tuple(ps, _) => ps.iter().any(|p| pat(p, m)),
            Pat::Record(fs, _) => fs.iter().any(|(_, p)| pat(p, m)),
        }
    }
    fn ty(t: &TypeExp, m: &str) -> bool {
        match t {
            TypeExp::Prim(..) | TypeExp::Named(..) => false,
            TypeExp::Array(s, elem, _) => {
                matches!(s, SizeExp::Expr(e) if expr(e, m)) || ty(elem, m)
            }
            TypeExp::Tuple(ts, _) => ts.iter().any(|t| ty(t, m)),
            TypeExp::Fun(ps, r, _) => ps.iter().any(|t| ty(t, m)) || ty(r, m),
            TypeExp::Unique(t, _) => ty(t, m),
            TypeExp::Record(fs, _) => fs.iter().any(|(_, t)| ty(t, m)),
        }
    }
    prog.defs.iter().any(|d| {
        expr(&d.body, m)
            || d.params.iter().any(|p| pat(&p.pat, m) || ty(&p.ty, m))
            || d.ret.as_ref().is_some_and(|t| ty(t, m))
    }) || prog.types.iter().any(|t| ty(&t.ty, m))
}
