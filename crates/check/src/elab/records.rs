//! Records and type abbreviations.
//!
//! A record `{x: f64, y: f64}` is, to the checker, the type
//! [`Type::Record`] with its fields sorted by name; everything else about it is
//! a tuple of its fields in that order: a record literal is an [`Exp::Tuple`]
//! of its fields sorted by name, `r.y` is [`Exp::Proj`] at `y`'s position, and
//! [`erase_records`] turns every record type of a finished definition into
//! that tuple type. So no later stage sees a record, and an array of records
//! is stored as one array per field (the C backend flattens arrays of tuples).
//!
//! A type abbreviation `type t = ...` is expanded where it is named; its sizes
//! must be constants or `[]` ([`check_type_defs`]).

use super::{Abbrevs, Binding, Checker, R};
use crate::infer::Kind;
use std::collections::HashMap;
use weir_ir::visit::{MutVisitor, walk_body_mut};
use weir_ir::*;
use weir_syntax::ast::{self, Expr, Pat, SizeExp, TypeExp};
use weir_syntax::{Diagnostic, Span};

/// The position of `name` among the (sorted) fields.
fn field_index(fields: &[(Name, Type)], name: &str) -> Option<usize> {
    fields.iter().position(|(n, _)| n == name)
}

fn field_list(fields: &[(Name, Type)]) -> String {
    fields
        .iter()
        .map(|(n, _)| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Checker<'_> {
    /// A type abbreviation's name (`vec3`, `m.vec3`): its definition, expanded.
    pub(super) fn named_type(&mut self, path: &[ast::Ident], span: Span) -> R<Type> {
        let name = path
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(".");
        let Some(def) = self.types.get(&name) else {
            let most = (name.chars().count() / 3).clamp(1, 2);
            // (the type abbreviations, and the scalar types: `flot` is `f64`)
            let scalars = weir_ir::PrimType::ALL.map(|p| p.name().to_string());
            let best = self
                .types
                .keys()
                .chain(scalars.iter())
                .map(|c| (super::distance(c, &name), c))
                .filter(|(d, c)| *d <= most && *d < c.len())
                .min()
                .map(|(_, c)| c.clone());
            // (other languages' names for the scalar types)
            let named = match name.as_str() {
                "double" | "float64" | "real" | "number" => Some("f64"),
                "float" | "float32" | "single" => Some("f32"),
                "int" | "int32" => Some("i32"),
                "long" | "int64" | "isize" | "usize" | "size_t" | "integer" => Some("i64"),
                "byte" | "char" | "uint8" => Some("u8"),
                "boolean" | "Bool" => Some("bool"),
                _ => None,
            };
            let help = match (named, best) {
                (Some(c), _) => format!("Weir spells it `{c}`"),
                (None, Some(c)) => format!("did you mean `{c}`?"),
                (None, None) => "the scalar types are f64, f32, i8, i16, i32, i64, u8, u16, u32, u64 and bool; arrays are written `[n]f64`, records `{x: f64, y: f64}`; name a type with `type name = ...`".to_string(),
            };
            return self.fail(
                Diagnostic::new("E0006", span, format!("unknown type `{name}`"))
                    .with_label("not a type")
                    .with_help(help),
            );
        };
        if self.expanding_types.contains(&name) {
            return self.fail(
                Diagnostic::new(
                    "E0108",
                    def.name.span,
                    format!("type `{name}` is defined in terms of itself"),
                )
                .with_label("recursive type abbreviation")
                .with_secondary(span, "used here")
                .with_help(
                    "Weir has no recursive types; an abbreviation must expand to a finite type",
                ),
            );
        }
        if let Some(t) = self
            .abbrevs
            .expanded
            .get(&name)
            .or_else(|| self.memo.get(&name))
        {
            return Ok(t.clone());
        }
        if let Some(d) = self
            .abbrevs
            .failed
            .get(&name)
            .or_else(|| self.memo_failed.get(&name))
        {
            let d = d.clone();
            return self.fail(d);
        }
        if self.expanding_types.len() >= weir_syntax::parser::MAX_DEPTH {
            // only a cycle (or a chain through an abbreviation that fails)
            // gets here: the others were expanded in order, once
            let d = if self.abbrevs.cyclic.contains(&name) {
                Diagnostic::new(
                    "E0108",
                    def.name.span,
                    format!("type `{name}` is defined in terms of itself"),
                )
                .with_label("recursive type abbreviation")
                .with_secondary(span, "used here")
                .with_help(
                    "Weir has no recursive types; an abbreviation must expand to a finite type",
                )
            } else {
                Diagnostic::new("E0004", span, "type nested too deeply")
                    .with_label(format!(
                        "abbreviations expand into each other more than {} levels deep here",
                        weir_syntax::parser::MAX_DEPTH
                    ))
                    .with_help("types nest at most 400 levels deep, however they are built (abbreviations, tuples of tuples)")
            };
            return self.fail(d);
        }
        let ty = def.ty.clone();
        self.expanding_types.push(name.clone());
        let r = self.type_exp(&ty, None, false);
        self.expanding_types.pop();
        let t = r?;
        self.within_limits(&t, span, &format!("type `{name}`"))?;
        Ok(t)
    }

    /// Expand every abbreviation once, each after those it names (so that no
    /// expansion recurses through a chain of them), keeping those that succeed;
    /// what fails is reported where it is used.
    pub fn resolve_abbreviations(&mut self) -> Abbrevs {
        let (order, cyclic) = super::limits::abbreviation_order(self.types);
        for name in order {
            if cyclic.contains(&name) {
                continue;
            }
            let Some(def) = self.types.get(&name) else {
                continue;
            };
            let span = def.name.span;
            let path: Vec<ast::Ident> = name
                .split('.')
                .map(|n| ast::Ident {
                    name: n.to_string(),
                    span,
                })
                .collect();
            match self.named_type(&path, span) {
                Ok(t) => {
                    self.memo.insert(name, t);
                }
                Err(_) => {
                    // the first error (what the abbreviations it names
                    // failed with comes first) is what a use reports
                    if let Some(d) = self.diags.first() {
                        self.memo_failed.insert(name, d.clone());
                    }
                }
            }
            self.diags.clear();
        }
        Abbrevs {
            expanded: std::mem::take(&mut self.memo),
            failed: std::mem::take(&mut self.memo_failed),
            cyclic,
        }
    }

    /// E0110 at the second occurrence of a field name in `fields`, if any
    /// (`what`: the message's ending, `help`: its help).
    pub(super) fn no_duplicate_field<T>(
        &mut self,
        fields: &[(ast::Ident, T)],
        what: &str,
        help: &str,
    ) -> R<()> {
        // (by name: a record may have very many fields)
        let mut first: HashMap<&str, &ast::Ident> = HashMap::new();
        for (f, _) in fields {
            let g = *first.entry(f.name.as_str()).or_insert(f);
            if g.span != f.span {
                return self.fail(
                    Diagnostic::new(
                        "E0110",
                        f.span,
                        format!("field `{}` appears twice{what}", f.name),
                    )
                    .with_label("second occurrence")
                    .with_secondary(g.span, "first occurrence")
                    .with_help(help),
                );
            }
        }
        Ok(())
    }

    /// `{x = e1, y = e2}`
    pub(super) fn record(
        &mut self,
        fields: &[(ast::Ident, Expr)],
        span: Span,
        expected: Option<&Type>,
    ) -> R<(Atom, Type)> {
        let exp_fields = match expected.map(|t| self.infer.shallow(t)) {
            Some(Type::Record(fs)) => fs,
            _ => vec![],
        };
        let mut parts: Vec<(Name, Atom, Type)> = Vec::new();
        self.no_duplicate_field(
            fields,
            "",
            "each field of a record has a name of its own; to change a field of a record `r`, write `r with x = v`",
        )?;
        for (f, e) in fields {
            // (a record type's fields are sorted by name)
            let ex = exp_fields
                .binary_search_by(|(n, _)| n.as_str().cmp(&f.name))
                .ok()
                .map(|i| exp_fields[i].1.clone());
            let (a, t) = self.expr(e, ex.as_ref())?;
            self.no_fun(&t, e.span)?;
            parts.push((f.name.clone(), a, t));
        }
        parts.sort_by(|a, b| a.0.cmp(&b.0));
        let ty = Type::Record(
            parts
                .iter()
                .map(|(n, _, t)| (n.clone(), t.clone()))
                .collect(),
        );
        let atoms = parts.into_iter().map(|(_, a, _)| a).collect();
        Ok((self.emit("t", ty.clone(), Exp::Tuple(atoms), span), ty))
    }

    /// The fields of a record-typed value, or a diagnostic at `span`.
    fn record_fields(&mut self, ty: &Type, span: Span, what: &str) -> R<Vec<(Name, Type)>> {
        match self.infer.shallow(ty) {
            Type::Record(fs) => Ok(fs),
            Type::Infer(_) => self.fail(
                Diagnostic::new("E0206", span, format!("the type of this value is not known yet, so {what} cannot be checked"))
                    .with_label("type unknown here")
                    .with_help("annotate it, e.g. `\\(p: {x: f64, y: f64}) -> p.x` or with a `type` abbreviation: `\\(p: vec2) -> p.x`"),
            ),
            Type::Tuple(_) => self.fail(
                Diagnostic::new("E0207", span, format!("{what} needs a record, but this value is a tuple"))
                    .with_label("a tuple")
                    .with_help("tuple components are numbered: `t.0`, `t.1`"),
            ),
            other => {
                let so = self.show(&other);
                self.fail(
                    Diagnostic::new("E0207", span, format!("{what} needs a record, but this value has type {so}"))
                        .with_label("not a record")
                        .with_help("only records have named fields: `{x = 1.0, y = 2.0}.x`"),
                )
            }
        }
    }

    /// `e.name` of a record `e`.
    pub(super) fn record_field(
        &mut self,
        e: &Expr,
        name: &ast::Ident,
        span: Span,
    ) -> R<(Atom, Type)> {
        let (at, ty) = self.expr(e, None)?;
        let fs = self.record_fields(&ty, e.span, &format!("`.{}`", name.name))?;
        let Some(i) = field_index(&fs, &name.name) else {
            let so = self.show(&ty);
            return self.fail(
                Diagnostic::new(
                    "E0205",
                    name.span,
                    format!("the record has no field `{}`", name.name),
                )
                .with_label("no such field")
                .with_help(format!(
                    "its type is {so}: the fields are {}",
                    field_list(&fs)
                )),
            );
        };
        let ft = fs[i].1.clone();
        Ok((self.emit("t", ft.clone(), Exp::Proj(at, i), span), ft))
    }

    /// `r with a.b = v`
    pub(super) fn record_update(
        &mut self,
        r: &Expr,
        path: &[ast::Ident],
        v: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let (at, ty) = self.expr(r, None)?;
        self.update_path(at, ty, r.span, path, v, span)
    }

    fn update_path(
        &mut self,
        at: Atom,
        ty: Type,
        at_span: Span,
        path: &[ast::Ident],
        v: &Expr,
        span: Span,
    ) -> R<(Atom, Type)> {
        let Some((first, rest)) = path.split_first() else {
            return self.expr(v, Some(&ty));
        };
        let fs = self.record_fields(&ty, at_span, &format!("`with {} = ...`", first.name))?;
        let Some(i) = field_index(&fs, &first.name) else {
            let so = self.show(&ty);
            return self.fail(
                Diagnostic::new(
                    "E0205",
                    first.span,
                    format!("the record has no field `{}`", first.name),
                )
                .with_label("no such field")
                .with_help(format!(
                    "its type is {so}: the fields are {}",
                    field_list(&fs)
                )),
            );
        };
        let old_t = fs[i].1.clone();
        let (new_a, new_t) = if rest.is_empty() {
            let (a, t) = self.expr(v, Some(&old_t))?;
            self.unify_at(
                &t,
                &old_t,
                v.span,
                &format!("in the new value of field `{}`", first.name),
            )?;
            (a, t)
        } else {
            let inner = self.emit("t", old_t.clone(), Exp::Proj(at.clone(), i), first.span);
            self.update_path(inner, old_t, first.span, rest, v, span)?
        };
        let mut atoms = Vec::new();
        let mut tys = Vec::new();
        for (k, (n, t)) in fs.iter().enumerate() {
            if k == i {
                atoms.push(new_a.clone());
                tys.push((n.clone(), new_t.clone()));
            } else {
                atoms.push(self.emit("t", t.clone(), Exp::Proj(at.clone(), k), span));
                tys.push((n.clone(), t.clone()));
            }
        }
        let rt = Type::Record(tys);
        Ok((self.emit("t", rt.clone(), Exp::Tuple(atoms), span), rt))
    }

    /// Bind a record pattern `{x, y = p}`: it names every field of the value.
    pub(super) fn bind_record_pat(
        &mut self,
        pats: &[(ast::Ident, Pat)],
        pspan: Span,
        atom: Atom,
        ty: Type,
        span: Span,
    ) -> R<()> {
        self.no_duplicate_field(pats, " in the pattern", "name each field once")?;
        let fs = match self.infer.shallow(&ty) {
            Type::Record(fs) => fs,
            Type::Infer(v) if self.infer.kind_of(v) == Kind::Any => {
                let mut fs: Vec<(Name, Type)> = pats
                    .iter()
                    .map(|(f, _)| (f.name.clone(), self.infer.fresh(Kind::Any)))
                    .collect();
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                self.unify_at(&ty, &Type::Record(fs.clone()), pspan, "in the pattern")?;
                fs
            }
            other => {
                let so = self.show(&other);
                return self.fail(
                    Diagnostic::new(
                        "E0204",
                        pspan,
                        format!("a record pattern needs a record, but the value has type {so}"),
                    )
                    .with_label("record pattern")
                    .with_help("match a tuple with `(a, b)`; a record with `{x, y}`"),
                );
            }
        };
        let missing: Vec<&str> = fs
            .iter()
            .filter(|(n, _)| !pats.iter().any(|(f, _)| f.name == *n))
            .map(|(n, _)| n.as_str())
            .collect();
        if let Some((f, _)) = pats
            .iter()
            .find(|(f, _)| field_index(&fs, &f.name).is_none())
        {
            let so = self.show(&ty);
            return self.fail(
                Diagnostic::new(
                    "E0205",
                    f.span,
                    format!("the record has no field `{}`", f.name),
                )
                .with_label("no such field")
                .with_help(format!(
                    "the value has type {so}: the fields are {}",
                    field_list(&fs)
                )),
            );
        }
        if !missing.is_empty() {
            let so = self.show(&ty);
            return self.fail(
                Diagnostic::new(
                    "E0204",
                    pspan,
                    format!(
                        "this record pattern leaves out field{} {}",
                        if missing.len() == 1 { "" } else { "s" },
                        missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
                    ),
                )
                .with_label("record pattern")
                .with_help(format!(
                    "the value has type {so}; a record pattern names every field (use `{}= _` for one you do not need)",
                    missing[0]
                )),
            );
        }
        for (f, p) in pats {
            let Some(i) = field_index(&fs, &f.name) else {
                continue;
            };
            let ct = fs[i].1.clone();
            let a = self.emit("t", ct.clone(), Exp::Proj(atom.clone(), i), span);
            self.bind_pat(p, a, ct, span)?;
        }
        Ok(())
    }

    /// Is `name` a record-typed variable in scope? (For messages.)
    #[allow(dead_code)]
    pub(super) fn is_record_var(&self, name: &str) -> bool {
        matches!(self.lookup(name), Some(Binding::Var(_, t)) if matches!(self.infer.shallow(&t), Type::Record(_)))
    }
}

/// Check the type abbreviations of a program: each is defined once, does
/// not take the name of a scalar type, and has only constant or `[]` sizes.
/// Returns them by name.
pub fn check_type_defs(
    defs: &[ast::TypeDef],
    diags: &mut Vec<Diagnostic>,
) -> HashMap<String, ast::TypeDef> {
    fn sizes(t: &TypeExp, out: &mut Vec<Span>) {
        match t {
            TypeExp::Array(sz, e, _) => {
                match sz {
                    SizeExp::Named(id) => out.push(id.span),
                    SizeExp::Expr(e) => out.push(e.span),
                    SizeExp::Any(_) | SizeExp::Const(..) => {}
                }
                sizes(e, out);
            }
            TypeExp::Tuple(ts, _) => ts.iter().for_each(|t| sizes(t, out)),
            TypeExp::Record(fs, _) => fs.iter().for_each(|(_, t)| sizes(t, out)),
            TypeExp::Fun(ps, r, _) => {
                ps.iter().for_each(|t| sizes(t, out));
                sizes(r, out);
            }
            TypeExp::Unique(e, _) => sizes(e, out),
            TypeExp::Prim(..) | TypeExp::Named(..) => {}
        }
    }
    let mut out: HashMap<String, ast::TypeDef> = HashMap::new();
    for d in defs {
        if let Some(prev) = out.get(&d.name.name) {
            diags.push(
                Diagnostic::new(
                    "E0106",
                    d.name.span,
                    format!("type `{}` is defined twice", d.name.name),
                )
                .with_label("second definition")
                .with_secondary(prev.name.span, "first defined here")
                .with_help("rename one of them"),
            );
            continue;
        }
        if PrimType::from_name(&d.name.name).is_some() {
            diags.push(
                Diagnostic::new(
                    "E0101",
                    d.name.span,
                    format!(
                        "`{}` is a builtin type and cannot be redefined",
                        d.name.name
                    ),
                )
                .with_label("reserved name")
                .with_help(format!("choose another name, e.g. `my_{}`", d.name.name)),
            );
            continue;
        }
        let mut named = Vec::new();
        sizes(&d.ty, &mut named);
        if let Some(sp) = named.first() {
            diags.push(
                Diagnostic::new("E0109", *sp, format!("the sizes in type `{}` must be constants or `[]`", d.name.name))
                    .with_label("a named size")
                    .with_help("a type abbreviation has no size parameters: write `[]` (any size) or a constant like `[3]`, or write the array type where it is used"),
            );
            continue;
        }
        out.insert(d.name.name.clone(), d.clone());
    }
    out
}

/// Replace every record type of a finished definition by the tuple of its
/// fields (sorted by name): what the core IR and every later stage see.
pub fn erase_records(def: &mut FunDef) {
    struct E;
    impl MutVisitor for E {
        fn ty(&mut self, t: &mut Type) {
            erase_type(t);
        }
    }
    for p in &mut def.params {
        erase_type(&mut p.1);
    }
    erase_type(&mut def.ret);
    walk_body_mut(&mut E, &mut def.body);
}

/// [`erase_records`] of one type.
pub fn erase_type(t: &mut Type) {
    match t {
        Type::Record(fs) => {
            let mut parts: Vec<Type> = std::mem::take(fs).into_iter().map(|(_, t)| t).collect();
            parts.iter_mut().for_each(erase_type);
            *t = Type::Tuple(parts);
        }
        Type::Array(_, e) => erase_type(e),
        Type::Tuple(ts) => ts.iter_mut().for_each(erase_type),
        Type::Fun(ps, r) => {
            ps.iter_mut().for_each(erase_type);
            erase_type(r);
        }
        Type::Prim(_) | Type::Infer(_) => {}
    }
}
