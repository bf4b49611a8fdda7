//! The terminal table, the Markdown summary and the JSON file.

use crate::machine::Limits;
use crate::runner::{ImplResult, Report, WorkloadResult};
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

/// A time in ns with a unit that keeps 3-4 significant digits.
pub fn fmt_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn fmt_kb(kb: u64) -> String {
    if kb < 10 * 1024 {
        format!("{:.1} MB", kb as f64 / 1024.0)
    } else {
        format!("{:.0} MB", kb as f64 / 1024.0)
    }
}

/// The share of the machine's limit one call reaches: memory bandwidth for
/// streaming kernels, peak FLOP rate for the others.
pub fn of_limit(wr: &WorkloadResult, r: &ImplResult, l: &Limits) -> Option<String> {
    let t = r.median_ns? * 1e-9;
    if let Some(bytes) = wr.work.bytes {
        let gbs = bytes / t / 1e9;
        // Only a working set far beyond the caches is bounded by DRAM bandwidth.
        return Some(match l.triad_gbps() {
            Some(triad) if bytes >= 64e6 => {
                format!("{gbs:.1} GB/s = {:.0}% triad", 100.0 * gbs / triad)
            }
            _ if bytes >= 64e6 => format!("{gbs:.1} GB/s"),
            _ => format!("{gbs:.1} GB/s (in cache)"),
        });
    }
    if let (Some(flops), Some(peak)) = (wr.work.flops, l.peak()) {
        let g = flops / t / 1e9;
        return Some(format!("{g:.2} GF/s = {:.1}% peak", 100.0 * g / peak));
    }
    None
}

fn short_status(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() > 90 {
        format!("{}…", s.chars().take(89).collect::<String>())
    } else {
        s
    }
}

/// One workload's table, printed as soon as it is done.
pub fn workload_table(wr: &WorkloadResult, l: &Limits) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n== {} — {}{}   (input: {}; checked against {})",
        wr.name,
        wr.title,
        wr.size
            .as_deref()
            .map(|z| format!(" [{z}]"))
            .unwrap_or_default(),
        wr.input,
        wr.reference.as_deref().unwrap_or("-")
    );
    let _ = writeln!(
        s,
        "  {:<9} {:>11} {:>25} {:>8} {:>8} {:>9} {:>10} {:>10} {:>12}  notes",
        "impl",
        "median",
        "min – max",
        "×C",
        "×peer",
        "peak RSS",
        "allocs/call",
        "calls×reps",
        "max rel err",
    );
    for r in &wr.impls {
        if r.status.starts_with("skipped: ablation") {
            continue;
        }
        if !r.ok() {
            let _ = writeln!(s, "  {:<9} {}", r.id, short_status(&r.status));
            continue;
        }
        let (Some(m), Some(lo), Some(hi)) = (r.median_ns, r.min_ns, r.max_ns) else {
            let _ = writeln!(s, "  {:<9} (no samples)", r.id);
            continue;
        };
        let err = match &r.check {
            Some(c) if c.bit_identical => "identical".to_string(),
            Some(c) => format!("{:.1e}", c.max_rel_err),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            "  {:<9} {:>11} {:>25} {:>8} {:>8} {:>9} {:>10} {:>10} {:>12}  {}",
            r.id,
            fmt_time(m),
            format!("{} – {}", fmt_time(lo), fmt_time(hi)),
            r.vs_c.map(|x| format!("{x:.2}")).unwrap_or("-".into()),
            r.vs_best_peer
                .map(|x| format!("{x:.2}"))
                .unwrap_or("-".into()),
            r.peak_rss_kb.map(fmt_kb).unwrap_or("-".into()),
            r.allocs_per_call
                .map(|a| if a == 0.0 {
                    "0".to_string()
                } else {
                    format!("{a:.3}")
                })
                .unwrap_or("n/a".into()),
            format!("{}×{}", r.calls_per_process, r.samples_ns.len()),
            err,
            of_limit(wr, r, l).unwrap_or_default()
        );
    }
    s
}

/// The header lines: machine, limits, tools, settings.
pub fn header(rep: &Report) -> String {
    let mut s = String::new();
    let r = &rep.run;
    let _ = writeln!(
        s,
        "Machine: {} ({} CPUs); run: {} mode, {} reps, budget {} ms per process, PolyBench {}, {} core(s){}",
        rep.machine.cpu_model,
        rep.machine.cpus,
        r.mode,
        r.reps,
        r.budget_ms,
        r.size,
        r.cores,
        r.pinned_cpu
            .map(|c| format!(" pinned to CPU {c}"))
            .unwrap_or_default()
    );
    if !rep.machine.stream_gbps.is_empty() || !rep.machine.peak_gflops.is_empty() {
        let bw: Vec<String> = rep
            .machine
            .stream_gbps
            .iter()
            .map(|(k, v)| format!("{k} {v:.1} GB/s"))
            .collect();
        let pk: Vec<String> = rep
            .machine
            .peak_gflops
            .iter()
            .map(|(k, v)| format!("{k} {v:.1} GFLOP/s"))
            .collect();
        let _ = writeln!(
            s,
            "Limits (one core): STREAM {}; peak {}",
            bw.join(", "),
            pk.join(", ")
        );
    }
    let v: Vec<String> = rep
        .versions
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    let _ = writeln!(s, "Tools: {}", v.join("; "));
    for (k, f) in &rep.flags {
        let _ = writeln!(s, "  {k}: {f}");
    }
    s
}

/// A median time cell: `time (ratio to C)`, or why there is none.
fn time_cell(r: Option<&ImplResult>) -> String {
    match r {
        Some(r) if r.ok() => match (r.median_ns, r.vs_c) {
            (Some(m), Some(x)) => format!("{} ({x:.2})", fmt_time(m)),
            (Some(m), None) => fmt_time(m),
            _ => "–".into(),
        },
        Some(r) if r.status.starts_with("timeout") => "timeout".into(),
        Some(r) if r.status.starts_with("wrong") => "wrong result".into(),
        Some(r) if r.status.starts_with("failed") => "failed".into(),
        _ => "–".into(),
    }
}

fn workload_cell(w: &WorkloadResult) -> String {
    format!(
        "{}{}",
        w.name,
        w.size
            .as_deref()
            .map(|z| format!(" ({z})"))
            .unwrap_or_default()
    )
}

/// The summary as Markdown: median time per call and ratio to hand-written C
/// for Weir and the peers, with Weir against the best peer; Weir's ablation
/// variants in a table of their own (where they ran); peak RSS.
pub fn markdown(rep: &Report) -> String {
    let mut main: Vec<String> = Vec::new();
    let mut variants: Vec<String> = Vec::new();
    for w in &rep.workloads {
        for r in &w.impls {
            let list = if r.id.starts_with("weir-") {
                &mut variants
            } else {
                &mut main
            };
            if !list.contains(&r.id) && !r.status.starts_with("skipped: ablation") {
                list.push(r.id.clone());
            }
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "Median time per call (ratio to hand-written C):\n");
    let _ = writeln!(s, "| workload | {} | Weir ÷ best peer |", main.join(" | "));
    let _ = writeln!(s, "|---|{}---|", "---|".repeat(main.len()));
    for w in &rep.workloads {
        let mut row = format!("| {} |", workload_cell(w));
        for id in &main {
            let _ = write!(
                row,
                " {} |",
                time_cell(w.impls.iter().find(|r| &r.id == id))
            );
        }
        let weir = w.impls.iter().find(|r| r.id == "weir");
        let best = w
            .impls
            .iter()
            .filter(|r| r.ok() && !r.id.starts_with("weir") && r.median_ns.is_some())
            .min_by(|a, b| {
                a.median_ns
                    .unwrap_or(f64::MAX)
                    .total_cmp(&b.median_ns.unwrap_or(f64::MAX))
            });
        let cell = match (weir.and_then(|r| r.vs_best_peer), best) {
            (Some(x), Some(b)) => format!("{x:.2} ({})", b.id),
            _ => "–".into(),
        };
        let _ = writeln!(row, " {cell} |");
        s.push_str(&row);
    }
    if !variants.is_empty() {
        let cols: Vec<&str> = std::iter::once("weir")
            .chain(variants.iter().map(String::as_str))
            .collect();
        let _ = writeln!(
            s,
            "\nWeir's ablation variants (dps-ftilde §5), median time (ratio to hand-written C):\n"
        );
        let _ = writeln!(s, "| workload | {} |", cols.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(cols.len()));
        for w in &rep.workloads {
            if !w
                .impls
                .iter()
                .any(|r| r.id.starts_with("weir-") && !r.status.starts_with("skipped"))
            {
                continue;
            }
            let mut row = format!("| {} |", workload_cell(w));
            for id in &cols {
                let _ = write!(
                    row,
                    " {} |",
                    time_cell(w.impls.iter().find(|r| r.id == *id))
                );
            }
            let _ = writeln!(s, "{row}");
        }
    }
    let _ = writeln!(
        s,
        "\nPeak RSS of the process (MB; interpreter and libraries included):\n"
    );
    let _ = writeln!(s, "| workload | {} |", main.join(" | "));
    let _ = writeln!(s, "|---|{}", "---|".repeat(main.len()));
    for w in &rep.workloads {
        let mut row = format!("| {} |", w.name);
        for id in &main {
            let cell = match w.impls.iter().find(|r| &r.id == id) {
                Some(r) if r.ok() => r
                    .peak_rss_kb
                    .map(|k| format!("{:.1}", k as f64 / 1024.0))
                    .unwrap_or("–".into()),
                _ => "–".into(),
            };
            let _ = write!(row, " {cell} |");
        }
        let _ = writeln!(s, "{row}");
    }
    let means = group_means(&rep.workloads);
    if !means.is_empty() {
        let _ = writeln!(
            s,
            "\nGeometric mean per group of the median time ÷ hand-written C's (over the group's workloads where both ran and passed the cross-check):\n"
        );
        for m in &means {
            let _ = writeln!(s, "- {}", m.line());
        }
    }
    s
}

/// The geometric mean of positive finite numbers: `exp(mean(ln x))`. `None`
/// for no numbers, or for one that is not positive and finite (a ratio of
/// times always is).
pub fn geomean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() || xs.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
        return None;
    }
    Some((xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// One implementation's summary over a group of workloads (the suite's
/// `group`): the geometric mean of its median time / hand-written C's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupMean {
    pub group: String,
    pub id: String,
    /// Geometric mean of the ratios to hand-written C (`None`: no workload
    /// entered it).
    pub geomean_vs_c: Option<f64>,
    /// The workloads that entered it: both this implementation and
    /// hand-written C ran with a median time and passed the cross-check.
    pub entered: usize,
    /// The group's workloads in the run.
    pub of: usize,
}

impl GroupMean {
    /// `polybench: weir / c geomean 0.87 over 30 of 30`
    pub fn line(&self) -> String {
        format!(
            "{}: {} / c geomean {} over {} of {}",
            self.group,
            self.id,
            self.geomean_vs_c
                .map(|g| format!("{g:.2}"))
                .unwrap_or("–".into()),
            self.entered,
            self.of
        )
    }
}

/// Per group (in order of first appearance) and per implementation (in
/// report order; hand-written C itself, and implementations skipped on every
/// workload of the group, left out): the geometric mean over the group's
/// workloads of the implementation's median / hand-written C's median, over
/// the workloads where both ran and passed the cross-check (status `ok`).
pub fn group_means(workloads: &[WorkloadResult]) -> Vec<GroupMean> {
    let mut groups: Vec<&str> = Vec::new();
    for w in workloads {
        if let Some(g) = w.group.as_deref()
            && !groups.contains(&g)
        {
            groups.push(g);
        }
    }
    let mut out = Vec::new();
    for g in groups {
        let members: Vec<&WorkloadResult> = workloads
            .iter()
            .filter(|w| w.group.as_deref() == Some(g))
            .collect();
        let mut ids: Vec<&str> = Vec::new();
        for w in &members {
            for r in &w.impls {
                if r.id != "c" && !r.status.starts_with("skipped") && !ids.contains(&r.id.as_str())
                {
                    ids.push(&r.id);
                }
            }
        }
        for id in ids {
            let ratios: Vec<f64> = members
                .iter()
                .filter_map(|w| {
                    let timed = |id: &str| {
                        w.impls
                            .iter()
                            .find(|r| r.id == id && r.ok())
                            .and_then(|r| r.median_ns)
                            .filter(|m| m.is_finite() && *m > 0.0)
                    };
                    Some(timed(id)? / timed("c")?)
                })
                .collect();
            out.push(GroupMean {
                group: g.to_string(),
                id: id.to_string(),
                geomean_vs_c: geomean(&ratios),
                entered: ratios.len(),
                of: members.len(),
            });
        }
    }
    out
}

/// The text of summary.md: the header and the Markdown tables.
pub fn summary(rep: &Report) -> String {
    format!("{}\n{}", header(rep), markdown(rep))
}

pub fn write_json(rep: &Report, path: &Path) -> Result<(), String> {
    let text = serde_json::to_string_pretty(rep).map_err(|e| format!("JSON: {e}"))?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_get_units() {
        assert_eq!(fmt_time(25.46), "25.5 ns");
        assert_eq!(fmt_time(12_345.0), "12.35 µs");
        assert_eq!(fmt_time(2.5e7), "25.00 ms");
        assert_eq!(fmt_time(3.2e9), "3.20 s");
    }

    #[test]
    fn geometric_mean() {
        assert_eq!(geomean(&[]), None);
        assert!((geomean(&[2.0, 8.0]).unwrap() - 4.0).abs() < 1e-12);
        assert!((geomean(&[0.5, 2.0]).unwrap() - 1.0).abs() < 1e-12);
        assert!((geomean(&[3.0]).unwrap() - 3.0).abs() < 1e-12);
        assert!((geomean(&[1.0, 10.0, 100.0]).unwrap() - 10.0).abs() < 1e-9);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(geomean(&[1.0, bad]), None, "{bad}");
        }
    }

    fn result(id: &str, status: &str, median: Option<f64>) -> ImplResult {
        ImplResult {
            id: id.into(),
            label: id.into(),
            status: status.into(),
            calls_per_process: 1,
            warmup_calls: 0,
            samples_ns: median.into_iter().collect(),
            median_ns: median,
            min_ns: median,
            max_ns: median,
            peak_rss_kb: None,
            allocs_per_call: None,
            peak_heap_bytes: None,
            process_s: None,
            check: None,
            vs_c: None,
            vs_best_peer: None,
            rss_vs_c: None,
        }
    }

    fn workload(name: &str, group: Option<&str>, impls: Vec<ImplResult>) -> WorkloadResult {
        WorkloadResult {
            name: name.into(),
            title: name.into(),
            kernel: name.into(),
            input: String::new(),
            size: None,
            group: group.map(str::to_string),
            reference: Some("c".into()),
            status: "ok".into(),
            work: Default::default(),
            impls,
        }
    }

    /// Only workloads where both the implementation and hand-written C ran
    /// and passed the cross-check enter the mean; the count says how many.
    #[test]
    fn group_means_over_the_workloads_that_ran() {
        let pb = Some("polybench");
        let ws = vec![
            workload(
                "mm",
                pb,
                vec![
                    result("weir", "ok", Some(50.0)),
                    result("c", "ok", Some(100.0)),
                    result("eigen", "ok", Some(25.0)),
                    result("eigen-v3", "ok", Some(20.0)),
                ],
            ),
            workload(
                "lu",
                pb,
                vec![
                    result("weir", "ok", Some(400.0)),
                    result("c", "ok", Some(100.0)),
                    result("eigen", "wrong result: x", None),
                    result("eigen-v3", "ok", Some(80.0)),
                ],
            ),
            // C failed: nothing enters from here
            workload(
                "trisolv",
                pb,
                vec![
                    result("weir", "ok", Some(10.0)),
                    result("c", "timeout after 1 s", None),
                    result("eigen", "ok", Some(10.0)),
                    result("eigen-v3", "ok", Some(10.0)),
                ],
            ),
            workload(
                "pb-atax",
                pb,
                vec![
                    result("weir", "ok", Some(100.0)),
                    result("c", "ok", Some(100.0)),
                    result("eigen", "skipped: no", None),
                    result("eigen-v3", "skipped: no", None),
                ],
            ),
            // not in the group
            workload(
                "mm-t",
                None,
                vec![
                    result("weir", "ok", Some(1e9)),
                    result("c", "ok", Some(1.0)),
                    result("eigen", "ok", Some(1.0)),
                    result("eigen-v3", "ok", Some(1.0)),
                ],
            ),
            workload(
                "add3",
                Some("micro"),
                vec![
                    result("weir", "ok", Some(3.0)),
                    result("c", "ok", Some(1.0)),
                    result("eigen", "skipped: no", None),
                    result("eigen-v3", "skipped: no", None),
                ],
            ),
        ];
        let m = group_means(&ws);
        let ids: Vec<(&str, &str)> = m
            .iter()
            .map(|g| (g.group.as_str(), g.id.as_str()))
            .collect();
        assert_eq!(
            ids,
            [
                ("polybench", "weir"),
                ("polybench", "eigen"),
                ("polybench", "eigen-v3"),
                ("micro", "weir"),
            ]
        );
        // weir: 0.5, 4, 1 -> (0.5 * 4 * 1)^(1/3) = 2^(1/3)
        assert_eq!((m[0].entered, m[0].of), (3, 4));
        assert!((m[0].geomean_vs_c.unwrap() - 2f64.powf(1.0 / 3.0)).abs() < 1e-12);
        // eigen: only mm (lu wrong, trisolv without C, atax skipped)
        assert_eq!((m[1].entered, m[1].of), (1, 4));
        assert!((m[1].geomean_vs_c.unwrap() - 0.25).abs() < 1e-12);
        // eigen-v3: 0.2 and 0.8 -> 0.4
        assert_eq!((m[2].entered, m[2].of), (2, 4));
        assert!((m[2].geomean_vs_c.unwrap() - 0.4).abs() < 1e-12);
        assert_eq!(
            m[2].line(),
            "polybench: eigen-v3 / c geomean 0.40 over 2 of 4"
        );
        assert_eq!(m[3].line(), "micro: weir / c geomean 3.00 over 1 of 1");
        // an implementation that ran on none of them
        let none = group_means(&ws[2..3]);
        assert_eq!(none[0].line(), "polybench: weir / c geomean – over 0 of 1");
    }
}
