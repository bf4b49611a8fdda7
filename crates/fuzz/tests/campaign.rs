//! A few hundred random programs through all four legs (issue 14): the
//! unoptimized interpreter, the optimized interpreter, C at -O0 and C at -O3
//! (built with `-Wall -Wextra -Werror`). No leg may disagree, no generated C may
//! fail to compile, nothing may panic. Needs a C compiler (gcc or clang; `.ci/run`
//! installs them). `WEIR_FUZZ_CASES` changes the number of programs (default 300),
//! `WEIR_FUZZ_SEED` the seed; `weir fuzz` is the same campaign on the command line.

#[test]
fn random_programs_agree_on_every_leg() {
    let count = std::env::var("WEIR_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let seed = std::env::var("WEIR_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    let cfg = weir_fuzz::Config {
        shrink_steps: 150,
        ..Default::default()
    };
    let report = weir_fuzz::campaign(seed, count, &cfg, &|_| {});
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
