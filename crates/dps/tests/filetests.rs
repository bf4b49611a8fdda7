//! DPS IR filetests (tests as data): each `tests/dps/NAME.dps` is a DPS
//! program in the text form, whose first line names the rules to apply
//! (`-- rules: prove-checks`, from the tables of `weir_dps::checks`,
//! `weir_dps::simplify` and `weir_dps::materialize`); the program after them, printed, must be
//! `NAME.expected`. The program is verified before and after every rule.
//! `WEIR_BLESS=1` rewrites the expected files.

use std::path::Path;
use weir_dps::ir::Program;
use weir_dps::print::program_to_string;

fn apply(p: &mut Program, rule: &str) -> bool {
    let check = |q: &Program, name: &str| {
        if let Err(e) = weir_dps::verify::verify_program(q) {
            panic!("invalid DPS IR after {name}: {e:?}");
        }
    };
    if let Some(r) = weir_dps::checks::RULES.iter().find(|r| r.0 == rule) {
        weir_dps::checks::run_rules(p, &[*r], &mut |q, n| check(q, n));
        return true;
    }
    if let Some(r) = weir_dps::materialize::RULES.iter().find(|r| r.0 == rule) {
        for f in &mut p.funs {
            while (r.2)(f) {}
        }
        check(p, rule);
        return true;
    }
    if let Some(r) = weir_dps::peel::RULES.iter().find(|r| r.0 == rule) {
        weir_dps::peel::run_rules(p, &[*r], &mut |q, n| check(q, n));
        return true;
    }
    if let Some(r) = weir_dps::simplify::RULES.iter().find(|r| r.0 == rule) {
        weir_dps::simplify::run_rules(p, &[*r], &mut |q, n| check(q, n));
        return true;
    }
    false
}

#[test]
fn dps_filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/dps");
    let bless = std::env::var_os("WEIR_BLESS").is_some();
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/dps")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "dps"))
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).expect("read");
        let Some(rules) = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("-- rules:"))
        else {
            panic!("{}: the first line must be `-- rules: ...`", path.display());
        };
        let mut p = weir_dps::parse::parse_program(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(e) = weir_dps::verify::verify_unmaterialized(&p) {
            panic!("{}: does not verify: {e:?}", path.display());
        }
        for r in rules.split_whitespace() {
            assert!(apply(&mut p, r), "{}: no rule `{r}`", path.display());
        }
        let got = program_to_string(&p);
        let exp_path = path.with_extension("expected");
        if bless {
            std::fs::write(&exp_path, &got).expect("write");
        }
        let want = std::fs::read_to_string(&exp_path).unwrap_or_else(|_| {
            panic!("{} is missing (WEIR_BLESS=1 writes it)", exp_path.display())
        });
        assert_eq!(got, want, "{}", path.display());
        n += 1;
    }
    assert!(n >= 2, "only {n} filetests: did tests/dps move?");
}
