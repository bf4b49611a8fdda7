//! `#[derive(Fill)]` on inputs that used to break, or could break, the
//! generated code: helper names that collide, user items that shadow the
//! names the expansion uses, `Self` in field types, a lifetime named like the
//! derive's own, generics with bounds and where clauses. Each type is derived,
//! filled through its generated methods and read back, so a wrong layout or
//! tag (e.g. a shadowed `u8`) shows up as a wrong value (and, under Miri, as
//! undefined behaviour). If any expansion regresses, this file stops compiling.

use dest::{Dest, Fill, Region};

/// A variant named `Tag` next to the derive's tag enum.
#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Token {
    Tag(u8),
    Word(u32),
}

/// `Foo::BarBaz` and `FooBar::Baz`: before the derive's helpers moved into a
/// `const _` block, both generated a helper named `__DestFooBarBaz`.
#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Foo {
    BarBaz(u8),
    Other,
}

#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum FooBar {
    Baz(u16),
    Qux,
}

#[test]
fn colliding_helper_names() {
    let r = Region::new();
    let t = r.build(|d: Dest<'_, Token>| d.fill_tag().fill_leaf(7));
    assert_eq!(*t, Token::Tag(7));
    let w = r.build(|d: Dest<'_, Token>| d.fill_word().fill_leaf(70_000));
    assert_eq!(*w, Token::Word(70_000));
    let a = r.build(|d: Dest<'_, Foo>| d.fill_bar_baz().fill_leaf(3));
    assert_eq!(*a, Foo::BarBaz(3));
    let b = r.build(|d: Dest<'_, FooBar>| d.fill_baz().fill_leaf(300));
    assert_eq!(*b, FooBar::Baz(300));
    let c = r.build(|d: Dest<'_, FooBar>| d.fill_qux());
    assert_eq!(*c, FooBar::Qux);
    let e = r.build(|d: Dest<'_, Foo>| d.fill_other());
    assert_eq!(*e, Foo::Other);
}

/// User items named like what the expansion refers to: `Dest`, `Ctor`,
/// `Fields`, `PhantomData`, modules `core` and `dest`, and type aliases `u8`
/// and `usize` that are *not* the primitives. The derive must use absolute
/// paths (`::dest::Dest`, `::core::primitive::u8`): were the variant's tag
/// written as the local `u8` (a `u64`), the fields would be read at the
/// wrong offsets.
mod shadowing {
    #![allow(dead_code, non_camel_case_types)]

    use ::dest::Fill;

    pub struct Dest;
    pub struct Ctor;
    pub struct Fields;
    pub struct PhantomData;
    pub struct Option;
    mod core {}
    mod dest {}
    type u8 = u64;
    type usize = i8;

    #[derive(Fill, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub enum Shadowed {
        Small(::core::primitive::u8),
        Pair(::core::primitive::u8, ::core::primitive::u16),
        Empty,
    }

    #[derive(Fill, Debug, Clone, Copy, PartialEq)]
    pub struct Plain {
        pub a: ::core::primitive::u8,
        pub b: ::core::primitive::u32,
    }
}

#[test]
fn user_items_do_not_shadow_the_expansion() {
    use shadowing::{PlainFill, Shadowed, ShadowedFill};
    let r = Region::new();
    let s = r.build(|d: Dest<'_, Shadowed>| {
        let (a, b) = d.fill_pair();
        a.fill_leaf(5);
        b.fill_leaf(600);
    });
    assert_eq!(*s, Shadowed::Pair(5, 600));
    let s = r.build(|d: Dest<'_, Shadowed>| d.fill_small().fill_leaf(9));
    assert_eq!(*s, Shadowed::Small(9));
    let s = r.build(|d: Dest<'_, Shadowed>| d.fill_empty());
    assert_eq!(*s, Shadowed::Empty);
    let p = r.build(|d: Dest<'_, shadowing::Plain>| {
        let (a, b) = d.fill_plain();
        a.fill_leaf(1);
        b.fill_leaf(2);
    });
    assert_eq!(*p, shadowing::Plain { a: 1, b: 2 });
}

/// Fields named like the variant helpers' own fields (`tag`, `__marker`,
/// `f0`), in a variant and in a struct.
#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Record {
    Fields { tag: u8, __marker: u32, f0: u16 },
    Blank,
}

#[derive(Fill, Debug, Clone, Copy, PartialEq)]
struct Marked {
    tag: u64,
    __marker: u8,
}

#[test]
fn fields_named_like_helpers() {
    let r = Region::new();
    let v = r.build(|d: Dest<'_, Record>| {
        let (tag, marker, f0) = d.fill_fields();
        f0.fill_leaf(3);
        marker.fill_leaf(2);
        tag.fill_leaf(1);
    });
    assert_eq!(
        *v,
        Record::Fields {
            tag: 1,
            __marker: 2,
            f0: 3
        }
    );
    let n = r.build(|d: Dest<'_, Record>| d.fill_blank());
    assert_eq!(*n, Record::Blank);
    let m = r.build(|d: Dest<'_, Marked>| {
        let (t, m) = d.fill_marked();
        t.fill_leaf(u64::MAX);
        m.fill_leaf(4);
    });
    assert_eq!(
        *m,
        Marked {
            tag: u64::MAX,
            __marker: 4
        }
    );
}

/// `Self` in field types: it means the derived type, not the helper struct
/// or the `Dest` in whose context the expansion pastes the field type.
#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Chain<'r> {
    End,
    Link(u32, &'r Self),
}

#[derive(Fill, Debug, Clone, Copy, PartialEq)]
struct Rope<'r> {
    piece: &'r str,
    rest: Option<&'r Self>,
}

#[test]
fn self_in_field_types() {
    let r = Region::new();
    let c = r.build(|d: Dest<'_, Chain<'_>>| {
        let (v, next) = d.fill_link();
        v.fill_leaf(1);
        let (v, next) = next.fill_box().fill_link();
        v.fill_leaf(2);
        next.fill_box().fill_end();
    });
    assert_eq!(*c, Chain::Link(1, &Chain::Link(2, &Chain::End)));
    let s = r.build(|d: Dest<'_, Rope<'_>>| {
        let (piece, rest) = d.fill_rope();
        piece.fill_leaf(r.alloc_str("ab"));
        let (piece, rest) = rest.fill_some().fill_rope();
        piece.fill_leaf(r.alloc_str("cd"));
        rest.fill_none();
    });
    assert_eq!(s.piece, "ab");
    assert_eq!(s.rest.map(|x| x.piece), Some("cd"));
    assert!(s.rest.and_then(|x| x.rest).is_none());
}

/// The derive's own lifetime is `'__dest`: a type that already uses that
/// name (as a parameter, or bound in a field type) gets another one.
#[derive(Fill, Debug, Clone, Copy)]
struct Holder<'__dest> {
    value: &'__dest u32,
    call: for<'__dest1> fn(&'__dest1 u32) -> u32,
}

fn plus_one(x: &u32) -> u32 {
    x + 1
}

#[test]
fn lifetime_named_like_the_derives() {
    let r = Region::new();
    let h = r.build(|d: Dest<'_, Holder<'_>>| {
        let (v, c) = d.fill_holder();
        v.fill_leaf(r.alloc_value(41));
        c.fill_leaf(plus_one);
    });
    assert_eq!((h.call)(h.value), 42);
}

/// Generics with bounds, defaults, const parameters and where clauses.
#[derive(Fill, Debug, Clone, Copy, PartialEq)]
struct Block<'r, T: Copy + Default = u8, const N: usize = 2>
where
    T: PartialEq + std::fmt::Debug,
{
    items: [T; N],
    next: Option<&'r Block<'r, T, N>>,
}

#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u16)]
enum Either<'r, A: Copy, B>
where
    B: Copy + 'r,
{
    Left(A) = 300,
    Right(&'r B),
    Both { a: A, b: &'r B } = 7,
}

#[test]
fn generics_bounds_and_where_clauses() {
    let r = Region::new();
    let b = r.build(|d: Dest<'_, Block<'_, u16, 3>>| {
        let (items, next) = d.fill_block();
        items.fill_leaf([1, 2, 3]);
        let (items, next) = next.fill_some().fill_block();
        items.fill_leaf([4, 5, 6]);
        next.fill_none();
    });
    assert_eq!(b.items, [1, 2, 3]);
    assert_eq!(b.next.map(|n| n.items), Some([4, 5, 6]));
    let e = r.build(|d: Dest<'_, Either<'_, i64, char>>| {
        let (a, b) = d.fill_both();
        a.fill_leaf(-1);
        b.fill_box().fill_leaf('x');
    });
    assert_eq!(*e, Either::Both { a: -1, b: &'x' });
    let e = r.build(|d: Dest<'_, Either<'_, i64, char>>| d.fill_left().fill_leaf(-2));
    assert_eq!(*e, Either::Left(-2));
    let e = r.build(|d: Dest<'_, Either<'_, i64, char>>| d.fill_right().fill_box().fill_leaf('y'));
    assert_eq!(*e, Either::Right(&'y'));
}

/// Raw identifiers: the methods are named after the unescaped name.
#[derive(Fill, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Keyword {
    r#Type(u8),
    r#Match,
}

#[test]
fn raw_identifiers() {
    let r = Region::new();
    let k = r.build(|d: Dest<'_, Keyword>| d.fill_type().fill_leaf(4));
    assert_eq!(*k, Keyword::r#Type(4));
    let k = r.build(|d: Dest<'_, Keyword>| d.fill_match());
    assert_eq!(*k, Keyword::r#Match);
}
