//! `weir bench`: the benchmark suite (issue 5). It builds every implementation
//! of every workload in `bench/suite.toml` — Weir (default pipeline and, where
//! they apply, the ablation variants), hand-written C, idiomatic C++, C++ with
//! Eigen (at -march=native and at x86-64-v3), NumPy, JAX and Numba — runs
//! them interleaved, one process per run, checks that each computes the same
//! result as hand-written C before its times count, and reports medians,
//! min–max, peak RSS and allocations, with the machine's own limits (STREAM
//! bandwidth, peak FLOP rate) beside them.
//!
//! Every implementation is a program that follows one protocol
//! (`--runs N --warmup W --in FILE --out FILE --stats`, a `stats:` line on
//! stderr); see bench/README.md.

pub mod impls;
pub mod machine;
pub mod plot;
pub mod proc;
pub mod report;
pub mod runner;
pub mod suite;
pub mod values;

pub use runner::{Config, Report, default_out_dir, failures, find_root, run};
