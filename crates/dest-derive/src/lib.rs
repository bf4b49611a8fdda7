//! `#[derive(Fill)]`: hollow constructors for user types in the `dest` crate.
//!
//! For a struct `Point { x: f64, y: f64 }` it generates a trait `PointFill`
//! implemented for `Dest<'_, Point>` with `fn fill_point(self) -> (Dest<f64>,
//! Dest<f64>)`. For an enum with a primitive representation (`#[repr(u8)]`,
//! ...) it generates one method per variant: `fill_<variant in snake case>`,
//! returning `()` for a unit variant, the field's `Dest` for one field and a
//! tuple of `Dest`s (in declaration order) for more. `#[dest(name = "...")]` on
//! the struct or a variant renames the method's suffix.
//!
//! The generated code contains no raw-pointer code: it declares, for each enum
//! variant, the `#[repr(C)]` struct that the Rust reference specifies as that
//! variant's layout (`{ tag, fields... }`), and an `unsafe impl dest::Ctor`
//! that gives the tag and the `offset_of!` of each field; `Dest::fill_ctor`
//! (in `dest`'s one unsafe module) does the writing.
//!
//! Hygiene: the only item added to the user's scope is the public
//! `<Type>Fill` trait. The helper types (`__DestTag_<Type>`,
//! `__DestVariant_<Type>_<Variant>`) and the impls are inside an anonymous
//! `const _: () = { ... };`, so helpers of different derives cannot collide;
//! paths are absolute (`::dest`, `::core`, `::core::primitive`), so local
//! items named `Dest`, `Ctor`, `core`, `u8`, ... do not interfere; the
//! destination's lifetime is renamed if the input already uses `'__dest`; and
//! `Self` in a field type is replaced by the type (`Self::Assoc` is
//! rejected with an error pointing at it).

use proc_macro::TokenStream;
use proc_macro2::{Group, Span, TokenStream as TokenStream2, TokenTree};
use quote::{ToTokens, format_ident, quote};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{
    Attribute, Data, DeriveInput, GenericParam, Ident, Lifetime, LifetimeParam, Type,
    parse_macro_input,
};

/// Derives hollow constructors (`fill_<ctor>` methods on `Dest<'_, Self>`).
/// Enums need a primitive representation such as `#[repr(u8)]`.
#[proc_macro_derive(Fill, attributes(dest))]
pub fn derive_fill(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Method names that `Dest` already has: a constructor with one of these
/// names would be shadowed by the inherent method.
const RESERVED: &[&str] = &["leaf", "comp", "ctor", "box", "none", "some"];

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let name = &input.ident;
    let vis = &input.vis;
    // `Self` in the input means the derived type; in the generated items it
    // would mean a helper struct or the `Dest`, so it is replaced by the
    // type's name (and rejected where it cannot be, as in `Self::Assoc`).
    let generics = self_free_generics(&input.generics, name)?;
    let (impl_g, ty_g, where_c) = generics.split_for_impl();
    let self_ty = quote!(#name #ty_g);

    // Generics of the extension trait: the destination's region lifetime
    // first, under a name that no lifetime of the input uses.
    let mut tgen = generics.clone();
    let dl = fresh_lifetime(input);
    tgen.params
        .insert(0, GenericParam::Lifetime(LifetimeParam::new(dl.clone())));
    let (t_impl_g, t_ty_g, _) = tgen.split_for_impl();
    let trait_name = format_ident!("{}Fill", name);

    let mut items = TokenStream2::new();
    let mut decls = TokenStream2::new();
    let mut defs = TokenStream2::new();
    // Method name -> the constructor that generated it.
    let mut seen: Vec<(String, String)> = Vec::new();

    let mut method = |suffix: String,
                      ctor_name: String,
                      span: Span,
                      ctor_ty: TokenStream2,
                      tys: &[Type]|
     -> syn::Result<()> {
        if RESERVED.contains(&suffix.as_str()) {
            return Err(syn::Error::new(
                span,
                format!(
                    "`fill_{suffix}` would collide with `Dest::fill_{suffix}`; rename the generated method with #[dest(name = \"...\")]"
                ),
            ));
        }
        let m_name = format!("fill_{suffix}");
        let Ok(mut m) = syn::parse_str::<Ident>(&m_name) else {
            return Err(syn::Error::new(
                span,
                format!("#[derive(Fill)]: `{m_name}` is not a valid method name"),
            ));
        };
        m.set_span(span);
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == m_name) {
            return Err(syn::Error::new(
                span,
                format!(
                    "#[derive(Fill)]: `{m_name}` would be generated for both `{other}` and `{ctor_name}`; rename one with #[dest(name = \"...\")]"
                ),
            ));
        }
        seen.push((m_name, ctor_name));
        let ret = match tys.len() {
            0 => quote!(()),
            1 => {
                let t = &tys[0];
                quote!(::dest::Dest<#dl, #t>)
            }
            _ => quote!(( #(::dest::Dest<#dl, #tys>,)* )),
        };
        let doc = format!(
            "Fills the hole with a hollow `{suffix}` constructor; returns the holes for its fields."
        );
        decls.extend(quote! {
            #[doc = #doc]
            fn #m(self) -> #ret;
        });
        defs.extend(quote! {
            #[inline]
            fn #m(self) -> #ret {
                <::dest::Dest<#dl, #self_ty>>::fill_ctor::<#ctor_ty>(self)
            }
        });
        Ok(())
    };

    reject_packed(&input.attrs, name)?;
    match &input.data {
        Data::Struct(s) => {
            let suffix = rename(&input.attrs)?.unwrap_or_else(|| snake(&name.unraw().to_string()));
            let tys = field_types(&s.fields, name, &ty_g)?;
            let members: Vec<TokenStream2> = s
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| match &f.ident {
                    Some(id) => quote!(#id),
                    None => {
                        let idx = syn::Index::from(i);
                        quote!(#idx)
                    }
                })
                .collect();
            let n = tys.len();
            items.extend(quote! {
                // SAFETY (of the generated impl): a struct has no tag, and its
                // fields are exactly `Fields`, at the `offset_of!` of each.
                #[automatically_derived]
                unsafe impl #impl_g ::dest::Ctor for #self_ty #where_c {
                    type Of = Self;
                    type Tag = ();
                    const TAG: () = ();
                    type Fields = ( #(#tys,)* );
                    fn offsets() -> [::core::primitive::usize; #n] {
                        [ #(::core::mem::offset_of!(Self, #members),)* ]
                    }
                }
            });
            method(
                suffix,
                name.unraw().to_string(),
                name.span(),
                self_ty.clone(),
                &tys,
            )?;
        }
        Data::Enum(e) => {
            let prim = repr_prim(&input.attrs, name)?;
            if rename(&input.attrs)?.is_some() {
                return Err(syn::Error::new(
                    name.span(),
                    "#[derive(Fill)]: `#[dest(name = \"...\")]` names one constructor's method: put it on a variant, not on the enum",
                ));
            }
            if e.variants.is_empty() {
                return Err(syn::Error::new(
                    name.span(),
                    "#[derive(Fill)] needs at least one variant",
                ));
            }
            // The helpers live in the `const _` block below, one block per
            // derive, so their names only have to differ from each other and
            // from the derived type's name (`__DestVariant_{name}_{variant}`
            // is longer than `{name}`, and a variant cannot be named so that
            // its helper is the tag enum's `__DestTag_{name}`).
            let uname = name.unraw();
            let tag_enum = format_ident!("__DestTag_{}", uname);
            let tag_variants = e.variants.iter().map(|v| {
                let id = &v.ident;
                match &v.discriminant {
                    Some((_, expr)) => quote!(#id = #expr),
                    None => quote!(#id),
                }
            });
            items.extend(quote! {
                #[allow(dead_code, non_camel_case_types, clippy::enum_variant_names)]
                #[repr(#prim)]
                enum #tag_enum { #(#tag_variants,)* }
            });
            for v in &e.variants {
                let vname = v.ident.unraw().to_string();
                let suffix = rename(&v.attrs)?.unwrap_or_else(|| snake(&vname));
                let vid = &v.ident;
                let mirror = format_ident!("__DestVariant_{}_{}", uname, v.ident.unraw());
                let tys = field_types(&v.fields, name, &ty_g)?;
                let fnames: Vec<Ident> = (0..tys.len()).map(|i| format_ident!("f{}", i)).collect();
                let n = tys.len();
                items.extend(quote! {
                    #[allow(dead_code, non_camel_case_types)]
                    #[repr(C)]
                    struct #mirror #impl_g #where_c {
                        tag: ::core::primitive::#prim,
                        #(#fnames: #tys,)*
                        __marker: ::core::marker::PhantomData<fn() -> #self_ty>,
                    }
                    // SAFETY (of the generated impl): `#[derive(Fill)]` only
                    // accepts enums with a primitive representation and no
                    // `C`; the Rust reference specifies the layout of each
                    // variant as this `#[repr(C)]` struct (tag first), with the
                    // tag value of the variant's discriminant.
                    #[automatically_derived]
                    unsafe impl #impl_g ::dest::Ctor for #mirror #ty_g #where_c {
                        type Of = #self_ty;
                        type Tag = ::core::primitive::#prim;
                        const TAG: ::core::primitive::#prim =
                            #tag_enum::#vid as ::core::primitive::#prim;
                        type Fields = ( #(#tys,)* );
                        fn offsets() -> [::core::primitive::usize; #n] {
                            [ #(::core::mem::offset_of!(Self, #fnames),)* ]
                        }
                    }
                });
                method(
                    suffix,
                    format!("{uname}::{vname}"),
                    v.ident.span(),
                    quote!(#mirror #ty_g),
                    &tys,
                )?;
            }
        }
        Data::Union(u) => {
            return Err(syn::Error::new(
                u.union_token.span(),
                "#[derive(Fill)] supports structs and enums, not unions",
            ));
        }
    }

    let trait_doc = format!("Hollow constructors of [`{name}`] (generated by `#[derive(Fill)]`).");
    // Region data must be `Copy`: the methods exist when the type is.
    let mut impl_where = where_c.cloned().unwrap_or_else(|| syn::WhereClause {
        where_token: Default::default(),
        predicates: Default::default(),
    });
    impl_where
        .predicates
        .push(syn::parse_quote!(#self_ty: ::core::marker::Copy));
    // Only the trait is visible outside: every other item is inside an
    // anonymous `const`, so helpers of different derives never collide and
    // never shadow the user's names.
    Ok(quote! {
        #[doc = #trait_doc]
        #vis trait #trait_name #t_impl_g #where_c {
            #decls
        }
        const _: () = {
            #items
            #[automatically_derived]
            impl #t_impl_g #trait_name #t_ty_g for ::dest::Dest<#dl, #self_ty> #impl_where {
                #defs
            }
        };
    })
}

/// The field types of a struct or variant, `Self` replaced by the type.
fn field_types(
    fields: &syn::Fields,
    name: &Ident,
    ty_g: &syn::TypeGenerics<'_>,
) -> syn::Result<Vec<Type>> {
    let self_ty = quote!(#name #ty_g);
    fields
        .iter()
        .map(|f| syn::parse2(replace_self(f.ty.to_token_stream(), &self_ty)?))
        .collect()
}

/// The input's generics with `Self` (in bounds and the where clause)
/// replaced by the type.
fn self_free_generics(g: &syn::Generics, name: &Ident) -> syn::Result<syn::Generics> {
    let mut out = g.clone();
    // The type's own generics, without bounds: what `Self` stands for.
    let args = g.params.iter().map(|p| match p {
        GenericParam::Lifetime(l) => l.lifetime.to_token_stream(),
        GenericParam::Type(t) => t.ident.to_token_stream(),
        GenericParam::Const(c) => c.ident.to_token_stream(),
    });
    let self_ty = if g.params.is_empty() {
        quote!(#name)
    } else {
        quote!(#name < #(#args),* >)
    };
    for p in out.params.iter_mut() {
        *p = syn::parse2(replace_self(p.to_token_stream(), &self_ty)?)?;
    }
    if let Some(w) = &out.where_clause {
        out.where_clause = Some(syn::parse2(replace_self(w.to_token_stream(), &self_ty)?)?);
    }
    Ok(out)
}

/// Replaces each `Self` type in `ts` by `self_ty` (spanned at the `Self`).
/// `Self` followed by `::` (an associated item of `Self`) cannot be replaced
/// by a type with generic arguments in a path: an error, pointing at it.
fn replace_self(ts: TokenStream2, self_ty: &TokenStream2) -> syn::Result<TokenStream2> {
    let tts: Vec<TokenTree> = ts.into_iter().collect();
    let mut out = TokenStream2::new();
    for (i, tt) in tts.iter().enumerate() {
        match tt {
            TokenTree::Ident(id) if id == "Self" => {
                let path_follows = matches!(
                    tts.get(i + 1),
                    Some(TokenTree::Punct(p)) if p.as_char() == ':'
                );
                if path_follows {
                    return Err(syn::Error::new(
                        id.span(),
                        "#[derive(Fill)]: write the type's name instead of `Self` in field types",
                    ));
                }
                let span = id.span();
                out.extend(quote::quote_spanned!(span=> #self_ty));
            }
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), replace_self(g.stream(), self_ty)?);
                ng.set_span(g.span());
                out.extend([TokenTree::Group(ng)]);
            }
            other => out.extend([other.clone()]),
        }
    }
    Ok(out)
}

/// A lifetime for the destination's region that the input does not use
/// anywhere (as a parameter, or bound by `for<..>` in a field type).
fn fresh_lifetime(input: &DeriveInput) -> Lifetime {
    fn collect(ts: TokenStream2, out: &mut Vec<String>) {
        let mut after_quote = false;
        for tt in ts {
            match tt {
                TokenTree::Punct(p) => after_quote = p.as_char() == '\'',
                TokenTree::Ident(id) => {
                    if after_quote {
                        out.push(id.to_string());
                    }
                    after_quote = false;
                }
                TokenTree::Group(g) => {
                    after_quote = false;
                    collect(g.stream(), out);
                }
                TokenTree::Literal(_) => after_quote = false,
            }
        }
    }
    let mut used = Vec::new();
    collect(input.to_token_stream(), &mut used);
    let mut n = 0usize;
    loop {
        let cand = if n == 0 {
            "__dest".to_string()
        } else {
            format!("__dest{n}")
        };
        if !used.contains(&cand) {
            return Lifetime::new(&format!("'{cand}"), Span::call_site());
        }
        n += 1;
    }
}

/// `#[dest(name = "...")]`, if present.
fn rename(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    let mut out = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("dest")) {
        a.parse_nested_meta(|meta| {
            if meta.path.is_ident("name") {
                let s: syn::LitStr = meta.value()?.parse()?;
                if syn::parse_str::<Ident>(&format!("fill_{}", s.value())).is_err() {
                    return Err(syn::Error::new(
                        s.span(),
                        "#[dest(name = \"...\")] needs an identifier suffix such as \"cons\"",
                    ));
                }
                out = Some(s.value());
                Ok(())
            } else {
                Err(meta.error("expected `name = \"...\"`"))
            }
        })?;
    }
    Ok(out)
}

/// What `#[repr(..)]` says: the primitive integer, and whether `C` or
/// `packed` is present.
struct Repr {
    prim: Option<Ident>,
    c: bool,
    packed: bool,
}

fn read_repr(attrs: &[Attribute]) -> syn::Result<Repr> {
    const PRIMS: &[&str] = &[
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ];
    let mut r = Repr {
        prim: None,
        c: false,
        packed: false,
    };
    for a in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        a.parse_nested_meta(|meta| {
            if meta.path.is_ident("C") {
                r.c = true;
            } else if meta.path.is_ident("packed") {
                r.packed = true;
            } else if let Some(id) = meta.path.get_ident()
                && PRIMS.contains(&id.to_string().as_str())
            {
                r.prim = Some(id.clone());
            }
            // Skip an argument list such as `align(8)` or `packed(2)`.
            if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                content.parse::<TokenStream2>()?;
            }
            Ok(())
        })?;
    }
    Ok(r)
}

/// Packed layouts put fields at unaligned addresses, where a `Dest` could not
/// write: rejected.
fn reject_packed(attrs: &[Attribute], name: &Ident) -> syn::Result<()> {
    if read_repr(attrs)?.packed {
        return Err(syn::Error::new(
            name.span(),
            "#[derive(Fill)] does not support `#[repr(packed)]`: its fields may be unaligned, and a destination writes aligned values",
        ));
    }
    Ok(())
}

/// The primitive integer of `#[repr(..)]`, required for enums.
fn repr_prim(attrs: &[Attribute], name: &Ident) -> syn::Result<Ident> {
    let r = read_repr(attrs)?;
    match r.prim {
        Some(p) if !r.c => Ok(p),
        Some(_) => Err(syn::Error::new(
            name.span(),
            "#[derive(Fill)] needs `#[repr(u8)]` (or another integer) without `C`: `repr(C, u8)` has a different layout",
        )),
        None => Err(syn::Error::new(
            name.span(),
            "#[derive(Fill)] on an enum needs a primitive representation so that its layout is specified: add `#[repr(u8)]`",
        )),
    }
}

/// `SExpr` -> `s_expr`, `Cons` -> `cons`.
fn snake(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::new();
    for (i, &c) in cs.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower = i > 0 && (cs[i - 1].is_lowercase() || cs[i - 1].is_ascii_digit());
            let next_lower = i + 1 < cs.len() && cs[i + 1].is_lowercase();
            let prev_upper = i > 0 && cs[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
