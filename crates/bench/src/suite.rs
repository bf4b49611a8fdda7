//! `bench/suite.toml`: the workloads and the suite's settings.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// Optional in a user's suite (`weir bench --suite FILE`): the defaults
    /// of [`Settings::default`].
    #[serde(default)]
    pub settings: Settings,
    #[serde(rename = "workload")]
    pub workloads: Vec<Workload>,
}

/// Defaults of a run (`--quick` picks the `quick_` ones).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
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
    /// Default (a user's suite): the name.
    #[serde(default)]
    pub title: String,
    /// The program name of the baselines (bench/handwritten/KERNEL.c, ...).
    /// Default (a user's suite): the name.
    #[serde(default)]
    pub kernel: String,
    /// `FILE:ENTRY` of the Weir implementation (relative to the repository
    /// root, or in a user's suite to the suite file's folder).
    pub weir: String,
    /// Arguments of bench/handwritten/mkinput.py (or `inputs`).
    #[serde(default)]
    pub input: String,
    /// The inputs themselves, one per parameter: `.npy` files, Weir value
    /// files (relative to the suite file's folder) or inline Weir values,
    /// as `weir run FILE -e ENTRY INPUTS...` reads them (instead of `input`).
    pub inputs: Option<Vec<String>>,
    /// A user's suite: the hand-written C peer (against bench/handwritten/
    /// harness.h), relative to the suite file's folder.
    pub c: Option<String>,
    /// Timed calls per process (the papers' counts; capped by the time
    /// budget). Default: 1000000 (the budget decides).
    #[serde(default = "million")]
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

fn million() -> u64 {
    1_000_000
}

impl Default for Settings {
    /// The settings of a user's suite that gives none (or some) of them.
    fn default() -> Settings {
        Settings {
            reps: 5,
            quick_reps: 3,
            budget_ms: 1000,
            quick_budget_ms: 250,
            timeout_s: 600,
            quick_timeout_s: 40,
            size: "LARGE".into(),
            quick_size: "MEDIUM".into(),
            tolerance: 1e-8,
        }
    }
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
    for w in &suite.workloads {
        let missing = if w.kernel.is_empty() {
            Some("kernel")
        } else if w.title.is_empty() {
            Some("title")
        } else if w.input.is_empty() {
            Some("input")
        } else {
            None
        };
        if let Some(f) = missing {
            return Err(format!(
                "{}: workload `{}` has no `{f}`",
                path.display(),
                w.name
            ));
        }
        if w.inputs.is_some() || w.c.is_some() {
            return Err(format!(
                "{}: workload `{}`: `inputs` and `c` belong to a user's suite (`weir bench --suite FILE`)",
                path.display(),
                w.name
            ));
        }
    }
    check(suite, path)
}

/// A user's suite (`weir bench --suite FILE`): `[settings]` optional,
/// `title` and `kernel` default to the workload's name, and each workload
/// gives exactly one of `inputs` and `input`.
pub fn parse_user(text: &str, path: &Path) -> Result<Suite, String> {
    let mut suite: Suite = toml::from_str(text).map_err(|e| format!("{}: {e}", path.display()))?;
    if suite.workloads.is_empty() {
        return Err(format!(
            "{}: no `[[workload]]` (see bench/README.md, \"Your own suite\")",
            path.display()
        ));
    }
    for w in &mut suite.workloads {
        if w.title.is_empty() {
            w.title = w.name.clone();
        }
        if w.kernel.is_empty() {
            w.kernel = w.name.clone();
        }
        match (&w.inputs, w.input.is_empty()) {
            (Some(_), false) => {
                return Err(format!(
                    "{}: workload `{}` gives both `inputs` and `input`; give one",
                    path.display(),
                    w.name
                ));
            }
            (None, true) => {
                return Err(format!(
                    "{}: workload `{}` gives no inputs: `inputs = [...]`, one per parameter of its entry",
                    path.display(),
                    w.name
                ));
            }
            _ => {}
        }
    }
    check(suite, path)
}

pub fn load_user(path: &Path) -> Result<Suite, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_user(&text, path)
}

fn check(suite: Suite, path: &Path) -> Result<Suite, String> {
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
    fn a_user_suite_needs_only_names_entries_and_inputs() {
        let text = "[[workload]]\nname = \"add\"\nweir = \"k.weir:add3\"\ninputs = [\"x.npy\", \"[1.0]\"]\nc = \"add.c\"\n";
        let s = parse_user(text, Path::new("s.toml")).unwrap();
        let w = &s.workloads[0];
        assert_eq!((w.title.as_str(), w.kernel.as_str()), ("add", "add"));
        assert_eq!(w.calls, 1_000_000);
        assert_eq!(s.settings.reps, 5);
        assert_eq!(w.c.as_deref(), Some("add.c"));
        // the repository's suite needs the full form
        assert!(parse(text, Path::new("s.toml")).is_err());
        // neither or both of inputs and input
        let none = "[[workload]]\nname = \"a\"\nweir = \"k.weir:f\"\n";
        assert!(
            parse_user(none, Path::new("s.toml"))
                .unwrap_err()
                .contains("no inputs")
        );
        let both = format!("{none}input = \"add3 --n 3\"\ninputs = [\"1\"]\n");
        assert!(
            parse_user(&both, Path::new("s.toml"))
                .unwrap_err()
                .contains("both")
        );
        // partial settings
        let some = format!("[settings]\nreps = 2\n{none}inputs = [\"1\"]\n");
        let s = parse_user(&some, Path::new("s.toml")).unwrap();
        assert_eq!((s.settings.reps, s.settings.budget_ms), (2, 1000));
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
