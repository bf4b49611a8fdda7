//! Weir front end, part 1: source files, diagnostics, the lexer, the AST and the parser.
//!
//! Parsing never panics: [`parse_file`] returns an AST (possibly partial) and every
//! error found, each with a span into the [`SourceMap`].

// Diagnostics are large and returned only on the cold error path; boxing them buys nothing.
#![allow(clippy::result_large_err)]

pub mod ast;
pub mod diag;
pub mod fmt;
pub mod lexer;
pub mod parser;
pub mod source;

pub use diag::{Diagnostic, Label};
pub use parser::parse_file;
pub use source::{FileId, SourceMap, Span};
