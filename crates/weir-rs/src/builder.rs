//! The build-script side: compile Weir files into static libraries in
//! `OUT_DIR` with the `weir` compiler, link them, and write their Rust
//! bindings, generated from each library's manifest (`NAME.json`).
//!
//! The compiler is an installed `weir` binary (`$WEIR`, else `weir` on
//! `PATH`, as for the Python package), run as `weir lib FILE -o OUT_DIR
//! --name NAME`; with the `compiler` feature, the compiler compiled into
//! the build script instead (no binary needed, but the build compiles the
//! whole Weir compiler).

use crate::codegen::generate_abi;
use crate::manifest;
use std::collections::HashSet;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How to get a `weir`, for the errors that need one.
pub const INSTALL_HINT: &str = "install the Weir compiler from the Weir repository with `cargo install --locked --path crates/cli` (puts `weir` on PATH), or set WEIR to the path of a `weir` binary (e.g. WEIR=/path/to/weir/target/release/weir after `cargo build --release -p weir-cli`), or enable weir-rs's `compiler` feature to compile the compiler into the build script";

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// No Weir compiler was found, it could not be run, or it follows
    /// another ABI than this weir-rs.
    Compiler(String),
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
            BuildError::Compiler(s)
            | BuildError::Weir(s)
            | BuildError::Native(s)
            | BuildError::Bindings(s) => {
                write!(f, "{}", s.trim_end())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// The options of `weir lib` (`weir build`'s): the variant, bounds checks,
/// fast math. The C compiler is `$CC` (else `cc`), with `$WEIR_CFLAGS`
/// added to its flags.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    variant: Option<String>,
    checks: bool,
    fast_math: bool,
    march: Option<String>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            variant: None,
            checks: true,
            fast_math: false,
            march: None,
        }
    }
}

impl BuildOptions {
    /// The default options: the default variant, bounds checks, bit-exact
    /// floating point.
    pub fn new() -> BuildOptions {
        BuildOptions::default()
    }

    /// The compilation variant (`--variant`: CL, CG, CLF, D, DF, DFB,
    /// DFBs). All the libraries of a program must use the same memory mode.
    pub fn variant(mut self, name: &str) -> BuildOptions {
        self.variant = Some(name.to_string());
        self
    }

    /// Bounds checks (default on; off is `--unsafe`).
    pub fn checks(mut self, on: bool) -> BuildOptions {
        self.checks = on;
        self
    }

    /// `--fast-math`: reassociation and FMA contraction of floating point.
    pub fn fast_math(mut self, on: bool) -> BuildOptions {
        self.fast_math = on;
        self
    }

    /// The CPUs the library runs on (`--march`): `native` (the default:
    /// the building machine's, with all its extensions), `portable` (any
    /// CPU of the architecture) or a value of the C compiler's `-march=`
    /// (`x86-64-v3`). A program shipped to other machines takes one of the
    /// last two, else it may stop with an illegal instruction there.
    pub fn march(mut self, cpu: &str) -> BuildOptions {
        self.march = Some(cpu.to_string());
        self
    }

    /// The options as `weir lib`'s flags.
    fn args(&self) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(name) = &self.variant {
            v.push("--variant".to_string());
            v.push(name.clone());
        }
        if !self.checks {
            v.push("--unsafe".into());
        }
        if self.fast_math {
            v.push("--fast-math".into());
        }
        if let Some(cpu) = &self.march {
            v.push("--march".into());
            v.push(cpu.clone());
        }
        v
    }

    /// The variant's code calls the Boehm collector (`-lgc`): the one
    /// variant of memory mode GC.
    fn uses_gc(&self) -> bool {
        self.variant.as_deref() == Some("CG")
    }
}

/// What [`Builder::compile`] made of one Weir file.
#[derive(Clone, Debug)]
pub struct Built {
    /// The library (and Rust module) name.
    pub name: String,
    /// The Rust bindings, `OUT_DIR/NAME.rs`.
    pub module: PathBuf,
    /// The static library, `OUT_DIR/libNAME.a`.
    pub static_lib: PathBuf,
    /// The library's manifest (its ABI model), `OUT_DIR/NAME.json`.
    pub manifest: PathBuf,
    /// The entries the C backend could not compile, left out of the
    /// library (the compiler's warnings).
    pub warnings: Vec<String>,
}

/// Which compiler builds the libraries.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Weir {
    /// A `weir` binary, and where it came from (`$WEIR`, `PATH`, ...).
    Binary(PathBuf, &'static str),
    /// The compiler compiled into the build script (feature `compiler`).
    InProcess,
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
/// Each library `NAME` is compiled by `weir lib` with the C compiler
/// (`$CC`, else `cc`) into `OUT_DIR/libNAME.a` (its generated code and
/// Weir's runtime), and its bindings are written to `OUT_DIR/NAME.rs` (a
/// module `NAME`). All the libraries of a program must use the same
/// variant (memory mode), as they share the runtime of whichever the
/// linker takes first.
///
/// The compiler: [`Builder::weir`] if given, else `$WEIR`, else (with the
/// `compiler` feature) the compiler compiled into the build script, else
/// `weir` on `PATH`. Without one, the build fails saying how to install
/// it.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    files: Vec<(PathBuf, Option<String>)>,
    options: Option<BuildOptions>,
    out_dir: Option<PathBuf>,
    no_cargo: bool,
    weir: Option<Weir>,
}

/// Compile one Weir file (its library named after it, `kernels.weir` →
/// `kernels`) in a build script, failing the build with the compiler's
/// diagnostics when it does not compile. See [`Builder`].
pub fn build(file: impl AsRef<Path>) {
    Builder::new().file(file).build();
}

/// The default library name of a source file: its stem as a C identifier
/// (as `weir lib` makes it).
pub fn default_name(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut n: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if n.is_empty() || n.starts_with(|c: char| c.is_ascii_digit()) {
        n.insert_str(0, "lib_");
    }
    if n.starts_with("weir") {
        n.insert_str(0, "k_");
    }
    n
}

/// `cand` as an executable file: itself if it names a path (relative to
/// the current folder, the crate's in a build script), else searched on
/// `path` (the value of `PATH`).
fn find_executable(cand: &Path, path: Option<&OsString>) -> Option<PathBuf> {
    let is_exe = |p: &Path| -> bool {
        let Ok(meta) = std::fs::metadata(p) else {
            return false;
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            meta.is_file() && meta.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        {
            meta.is_file()
        }
    };
    if cand.components().count() > 1 || cand.is_absolute() {
        return is_exe(cand).then(|| std::path::absolute(cand).unwrap_or(cand.to_path_buf()));
    }
    let path = path?;
    std::env::split_paths(path)
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join(cand))
        .find(|p| is_exe(p))
}

/// The compiler to use: `$WEIR` (its value `weir_env`) when set, else the
/// in-process compiler when there is one, else `weir` on `PATH` (`path`).
fn resolve(
    weir_env: Option<OsString>,
    path: Option<OsString>,
    in_process: bool,
) -> Result<Weir, BuildError> {
    if let Some(w) = weir_env.filter(|w| !w.is_empty()) {
        let cand = PathBuf::from(&w);
        return find_executable(&cand, path.as_ref())
            .map(|p| Weir::Binary(p, "$WEIR"))
            .ok_or_else(|| {
                let shown = std::path::absolute(&cand).unwrap_or(cand);
                BuildError::Compiler(format!(
                    "the Weir compiler that WEIR names ({}) is not an executable file: {INSTALL_HINT}",
                    shown.display()
                ))
            });
    }
    if in_process {
        return Ok(Weir::InProcess);
    }
    find_executable(Path::new("weir"), path.as_ref())
        .map(|p| Weir::Binary(p, "PATH"))
        .ok_or_else(|| {
            BuildError::Compiler(format!(
                "weir-rs needs the Weir compiler `weir` to build the Weir library, and found none (WEIR is not set and there is no `weir` on PATH): {INSTALL_HINT}"
            ))
        })
}

/// The files a Weir file imports (`import "p"`, `module m = import "p"`,
/// relative to its folder, `.weir` added), the standard library's (`std/`)
/// aside: a lexical scan that skips comments.
fn imports(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut after_import = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if b[i..].starts_with(b"--") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'"' {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let end = i.min(b.len());
            if after_import && let Some(s) = text.get(start..end) {
                out.push(s.to_string());
            }
            after_import = false;
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'\'') {
                i += 1;
            }
            after_import = &b[start..i] == b"import";
        } else {
            if !c.is_ascii_whitespace() {
                after_import = false;
            }
            i += 1;
        }
    }
    out
}

/// A Weir file and the files it imports, transitively (those that exist).
fn weir_files(file: &Path) -> Vec<PathBuf> {
    let mut out = vec![file.to_path_buf()];
    let mut seen: HashSet<PathBuf> = HashSet::new();
    seen.insert(file.canonicalize().unwrap_or(file.to_path_buf()));
    let mut k = 0;
    while k < out.len() {
        let f = out[k].clone();
        k += 1;
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let dir = f.parent().unwrap_or(Path::new("")).to_path_buf();
        for p in imports(&text) {
            if p.starts_with("std/") {
                continue;
            }
            let g = dir.join(format!("{p}.weir"));
            let Ok(key) = g.canonicalize() else {
                continue;
            };
            if seen.insert(key) {
                out.push(g);
            }
        }
    }
    out
}

/// A build for another target than the build machine's (the build
/// script's `HOST` and `TARGET`): `weir lib` compiles for the machine it
/// runs on (`$CC`, `-march=native`), so that is an error.
fn cross_compiling(host: Option<&str>, target: Option<&str>) -> Result<(), BuildError> {
    match (host, target) {
        (Some(h), Some(t)) if h != t => Err(BuildError::Native(format!(
            "weir-rs builds Weir libraries for the machine that builds them ({h}), not for the target {t}: cross-compilation is not supported"
        ))),
        _ => Ok(()),
    }
}

/// The output of a finished process, or why it could not run.
fn output(cmd: &mut Command, what: &str) -> Result<std::process::Output, BuildError> {
    cmd.output().map_err(|e| {
        BuildError::Compiler(format!(
            "cannot run the Weir compiler {what}: {e}: {INSTALL_HINT}"
        ))
    })
}

/// `weir --version` of a binary (`weir 0.1.0`).
fn binary_version(weir: &Path, origin: &str) -> Result<String, BuildError> {
    let what = format!("{} (from {origin})", weir.display());
    let out = output(Command::new(weir).arg("--version"), &what)?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || !text.starts_with("weir ") {
        return Err(BuildError::Compiler(format!(
            "{what} is not the Weir compiler (`{} --version` said {text:?}{}): {INSTALL_HINT}",
            weir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(text)
}

/// `weir lib FILE -o OUT_DIR --name NAME`: the compiler's warnings.
fn run_binary(
    weir: &Path,
    file: &Path,
    name: &str,
    opts: &BuildOptions,
    out_dir: &Path,
) -> Result<Vec<String>, BuildError> {
    let mut cmd = Command::new(weir);
    cmd.args(["--color", "never", "lib"])
        .arg(file)
        .arg("-o")
        .arg(out_dir)
        .arg("--name")
        .arg(name)
        .args(opts.args());
    let out = output(&mut cmd, &weir.display().to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let why = if stderr.trim().is_empty() {
            format!("`{} lib` failed ({})", weir.display(), out.status)
        } else {
            stderr.to_string()
        };
        return Err(BuildError::Weir(why));
    }
    Ok(warnings(&stderr))
}

/// The warnings in a compiler's messages: the first line of each.
fn warnings(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("warning: "))
        .map(str::to_string)
        .collect()
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

    /// The build's options (variant, bounds checks, fast math); default:
    /// the default variant with bounds checks.
    pub fn options(mut self, options: BuildOptions) -> Builder {
        self.options = Some(options);
        self
    }

    /// Where the libraries and bindings go (default: `$OUT_DIR`).
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The `weir` binary to run (default: `$WEIR`, else the in-process
    /// compiler with the `compiler` feature, else `weir` on `PATH`).
    pub fn weir(mut self, binary: impl AsRef<Path>) -> Builder {
        self.weir = Some(Weir::Binary(binary.as_ref().to_path_buf(), "Builder::weir"));
        self
    }

    /// Compile with the compiler compiled into the build script, whatever
    /// `$WEIR` says.
    #[cfg(feature = "compiler")]
    pub fn in_process(mut self) -> Builder {
        self.weir = Some(Weir::InProcess);
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

    fn compiler(&self) -> Result<Weir, BuildError> {
        if let Some(w) = &self.weir {
            return Ok(w.clone());
        }
        resolve(
            std::env::var_os("WEIR"),
            std::env::var_os("PATH"),
            cfg!(feature = "compiler"),
        )
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
        cross_compiling(
            std::env::var("HOST").ok().as_deref(),
            std::env::var("TARGET").ok().as_deref(),
        )?;
        let opts = self.options.clone().unwrap_or_default();
        for var in ["WEIR", "CC", "AR", "WEIR_CFLAGS"] {
            self.cargo(&format!("rerun-if-env-changed={var}"));
        }
        for (file, _) in &self.files {
            for f in weir_files(file) {
                self.cargo(&format!("rerun-if-changed={}", f.display()));
            }
        }
        let weir = self.compiler()?;
        let version = match &weir {
            Weir::Binary(path, origin) => {
                self.cargo(&format!("rerun-if-changed={}", path.display()));
                Some(binary_version(path, origin)?)
            }
            Weir::InProcess => None,
        };
        std::fs::create_dir_all(&out_dir)
            .map_err(|e| BuildError::Native(format!("cannot create {}: {e}", out_dir.display())))?;
        let mut built: Vec<Built> = Vec::new();
        for (file, name) in &self.files {
            let name = name.clone().unwrap_or_else(|| default_name(file));
            if built.iter().any(|b| b.name == name) {
                return Err(BuildError::Bindings(format!(
                    "two Weir libraries named `{name}`: give one another name with Builder::library"
                )));
            }
            let warnings = match &weir {
                Weir::Binary(path, _) => run_binary(path, file, &name, &opts, &out_dir)?,
                Weir::InProcess => in_process(file, &name, &opts, &out_dir)?,
            };
            for w in &warnings {
                self.cargo(&format!(
                    "warning={}: library `{name}`: {w}",
                    file.display()
                ));
            }
            let manifest = out_dir.join(format!("{name}.json"));
            let text = std::fs::read_to_string(&manifest).map_err(|e| {
                BuildError::Native(format!("cannot read {}: {e}", manifest.display()))
            })?;
            let abi = manifest::abi_version(&text).map_err(BuildError::Bindings)?;
            if abi != i64::from(crate::ABI_VERSION) {
                let who = match (&weir, &version) {
                    (Weir::Binary(p, origin), Some(v)) => {
                        format!("the Weir compiler {} (from {origin}, {v})", p.display())
                    }
                    _ => "the Weir compiler".to_string(),
                };
                return Err(BuildError::Compiler(format!(
                    "{who} builds libraries of ABI {abi}, and weir-rs {} calls ABI {}: use a weir and a weir-rs of the same ABI (one Weir repository): {INSTALL_HINT}",
                    env!("CARGO_PKG_VERSION"),
                    crate::ABI_VERSION
                )));
            }
            let abi = manifest::parse(&text).map_err(BuildError::Bindings)?;
            let rust = generate_abi(&abi).map_err(BuildError::Bindings)?;
            let module = out_dir.join(format!("{name}.rs"));
            std::fs::write(&module, rust).map_err(|e| {
                BuildError::Native(format!("cannot write {}: {e}", module.display()))
            })?;
            built.push(Built {
                static_lib: out_dir.join(format!("lib{name}.a")),
                name,
                module,
                manifest,
                warnings,
            });
        }
        self.cargo(&format!("rustc-link-search=native={}", out_dir.display()));
        for b in &built {
            self.cargo(&format!("rustc-link-lib=static={}", b.name));
        }
        if opts.uses_gc() {
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

/// The library `name` of `file` built by the compiler compiled in: its
/// warnings.
#[cfg(any(feature = "compiler", test))]
fn in_process(
    file: &Path,
    name: &str,
    opts: &BuildOptions,
    out_dir: &Path,
) -> Result<Vec<String>, BuildError> {
    use weir_driver::library::build_library;
    let mut o = weir_driver::native::BuildOptions::default();
    if let Some(v) = &opts.variant {
        o.variant = weir_driver::native::variant(v)
            .ok_or_else(|| BuildError::Bindings(format!("unknown variant `{v}`")))?;
    }
    o.checks = opts.checks;
    o.fast_math = opts.fast_math;
    if let Some(cpu) = &opts.march {
        weir_driver::library::set_march(&mut o, cpu).map_err(BuildError::Bindings)?;
    }
    let compiled =
        weir_driver::compile_file(file).map_err(|e| BuildError::Weir(e.render(false)))?;
    let library = build_library(&compiled, name, &o, out_dir)
        .map_err(|e| BuildError::Native(e.to_string()))?;
    Ok(library
        .left_out
        .iter()
        .map(|(entry, why)| {
            let first = why.lines().next().unwrap_or("");
            format!("entry point `{entry}` is left out (the C backend cannot compile it): {first}")
        })
        .collect())
}

#[cfg(not(any(feature = "compiler", test)))]
fn in_process(
    _file: &Path,
    _name: &str,
    _opts: &BuildOptions,
    _out_dir: &Path,
) -> Result<Vec<String>, BuildError> {
    Err(BuildError::Compiler(format!(
        "weir-rs was built without its `compiler` feature: {INSTALL_HINT}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("weir-rs-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// An executable shell script `dir/name`.
    #[cfg(unix)]
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    /// A fake `weir` whose `lib` writes `manifest` as the library's
    /// (`--color never lib FILE -o OUT --name NAME`).
    #[cfg(unix)]
    fn fake_weir(dir: &Path, manifest: &str) -> PathBuf {
        std::fs::write(dir.join("manifest.json"), manifest).unwrap();
        script(
            dir,
            "weir",
            &format!(
                "if [ \"$1\" = --version ]; then echo 'weir 9.9.9'; exit 0; fi\necho \"$@\" > '{}'\necho 'warning: entry point `g` is left out:' >&2\necho '  why' >&2\ncp '{}' \"$6/$8.json\"",
                dir.join("args").display(),
                dir.join("manifest.json").display()
            ),
        )
    }

    #[test]
    fn the_compiler_is_weir_then_in_process_then_path() {
        let dir = scratch("resolve");
        let none = resolve(None, None, false).unwrap_err();
        assert!(matches!(none, BuildError::Compiler(_)));
        let none = none.to_string();
        assert!(none.contains("found none"), "{none}");
        assert!(
            none.contains("cargo install --locked --path crates/cli"),
            "{none}"
        );
        assert!(none.contains("set WEIR"), "{none}");
        let missing = dir.join("no-such-weir");
        let e = resolve(Some(missing.clone().into()), None, true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("WEIR names"), "{e}");
        assert!(e.contains(&missing.display().to_string()), "{e}");
        // an empty WEIR is unset
        assert_eq!(
            resolve(Some("".into()), None, true).unwrap(),
            Weir::InProcess
        );
        #[cfg(unix)]
        {
            let bin = dir.join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            let w = script(&bin, "weir", "echo weir 0.1.0");
            // a file that is not executable is not found on PATH
            let other = dir.join("other");
            std::fs::create_dir_all(&other).unwrap();
            std::fs::write(other.join("weir"), "").unwrap();
            let path = std::env::join_paths([&other, &bin]).unwrap();
            assert_eq!(
                resolve(None, Some(path.clone()), false).unwrap(),
                Weir::Binary(w.clone(), "PATH")
            );
            assert_eq!(
                resolve(None, Some(path.clone()), true).unwrap(),
                Weir::InProcess
            );
            assert_eq!(
                resolve(Some(w.clone().into()), Some(path.clone()), true).unwrap(),
                Weir::Binary(w.clone(), "$WEIR")
            );
            // a bare name in WEIR is looked up on PATH
            assert_eq!(
                resolve(Some("weir".into()), Some(path), true).unwrap(),
                Weir::Binary(w, "$WEIR")
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_binary_of_another_abi_is_an_error() {
        let dir = scratch("abi");
        let file = dir.join("k.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x\n").unwrap();
        let manifest = crate::manifest::tests::SAMPLE.replace("\"weir_abi\": 1", "\"weir_abi\": 2");
        let w = fake_weir(&dir, &manifest);
        let e = Builder::new()
            .file(&file)
            .weir(&w)
            .out_dir(dir.join("out"))
            .cargo_metadata(false)
            .compile()
            .unwrap_err();
        let s = e.to_string();
        assert!(matches!(e, BuildError::Compiler(_)), "{s}");
        assert!(s.contains("builds libraries of ABI 2"), "{s}");
        assert!(s.contains("calls ABI 1"), "{s}");
        assert!(s.contains("weir 9.9.9"), "{s}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_binary_writes_the_library_and_its_bindings_come_from_the_manifest() {
        let dir = scratch("fake");
        let file = dir.join("k.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x\n").unwrap();
        let w = fake_weir(&dir, crate::manifest::tests::SAMPLE);
        let built = Builder::new()
            .library(&file, "k")
            .weir(&w)
            .options(BuildOptions::new().march("x86-64-v2").checks(false))
            .out_dir(dir.join("out"))
            .cargo_metadata(false)
            .compile()
            .unwrap();
        let args = std::fs::read_to_string(dir.join("args")).unwrap();
        assert_eq!(
            args.trim(),
            format!(
                "--color never lib {} -o {} --name k --unsafe --march x86-64-v2",
                file.display(),
                dir.join("out").display()
            )
        );
        assert_eq!(built[0].name, "k");
        assert_eq!(built[0].warnings, ["entry point `g` is left out:"]);
        assert_eq!(built[0].static_lib, dir.join("out/libk.a"));
        let text = std::fs::read_to_string(&built[0].module).unwrap();
        assert!(text.contains("pub mod k {"), "{text}");
        assert!(text.contains("pub fn above("), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn failures_of_the_binary_are_reported() {
        let dir = scratch("fail");
        let file = dir.join("k.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x\n").unwrap();
        let build = |w: &Path| {
            Builder::new()
                .file(&file)
                .weir(w)
                .out_dir(dir.join("out"))
                .cargo_metadata(false)
                .compile()
                .unwrap_err()
        };
        let w = script(
            &dir,
            "diag",
            "if [ \"$1\" = --version ]; then echo 'weir 0.1.0'; exit 0; fi\necho 'k.weir:1:1: error[E0001]: oops' >&2; exit 1",
        );
        let e = build(&w);
        assert!(matches!(e, BuildError::Weir(_)), "{e}");
        assert!(
            e.to_string().contains("k.weir:1:1: error[E0001]: oops"),
            "{e}"
        );
        let w = script(&dir, "notweir", "echo hello");
        let e = build(&w).to_string();
        assert!(e.contains("is not the Weir compiler"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn imports_are_found_through_comments_and_modules() {
        let text = "-- import \"commented\"\nimport \"lib/a\" -- \"not\"\nmodule m = import \"../b\"\nmodule s = import \"std/linalg\"\nentry f (x: f64) : f64 = x\n";
        assert_eq!(imports(text), vec!["lib/a", "../b", "std/linalg"]);
        let dir = scratch("imports");
        std::fs::create_dir_all(dir.join("sub/lib")).unwrap();
        std::fs::write(
            dir.join("sub/main.weir"),
            "import \"lib/a\"\nimport \"std/linalg\"\n",
        )
        .unwrap();
        std::fs::write(dir.join("sub/lib/a.weir"), "import \"../../b\"\n").unwrap();
        std::fs::write(dir.join("b.weir"), "import \"sub/main\"\n").unwrap();
        let files = weir_files(&dir.join("sub/main.weir"));
        assert_eq!(files.len(), 3, "{files:?}");
        assert!(files[2].ends_with("b.weir"), "{files:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cross_compilation_is_an_error() {
        let t = "x86_64-unknown-linux-gnu";
        assert!(cross_compiling(Some(t), Some(t)).is_ok());
        assert!(cross_compiling(None, None).is_ok());
        let e = cross_compiling(Some(t), Some("aarch64-unknown-linux-gnu")).unwrap_err();
        assert!(e.to_string().contains("not supported"), "{e}");
    }

    #[test]
    fn default_names_are_c_identifiers() {
        assert_eq!(default_name(Path::new("a/kernels.weir")), "kernels");
        assert_eq!(default_name(Path::new("my-k.weir")), "my_k");
        assert_eq!(default_name(Path::new("2d.weir")), "lib_2d");
        assert_eq!(default_name(Path::new("weirdo.weir")), "k_weirdo");
    }

    #[test]
    fn the_gc_variant_is_the_one_of_memory_mode_gc() {
        for v in weir_driver::native::VARIANTS {
            let o = BuildOptions::new().variant(v.name);
            assert_eq!(o.uses_gc(), v.mem == weir_cgen::MemMode::Gc, "{}", v.name);
        }
        assert_eq!(
            BuildOptions::new()
                .variant("D")
                .checks(false)
                .fast_math(true)
                .march("portable")
                .args(),
            [
                "--variant",
                "D",
                "--unsafe",
                "--fast-math",
                "--march",
                "portable"
            ]
        );
    }

    // The in-process compiler (the `compiler` feature; always in tests).

    fn in_process_builder() -> Builder {
        Builder {
            weir: Some(Weir::InProcess),
            ..Builder::default()
        }
        .cargo_metadata(false)
    }

    #[test]
    fn a_weir_error_is_the_rendered_diagnostics() {
        let dir = scratch("bad");
        let file = dir.join("bad.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x + true\n").unwrap();
        let e = in_process_builder()
            .file(&file)
            .out_dir(dir.join("out"))
            .compile()
            .unwrap_err();
        assert!(matches!(e, BuildError::Weir(_)), "{e}");
        assert!(e.to_string().contains("bad.weir:1:"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn options_reach_the_in_process_compiler() {
        let dir = scratch("march");
        let file = dir.join("k.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x\n").unwrap();
        let built = in_process_builder()
            .file(&file)
            .options(BuildOptions::new().march("portable"))
            .out_dir(dir.join("out"))
            .compile()
            .unwrap();
        let c = std::fs::read_to_string(dir.join("out/k.c")).unwrap();
        let first = c.lines().next().unwrap_or("");
        assert!(!first.contains("-march="), "{first}");
        assert!(built[0].static_lib.exists());
        let e = in_process_builder()
            .file(&file)
            .options(BuildOptions::new().march("-O0"))
            .out_dir(dir.join("out"))
            .compile()
            .unwrap_err();
        assert!(e.to_string().contains("not a CPU name"), "{e}");
        let e = in_process_builder()
            .file(&file)
            .options(BuildOptions::new().variant("XYZ"))
            .out_dir(dir.join("out"))
            .compile()
            .unwrap_err();
        assert!(e.to_string().contains("unknown variant `XYZ`"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn libraries_need_distinct_names_and_a_file() {
        let dir = scratch("twice");
        let e = in_process_builder().out_dir(&dir).compile().unwrap_err();
        assert!(e.to_string().contains("no Weir file"), "{e}");
        let file = dir.join("k.weir");
        std::fs::write(&file, "entry f (x: f64) : f64 = x\n").unwrap();
        let e = in_process_builder()
            .file(&file)
            .library(&file, "k")
            .out_dir(&dir)
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
        let built = in_process_builder()
            .file(&file)
            .out_dir(&dir)
            .compile()
            .unwrap();
        assert_eq!(built.len(), 1);
        assert!(built[0].static_lib.exists());
        assert!(built[0].manifest.exists());
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
        let file = dir.join("kw.weir");
        std::fs::write(
            &file,
            "entry move (impl: []f64) (self: i64) (fn: f64) : []f64 = map (\\x -> x + fn) impl\n",
        )
        .unwrap();
        let built = in_process_builder()
            .file(&file)
            .out_dir(dir.join("out"))
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
