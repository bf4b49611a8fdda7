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

/// `weir lib --march CPU`: the target of the optimisation flags of `opts`
/// (replacing any `-march=`): `native` (this machine's CPU: the default of
/// [`BuildOptions`]), `portable` (no `-march`: the C compiler's default
/// target, every CPU of the architecture), or a value of the C compiler's
/// `-march=` (`x86-64-v2`, `x86-64-v3`, `armv8.2-a`, ...).
pub fn set_march(opts: &mut BuildOptions, march: &str) -> Result<(), String> {
    let ok = !march.is_empty()
        && !march.starts_with('-')
        && march
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'));
    if !ok {
        return Err(format!(
            "--march `{march}` is not a CPU name: use `native`, `portable`, or a value of the C compiler's -march= such as x86-64-v2 or x86-64-v3"
        ));
    }
    opts.opt_flags.retain(|f| !f.starts_with("-march="));
    if march != "portable" {
        opts.opt_flags.push(format!("-march={march}"));
    }
    Ok(())
}

/// The CPUs code compiled with the C compiler's flags `cflags` runs on, as
/// `weir lib --march` names them: the value of the last `-march=`, else
/// `portable`.
pub fn march_of(cflags: &[String]) -> String {
    cflags
        .iter()
        .rev()
        .find_map(|f| f.strip_prefix("-march="))
        .unwrap_or("portable")
        .to_string()
}

/// A JSON string literal.
fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The manifest with how the library was compiled in front: `"march"`
/// (see [`march_of`]) and `"cflags"` (the C compiler's flags).
fn with_build_info(manifest: &str, march: &str, cflags: &[String]) -> String {
    let flags: Vec<String> = cflags.iter().map(|f| json_str(f.as_str())).collect();
    let info = format!(
        "  \"march\": {},\n  \"cflags\": [{}],\n",
        json_str(march),
        flags.join(", ")
    );
    match manifest.strip_prefix("{\n") {
        Some(rest) => format!("{{\n{info}{rest}"),
        None => manifest.to_string(),
    }
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
    let cc = find_cc(opts)?;
    let mut flags = cc_flags(opts);
    flags.extend(["-fPIC".to_string(), "-fvisibility=hidden".to_string()]);
    let march = march_of(&flags);
    write(
        &manifest,
        &with_build_info(&weir_cgen::abi::manifest(&src.abi), &march, &flags),
    )?;
    // The flags the sources need, for callers who compile them themselves
    // (`-fopenmp-simd`: the vectorisation pragmas; `-ffp-contract=off`: results
    // bit-identical with the interpreter); `-march`: the CPUs it runs on.
    let how = format!(
        "/* Compiled by `weir lib --march {march}` with: {cc} {} -c. Compile it with the same flags\n   (at least -std=c11 -fopenmp-simd -ffp-contract=off; -march=native only for this machine) and link with weir_rt.c's object. */\n",
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
