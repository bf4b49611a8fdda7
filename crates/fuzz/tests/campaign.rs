//! A few hundred random programs through all four legs (issue 14): the
//! unoptimized interpreter, the optimized interpreter, C at -O0 and C at -O3
//! (built with `-Wall -Wextra -Werror`). No leg may disagree, no generated C may
//! fail to compile, nothing may panic. Needs a C compiler (gcc or clang; `.ci/run`
//! installs them). `WEIR_FUZZ_CASES` changes the number of programs (default 300),
//! `WEIR_FUZZ_SEED` the seed; `weir fuzz` is the same campaign on the command line.
//! A second test runs 100 programs with clang's sanitizers (`CC=clang weir fuzz
//! --sanitize` on the command line).

#[test]
fn random_programs_agree_on_every_leg() {
    let cfg = weir_fuzz::Config {
        shrink_steps: 150,
        work_dir: scratch("gcc"),
        ..Default::default()
    };
    check(300, 2026, &cfg);
}

/// The same under clang's AddressSanitizer and UBSan, which check more than
/// gcc's (arithmetic on a NULL pointer even with a zero offset: a result too
/// large for memory, fuzz seed 101, program 15495 under `CC=clang`).
#[test]
#[cfg_attr(
    not(weir_has_clang),
    ignore = "clang not found when weir-fuzz was built: install it with scripts/install-c-tools.sh"
)]
fn random_programs_are_clean_under_clangs_sanitizers() {
    let cfg = weir_fuzz::Config {
        shrink_steps: 60,
        sanitize: true,
        cc: Some("clang".into()),
        work_dir: scratch("clang"),
        ..Default::default()
    };
    check(100, 2027, &cfg);
}

/// A scratch directory of each test's own (the tests run in parallel in one
/// process, and `Config`'s default is per process).
fn scratch(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "weir-fuzz-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ))
}

fn check(default_count: u64, default_seed: u64, cfg: &weir_fuzz::Config) {
    let count = std::env::var("WEIR_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_count);
    let seed = std::env::var("WEIR_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_seed);
    let report = weir_fuzz::campaign(seed, count, cfg, &|_| {});
    println!("{}", report.render());
    let agreed: u64 = report
        .counts
        .iter()
        .filter(|(k, _)| k.starts_with("agree"))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(report.bugs(), 0, "{}", report.render());
    // the campaign must really have run programs through C
    assert!(
        agreed * 2 >= count,
        "only {agreed} of {count} programs ran on every leg:\n{}",
        report.render()
    );
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
