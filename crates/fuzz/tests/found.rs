//! Programs the campaigns found bugs in (issue 14), by seed and index: every
//! leg must now agree on each, errors by kind *and* location (which the
//! `.weir` regression tests in tests/regress/fuzz_found.weir, run by
//! `weir test`, do not compare). The generator is deterministic, so each
//! pair names one program; `weir fuzz --show I --seed S` prints it. Needs a C
//! compiler, as the campaign test.

/// (seed, program, what went wrong)
const FOUND: &[(u64, u64, &str)] = &[
    (73, 56378, "seed 73 on 52d460e"),
    (
        83,
        2066,
        "an inner-dim `if` result's declared outer size unchecked",
    ),
    (89, 12877, "seed 89 on 101f2cb"),
    (89, 16064, "seed 89 on 101f2cb"),
    (89, 29244, "seed 89 on 101f2cb"),
    (89, 36428, "a negative dim read in C"),
    (
        89,
        41053,
        "a negative dim through transpose of an empty build",
    ),
    (
        89,
        18989,
        "a `while` state grown before its body: C out of memory at the loop, the interpreter at the `iota` inside",
    ),
    (
        89,
        20265,
        "a counted loop's storage sized by its shape slice before it ran: out of memory at the loop, not at the `replicate`",
    ),
    (
        101,
        15495,
        "an entry's `build` of rows too large for memory: C at the `build`, the interpreter at the row's `iota`",
    ),
    (
        101,
        24807,
        "`++` of an empty array whose rows have a negative size: C checked the other's rows against it",
    ),
    (
        101,
        54116,
        "a loop state written directly by a `replicate` too large for memory: C at the loop, not the `replicate`",
    ),
    (
        101,
        33480,
        "the rows of an empty `map` of a `map2` with a size mismatch: the interpreter's probe failed (rows 0), C computed them",
    ),
    (
        109,
        19170,
        "a size with a coefficient of i64::MIN: the compiler overflowed its stack emitting it",
    ),
    (
        113,
        19032,
        "a loop state grown for a `build` whose row is too large for memory: C at the `build`, the interpreter at the row's `replicate`",
    ),
];

#[test]
fn found_programs_agree_on_every_leg() {
    let cfg = weir_fuzz::Config {
        shrink_steps: 0,
        ..Default::default()
    };
    if let Err(e) = std::fs::create_dir_all(&cfg.work_dir) {
        panic!("cannot create {}: {e}", cfg.work_dir.display());
    }
    let mut bad = Vec::new();
    let mut progs = Vec::new();
    for &(seed, i, _) in FOUND {
        match weir_fuzz::program(seed, i) {
            Some(p) => progs.push(p),
            None => bad.push(format!("seed {seed} program {i}: not generated")),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // (their names differ: `p<i>`; one C file for all)
    let verdicts = weir_fuzz::check_batch(&progs, &cfg, "found");
    assert_eq!(verdicts.len(), FOUND.len());
    for (v, &(seed, i, what)) in verdicts.iter().zip(FOUND) {
        if v.is_bug() {
            bad.push(format!("seed {seed} program {i} ({what}): {v:?}"));
        }
    }
    let _ = std::fs::remove_dir_all(&cfg.work_dir);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
