//! The Weir driver: the pipeline assembled in one place, test blocks, input handling
//! and the ADBench converters. The CLI is a thin layer over this crate.

// Diagnostics are large and returned only on the cold error path; boxing them buys nothing.
#![allow(clippy::result_large_err)]

pub mod adbench;
pub mod inputs;
pub mod library;
pub mod modules;
pub mod native;
pub mod pipeline;
mod resolve;
pub mod testblock;

pub use pipeline::{Compiled, LoadError, compile_file, compile_source, run_entry};

/// Run `f` on a thread with a large stack, so that deeply nested (but accepted)
/// programs cannot overflow the stack in recursive passes.
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new().stack_size(256 << 20).spawn(f);
    match handle {
        Ok(h) => match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        },
        Err(_) => panic!("cannot spawn the compiler thread"),
    }
}
