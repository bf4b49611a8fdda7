//! The shape walk on its own (without the DPS translation): existentials are
//! named after the variable their producer binds, carry a bound from sizes,
//! and one existential is one name wherever it is used.

use std::collections::HashMap;
use weir_ir::{Atom, Size};
use weir_shape::Dim;
use weir_shape::walk::{DType, Leaf, ShapeSig, ShapeWalk, flat_type};

/// Walk every statement of the program's only function, its parameters bound
/// as the DPS translation binds them (a size parameter is the dim of the
/// first array that has it; an array parameter's other dims are its own).
fn walk(text: &str, f: impl FnOnce(&ShapeWalk)) {
    let prog = weir_ir::parse::parse_program(text).expect("the test's core IR parses");
    let d = &prog.defs[0];
    let sigs: HashMap<String, ShapeSig> = HashMap::new();
    let mut w = ShapeWalk::new(&sigs, d.entry);
    for (p, t) in &d.params {
        let (ty, sizes) = flat_type(t).expect("first-order")[0].clone();
        w.bind_depth(p);
        w.types.insert(p.clone(), t.clone());
        w.vars.insert(
            p.clone(),
            vec![Leaf {
                atom: Atom::Var(p.clone()),
                ty,
            }],
        );
        if let DType::Array(..) = ty {
            let mut shape = Vec::new();
            for (j, sz) in sizes.iter().enumerate() {
                match sz {
                    Size::Var(n) if d.size_params.contains(n) => {
                        if !w.sh.defs.contains_key(n) {
                            w.bind_depth(n);
                            w.sh.defs.insert(n.clone(), Dim::DimOf(p.clone(), j));
                        }
                        shape.push(Dim::Var(n.clone()));
                    }
                    _ => shape.push(Dim::DimOf(p.clone(), j)),
                }
            }
            w.shapes.insert(p.clone(), shape);
        }
    }
    for s in &d.body.stmts {
        w.shape_bind(s).expect("the walk accepts the statement");
    }
    f(&w);
}

fn var(v: &str) -> Dim {
    Dim::Var(v.into())
}

/// Evaluate a size with every array parameter of length `n` and the named
/// scalars given.
fn eval(d: &Dim, n: i64, scalars: &[(&str, i64)]) -> Option<i64> {
    d.eval(&|l| match l {
        Dim::DimOf(..) => Some(n),
        Dim::Var(v) => scalars.iter().find(|(x, _)| x == v).map(|(_, c)| *c),
        _ => None,
    })
}

#[test]
fn a_filter_binds_an_existential_named_after_it_and_bounded_by_its_input() {
    walk(
        r"entry f [n_1] (a_2: [n_1]f64) : i64 = {
  let p_6: []f64 = filter (\(x_3: f64) : bool -> {
    let t_4: bool = x_3 > 0.0f64
    in t_4
  }) a_2
  let t_7: i64 = dim p_6 0
  let t_8: i64 = dim p_6 0
  let t_12: i64 = t_7 + t_8
  in t_12
}",
        |w| {
            assert_eq!(w.shapes["p_6"], vec![var("p_6_count")]);
            let bound = w.sh.expand(&w.sh.exist_bounds["p_6_count"]);
            assert_eq!(eval(&bound, 9, &[]), Some(9), "{bound:?}");
            // two reads of the length are one existential: their sum is twice it
            let sum = w.sh.expand(&var("t_12")).simplify();
            let twice = Dim::times(Dim::Const(2), var("p_6_count")).simplify();
            assert!(weir_shape::same_dim(&sum, &twice), "{sum:?}");
        },
    );
}

#[test]
fn an_if_of_two_lengths_binds_the_taken_branch_length_bounded_by_the_longer() {
    walk(
        r"entry g [n_13] (c_14: bool) (a_15: [n_13]f64) (b_16: [n_13]f64) : []f64 = {
  let t_18: []f64 = if c_14 then {
    let t_17: []f64 = concat a_15 b_16
    in t_17
  } else {
    in a_15
  }
  in t_18
}",
        |w| {
            assert_eq!(w.shapes["t_18"], vec![var("t_18_ifsize0")]);
            let bound = w.sh.expand(&w.sh.exist_bounds["t_18_ifsize0"]);
            assert_eq!(eval(&bound, 5, &[]), Some(10), "{bound:?}");
        },
    );
}

#[test]
fn a_growing_loop_gets_its_shape_slice_as_the_bound_of_its_length() {
    walk(
        r"entry h [n_19] (a_20: [n_19]f64) (k_21: i64) : []f64 = {
  let t_27: []f64 = loop (x_22: []f64) = a_20 for i_23 < k_21 do {
    let t_25: [1]f64 = [1.0f64]
    let t_26: []f64 = concat x_22 t_25
    in t_26
  }
  in t_27
}",
        |w| {
            assert_eq!(w.shapes["t_27"], vec![var("t_27_loopsize0")]);
            let bound = w.sh.expand(&w.sh.exist_bounds["t_27_loopsize0"]);
            assert!(matches!(bound, Dim::Slice(_)), "{bound:?}");
            // the slice runs on sizes only: the length n grows by 1 k times
            assert_eq!(eval(&bound, 3, &[("k_21", 4)]), Some(7), "{bound:?}");
        },
    );
}
