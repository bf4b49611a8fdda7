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
