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
    /// A set of workloads summarised together (`polybench`: the 30
    /// PolyBench/C 4.2.1 kernels): the report gives, per implementation, the
    /// geometric mean of its ratio to hand-written C over the group.
    pub group: Option<String>,
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
    parse(&text, path)
}

/// The suite in `text` (read from `path`, which the errors name).
pub fn parse(text: &str, path: &Path) -> Result<Suite, String> {
    let suite: Suite = toml::from_str(text).map_err(|e| format!("{}: {e}", path.display()))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: &str = "[settings]\nreps = 1\nquick_reps = 1\nbudget_ms = 1\nquick_budget_ms = 1\ntimeout_s = 1\nquick_timeout_s = 1\nsize = \"LARGE\"\nquick_size = \"MINI\"\ntolerance = 1e-8\n";

    fn workload(name: &str, extra: &str) -> String {
        format!(
            "[[workload]]\nname = \"{name}\"\ntitle = \"t\"\nkernel = \"gemm\"\nweir = \"examples/mm.weir:gemm\"\ninput = \"gemm --size {{size}}\"\ncalls = 1\n{extra}\n"
        )
    }

    #[test]
    fn a_workload_may_name_its_group() {
        let text = format!(
            "{SETTINGS}{}{}",
            workload("mm", "group = \"polybench\""),
            workload("mm-t", "")
        );
        let s = parse(&text, Path::new("suite.toml")).unwrap();
        assert_eq!(s.workloads[0].group.as_deref(), Some("polybench"));
        assert_eq!(s.workloads[1].group, None);
    }

    #[test]
    fn unknown_fields_are_still_errors() {
        for extra in ["groups = \"polybench\"", "grup = \"polybench\""] {
            let text = format!("{SETTINGS}{}", workload("mm", extra));
            let e = parse(&text, Path::new("suite.toml")).unwrap_err();
            assert!(e.contains("unknown field"), "{e}");
        }
        // A group is a string.
        let text = format!("{SETTINGS}{}", workload("mm", "group = 3"));
        assert!(parse(&text, Path::new("suite.toml")).is_err());
    }

    /// The committed suite: the 30 PolyBench/C 4.2.1 kernels are the group
    /// `polybench`, and the second ways of running two of them are not.
    #[test]
    fn the_polybench_group_of_the_suite() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let s = load(&root.join("bench/suite.toml")).unwrap();
        let group: Vec<&str> = s
            .workloads
            .iter()
            .filter(|w| w.group.as_deref() == Some("polybench"))
            .map(|w| w.name.as_str())
            .collect();
        assert_eq!(group.len(), 30, "{group:?}");
        for n in [
            "mm",
            "2mm",
            "3mm",
            "jacobi-1d",
            "jacobi-2d",
            "seidel-2d",
            "lu",
            "trisolv",
        ] {
            assert!(group.contains(&n), "{n} is not in the polybench group");
        }
        assert_eq!(group.iter().filter(|n| n.starts_with("pb-")).count(), 22);
        assert!(!group.contains(&"mm-t") && !group.contains(&"jacobi-2d-pad"));
        // every group named in the suite is `polybench`
        assert!(
            s.workloads
                .iter()
                .all(|w| w.group.as_deref().is_none_or(|g| g == "polybench"))
        );
    }
}
