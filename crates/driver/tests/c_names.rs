//! Issue 46: Weir names never clash with C. Entries, parameters, locals and
//! functions named like every identifier of the runtime (`weir_rt.h`,
//! `weir.h`, the integer helpers its macros make, with and without their
//! `weir_`), of the emitter, and every C keyword and standard macro compile
//! as an executable and as a library (`-Wall -Wextra -Werror`) and run; the
//! C names of Weir names are injective.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use weir_driver::native::{BuildOptions, CTarget, Entries, build_c_in, c_source_for, run_exe};
use weir_driver::pipeline::compile_source;
use weir_interp::value::Value;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("c_names-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn werror() -> BuildOptions {
    BuildOptions {
        cc: Some("gcc".into()),
        opt_flags: vec!["-O0".into()],
        extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
        ..Default::default()
    }
}

/// The identifiers of a C text (not in its comments and string literals).
fn identifiers(text: &str, out: &mut BTreeSet<String>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map_or(b.len(), |k| i + k);
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            i += 1;
            while i < b.len() && b[i] != q && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.insert(text[s..i].to_string());
        } else if b[i].is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
}

const C_WORDS: &[&str] = &[
    // C11/C23 keywords
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "alignas",
    "alignof",
    "bool",
    "constexpr",
    "false",
    "nullptr",
    "static_assert",
    "thread_local",
    "true",
    "typeof",
    "typeof_unqual",
    "asm",
    "__asm__",
    "__attribute__",
    "__typeof__",
    "__restrict",
    "__inline",
    "__extension__",
    "__builtin_expect",
    // standard and common macros and functions
    "NULL",
    "errno",
    "EOF",
    "EDOM",
    "ERANGE",
    "E2BIG",
    "INT8_MAX",
    "INT64_MAX",
    "INT64_MIN",
    "UINT64_MAX",
    "INT32_MAX",
    "SIZE_MAX",
    "INT64_C",
    "UINT64_C",
    "INT32_C",
    "PRId64",
    "PRIu64",
    "SCNd64",
    "M_PI",
    "M_PI_2",
    "M_PI_4",
    "M_1_PI",
    "M_SQRT1_2",
    "M_E",
    "M_LN2",
    "HUGE_VAL",
    "INFINITY",
    "NAN",
    "FP_NAN",
    "RAND_MAX",
    "BUFSIZ",
    "FILENAME_MAX",
    "EXIT_FAILURE",
    "EXIT_SUCCESS",
    "CHAR_BIT",
    "MAP_FAILED",
    "CLOCK_MONOTONIC",
    "assert",
    "stdin",
    "stdout",
    "stderr",
    "offsetof",
    "va_arg",
    "va_list",
    "isnan",
    "isinf",
    "signbit",
    "alloca",
    "memcpy",
    "memset",
    "malloc",
    "calloc",
    "free",
    "realloc",
    "abort",
    "exit",
    "printf",
    "fprintf",
    "snprintf",
    "strlen",
    "strcmp",
    "fabs",
    "sqrt",
    "exp",
    "log",
    "pow",
    "floor",
    "ceil",
    "main",
    "argc",
    "argv",
    "ctx",
    "io",
    "rc",
    "d",
    "dz",
    "live",
    "report",
    "count",
    "out0",
    "out0_d0",
    "ret0",
    "want0",
    "sc",
    "missing",
    "shape_rc",
    "shape_err",
    "entry",
    "runs",
    "warmup",
    "x'",
    "x_q",
    "xZq",
    "ZZ",
    "Z",
    "Zv",
    "Zq",
    "x_1",
    "x_1_d0",
    "linux",
    "unix",
    "i386",
    "major",
    "minor",
    "st_atime",
    "__FILE__",
    "__LINE__",
    "__func__",
    "_start",
    "a_shape",
    "a",
    "weirf_e_a",
    "weirf_f_a",
    "weiri_min_i32",
    "weirP_a",
];

/// Every name the test tries.
fn candidates() -> BTreeSet<String> {
    let rt = include_str!("../../cgen/runtime/weir_rt.h");
    let api = include_str!("../../cgen/runtime/weir.h");
    let emit = include_str!("../../cgen/src/emit.rs");
    let mut ids = BTreeSet::new();
    identifiers(rt, &mut ids);
    identifiers(api, &mut ids);
    // the emitter's own names (in its string literals)
    let mut em = BTreeSet::new();
    for lit in emit.split('"').skip(1).step_by(2) {
        identifiers(&lit.replace("{", " ").replace("}", " "), &mut em);
    }
    ids.extend(
        em.into_iter()
            .filter(|w| w.starts_with("weir") || w.starts_with("WEIR")),
    );
    // the integer helpers the runtime's macros make: `weir_NAME_##S` for
    // each type suffix S the macros are applied to
    let sfx: Vec<&str> = rt
        .lines()
        .filter(|l| l.starts_with("WEIR_INT_") && l.contains('('))
        .filter_map(|l| {
            let args: Vec<&str> = l.split(['(', ')', ',']).map(str::trim).collect();
            args.iter().rev().nth(2).copied()
        })
        .collect();
    assert!(sfx.contains(&"i32") && sfx.contains(&"u8"), "{sfx:?}");
    let mut made = Vec::new();
    for w in &ids {
        if w.ends_with('_') && w.starts_with("weir_") {
            for s in &sfx {
                made.push(format!("{w}{s}"));
            }
        }
    }
    assert!(made.iter().any(|m| m == "weir_min_i32"), "macro helpers");
    ids.extend(made);
    // with their `weir_` taken off (`weir_min_i32` was the C name of `min_i32`)
    let bare: Vec<String> = ids
        .iter()
        .filter_map(|w| w.strip_prefix("weir_").map(str::to_string))
        .collect();
    ids.extend(bare);
    ids.extend(C_WORDS.iter().map(|s| s.to_string()));
    ids.into_iter()
        .filter(|w| {
            let ok_start = w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            ok_start
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
                && !w.ends_with('_')
        })
        .collect()
}

/// An entry of that name, with a parameter and a local of that name.
fn entry_of(n: &str, k: usize) -> String {
    format!("entry {n} ({n}: i64) : i64 = let {n} = {n} * 2 in {n} + {k}\n")
}

/// A non-entry function (a member of module `m`) of that name, with an
/// array parameter and a local of that name.
fn def_of(n: &str, k: usize) -> String {
    format!("def {n} ({n}: []i64) : i64 = let {n} = reduce (+) 0 {n} in {n} * {k}\n")
}

/// The names Weir itself accepts for an entry, a parameter, a local and a
/// function (not its keywords, builtins or types).
fn accepted(names: &BTreeSet<String>) -> Vec<String> {
    names
        .iter()
        .filter(|n| n.as_str() != "xs" && n.as_str() != "m")
        .filter(|n| {
            compile_source("probe.weir", &entry_of(n, 0)).is_ok()
                && compile_source("probe.weir", &def_of(n, 1)).is_ok()
        })
        .cloned()
        .collect()
}

#[test]
fn every_runtime_and_c_name_compiles_and_runs() {
    let t0 = std::time::Instant::now();
    let names = accepted(&candidates());
    assert!(names.len() > 300, "{} names", names.len());
    for must in [
        "min_i32",
        "weir_min_i32",
        "double",
        "int",
        "errno",
        "memcpy",
        "INT64_MAX",
        "restrict",
        "inline",
        "M_PI_2",
        "ctx_new",
        "x'",
    ] {
        assert!(names.iter().any(|n| n == must), "{must} not tried");
    }
    let dir = scratch("all");
    // (the functions of module `m` called by entries `e_J`, 40 a piece)
    let mut src = String::from("module m = import \"m\"\n");
    let mut module = String::new();
    let groups: Vec<&[String]> = names.chunks(40).collect();
    for (k, n) in names.iter().enumerate() {
        src.push_str(&entry_of(n, k));
        module.push_str(&def_of(n, k));
    }
    for (j, g) in groups.iter().enumerate() {
        let calls: Vec<String> = g.iter().map(|n| format!("m.{n} xs")).collect();
        src.push_str(&format!(
            "entry e_{j}_ (xs: []i64) : i64 = {}\n",
            calls.join(" + ")
        ));
    }
    std::fs::write(dir.join("m.weir"), module).expect("m.weir");
    let main = dir.join("names.weir");
    let c = compile_source(&main.display().to_string(), &src)
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    eprintln!("{} names, front end {:?}", names.len(), t0.elapsed());
    let opts = werror();

    // The executable: every entry runs (one C compile).
    let exe_src = c_source_for(&c, &opts, CTarget::Executable, Entries::All)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(exe_src.left_out.is_empty(), "{:?}", exe_src.left_out);
    let exe = build_c_in(&dir, &exe_src.text, &opts).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("executable built {:?}", t0.elapsed());
    for (k, n) in names.iter().enumerate() {
        let d = c.program.find(n).expect("entry");
        let (v, _) =
            run_exe(&exe, d, &[Value::I64(10)], 1, &[]).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_eq!(v, Value::I64(20 + k as i64), "{n}");
    }
    let xs = Value::Array(std::rc::Rc::new(vec![Value::I64(1), Value::I64(2)]));
    let mut k0 = 0;
    for (j, g) in groups.iter().enumerate() {
        let f = format!("e_{j}_");
        let d = c.program.find(&f).expect("entry");
        let (v, _) = run_exe(&exe, d, std::slice::from_ref(&xs), 1, &[])
            .unwrap_or_else(|e| panic!("{f}: {e}"));
        let want: i64 = (k0..k0 + g.len()).map(|k| 3 * k as i64).sum();
        assert_eq!(v, Value::I64(want), "{f}: {g:?}");
        k0 += g.len();
    }
    eprintln!("executable ran {:?}", t0.elapsed());

    // The library: every entry is exported as t_NAME and callable from C.
    let lib = weir_driver::library::build_library(&c, "t", &opts, &dir.join("lib"))
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = lib;
    let out = c_source_for(&c, &opts, CTarget::Library("t"), Entries::Compilable)
        .unwrap_or_else(|e| panic!("{e}"));
    // (refused, located: the entries whose `t_NAME` another's is, as `x_q`
    // is `x'`'s and `a_shape` is `a`'s shape function)
    for (f, m) in &out.left_out {
        assert!(
            m.contains("E0801") && m.contains("also a C name"),
            "{f}: {m}"
        );
    }
    let left: Vec<&str> = out.left_out.iter().map(|(f, _)| f.as_str()).collect();
    assert!(
        left.contains(&"x_q") && left.contains(&"a_shape"),
        "{left:?}"
    );
    let mut main = String::from(
        "#include \"t.h\"\n#include <stdio.h>\nint main(void) {\n    weir_ctx *ctx = weir_ctx_new();\n    int64_t r = 0;\n    int bad = 0;\n",
    );
    for (k, n) in names.iter().enumerate() {
        if left.contains(&n.as_str()) {
            continue;
        }
        let e = out
            .abi
            .entries
            .iter()
            .find(|e| &e.name == n)
            .expect("exported");
        main.push_str(&format!(
            "    if ({}(ctx, 10, &r) || r != {}) {{ printf(\"%s\\n\", {:?}); bad = 1; }}\n",
            e.symbol,
            20 + k,
            e.symbol
        ));
    }
    main.push_str("    weir_ctx_free(ctx);\n    return bad;\n}\n");
    let ldir = dir.join("lib");
    std::fs::write(ldir.join("main.c"), main).expect("main.c");
    let st = Command::new("gcc")
        .current_dir(&ldir)
        .args([
            "-std=c11", "-O0", "-Wall", "-Wextra", "-Werror", "main.c", "libt.a", "-lm", "-o",
            "main",
        ])
        .status()
        .expect("gcc");
    assert!(st.success(), "linking the library's caller");
    let st = Command::new(ldir.join("main")).status().expect("run");
    assert!(st.success(), "a library entry failed");
    eprintln!("library ran {:?}", t0.elapsed());

    // `weir c`: the public entry points `weir_NAME` compile, but for those
    // that would be names of the runtime's API (refused, located).
    let prog = c_source_for(&c, &opts, CTarget::Program, Entries::Compilable)
        .unwrap_or_else(|e| panic!("{e}"));
    for (f, m) in &prog.left_out {
        assert!(
            m.contains("E0801") && (m.contains("runtime API") || m.contains("also a C name")),
            "{f}: {m}"
        );
    }
    assert!(prog.left_out.iter().any(|(f, _)| f == "ctx_new"));
    std::fs::write(dir.join("prog.c"), &prog.text).expect("prog.c");
    let st = Command::new("gcc")
        .current_dir(&dir)
        .args([
            "-std=c11",
            "-O0",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fopenmp-simd",
            "-c",
            "prog.c",
            "-o",
            "prog.o",
        ])
        .status()
        .expect("gcc");
    assert!(st.success(), "weir c's output");
    assert!(
        prog.text.contains("int weir_min_i32(weir_ctx *ctx"),
        "public name"
    );
    eprintln!("done {:?}", t0.elapsed());
}

#[test]
fn c_names_are_injective_and_private() {
    use weir_cgen::lower::{c_name, esc, fun_c_name};
    let names = [
        "x", "x'", "x_q", "xZq", "xZ", "xZZ", "Z", "ZZ", "m.f", "m__f", "mZmf", "m_f", "x''",
        "x_q_q", "a.b.c", "a_1", "a_1_d0", "M_PI_2", "int", "weir_x", "b2", "i386", "_x", "__x",
        "x_",
    ];
    let mut seen = std::collections::HashMap::new();
    for n in names {
        for (kind, s) in [
            ("esc", esc(n)),
            ("local", c_name(n)),
            ("fun", fun_c_name(n)),
        ] {
            if let Some(o) = seen.insert((kind, s.clone()), n) {
                panic!("{kind}: {n} and {o} are both {s}");
            }
            assert!(
                s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
                "{s}"
            );
        }
        let l = c_name(n);
        assert!(!l.starts_with("weir"), "{l}");
        assert!(
            l.starts_with("Zv") || (l.starts_with(|c: char| c.is_ascii_lowercase())),
            "{l}"
        );
    }
    assert_eq!(c_name("x_3"), "x_3");
    assert_eq!(c_name("M_PI_2"), "ZvM_PI_2Z");
    assert_eq!(c_name("int"), "ZvintZ");
}
