//! Figures in the style of the papers' (dps-ftilde Figs. 10–11, dps-views
//! Figs. 7.1–7.2): per workload, one bar per implementation, normalised to
//! hand-written C (log scale); one figure for time, one for peak RSS. PNG and
//! SVG.

use crate::runner::{Report, WorkloadResult};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::{Path, PathBuf};

/// Where a TrueType font is looked for (build.rs keeps a copy of this list,
/// to ignore the figures' test where there is none).
const FONT_FILES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// Register a system font for the text of the figures (once).
fn font() -> Result<(), String> {
    static DONE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let path = std::env::var("WEIR_BENCH_FONT")
            .ok()
            .or_else(|| {
                FONT_FILES
                    .iter()
                    .find(|p| Path::new(p).exists())
                    .map(|p| p.to_string())
            })
            .ok_or("no TrueType font found for the plots (install fonts-dejavu-core, or set WEIR_BENCH_FONT)")?;
        let bytes: &'static [u8] = Box::leak(
            std::fs::read(&path)
                .map_err(|e| format!("cannot read {path}: {e}"))?
                .into_boxed_slice(),
        );
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .map_err(|_| format!("{path} is not a usable font"))
    })
    .clone()
}

fn color(id: &str, k: usize) -> RGBColor {
    match id {
        "weir" => RGBColor(214, 39, 40),
        "c" => RGBColor(60, 60, 60),
        "cpp" => RGBColor(31, 119, 180),
        "eigen" => RGBColor(44, 160, 44),
        "eigen-v3" => RGBColor(152, 223, 138),
        "numpy" => RGBColor(255, 127, 14),
        "jax" => RGBColor(148, 103, 189),
        "numba" => RGBColor(140, 86, 75),
        _ => {
            // Weir's variants: shades of red-pink.
            let shades = [
                RGBColor(255, 152, 150),
                RGBColor(247, 182, 210),
                RGBColor(227, 119, 194),
                RGBColor(188, 189, 34),
                RGBColor(219, 219, 141),
                RGBColor(158, 218, 229),
            ];
            shades[k % shades.len()]
        }
    }
}

/// Which value a figure shows.
#[derive(Clone, Copy, PartialEq)]
pub enum Metric {
    Time,
    Rss,
    /// Time, Weir's ablation variants only.
    Ablation,
}

/// Whether implementation `id` belongs in a figure of metric `m`.
fn shown(id: &str, m: Metric) -> bool {
    match m {
        Metric::Ablation => id.starts_with("weir") || id == "c",
        _ => !id.starts_with("weir-"),
    }
}

fn value(w: &WorkloadResult, id: &str, m: Metric) -> Option<f64> {
    let r = w.impls.iter().find(|r| r.id == id && r.ok())?;
    match m {
        Metric::Time | Metric::Ablation => r.vs_c,
        Metric::Rss => r.rss_vs_c,
    }
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    rep: &Report,
    m: Metric,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| format!("plot: {x:?}");
    root.fill(&WHITE).map_err(e)?;
    let (w_px, _) = root.dim_in_pixel();
    let (area, legend) = root.split_horizontally(w_px.saturating_sub(190));
    let workloads: Vec<&WorkloadResult> = rep
        .workloads
        .iter()
        .filter(|w| w.impls.iter().any(|r| r.id == "c" && r.ok()))
        .filter(|w| {
            m != Metric::Ablation || w.impls.iter().any(|r| r.id.starts_with("weir-") && r.ok())
        })
        .collect();
    let mut ids: Vec<String> = Vec::new();
    for w in &workloads {
        for r in &w.impls {
            if r.ok() && shown(&r.id, m) && !ids.contains(&r.id) {
                ids.push(r.id.clone());
            }
        }
    }
    let vals: Vec<f64> = workloads
        .iter()
        .flat_map(|w| ids.iter().filter_map(|id| value(w, id, m)))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = vals.iter().copied().fold(1.0f64, f64::min) / 1.6;
    let hi = vals.iter().copied().fold(1.0f64, f64::max) * 1.6;
    let title = match m {
        Metric::Time => format!(
            "Time per call relative to hand-written C (lower is better) — {} mode, {} core(s)",
            rep.run.mode, rep.run.cores
        ),
        Metric::Rss => "Peak RSS relative to hand-written C (lower is better)".to_string(),
        Metric::Ablation => {
            "Weir's ablation variants (dps-ftilde §5): time relative to hand-written C".to_string()
        }
    };
    let n = workloads.len().max(1);
    let mut chart = ChartBuilder::on(&area)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(125)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo..hi).log_scale())
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(match m {
            Metric::Time | Metric::Ablation => "time ÷ hand-written C (log)",
            Metric::Rss => "peak RSS ÷ hand-written C (log)",
        })
        .y_label_formatter(&|v| {
            if *v >= 10.0 {
                format!("{v:.0}")
            } else if *v >= 1.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.2}")
            }
        })
        .draw()
        .map_err(e)?;
    let width = 0.84 / ids.len().max(1) as f64;
    for (k, id) in ids.iter().enumerate() {
        let c = color(id, k);
        let bars: Vec<Rectangle<(f64, f64)>> = workloads
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                let v = value(w, id, m)?;
                let x0 = i as f64 - 0.42 + k as f64 * width;
                Some(Rectangle::new(
                    [(x0, lo), (x0 + width * 0.92, v)],
                    c.filled(),
                ))
            })
            .collect();
        let label = rep
            .workloads
            .iter()
            .flat_map(|w| w.impls.iter())
            .find(|r| &r.id == id)
            .map(|r| r.label.clone())
            .unwrap_or_else(|| id.clone());
        chart.draw_series(bars).map_err(e)?;
        // The legend, beside the chart: a swatch and the implementation's name.
        let y = 40 + 24 * k as i32;
        legend
            .draw(&Rectangle::new([(8, y - 7), (24, y + 7)], c.filled()))
            .map_err(e)?;
        legend
            .draw(&Text::new(
                label,
                (30, y - 8),
                ("sans-serif", 15).into_font(),
            ))
            .map_err(e)?;
    }
    chart
        .draw_series(LineSeries::new(
            vec![(-0.5, 1.0), (n as f64 - 0.5, 1.0)],
            BLACK.stroke_width(1),
        ))
        .map_err(e)?;
    // Workload names under their groups, turned to fit.
    let style = TextStyle::from(("sans-serif", 15).into_font())
        .transform(FontTransform::Rotate90)
        .color(&BLACK);
    for (i, w) in workloads.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, lo));
        let label = match &w.size {
            Some(z) => format!("{} {}", w.name, z.to_lowercase()),
            None => w.name.clone(),
        };
        area.draw(&Text::new(label, (px + 8, py + 6), style.clone()))
            .map_err(e)?;
    }
    root.present().map_err(e)?;
    Ok(())
}

/// Write `time.{png,svg}`, `memory.{png,svg}` and, when Weir's variants ran,
/// `ablation.{png,svg}` into `dir`; returns the files.
pub fn write_all(rep: &Report, dir: &Path) -> Result<Vec<PathBuf>, String> {
    font()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let n = rep.workloads.len();
    let w = (400 + 75 * n as u32).max(1000);
    let size = (w, 680);
    let mut files = Vec::new();
    let ablation = rep
        .workloads
        .iter()
        .any(|w| w.impls.iter().any(|r| r.id.starts_with("weir-") && r.ok()));
    let mut figures = vec![(Metric::Time, "time"), (Metric::Rss, "memory")];
    if ablation {
        figures.push((Metric::Ablation, "ablation"));
    }
    for (m, name) in figures {
        let png = dir.join(format!("{name}.png"));
        draw(BitMapBackend::new(&png, size).into_drawing_area(), rep, m)?;
        let svg = dir.join(format!("{name}.svg"));
        draw(SVGBackend::new(&svg, size).into_drawing_area(), rep, m)?;
        files.push(png);
        files.push(svg);
    }
    Ok(files)
}
