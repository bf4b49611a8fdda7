//! `bench/suite.toml`: the workloads and the suite's settings.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub settings: Settings,
    #[serde(rename = "workload")]
    pub workloads: Vec<Workload>,
}

/// Defaults of a run (`--quick` picks the `quick_` ones).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub reps: usize,
    pub quick_reps: usize,
    pub budget_ms: u64,
    pub quick_budget_ms: u64,
    pub timeout_s: u64,
    pub quick_timeout_s: u64,
    pub size: String,
    pub quick_size: String,
    pub tolerance: f64,
}

/// One workload: a kernel on one input.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub name: String,
    pub title: String,
    /// The program name of the baselines (bench/handwritten/KERNEL.c, ...).
    pub kernel: String,
    /// `FILE:ENTRY` of the Weir implementation.
    pub weir: String,
    /// Arguments of bench/handwritten/mkinput.py.
    pub input: String,
    /// Timed calls per process (the papers' counts; capped by the time budget).
    pub calls: u64,
    pub quick_calls: Option<u64>,
    #[serde(default)]
    pub variants: bool,
    #[serde(default = "yes")]
    pub quick: bool,
    #[serde(default)]
    pub skip: BTreeMap<String, String>,
    pub tolerance: Option<f64>,
    /// PolyBench size of this workload in --quick mode when --size is not
    /// given (default: the settings' quick_size).
    pub quick_size: Option<String>,
    /// Time limit of one process in the full suite (default: the settings').
    pub timeout_s: Option<u64>,
}

fn yes() -> bool {
    true
}

impl Workload {
    /// The Weir file and entry.
    pub fn weir_entry(&self) -> Result<(&str, &str), String> {
        self.weir.rsplit_once(':').ok_or_else(|| {
            format!(
                "workload `{}`: `weir` must be FILE:ENTRY, not `{}`",
                self.name, self.weir
            )
        })
    }

    /// Whether the input depends on the PolyBench size.
    pub fn sized(&self) -> bool {
        self.input.contains("{size}")
    }
}

/// PolyBench's dataset sizes.
pub const SIZES: &[&str] = &["MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE"];

pub fn load(path: &Path) -> Result<Suite, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let suite: Suite = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut seen = std::collections::HashSet::new();
    for w in &suite.workloads {
        if !seen.insert(w.name.as_str()) {
            return Err(format!(
                "{}: workload `{}` appears twice",
                path.display(),
                w.name
            ));
        }
        w.weir_entry()?;
        if w.calls == 0 || w.quick_calls == Some(0) {
            return Err(format!(
                "{}: workload `{}` needs at least one call",
                path.display(),
                w.name
            ));
        }
    }
    let per_workload = suite.workloads.iter().filter_map(|w| w.quick_size.as_ref());
    for s in [&suite.settings.size, &suite.settings.quick_size]
        .into_iter()
        .chain(per_workload)
    {
        if !SIZES.contains(&s.as_str()) {
            return Err(format!(
                "{}: unknown PolyBench size `{s}` (one of {})",
                path.display(),
                SIZES.join(", ")
            ));
        }
    }
    Ok(suite)
}
