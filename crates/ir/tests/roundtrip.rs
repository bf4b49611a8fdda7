//! print → parse → print is stable for arbitrary core IR (well-typed or not: the
//! text form must represent every IR value), and parse(print(p)) == p.

use proptest::prelude::*;
use weir_ir::parse::parse_program;
use weir_ir::print::program_to_string;
use weir_ir::*;

fn name() -> impl Strategy<Value = Name> {
    (
        prop::sample::select(vec!["x", "acc", "t", "n", "row", "lit", "state"]),
        0u32..50,
    )
        .prop_map(|(b, i)| format!("{b}_{i}"))
}

fn prim() -> impl Strategy<Value = PrimType> {
    prop::sample::select(PrimType::ALL.to_vec())
}

fn size() -> impl Strategy<Value = Size> {
    prop_oneof![
        (0i64..100).prop_map(Size::Const),
        name().prop_map(Size::Var),
        Just(Size::Unknown)
    ]
}

fn ty() -> impl Strategy<Value = Type> {
    prim()
        .prop_map(Type::Prim)
        .prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                (size(), inner.clone()).prop_map(|(s, t)| Type::array(s, t)),
                prop::collection::vec(inner.clone(), 2..4).prop_map(Type::Tuple),
                (prop::collection::vec(inner.clone(), 1..3), inner)
                    .prop_map(|(ps, r)| Type::Fun(ps, Box::new(r))),
            ]
        })
}

fn constant() -> impl Strategy<Value = Const> {
    prop_oneof![
        any::<f64>().prop_map(Const::F64),
        any::<f32>().prop_map(Const::F32),
        any::<i64>().prop_map(Const::I64),
        any::<i32>().prop_map(Const::I32),
        any::<bool>().prop_map(Const::Bool),
        any::<i8>().prop_map(Const::I8),
        any::<i16>().prop_map(Const::I16),
        any::<u8>().prop_map(Const::U8),
        any::<u16>().prop_map(Const::U16),
        any::<u32>().prop_map(Const::U32),
        any::<u64>().prop_map(Const::U64),
    ]
}

fn atom() -> impl Strategy<Value = Atom> {
    prop_oneof![name().prop_map(Atom::Var), constant().prop_map(Atom::Const)]
}

fn binop() -> impl Strategy<Value = BinOp> {
    prop::sample::select(vec![
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Pow,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::UShr,
    ])
}

fn leaf_exp() -> impl Strategy<Value = Exp> {
    prop_oneof![
        atom().prop_map(Exp::Atom),
        (binop(), atom(), atom()).prop_map(|(o, a, b)| Exp::Bin(o, a, b)),
        (prop::sample::select(vec![UnOp::Neg, UnOp::Not]), atom()).prop_map(|(o, a)| Exp::Un(o, a)),
        (prim(), atom()).prop_map(|(p, a)| Exp::Convert(p, a)),
        (prop::sample::select(MathFn::ALL.to_vec()), atom(), atom())
            .prop_map(|(m, a, b)| Exp::Math(m, if m.arity() == 1 { vec![a] } else { vec![a, b] })),
        prop::collection::vec(atom(), 2..4).prop_map(Exp::Tuple),
        (atom(), 0usize..4).prop_map(|(a, i)| Exp::Proj(a, i)),
        prop::collection::vec(atom(), 0..4).prop_map(Exp::ArrayLit),
        (atom(), atom()).prop_map(|(a, i)| Exp::Index(a, i)),
        (atom(), atom(), atom()).prop_map(|(a, s, e)| Exp::Slice(a, s, e)),
        (name(), prop::collection::vec(atom(), 0..3)).prop_map(|(f, xs)| Exp::Apply(f, xs)),
        (atom(), 0usize..3).prop_map(|(a, k)| Exp::Dim(a, k)),
        (atom(), atom(), name(), name(), name()).prop_map(|(got, want, callee, param, size)| {
            Exp::CheckSize(Box::new(SizeCheck {
                got,
                want,
                callee,
                param,
                size,
            }))
        }),
        (
            prop::sample::select(CheckKind::ALL.to_vec()),
            prop::collection::vec(atom(), 3),
            name()
        )
            .prop_map(|(kind, mut args, what)| {
                args.truncate(kind.arity());
                let what = if kind.has_what() { what } else { String::new() };
                Exp::Check(Box::new(Check { kind, args, what }))
            }),
    ]
}

fn body_with(exp: BoxedStrategy<Exp>) -> impl Strategy<Value = Body> {
    (prop::collection::vec((name(), ty(), exp), 0..4), atom()).prop_map(|(stmts, result)| Body {
        stmts: stmts
            .into_iter()
            .map(|(var, ty, exp)| Stmt {
                var,
                ty,
                exp,
                span: Span::default(),
            })
            .collect(),
        result,
    })
}

fn exp() -> BoxedStrategy<Exp> {
    leaf_exp()
        .prop_recursive(3, 24, 4, |inner| {
            let body = body_with(inner.clone()).boxed();
            let lambda = (
                prop::collection::vec((name(), ty()), 1..3),
                ty(),
                body.clone(),
            )
                .prop_map(|(params, ret, body)| Lambda { params, ret, body });
            let fun = prop_oneof![
                name().prop_map(Fun::Var),
                lambda.prop_map(|l| Fun::Lambda(Box::new(l))),
            ];
            let arg = prop_oneof![atom().prop_map(Arg::Atom), fun.clone().prop_map(Arg::Fun),];
            prop_oneof![
                (atom(), body.clone(), body.clone()).prop_map(|(c, t, f)| Exp::If(c, t, f)),
                (name(), prop::collection::vec(arg.clone(), 0..3))
                    .prop_map(|(f, a)| Exp::Call(f, a)),
                (
                    prop::sample::select(Builtin::ALL.to_vec()),
                    prop::collection::vec(atom(), 5),
                    prop::collection::vec(fun, 2)
                )
                    .prop_map(|(b, atoms, funs)| {
                        // operands of the kinds `b` takes, from the pools
                        let (mut ai, mut fi) = (0, 0);
                        let args = b
                            .arg_kinds()
                            .iter()
                            .map(|k| match k {
                                None => {
                                    ai += 1;
                                    Arg::Atom(atoms[ai - 1].clone())
                                }
                                Some(_) => {
                                    fi += 1;
                                    Arg::Fun(funs[fi - 1].clone())
                                }
                            })
                            .collect();
                        match Prim::from_args(b, args) {
                            Ok(p) => Exp::Prim(p),
                            Err(_) => Exp::Atom(atoms[0].clone()),
                        }
                    }),
                (name(), ty(), atom(), name(), atom(), body.clone()).prop_map(
                    |(s, t, init, i, n, body)| Exp::Loop {
                        state: (s, t),
                        init,
                        form: LoopForm::For(i, n),
                        body,
                    }
                ),
                (name(), ty(), atom(), body.clone(), body).prop_map(|(s, t, init, c, body)| {
                    Exp::Loop {
                        state: (s, t),
                        init,
                        form: LoopForm::While(c),
                        body,
                    }
                }),
            ]
        })
        .boxed()
}

fn program() -> impl Strategy<Value = Program> {
    let def = (
        name(),
        any::<bool>(),
        prop::collection::vec(name(), 0..2),
        prop::collection::vec((name(), ty()), 0..3),
        ty(),
        body_with(exp()),
    )
        .prop_map(|(name, entry, size_params, params, ret, body)| FunDef {
            name,
            entry,
            size_params,
            params,
            ret,
            body,
            span: Span::default(),
        });
    prop::collection::vec(def, 1..3).prop_map(|defs| Program {
        defs,
        effects: vec![],
        ..Default::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn print_parse_print(p in program()) {
        let text = program_to_string(&p);
        let parsed = parse_program(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let again = program_to_string(&parsed);
        prop_assert_eq!(&again, &text);
    }
}
