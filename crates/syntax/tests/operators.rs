//! How operators group (issue 20): unary minus below `**`, sections, the
//! pipes and composition, and local function definitions, shown as
//! S-expressions of the parsed body.

use weir_syntax::ast::{Expr, ExprKind, Pat};
use weir_syntax::{FileId, parse_file};

fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Var(id) => id.name.clone(),
        ExprKind::Int(v, _) => v.to_string(),
        ExprKind::Float(v, _) => format!("{v:?}"),
        ExprKind::Binary(op, a, b, _) => format!("({} {} {})", op.symbol(), show(a), show(b)),
        ExprKind::Unary(op, a) => format!("({op:?} {})", show(a)),
        ExprKind::OpSection(op) => format!("({})", op.symbol()),
        ExprKind::LeftSection(a, op) => format!("(left {} {})", show(a), op.symbol()),
        ExprKind::RightSection(op, a) => format!("(right {} {})", op.symbol(), show(a)),
        ExprKind::Compose(f, g, _) => format!("(compose {} {})", show(f), show(g)),
        ExprKind::Apply(f, xs) => {
            let xs: Vec<String> = xs.iter().map(show).collect();
            format!("(apply {} {})", show(f), xs.join(" "))
        }
        ExprKind::Index(a, _) => format!("(index {})", show(a)),
        ExprKind::Let(Pat::Var(id, _), v, b) => {
            format!("(let {} {} {})", id.name, show(v), show(b))
        }
        ExprKind::LetFun(d, b) => format!(
            "(letfun {} [{}] {} {} {})",
            d.name.name,
            d.size_params
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            d.params.len(),
            show(&d.body),
            show(b)
        ),
        ExprKind::Let(Pat::Wild(..), v, b) => format!("(let _ {} {})", show(v), show(b)),
        ExprKind::Update(a, _, _, v) => format!("(update {} {})", show(a), show(v)),
        other => format!("{other:?}"),
    }
}

fn parse(body: &str) -> String {
    let (prog, errs) = parse_file(FileId(0), &format!("def f = {body}"));
    assert!(errs.is_empty(), "{body}: {errs:?}");
    show(&prog.defs[0].body)
}

fn error(body: &str) -> &'static str {
    let (_, errs) = parse_file(FileId(0), &format!("def f = {body}"));
    errs.first().map_or("none", |e| e.code)
}

#[test]
fn unary_minus_binds_below_power() {
    assert_eq!(parse("-x ** 2.0"), "(Neg (** x 2.0))");
    assert_eq!(parse("-2.0 ** 2.0"), "(Neg (** 2.0 2.0))");
    assert_eq!(parse("(-2.0) ** 2.0"), "(** -2.0 2.0)");
    assert_eq!(parse("2.0 ** -x ** 2.0"), "(** 2.0 (Neg (** x 2.0)))");
    assert_eq!(parse("-x * y"), "(* (Neg x) y)");
    assert_eq!(parse("-2.0 * y"), "(* -2.0 y)");
    assert_eq!(parse("-a[i]"), "(Neg (index a))");
    assert_eq!(parse("- f x ** 2.0"), "(Neg (** (apply f x) 2.0))");
    // a subtraction, not an application
    assert_eq!(parse("f -1"), "(- f 1)");
    assert_eq!(parse("a<-1"), "(< a -1)");
    assert_eq!(parse("a>-1"), "(> a -1)");
}

#[test]
fn sections() {
    assert_eq!(parse("(+)"), "(+)");
    assert_eq!(parse("(-)"), "(-)");
    assert_eq!(parse("(2.0 *)"), "(left 2.0 *)");
    assert_eq!(parse("(* 2.0)"), "(right * 2.0)");
    assert_eq!(parse("(x - y -)"), "(left (- x y) -)");
    assert_eq!(parse("(a * b +)"), "(left (* a b) +)");
    assert_eq!(parse("(+ a * b)"), "(right + (* a b))");
    assert_eq!(parse("(++ ys)"), "(right ++ ys)");
    assert_eq!(parse("(< 3)"), "(right < 3)");
    assert_eq!(parse("(** -x)"), "(right ** (Neg x))");
    assert_eq!(parse("(+ (-1.0))"), "(right + -1.0)");
    // a minus after `(` is a negation
    assert_eq!(parse("(- 1.0)"), "-1.0");
    assert_eq!(parse("(-x)"), "(Neg x)");
    assert_eq!(parse("(2.0 *) x"), "(apply (left 2.0 *) x)");
    // the operand would group differently without the parentheses
    assert_eq!(error("(* a + b)"), "E0025");
    assert_eq!(error("(a + b *)"), "E0025");
    assert_eq!(error("(-x **)"), "E0025");
    assert_eq!(error("(a ++ b ++)"), "E0025");
    assert_eq!(error("(a < b ==)"), "E0010");
}

#[test]
fn pipes_and_composition() {
    assert_eq!(parse("xs |> map f |> sum"), "(apply sum (apply map f xs))");
    assert_eq!(parse("f <| g <| x"), "(apply f (apply g x))");
    assert_eq!(parse("map f <| xs"), "(apply map f xs)");
    assert_eq!(parse("f >-> g >-> h"), "(compose (compose f g) h)");
    assert_eq!(parse("h <-< g <-< f"), "(compose f (compose g h))");
    assert_eq!(
        parse("xs |> map (* 2.0) >-> sum"),
        "(apply (compose (apply map (right * 2.0)) sum) xs)"
    );
    assert_eq!(
        parse("sum <-< map f <| xs"),
        "(apply (compose (apply map f) sum) xs)"
    );
    assert_eq!(parse("a + b >-> c"), "(compose (+ a b) c)");
    assert_eq!(error("1.0 <| x"), "E0009");
    assert_eq!(error("x |> 1.0"), "E0009");
}

#[test]
fn local_functions() {
    assert_eq!(parse("let g x y = x in g"), "(letfun g [] 2 x g)");
    assert_eq!(
        parse("let g (x: f64) : f64 = x let h = 1 in h"),
        "(letfun g [] 1 x (let h 1 h))"
    );
    assert_eq!(
        parse("let g [n] [m] (a: [n]f64) (b: [m]f64) = a in g"),
        "(letfun g [n m] 2 a g)"
    );
    assert_eq!(parse("let g {x, y} = x in g"), "(letfun g [] 1 x g)");
    // still an update, and still a binding of a pattern
    assert_eq!(parse("let a[i] = v in a"), "(let a (update a v) a)");
    assert_eq!(parse("let a [i] = v in a"), "(let a (update a v) a)");
    assert_eq!(parse("let a = v in a"), "(let a v a)");
    assert_eq!(parse("let _ = v in a"), "(let _ v a)");
}
