//! Results in the binary format, decoded to numbers, and the cross-check.

use serde::Serialize;
use weir_ir::{PrimType, Type};

/// One leaf of a value: its dims and its elements as f64 (integers and
/// booleans converted exactly for the sizes benchmarks use).
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    pub dims: Vec<i64>,
    pub data: Vec<f64>,
}

/// Decode the values of the given types, one after another.
pub fn decode(types: &[Type], bytes: &[u8]) -> Result<Vec<Leaf>, String> {
    let mut at = 0usize;
    let mut out = Vec::new();
    let take = |at: &mut usize, n: usize| -> Result<&[u8], String> {
        let end = at
            .checked_add(n)
            .filter(|e| *e <= bytes.len())
            .ok_or_else(|| format!("the data end early ({} bytes)", bytes.len()))?;
        let s = &bytes[*at..end];
        *at = end;
        Ok(s)
    };
    for t in types {
        for (prim, rank) in weir_driver::native::flat_types(t) {
            let mut dims = Vec::with_capacity(rank);
            for _ in 0..rank {
                let b = take(&mut at, 8)?;
                let d = i64::from_le_bytes(b.try_into().map_err(|_| "short read")?);
                if d < 0 {
                    return Err(format!("negative dimension {d}"));
                }
                dims.push(d);
            }
            let n = dims
                .iter()
                .try_fold(1usize, |acc, d| acc.checked_mul(*d as usize))
                .ok_or("dimensions overflow")?;
            let width = (prim.bits() / 8) as usize;
            let raw = take(&mut at, n.checked_mul(width).ok_or("size overflow")?)?;
            let data = raw
                .chunks_exact(width)
                .map(|c| match prim {
                    PrimType::F64 => f64::from_le_bytes(c.try_into().unwrap_or([0; 8])),
                    PrimType::F32 => f32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as f64,
                    PrimType::Bool => f64::from(c[0] != 0),
                    // an integer: little-endian, sign-extended if signed
                    p => {
                        let mut a = [0u8; 16];
                        a[..width].copy_from_slice(c);
                        p.wrap(i128::from_le_bytes(a)) as f64
                    }
                })
                .collect();
            out.push(Leaf { dims, data });
        }
    }
    if at != bytes.len() {
        return Err(format!(
            "{} bytes left over after the values",
            bytes.len() - at
        ));
    }
    Ok(out)
}

/// How a result compared with the reference.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Check {
    pub agrees: bool,
    pub elements: usize,
    /// max |x - y| / max(|x|, |y|, scale) over all elements.
    pub max_rel_err: f64,
    pub bit_identical: bool,
    /// Why it does not agree (shape, first bad element).
    pub detail: Option<String>,
}

/// Compare `got` with `reference`: shapes equal, and every element within
/// `tol * max(|x|, |y|, scale)` where `scale` is the largest magnitude in the
/// reference leaf (so sums that cancel to ~0 are judged against the size of
/// what was summed, not against 0). NaN agrees with NaN only.
pub fn compare(reference: &[Leaf], got: &[Leaf], tol: f64) -> Check {
    let mut c = Check {
        agrees: true,
        elements: 0,
        max_rel_err: 0.0,
        bit_identical: true,
        detail: None,
    };
    if reference.len() != got.len() {
        c.agrees = false;
        c.bit_identical = false;
        c.detail = Some(format!(
            "{} result parts instead of {}",
            got.len(),
            reference.len()
        ));
        return c;
    }
    for (k, (r, g)) in reference.iter().zip(got).enumerate() {
        if r.dims != g.dims {
            c.agrees = false;
            c.bit_identical = false;
            c.detail = Some(format!(
                "part {k}: shape {:?} instead of {:?}",
                g.dims, r.dims
            ));
            return c;
        }
        let scale = r
            .data
            .iter()
            .filter(|x| x.is_finite())
            .fold(0.0f64, |m, x| m.max(x.abs()));
        for (i, (x, y)) in r.data.iter().zip(&g.data).enumerate() {
            c.elements += 1;
            if x.to_bits() != y.to_bits() {
                c.bit_identical = false;
            }
            if x.is_nan() || y.is_nan() {
                if x.is_nan() != y.is_nan() && c.agrees {
                    c.agrees = false;
                    c.detail = Some(format!("part {k}, element {i}: {y} instead of {x}"));
                }
                continue;
            }
            if x == y {
                continue;
            }
            let denom = x.abs().max(y.abs()).max(scale);
            let rel = if denom > 0.0 && denom.is_finite() {
                (x - y).abs() / denom
            } else {
                f64::INFINITY
            };
            if rel > c.max_rel_err {
                c.max_rel_err = rel;
            }
            if rel > tol && c.agrees {
                c.agrees = false;
                c.detail = Some(format!(
                    "part {k}, element {i}: {y} instead of {x} (relative error {rel:.2e} > {tol:.0e})"
                ));
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(d: &[f64]) -> Leaf {
        Leaf {
            dims: vec![d.len() as i64],
            data: d.to_vec(),
        }
    }

    #[test]
    fn decodes_arrays_tuples_and_scalars() {
        let t = Type::Tuple(vec![
            Type::Array(weir_ir::Size::Var("n".into()), Box::new(Type::F64)),
            Type::I64,
        ]);
        let mut b = Vec::new();
        b.extend(2i64.to_le_bytes());
        b.extend(1.5f64.to_le_bytes());
        b.extend((-2.0f64).to_le_bytes());
        b.extend(7i64.to_le_bytes());
        let v = decode(std::slice::from_ref(&t), &b).unwrap();
        assert_eq!(
            v,
            vec![
                leaf(&[1.5, -2.0]),
                Leaf {
                    dims: vec![],
                    data: vec![7.0]
                }
            ]
        );
        assert!(decode(std::slice::from_ref(&t), &b[..b.len() - 1]).is_err());
        let mut more = b.clone();
        more.push(0);
        assert!(decode(&[t], &more).is_err());
    }

    #[test]
    fn compare_catches_wrong_values_and_shapes() {
        let r = vec![leaf(&[1.0, 2.0, 3.0])];
        let ok = compare(&r, &[leaf(&[1.0, 2.0 + 1e-14, 3.0])], 1e-8);
        assert!(ok.agrees && !ok.bit_identical);
        assert!(ok.max_rel_err > 0.0 && ok.max_rel_err < 1e-13);
        let bad = compare(&r, &[leaf(&[1.0, 2.001, 3.0])], 1e-8);
        assert!(!bad.agrees);
        assert!(bad.detail.unwrap().contains("element 1"));
        let shape = compare(&r, &[leaf(&[1.0, 2.0])], 1e-8);
        assert!(!shape.agrees);
        let nan = compare(&[leaf(&[f64::NAN])], &[leaf(&[1.0])], 1e-8);
        assert!(!nan.agrees);
        let same = compare(&r, &r, 0.0);
        assert!(same.agrees && same.bit_identical);
    }

    #[test]
    fn compare_scales_by_the_reference_magnitude() {
        // A sum that cancels to ~0 in one implementation and to a tiny
        // different value in another is judged against the leaf's magnitude.
        let r = vec![leaf(&[1e3, 1e-13])];
        assert!(compare(&r, &[leaf(&[1e3, -2e-13])], 1e-8).agrees);
    }
}
