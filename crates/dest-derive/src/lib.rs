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

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
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
    let (impl_g, ty_g, where_c) = input.generics.split_for_impl();

    // Generics of the extension trait: the destination's region lifetime first.
    let mut tgen = input.generics.clone();
    let dl = Lifetime::new("'__dest", Span::call_site());
    tgen.params
        .insert(0, GenericParam::Lifetime(LifetimeParam::new(dl.clone())));
    let (t_impl_g, t_ty_g, _) = tgen.split_for_impl();
    let trait_name = format_ident!("{}Fill", name);

    let mut items = TokenStream2::new();
    let mut decls = TokenStream2::new();
    let mut defs = TokenStream2::new();

    let mut method = |suffix: String,
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
        let m = Ident::new(&format!("fill_{suffix}"), span);
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
                self.fill_ctor::<#ctor_ty>()
            }
        });
        Ok(())
    };

    reject_packed(&input.attrs, name)?;
    match &input.data {
        Data::Struct(s) => {
            let suffix = rename(&input.attrs)?.unwrap_or_else(|| snake(&name.to_string()));
            let tys: Vec<Type> = s.fields.iter().map(|f| f.ty.clone()).collect();
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
                unsafe impl #impl_g ::dest::Ctor for #name #ty_g #where_c {
                    type Of = Self;
                    type Tag = ();
                    const TAG: () = ();
                    type Fields = ( #(#tys,)* );
                    fn offsets() -> [usize; #n] {
                        [ #(::core::mem::offset_of!(Self, #members),)* ]
                    }
                }
            });
            method(suffix, name.span(), quote!(#name #ty_g), &tys)?;
        }
        Data::Enum(e) => {
            let prim = repr_prim(&input.attrs, name)?;
            if e.variants.is_empty() {
                return Err(syn::Error::new(
                    name.span(),
                    "#[derive(Fill)] needs at least one variant",
                ));
            }
            let tag_enum = format_ident!("__Dest{}Tag", name);
            let tag_variants = e.variants.iter().map(|v| {
                let id = &v.ident;
                match &v.discriminant {
                    Some((_, expr)) => quote!(#id = #expr),
                    None => quote!(#id),
                }
            });
            items.extend(quote! {
                #[doc(hidden)]
                #[allow(dead_code, non_camel_case_types)]
                #[repr(#prim)]
                enum #tag_enum { #(#tag_variants,)* }
            });
            for v in &e.variants {
                let suffix = rename(&v.attrs)?.unwrap_or_else(|| snake(&v.ident.to_string()));
                let vid = &v.ident;
                let mirror = format_ident!("__Dest{}{}", name, vid);
                let tys: Vec<Type> = v.fields.iter().map(|f| f.ty.clone()).collect();
                let fnames: Vec<Ident> = (0..tys.len()).map(|i| format_ident!("f{}", i)).collect();
                let n = tys.len();
                items.extend(quote! {
                    #[doc(hidden)]
                    #[allow(dead_code, non_camel_case_types)]
                    #[repr(C)]
                    struct #mirror #impl_g #where_c {
                        tag: #prim,
                        #(#fnames: #tys,)*
                        __marker: ::core::marker::PhantomData<fn() -> #name #ty_g>,
                    }
                    // SAFETY (of the generated impl): `#[derive(Fill)]` only
                    // accepts enums with a primitive representation and no
                    // `C`; the Rust reference specifies the layout of each
                    // variant as this `#[repr(C)]` struct (tag first), with the
                    // tag value of the variant's discriminant.
                    unsafe impl #impl_g ::dest::Ctor for #mirror #ty_g #where_c {
                        type Of = #name #ty_g;
                        type Tag = #prim;
                        const TAG: #prim = #tag_enum::#vid as #prim;
                        type Fields = ( #(#tys,)* );
                        fn offsets() -> [usize; #n] {
                            [ #(::core::mem::offset_of!(Self, #fnames),)* ]
                        }
                    }
                });
                method(suffix, v.ident.span(), quote!(#mirror #ty_g), &tys)?;
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
    let mut impl_where = input.generics.clone().make_where_clause().clone();
    impl_where
        .predicates
        .push(syn::parse_quote!(#name #ty_g: ::core::marker::Copy));
    Ok(quote! {
        #items
        #[doc = #trait_doc]
        #vis trait #trait_name #t_impl_g #where_c {
            #decls
        }
        impl #t_impl_g #trait_name #t_ty_g for ::dest::Dest<#dl, #name #ty_g> #impl_where {
            #defs
        }
    })
}

/// `#[dest(name = "...")]`, if present.
fn rename(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    let mut out = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("dest")) {
        a.parse_nested_meta(|meta| {
            if meta.path.is_ident("name") {
                let s: syn::LitStr = meta.value()?.parse()?;
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
