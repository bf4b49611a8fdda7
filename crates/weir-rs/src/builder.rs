//! The build-script side: compile Weir files into static libraries in
//! `OUT_DIR`, link them, and write their Rust bindings.

use crate::codegen::generate;
use std::fmt;
use std::path::{Path, PathBuf};
use weir_driver::library::{Library, build_library, default_name};

pub use weir_driver::native::BuildOptions;

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// The Weir file did not compile (the rendered diagnostics).
    Weir(String),
    /// The C compiler, the archiver or a file failed.
    Native(String),
    /// The bindings could not be generated, or the builder was misused.
    Bindings(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Weir(s) | BuildError::Native(s) | BuildError::Bindings(s) => {
                write!(f, "{}", s.trim_end())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// What [`Builder::compile`] made of one Weir file.
#[derive(Debug)]
pub struct Built {
    /// The library (and Rust module) name.
    pub name: String,
    /// The Rust bindings, `OUT_DIR/NAME.rs`.
    pub module: PathBuf,
    /// The C library: header, static and shared library, manifest, ABI.
    pub library: Library,
}

/// Builds one or several Weir libraries for a crate (in its build script).
///
/// ```ignore
/// weir_rs::Builder::new()
///     .file("kernels.weir")               // library `kernels`
///     .library("more.weir", "extra")      // library `extra`
///     .build();
/// ```
///
/// Each library `NAME` is compiled with the C compiler (`$CC`, else `cc`)
/// into `OUT_DIR/libNAME.a` (its generated code and Weir's runtime), and its
/// bindings are written to `OUT_DIR/NAME.rs` (a module `NAME`). All the
/// libraries of a program must use the same variant (memory mode), as they
/// share the runtime of whichever the linker takes first.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    files: Vec<(PathBuf, Option<String>)>,
    options: Option<BuildOptions>,
    out_dir: Option<PathBuf>,
    no_cargo: bool,
}

/// Compile one Weir file (its library named after it, `kernels.weir` →
/// `kernels`) in a build script, failing the build with the compiler's
/// diagnostics when it does not compile. See [`Builder`].
pub fn build(file: impl AsRef<Path>) {
    Builder::new().file(file).build();
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// A Weir file whose library is named after it.
    pub fn file(mut self, file: impl AsRef<Path>) -> Builder {
        self.files.push((file.as_ref().to_path_buf(), None));
        self
    }

    /// A Weir file compiled into the library (and module) `name`, a C
    /// identifier not starting with `weir`.
    pub fn library(mut self, file: impl AsRef<Path>, name: &str) -> Builder {
        self.files
            .push((file.as_ref().to_path_buf(), Some(name.to_string())));
        self
    }

    /// The C build's options (variant, bounds checks, C flags, compiler);
    /// default: the default variant with bounds checks, `-O3 -march=native`.
    pub fn options(mut self, options: BuildOptions) -> Builder {
        self.options = Some(options);
        self
    }

    /// Where the libraries and bindings go (default: `$OUT_DIR`).
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Whether to print the `cargo:` lines (link flags, rerun rules);
    /// default true.
    pub fn cargo_metadata(mut self, on: bool) -> Builder {
        self.no_cargo = !on;
        self
    }

    fn cargo(&self, line: &str) {
        if !self.no_cargo {
            println!("cargo:{line}");
        }
    }

    /// Compile every file, printing the `cargo:` lines.
    pub fn compile(&self) -> Result<Vec<Built>, BuildError> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                BuildError::Bindings(
                    "OUT_DIR is not set: call weir_rs::build from a build script, or give Builder::out_dir".into(),
                )
            })?,
        };
        if self.files.is_empty() {
            return Err(BuildError::Bindings(
                "no Weir file to build: add one with Builder::file".into(),
            ));
        }
        let opts = self.options.clone().unwrap_or_default();
        for var in ["CC", "AR", "WEIR_CFLAGS"] {
            self.cargo(&format!("rerun-if-env-changed={var}"));
        }
        let mut built: Vec<Built> = Vec::new();
        for (file, name) in &self.files {
            self.cargo(&format!("rerun-if-changed={}", file.display()));
            let name = name.clone().unwrap_or_else(|| default_name(file));
            if built.iter().any(|b| b.name == name) {
                return Err(BuildError::Bindings(format!(
                    "two Weir libraries named `{name}`: give one another name with Builder::library"
                )));
            }
            let compiled =
                weir_driver::compile_file(file).map_err(|e| BuildError::Weir(e.render(false)))?;
            let library = build_library(&compiled, &name, &opts, &out_dir)
                .map_err(|e| BuildError::Native(e.to_string()))?;
            for (entry, why) in &library.left_out {
                let first = why.lines().next().unwrap_or("");
                self.cargo(&format!(
                    "warning={}: entry `{entry}` left out of library `{name}` (the C backend cannot compile it): {first}",
                    file.display()
                ));
            }
            let text = generate(&library.abi).map_err(BuildError::Bindings)?;
            let module = out_dir.join(format!("{name}.rs"));
            std::fs::write(&module, text).map_err(|e| {
                BuildError::Native(format!("cannot write {}: {e}", module.display()))
            })?;
            built.push(Built {
                name,
                module,
                library,
            });
        }
        self.cargo(&format!("rustc-link-search=native={}", out_dir.display()));
        for b in &built {
            self.cargo(&format!("rustc-link-lib=static={}", b.name));
        }
        if opts.variant.mem == weir_cgen::MemMode::Gc {
            self.cargo("rustc-link-lib=gc");
        }
        self.cargo("rustc-link-lib=m");
        Ok(built)
    }

    /// [`Builder::compile`] for a build script: on failure, print why
    /// (the Weir diagnostics) and end the build script with status 1.
    pub fn build(self) {
        if let Err(e) = self.compile() {
            eprintln!("error: weir-rs could not build the Weir library:\n\n{e}");
            if !self.no_cargo {
                let first = e.to_string();
                let first = first.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                println!("cargo:warning=weir-rs: {first}");
            }
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("weir-rs-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_weir_error_is_the_rendered_diagnostics() {
        let dir = scratch("bad");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("bad.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x + true\n").unwrap();
        let e = Builder::new()
            .file(&file)
            .out_dir(dir.join("out"))
            .cargo_metadata(false)
            .compile()
            .unwrap_err();
        assert!(matches!(e, BuildError::Weir(_)), "{e}");
        assert!(e.to_string().contains("bad.weir:1:"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn libraries_need_distinct_names_and_a_file() {
        let e = Builder::new()
            .out_dir(scratch("none"))
            .cargo_metadata(false)
            .compile()
            .unwrap_err();
        assert!(e.to_string().contains("no Weir file"), "{e}");
        let dir = scratch("twice");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("k.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x\n").unwrap();
        let e = Builder::new()
            .file(&file)
            .library(&file, "k")
            .out_dir(&dir)
            .cargo_metadata(false)
            .compile()
            .unwrap_err();
        assert!(
            e.to_string().contains("two Weir libraries named `k`"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bindings_of_the_example_kernels() {
        let dir = scratch("kernels");
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/embed/kernels.weir");
        let built = Builder::new()
            .file(&file)
            .out_dir(&dir)
            .cargo_metadata(false)
            .compile()
            .unwrap();
        assert_eq!(built.len(), 1);
        assert!(built[0].library.static_lib.exists());
        let text = std::fs::read_to_string(&built[0].module).unwrap();
        for want in [
            "pub mod kernels {",
            "pub fn add3(ctx: &mut ::weir_rs::Context, a: ::weir_rs::ndarray::ArrayView1<'_, f64>",
            "-> ::std::result::Result<::weir_rs::ndarray::Array1<f64>, ::weir_rs::Error>",
            "pub fn add3_into(ctx: &mut ::weir_rs::Context, out: ::weir_rs::ndarray::ArrayViewMut1<'_, f64>",
            "pub fn add3_shape(",
            "-> ::std::result::Result<[usize; 1], ::weir_rs::Error>",
            "-> ::std::result::Result<(::weir_rs::ndarray::Array1<f64>, ::weir_rs::ndarray::Array1<f64>), ::weir_rs::Error>",
            "mask: ::weir_rs::ndarray::ArrayView1<'_, bool>",
            "-> ::std::result::Result<(i64, ::weir_rs::ndarray::Array1<i32>), ::weir_rs::Error>",
            "/// entry above (t: f64) (xs: []f64) : ([]f64, i64)",
            "fn kernels_count_true(ctx: *mut weir_ctx, out0: *mut i32, out0_d0: i64, mask: *const bool, mask_d0: i64, ret0: *mut i64)",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        // no `_into` for an existential result, nor for an entry without arrays
        assert!(!text.contains("pub fn above_into"));
        assert!(!text.contains("pub fn nothing_into"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn keywords_are_raw_identifiers() {
        let dir = scratch("kw");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("kw.weir");
        std::fs::write(
            &file,
            "entry move (impl: []f64) (self: i64) (fn: f64) : []f64 = map (\\x -> x + fn) impl\n",
        )
        .unwrap();
        let built = Builder::new()
            .file(&file)
            .out_dir(dir.join("out"))
            .cargo_metadata(false)
            .compile()
            .unwrap();
        let text = std::fs::read_to_string(&built[0].module).unwrap();
        for want in [
            "pub fn r#move(ctx: &mut ::weir_rs::Context, r#impl: ::weir_rs::ndarray::ArrayView1<'_, f64>, self_: i64, r#fn: f64)",
            "pub fn move_into(",
            "pub fn move_shape(",
            "let r#impl = __rt::arg(&r#impl);",
            "r#impl: *const f64, impl_d0: i64, self_: i64, r#fn: f64",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
