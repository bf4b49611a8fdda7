//! The implementations a workload is run with, and how each is built.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use weir_driver::native::{BuildOptions, Variant};

/// What kind of program an implementation is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// Weir's C backend in one of its variants (DFBs is the default), with
    /// a views decision (`--views`; dps-views ch. 7 compares them), and
    /// whether `--fast-math` is on.
    Weir(Variant, weir_opt::Views, bool),
    /// bench/handwritten/KERNEL.c
    C,
    /// bench/cpp/KERNEL.cpp (std::vector)
    Cpp,
    /// bench/eigen/KERNEL.cpp, built with `-march=` this (`native` for
    /// `eigen`, [`EIGEN_V3_MARCH`] for `eigen-v3`).
    Eigen(&'static str),
    /// bench/py/run.py numpy|jax|numba KERNEL
    Python(&'static str),
}

/// One implementation.
#[derive(Debug, Clone, Serialize)]
pub struct Impl {
    /// Short name (`weir`, `weir-CL`, `c`, `cpp`, `eigen`, `eigen-v3`, `numpy`, `jax`, `numba`).
    pub id: String,
    pub label: String,
    #[serde(skip)]
    pub kind: Kind,
}

impl Impl {
    pub fn is_weir(&self) -> bool {
        matches!(self.kind, Kind::Weir(..))
    }
    /// Weir's default pipeline.
    pub fn is_weir_default(&self) -> bool {
        self.id == "weir"
    }
    /// Weir with `--fast-math` (never an ablation variant: run when named).
    pub fn is_fast_math(&self) -> bool {
        matches!(self.kind, Kind::Weir(_, _, true))
    }
    /// A peer: not Weir.
    pub fn is_peer(&self) -> bool {
        !self.is_weir()
    }
    /// Why a workload does not run this implementation, from the workload's
    /// `skip` table: its own entry, else (for `eigen-v3`, the same programs
    /// as `eigen` built for another `-march`) the entry of `eigen`.
    pub fn skip_reason<'a>(&self, skip: &'a BTreeMap<String, String>) -> Option<&'a str> {
        skip.get(&self.id)
            .or_else(|| match self.kind {
                Kind::Eigen(_) => skip.get("eigen"),
                _ => None,
            })
            .map(String::as_str)
    }
}

/// The `-march` of `eigen-v3`: AVX2 and FMA without AVX-512. On an AVX-512
/// CPU Eigen's AVX2 code can be faster than its AVX-512 code (`eigen`,
/// `-march=native`), so the suite reports both.
pub const EIGEN_V3_MARCH: &str = "x86-64-v3";

/// All implementations in report order: Weir (default), its variants (if
/// wanted), hand-written C, C++, Eigen (`-march=native`, then
/// `-march=x86-64-v3`), NumPy, JAX, Numba.
pub fn all(with_variants: bool) -> Vec<Impl> {
    let mut v = vec![Impl {
        id: "weir".into(),
        label: "Weir (DFBs)".into(),
        kind: Kind::Weir(
            weir_driver::native::default_variant(),
            weir_opt::Views::Heuristic,
            false,
        ),
    }];
    if with_variants {
        for var in weir_driver::native::VARIANTS {
            if var.name == weir_driver::native::default_variant().name {
                continue;
            }
            v.push(Impl {
                id: format!("weir-{}", var.name),
                label: format!("Weir {}", var.name),
                kind: Kind::Weir(*var, weir_opt::Views::Heuristic, false),
            });
        }
        // the views comparison of dps-views ch. 7 (none: F-tilde without
        // views; all: every transpose/reverse a view)
        for (id, label, views) in [
            (
                "weir-views-none",
                "Weir --views=none",
                weir_opt::Views::None,
            ),
            ("weir-views-all", "Weir --views=all", weir_opt::Views::All),
        ] {
            v.push(Impl {
                id: id.into(),
                label: label.into(),
                kind: Kind::Weir(weir_driver::native::default_variant(), views, false),
            });
        }
    }
    // Floating point reassociated and contracted (`--fast-math`): only when
    // asked for by name (`--impls weir,weir-fast-math,...`).
    v.push(Impl {
        id: "weir-fast-math".into(),
        label: "Weir --fast-math".into(),
        kind: Kind::Weir(
            weir_driver::native::default_variant(),
            weir_opt::Views::Heuristic,
            true,
        ),
    });
    for (id, label, kind) in [
        ("c", "hand-written C", Kind::C),
        ("cpp", "C++ (std::vector)", Kind::Cpp),
        ("eigen", "C++ Eigen", Kind::Eigen("native")),
        (
            "eigen-v3",
            "C++ Eigen, -march=x86-64-v3",
            Kind::Eigen(EIGEN_V3_MARCH),
        ),
        ("numpy", "NumPy", Kind::Python("numpy")),
        ("jax", "JAX (jit)", Kind::Python("jax")),
        ("numba", "Numba (njit)", Kind::Python("numba")),
    ] {
        v.push(Impl {
            id: id.into(),
            label: label.into(),
            kind,
        });
    }
    v
}

/// A built implementation: the program and the arguments before the protocol's.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// The tools found on this machine.
#[derive(Debug, Clone, Serialize)]
pub struct Toolchain {
    pub cc: Option<String>,
    pub cxx: Option<String>,
    pub eigen: Option<String>,
    pub python: Option<String>,
    /// Per Python peer: its version, or why it cannot run.
    pub python_peers: Vec<(String, Result<String, String>)>,
    pub versions: Vec<(String, String)>,
}

fn first_line(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8_lossy(&out.stdout);
    s.lines().next().map(|l| l.trim().to_string())
}

impl Toolchain {
    pub fn discover(root: &Path) -> Toolchain {
        let cc = std::env::var("CC").ok().unwrap_or_else(|| "cc".into());
        let cxx = std::env::var("CXX").ok().unwrap_or_else(|| "c++".into());
        let mut versions = Vec::new();
        let cc_v = first_line(&cc, &["--version"]);
        let cxx_v = first_line(&cxx, &["--version"]);
        if let Some(v) = &cc_v {
            versions.push(("cc".to_string(), v.clone()));
        }
        if let Some(v) = &cxx_v {
            versions.push(("c++".to_string(), v.clone()));
        }
        let eigen_dir = ["/usr/include/eigen3", "/usr/local/include/eigen3"]
            .into_iter()
            .find(|d| Path::new(d).join("Eigen/Dense").exists())
            .map(str::to_string);
        if let Some(d) = &eigen_dir
            && let Ok(text) =
                std::fs::read_to_string(Path::new(d).join("Eigen/src/Core/util/Macros.h"))
        {
            let num = |key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(&format!("#define {key} ")))
                    .map(|s| s.trim().to_string())
                    .unwrap_or_default()
            };
            versions.push((
                "eigen".into(),
                format!(
                    "{}.{}.{}",
                    num("EIGEN_WORLD_VERSION"),
                    num("EIGEN_MAJOR_VERSION"),
                    num("EIGEN_MINOR_VERSION")
                ),
            ));
        }
        let python = std::env::var("WEIR_BENCH_PYTHON")
            .ok()
            .map(PathBuf::from)
            .or_else(|| {
                let p = root.join("bench/.venv/bin/python");
                p.exists().then_some(p)
            });
        let mut python_peers = Vec::new();
        if let Some(py) = &python {
            for (peer, module) in [("numpy", "numpy"), ("jax", "jax"), ("numba", "numba")] {
                let r = Command::new(py)
                    .args([
                        "-c",
                        &format!("import {module}; print({module}.__version__)"),
                    ])
                    .env("JAX_PLATFORMS", "cpu")
                    .output();
                let res = match r {
                    Ok(o) if o.status.success() => {
                        let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
                        versions.push((peer.to_string(), v.clone()));
                        Ok(v)
                    }
                    Ok(o) => Err(format!(
                        "`import {module}` failed: {}",
                        String::from_utf8_lossy(&o.stderr)
                            .lines()
                            .last()
                            .unwrap_or("")
                    )),
                    Err(e) => Err(format!("cannot run {}: {e}", py.display())),
                };
                python_peers.push((peer.to_string(), res));
            }
        }
        Toolchain {
            cc: cc_v.map(|_| cc),
            cxx: cxx_v.map(|_| cxx),
            eigen: eigen_dir,
            python: python.map(|p| p.display().to_string()),
            python_peers,
            versions,
        }
    }
}

/// Flags of the C and C++ baselines.
pub fn c_flags() -> Vec<&'static str> {
    vec!["-O3", "-march=native", "-std=c11"]
}
pub fn cxx_flags() -> Vec<&'static str> {
    vec!["-O3", "-march=native", "-std=c++17"]
}
/// Flags of an Eigen build for `-march=MARCH` (Eigen's include directory
/// comes after them).
pub fn eigen_flags(march: &str) -> Vec<String> {
    vec![
        "-O3".into(),
        format!("-march={march}"),
        "-std=c++17".into(),
        "-DNDEBUG".into(),
    ]
}

/// The compile command of a C or C++ peer (`c`, `cpp`, `eigen`,
/// `eigen-v3`) for one kernel, as [`compile`] runs it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileCommand {
    pub compiler: String,
    pub flags: Vec<String>,
    pub src: PathBuf,
    pub libs: Vec<String>,
    /// The program: bench/build/bin/ID/KERNEL, a directory per
    /// implementation, so that builds with other flags never collide.
    pub out: PathBuf,
}

/// How [`build`] compiles a C or C++ peer's kernel, without running
/// anything (Eigen's directory is the one the toolchain found). `Err` says
/// why it cannot be built: no compiler, no Eigen, no source file, or an
/// implementation that is not compiled this way.
pub fn compile_command(
    root: &Path,
    tools: &Toolchain,
    imp: &Impl,
    kernel: &str,
) -> Result<CompileCommand, String> {
    let strings = |v: Vec<&str>| v.into_iter().map(str::to_string).collect::<Vec<_>>();
    let (compiler, src, flags) = match imp.kind {
        Kind::C => {
            let cc = tools.cc.as_deref().ok_or("no C compiler (set $CC)")?;
            (
                cc,
                format!("bench/handwritten/{kernel}.c"),
                strings(c_flags()),
            )
        }
        Kind::Cpp => {
            let cxx = tools.cxx.as_deref().ok_or("no C++ compiler (set $CXX)")?;
            (cxx, format!("bench/cpp/{kernel}.cpp"), strings(cxx_flags()))
        }
        Kind::Eigen(march) => {
            let cxx = tools.cxx.as_deref().ok_or("no C++ compiler (set $CXX)")?;
            let e = tools.eigen.as_deref().ok_or(
                "Eigen 3 is not installed (scripts/install-bench-peers.sh installs libeigen3-dev)",
            )?;
            let mut flags = eigen_flags(march);
            flags.push(format!("-I{e}"));
            (cxx, format!("bench/eigen/{kernel}.cpp"), flags)
        }
        Kind::Weir(..) | Kind::Python(_) => {
            return Err(format!("{} is not compiled from C or C++", imp.id));
        }
    };
    let src = root.join(src);
    if !src.exists() {
        return Err(format!("no {}", src.display()));
    }
    Ok(CompileCommand {
        compiler: compiler.to_string(),
        flags,
        src,
        libs: vec!["-lm".into()],
        out: root.join(format!("bench/build/bin/{}/{kernel}", imp.id)),
    })
}

/// bench/handwritten/harness.h, for the C peers of a user's suite (which may
/// live outside the repository).
pub const HARNESS_H: &str = include_str!("../../../bench/handwritten/harness.h");

/// A workload name as a file name: anything but letters, digits, `-`, `_`
/// and `.` becomes `_`.
pub fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Build the hand-written C peer of a user's workload: `src` against the
/// embedded harness.h (written to BUILD/include-HASH/, first on the include
/// path after the source's own folder), into BUILD/bin/c/NAME.
pub fn build_user_c(
    tools: &Toolchain,
    src: &Path,
    build: &Path,
    name: &str,
) -> Result<Launch, String> {
    let cc = tools.cc.as_deref().ok_or("no C compiler (set $CC)")?;
    if !src.is_file() {
        return Err(format!("no {}", src.display()));
    }
    let mut h = FNV_START;
    fnv(&mut h, HARNESS_H.as_bytes());
    let inc = build.join(format!("include-{h:016x}"));
    let header = inc.join("harness.h");
    if !header.exists() {
        std::fs::create_dir_all(&inc)
            .and_then(|_| std::fs::write(&header, HARNESS_H))
            .map_err(|e| format!("cannot write {}: {e}", header.display()))?;
    }
    let include = format!("-I{}", inc.display());
    let mut flags = c_flags();
    flags.push(&include);
    let out = build.join("bin/c").join(file_name(name));
    compile(cc, &flags, src, &["-lm"], &out)?;
    Ok(Launch {
        program: out,
        args: vec![],
    })
}

/// FNV-1a, for the content-hash caches (builds here, inputs in the runner).
pub(crate) const FNV_START: u64 = 0xcbf29ce484222325;
pub(crate) fn fnv(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= u64::from(*b);
        *h = h.wrapping_mul(0x100000001b3);
    }
}

/// Compile one C/C++ file (cached by the hash of the command, the source and
/// the headers beside it).
pub fn compile(
    compiler: &str,
    flags: &[&str],
    src: &Path,
    libs: &[&str],
    out: &Path,
) -> Result<(), String> {
    let mut h = FNV_START;
    fnv(&mut h, compiler.as_bytes());
    for f in flags.iter().chain(libs) {
        fnv(&mut h, f.as_bytes());
    }
    let text = std::fs::read(src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    fnv(&mut h, &text);
    if let Some(dir) = src.parent()
        && let Ok(rd) = std::fs::read_dir(dir)
    {
        let mut headers: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("h" | "hpp")))
            .collect();
        headers.sort();
        for p in headers {
            fnv(&mut h, &std::fs::read(&p).unwrap_or_default());
        }
    }
    let stamp = out.with_extension("hash");
    let key = format!("{h:016x}");
    if out.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(key.as_str()) {
        return Ok(());
    }
    if let Some(d) = out.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let o = Command::new(compiler)
        .args(flags)
        .arg("-o")
        .arg(out)
        .arg(src)
        .args(libs)
        .output()
        .map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let head: Vec<&str> = err.lines().take(12).collect();
        return Err(format!(
            "{compiler} failed on {}:\n{}",
            src.display(),
            head.join("\n")
        ));
    }
    std::fs::write(&stamp, key).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(())
}

/// Build (or find) an implementation of a workload's kernel. `Err` says why it
/// cannot run (missing peer, missing file, compiler error).
pub fn build(
    root: &Path,
    tools: &Toolchain,
    imp: &Impl,
    kernel: &str,
    weir: (&str, &str),
) -> Result<Launch, String> {
    match imp.kind {
        Kind::Weir(variant, views, fast_math) => {
            let file = root.join(weir.0);
            let c = weir_driver::pipeline::compile_file_views(&file, views)
                .map_err(|e| e.render(false))?;
            if c.program.find(weir.1).is_none() {
                return Err(format!("{} has no entry `{}`", file.display(), weir.1));
            }
            let opts = BuildOptions {
                variant,
                fast_math,
                ..BuildOptions::default()
            };
            let src = weir_driver::native::c_source(&c, &opts, true).map_err(|e| e.to_string())?;
            let exe = weir_driver::native::build_c(&src, &opts).map_err(|e| {
                let e = e.to_string();
                if variant.name == "CG" && e.contains("gc.h") {
                    format!(
                        "libgc-dev (Boehm GC) is not installed: scripts/install-c-tools.sh installs it\n{e}"
                    )
                } else {
                    e
                }
            })?;
            Ok(Launch {
                program: exe,
                // Weir's binary format, which the peers read too.
                args: vec!["-e".into(), weir.1.into(), "--raw".into()],
            })
        }
        Kind::C | Kind::Cpp | Kind::Eigen(_) => {
            let cmd = compile_command(root, tools, imp, kernel)?;
            let flags: Vec<&str> = cmd.flags.iter().map(String::as_str).collect();
            let libs: Vec<&str> = cmd.libs.iter().map(String::as_str).collect();
            compile(&cmd.compiler, &flags, &cmd.src, &libs, &cmd.out)?;
            Ok(Launch {
                program: cmd.out,
                args: vec![],
            })
        }
        Kind::Python(peer) => {
            let py = tools.python.as_deref().ok_or(
                "no Python environment for the peers (run scripts/install-bench-peers.sh)",
            )?;
            match tools.python_peers.iter().find(|(p, _)| p == peer) {
                Some((_, Ok(_))) => {}
                Some((_, Err(e))) => return Err(e.clone()),
                None => return Err(format!("{peer} is not installed")),
            }
            let script = root.join("bench/py/run.py");
            let module = root.join(format!("bench/py/kernels/{kernel}.py"));
            if !script.exists() || !module.exists() {
                return Err(format!("no {}", module.display()));
            }
            Ok(Launch {
                program: PathBuf::from(py),
                args: vec![
                    script.display().to_string(),
                    peer.to_string(),
                    kernel.to_string(),
                ],
            })
        }
    }
}
