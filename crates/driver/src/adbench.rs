//! Converters from ADBench's text formats (../shared/data/adbench/FileFormat.md) to
//! Weir input values, so that `examples/gmm.weir` and `examples/ba.weir` run on the
//! ADBench instances: `weir adbench gmm FILE > gmm.in; weir run examples/gmm.weir -e gmm_objective gmm.in`.

use std::fmt::Write;
use weir_ir::print::float_text;

struct Nums<'t> {
    it: std::str::SplitWhitespace<'t>,
    what: &'static str,
    count: usize,
}

impl Nums<'_> {
    fn f(&mut self) -> Result<f64, String> {
        self.count += 1;
        let t = self.it.next().ok_or_else(|| {
            format!(
                "{}: the file ends early (after {} numbers)",
                self.what,
                self.count - 1
            )
        })?;
        t.parse().map_err(|_| {
            format!(
                "{}: number {} is `{t}`, which is not a number",
                self.what, self.count
            )
        })
    }
    fn n(&mut self) -> Result<usize, String> {
        let v = self.f()?;
        if v < 0.0 || v.fract() != 0.0 || v > 1e12 {
            return Err(format!(
                "{}: number {} should be a count, found {v}",
                self.what, self.count
            ));
        }
        Ok(v as usize)
    }
    fn row(&mut self, k: usize) -> Result<Vec<f64>, String> {
        (0..k).map(|_| self.f()).collect()
    }
}

fn vec_text(out: &mut String, v: &[f64]) {
    out.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&float_text(*x));
    }
    out.push(']');
}

fn mat_text(out: &mut String, rows: &[Vec<f64>]) {
    out.push('[');
    for (i, r) in rows.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n ");
        }
        vec_text(out, r);
    }
    out.push_str("]\n");
}

/// GMM instance → `alphas [K]f64, means [K][d]f64, icf [K][d + d(d-1)/2]f64, x [n][d]f64, gamma f64, m i64`.
pub fn gmm(text: &str) -> Result<String, String> {
    let mut t = Nums {
        it: text.split_whitespace(),
        what: "GMM file",
        count: 0,
    };
    let d = t.n()?;
    let k = t.n()?;
    let n = t.n()?;
    let alphas = t.row(k)?;
    let means: Vec<Vec<f64>> = (0..k).map(|_| t.row(d)).collect::<Result<_, _>>()?;
    let icf: Vec<Vec<f64>> = (0..k)
        .map(|_| t.row(d + d * (d.saturating_sub(1)) / 2))
        .collect::<Result<_, _>>()?;
    let x: Vec<Vec<f64>> = (0..n).map(|_| t.row(d)).collect::<Result<_, _>>()?;
    let gamma = t.f()?;
    let m = t.f()?;
    let mut out = String::new();
    let _ = writeln!(out, "-- ADBench GMM instance: d={d} K={k} n={n}");
    vec_text(&mut out, &alphas);
    out.push('\n');
    mat_text(&mut out, &means);
    mat_text(&mut out, &icf);
    mat_text(&mut out, &x);
    let _ = writeln!(out, "{}\n{}", float_text(gamma), m as i64);
    Ok(out)
}

/// BA instance → `cams [n][11]f64, xs [m][3]f64, w [p]f64, obs [p][2]i64, feats [p][2]f64`,
/// replicating the one stored camera/point/weight/feature as ADBench does
/// (observation i uses camera i mod n and point i mod m).
pub fn ba(text: &str) -> Result<String, String> {
    let mut t = Nums {
        it: text.split_whitespace(),
        what: "BA file",
        count: 0,
    };
    let n = t.n()?;
    let m = t.n()?;
    let p = t.n()?;
    if n == 0 || m == 0 {
        return Err("BA file: the number of cameras and points must be positive".into());
    }
    let cam = t.row(11)?;
    let x = t.row(3)?;
    let w = t.f()?;
    let feat = t.row(2)?;
    let mut out = String::new();
    let _ = writeln!(out, "-- ADBench BA instance: n={n} m={m} p={p}");
    mat_text(&mut out, &vec![cam; n]);
    mat_text(&mut out, &vec![x; m]);
    vec_text(&mut out, &vec![w; p]);
    out.push('\n');
    out.push('[');
    for i in 0..p {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "[{}, {}]", i % n, i % m);
    }
    out.push_str("]\n");
    mat_text(&mut out, &vec![feat; p]);
    Ok(out)
}
