//! `weir lib`: a program's entries as a C library. Writes, into one folder,
//! `NAME.h` (the documented C API: every entry, its shape function, the
//! runtime's context and error API), `libNAME.a` and `libNAME.so` (the
//! generated code and the runtime object `weir_rt`), `NAME.json` (the ABI
//! model as a manifest, for bindings that read it at run time) and the C
//! sources (`NAME.c`, `weir_rt.c`) for callers who compile them themselves.
//! Everything is generated from one ABI model ([`weir_cgen::abi`]).

use crate::native::{BuildOptions, CTarget, Entries, NativeError, c_source_for, cc_flags, find_cc};
use crate::pipeline::Compiled;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What [`build_library`] wrote.
#[derive(Clone, Debug)]
pub struct Library {
    pub header: PathBuf,
    pub manifest: PathBuf,
    pub static_lib: PathBuf,
    pub shared_lib: PathBuf,
    pub c_source: PathBuf,
    pub abi: weir_cgen::abi::Abi,
    /// Entry points the C backend could not compile (rendered errors).
    pub left_out: Vec<(String, String)>,
}

/// The default library name of a source file: its stem as a C identifier.
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

fn write(path: &Path, text: &str) -> Result<(), NativeError> {
    std::fs::write(path, text)
        .map_err(|e| NativeError::Io(format!("cannot write {}: {e}", path.display())))
}

fn run(cmd: &mut Command, what: &str) -> Result<(), NativeError> {
    let out = cmd
        .output()
        .map_err(|e| NativeError::Compiler(format!("cannot run {what}: {e}")))?;
    if !out.status.success() {
        return Err(NativeError::Compiler(format!(
            "{what} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}

/// Build the library `name` of the compiled program into `dir` (created).
pub fn build_library(
    c: &Compiled,
    name: &str,
    opts: &BuildOptions,
    dir: &Path,
) -> Result<Library, NativeError> {
    weir_cgen::abi::check_prefix(name).map_err(NativeError::Io)?;
    let src = c_source_for(c, opts, CTarget::Library(name), Entries::Compilable)?;
    if src.abi.entries.is_empty() {
        return Err(NativeError::Io(
            "the program has no entry point to export: mark the functions a caller may call with `entry`".into(),
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| NativeError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let header = dir.join(format!("{name}.h"));
    let manifest = dir.join(format!("{name}.json"));
    let c_source = dir.join(format!("{name}.c"));
    let rt_source = dir.join("weir_rt.c");
    write(
        &header,
        &weir_cgen::abi::header(&src.abi, weir_cgen::emit::WEIR_H),
    )?;
    write(&manifest, &weir_cgen::abi::manifest(&src.abi))?;
    let cc = find_cc(opts)?;
    let mut flags = cc_flags(opts);
    flags.extend(["-fPIC".to_string(), "-fvisibility=hidden".to_string()]);
    // The flags the sources need, for callers who compile them themselves
    // (`-fopenmp-simd`: the vectorisation pragmas; `-ffp-contract=off`: results
    // bit-identical with the interpreter).
    let how = format!(
        "/* Compiled by `weir lib` with: {cc} {} -c. Compile it with the same flags\n   (at least -std=c11 -fopenmp-simd -ffp-contract=off) and link with weir_rt.c's object. */\n",
        flags.join(" ")
    );
    write(&c_source, &format!("{how}{}", src.text))?;
    write(
        &rt_source,
        &format!("{how}{}", weir_cgen::runtime_object_source()),
    )?;
    // Objects under names of this library's own: two libraries built into one
    // folder do not share intermediate files.
    let obj = dir.join(format!("{name}.o"));
    let rt_obj = dir.join(format!("{name}.weir_rt.o"));
    for (c_file, o) in [(&c_source, &obj), (&rt_source, &rt_obj)] {
        run(
            Command::new(&cc)
                .args(&flags)
                .arg("-c")
                .arg(c_file)
                .arg("-o")
                .arg(o),
            &format!("`{cc}` on {}", c_file.display()),
        )?;
    }
    let static_lib = dir.join(format!("lib{name}.a"));
    let _ = std::fs::remove_file(&static_lib);
    let ar = std::env::var("AR")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "ar".into());
    run(
        Command::new(&ar)
            .arg("rcs")
            .arg(&static_lib)
            .arg(&obj)
            .arg(&rt_obj),
        &format!("`{ar}`"),
    )?;
    let shared_lib = dir.join(format!("lib{name}.so"));
    let mut link = Command::new(&cc);
    link.arg("-shared")
        .arg("-o")
        .arg(&shared_lib)
        .arg(&obj)
        .arg(&rt_obj);
    if opts.variant.mem == weir_cgen::MemMode::Gc {
        link.arg("-lgc");
    }
    link.arg("-lm");
    run(&mut link, &format!("`{cc}` -shared"))?;
    let _ = std::fs::remove_file(&obj);
    let _ = std::fs::remove_file(&rt_obj);
    Ok(Library {
        header,
        manifest,
        static_lib,
        shared_lib,
        c_source,
        abi: src.abi,
        left_out: src.left_out,
    })
}
