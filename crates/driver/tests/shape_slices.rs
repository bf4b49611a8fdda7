//! The shape slices against the interpreter (issue 15): for every entry of
//! every example and regression file that the C backend compiles, and every
//! test input on which the interpreter returns a value, the result shape the
//! DPS translation says (each destination's dims, as functions of the
//! arguments; what the C shape function computes) is computed on that input
//! by running the entry's shape function *as core IR* in the interpreter
//! (`weir_driver::pipeline::shape_program`, after the optimizer), checked
//! against [`Dim::eval`] of the same dims, and compared with the shape of the
//! value the interpreter computed: equal,
//! or, for a result of existential size, an upper bound in each existential
//! dim with the other dims equal; a result
//! with no bound ([`weir_dps::ir::DestParam::unbounded`]) is not checked in
//! its outer dim.

use std::path::{Path, PathBuf};
use weir_dps::ir::ResultPart;
use weir_driver::native::{leaf_dims, leaf_elems};
use weir_driver::pipeline::{shape_program, to_dps_partial};
use weir_driver::testblock::{case_args, parse_blocks};
use weir_driver::{compile_file, run_entry};
use weir_interp::value::Shape;
use weir_interp::{Interp, Value};
use weir_shape::Dim;

/// A flattened leaf (row-major elements) as a core value of its rank; an
/// empty array remembers its dims.
fn nest(dims: &[i64], data: &[Value]) -> Option<Value> {
    let Some((&d0, inner)) = dims.split_first() else {
        return data.first().cloned();
    };
    // (an empty array remembers the shape of its absent elements: the dims
    // after its outer 0; rows of no elements are rows, `[[]]` is one row)
    if d0 == 0 {
        let mut shape = Shape::Scalar;
        for d in inner.iter().rev() {
            shape = Shape::Array(Some(usize::try_from(*d).ok()?), std::rc::Rc::new(shape));
        }
        return Some(Value::Empty(std::rc::Rc::new(shape)));
    }
    let row: usize = inner
        .iter()
        .map(|d| usize::try_from(*d).ok())
        .product::<Option<usize>>()?;
    let rows = (0..usize::try_from(d0).ok()?)
        .map(|i| nest(inner, data.get(i * row..(i + 1) * row)?))
        .collect::<Option<Vec<_>>>()?;
    Some(Value::array(rows))
}

fn weir_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut v = Vec::new();
    for dir in ["examples", "tests/regress", "tests/regress_c"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            panic!("{dir} is missing");
        };
        v.extend(
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "weir")),
        );
    }
    v.sort();
    v
}

fn int(v: &Value) -> Option<i64> {
    match v {
        Value::I64(x) => Some(*x),
        Value::I32(x) => Some(i64::from(*x)),
        _ => None,
    }
}

/// The values of a shape's leaves for one call: the DPS parameters' leaves
/// (dims and elements, row-major).
struct Args<'a> {
    fun: &'a weir_dps::ir::Fun,
    leaves: &'a [(Vec<i64>, Vec<Value>)],
}

impl Args<'_> {
    fn param(&self, name: &str) -> Option<&(Vec<i64>, Vec<Value>)> {
        self.fun
            .params
            .iter()
            .zip(self.leaves)
            .find(|(p, _)| p.name == name)
            .map(|(_, l)| l)
    }
    fn leaf(&self, x: &Dim) -> Option<i64> {
        match x {
            Dim::Var(v) => {
                let (dims, data) = self.param(v)?;
                if !dims.is_empty() {
                    return None;
                }
                data.first().and_then(int)
            }
            Dim::DimOf(a, k) => self.param(a)?.0.get(*k).copied(),
            // an element of an argument, 0 out of bounds (as the C shape
            // function reads it)
            Dim::Elem(a, idx) => {
                let (dims, data) = self.param(a)?;
                let ix: Vec<i64> = idx
                    .iter()
                    .map(|i| i.eval(&|y| self.leaf(y)))
                    .collect::<Option<_>>()?;
                if ix.len() != dims.len() {
                    return None;
                }
                let mut flat = 0i64;
                for (i, d) in ix.iter().zip(dims) {
                    if *i < 0 || i >= d {
                        return Some(0);
                    }
                    flat = flat * d + i;
                }
                data.get(usize::try_from(flat).ok()?).and_then(int)
            }
            _ => None,
        }
    }
}

#[test]
fn shape_slices_match_the_interpreters_shapes() {
    let (mut checked, mut exist, mut unbounded) = (0usize, 0usize, 0usize);
    let mut shape_runs = 0usize;
    let mut failures = Vec::new();
    for f in weir_files() {
        let text = std::fs::read_to_string(&f).expect("read");
        let Ok(cases) = parse_blocks(&text, f.parent().expect("dir")) else {
            continue;
        };
        let Ok(c) = compile_file(&f) else {
            continue;
        };
        let Ok((dps, _)) = to_dps_partial(&c.optimized, false) else {
            continue;
        };
        let shapes = match shape_program(&dps) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let first = c.program.entries().next().map(|d| d.name.clone());
        for case in &cases {
            let entries = if case.entries.is_empty() {
                first.iter().cloned().collect()
            } else {
                case.entries.clone()
            };
            for entry in entries {
                let (Some(d), Some(fun)) = (
                    c.program.find(&entry),
                    dps.funs.iter().find(|g| g.name == entry),
                ) else {
                    continue;
                };
                let Ok(args) = case_args(&c, &entry, &case.input) else {
                    continue;
                };
                let Ok(result) = run_entry(&c, &entry, args.clone()) else {
                    continue;
                };
                // the arguments' leaves, by the DPS parameters' names
                let mut leaves = Vec::new();
                for (a, (_, t)) in args.iter().zip(&d.params) {
                    leaves.extend(leaf_elems(a, t).expect("argument leaves"));
                }
                let args_env = Args {
                    fun,
                    leaves: &leaves,
                };
                let env = |x: &Dim| args_env.leaf(x);
                // the shape function, run as core IR on the leaves
                let said_core: Option<Vec<i64>> = leaves
                    .iter()
                    .map(|(dims, data)| nest(dims, data))
                    .collect::<Option<Vec<_>>>()
                    .and_then(|vs| {
                        Interp::new(&shapes)
                            .call(&format!("{entry}_shape"), vs)
                            .ok()
                    })
                    .and_then(|v| {
                        v.as_array()?
                            .iter()
                            .map(|x| x.as_i64())
                            .collect::<Option<Vec<_>>>()
                    });
                let total: usize = fun.dests.iter().map(|d| d.shape.len()).sum();
                if total > 0 {
                    shape_runs += 1;
                }
                let mut at = 0usize;
                let got: Vec<Vec<i64>> = leaf_dims(&result, &d.ret)
                    .expect("result leaves")
                    .into_iter()
                    .filter(|(_, s)| s.is_none())
                    .map(|(dims, _)| dims)
                    .collect();
                let where_ = format!("{}:{} (entry `{entry}`)", f.display(), case.line);
                for (k, (dest, dims)) in fun.dests.iter().zip(&got).enumerate() {
                    let first = at;
                    at += dest.shape.len();
                    // the existential dims of this result, if any
                    let existential: Vec<usize> = fun
                        .results
                        .iter()
                        .filter_map(|r| match r {
                            ResultPart::Size { dest, dim } if *dest == k => Some(*dim),
                            _ => None,
                        })
                        .collect();
                    for (j, (sd, actual)) in dest.shape.iter().zip(dims).enumerate() {
                        // no bound: the caller learns the rows from the entry
                        if dest.unbounded && j == 0 {
                            unbounded += 1;
                            if *actual == 0 {
                                break;
                            }
                            continue;
                        }
                        let Some(said) = sd.eval(&env) else {
                            failures.push(format!(
                                "{where_}: dim {j} of result {k}, `{sd}`, cannot be evaluated"
                            ));
                            break;
                        };
                        let core = said_core.as_ref().and_then(|v| v.get(first + j));
                        if core != Some(&said) {
                            failures.push(format!(
                                "{where_}: dim {j} of result {k}, `{sd}` = {said}, but the core shape function `{entry}_shape` says {core:?}"
                            ));
                        }
                        let said = said.max(0);
                        let ok = if existential.contains(&j) {
                            exist += 1;
                            said >= *actual
                        } else {
                            said == *actual
                        };
                        if !ok {
                            failures.push(format!(
                                "{where_}: dim {j} of result {k} is {actual}, the shape slice says `{sd}` = {said}{}",
                                if existential.contains(&j) { " (an upper bound)" } else { "" }
                            ));
                        }
                        checked += 1;
                        // inside an empty array, inner dims are never evaluated
                        if *actual == 0 {
                            break;
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} shape slice(s) disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked > 400 && exist > 50 && unbounded > 5 && shape_runs > 200,
        "too few dims checked ({checked}, {exist} existential, {unbounded} with no bound, {shape_runs} shape functions run): did the files move?"
    );
}
