//! The progress bar of `weir fuzz` (indicatif, drawn on stderr).

use indicatif::{ProgressBar, ProgressStyle};

pub struct Bar(ProgressBar);

impl Bar {
    pub fn new(total: u64) -> Bar {
        let b = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} programs ({per_sec}, eta {eta})",
        ) {
            b.set_style(style.progress_chars("=> "));
        }
        Bar(b)
    }
    pub fn set(&self, n: u64) {
        self.0.set_position(n);
    }
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}
