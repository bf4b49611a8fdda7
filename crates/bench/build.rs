//! Detects what the suite's tests need, so that a test whose tool is missing is
//! reported as ignored (with the reason), never as a silent `ok`:
//! `weir_has_cc` (`$CC`, else `cc`, runs) and `weir_has_font` (a TrueType font
//! for the figures: `$WEIR_BENCH_FONT` or one of plot.rs's `FONT_FILES`).
//! Under `CI=true` (or `CI=1`) both are set whatever is installed, so there
//! the tests run and fail clearly when something is missing
//! (`weir_toolprobe`).

use std::path::Path;

/// The same list as `FONT_FILES` in src/plot.rs.
const FONT_FILES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

fn main() {
    weir_toolprobe::rerun_when(&["CC", "WEIR_BENCH_FONT"]);
    let has_cc = weir_toolprobe::runs(&weir_toolprobe::cc(), &["--version"]);
    let has_font = std::env::var_os("WEIR_BENCH_FONT").is_some_and(|f| Path::new(&f).is_file())
        || FONT_FILES.iter().any(|f| Path::new(f).is_file());
    weir_toolprobe::set_cfgs(&[("weir_has_cc", has_cc), ("weir_has_font", has_font)]);
}
