//! Issue 19, values at the boundary: a `weir build` executable reads its
//! inputs and writes its results as NumPy's `.npy` (positional files, scalar
//! literals, `-`, a stream of concatenated arrays), one `.npy` per `-o`, all
//! results in one `.npz`, or JSON text lines (`--text`); bad inputs (wrong
//! dtype or rank, truncated, Fortran order, hostile shapes and headers) are
//! clean errors with exit status 2 naming the parameter. Each check runs on
//! gcc `-Wall -Wextra -Werror`, clang where installed, and gcc under
//! AddressSanitizer + UBSan. The inputs are written by hand here, the
//! results read back with the interpreter's `.npy` reader (npyz) and
//! compared with what the interpreter computes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use weir_driver::native::{BuildOptions, build_c_in, c_source};
use weir_driver::pipeline::{Compiled, run_entry_optimized};
use weir_interp::Value;
use weir_ir::Type;

const PROG: &str = "\
entry fstats [n][m] (a: [n][m]f64) (flags: [n]bool) (s: f64) : ([n]f64, [n]bool, f64) =
  let sums = map (\\r -> s * reduce (+) 0.0 r) a
  in (sums, map2 (\\x f -> f && x > 0.0) sums flags, reduce (+) 0.0 sums)
entry mixed [n] (x: [n]f32) (y: [n]i32) (k: i64) (b: bool) : ([n]f32, i64, [n]i32) =
  (map (\\v -> v * 2.0f32) x, if b then k + n else k - n, map (\\v -> v + 1i32) y)
entry ints [n] (a: [n]u8) (b: [n]i8) (c: [n]i16) (d: [n]u16) (e: [n]u32) (f: [n]u64) (k: u64) (s: i8)
    : ([n]u8, [n]i8, [n]i16, [n]u16, [n]u32, [n]u64, u64, i8) =
  (map (\\x -> x + 1) a, map (\\x -> -x) b, map (\\x -> x * 2) c, map (\\x -> !x) d,
   map (\\x -> x >> 1) e, map (\\x -> x ^ k) f, k + 1, s - 1)
";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "npy_io-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn werror(cc: &str) -> BuildOptions {
    BuildOptions {
        cc: Some(cc.into()),
        opt_flags: vec!["-O2".into()],
        extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
        ..Default::default()
    }
}

fn sanitized() -> BuildOptions {
    let mut o = werror("gcc");
    o.opt_flags = vec!["-O1".into(), "-g".into()];
    o.extra_flags.extend(
        [
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    o
}

fn build(opts: &BuildOptions, dir: &Path) -> (Compiled, PathBuf) {
    let path = dir.join("prog.weir");
    std::fs::write(&path, PROG).expect("write the program");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let src = c_source(&c, opts, true).unwrap_or_else(|e| panic!("{e}"));
    let exe = build_c_in(dir, &src, opts).unwrap_or_else(|e| panic!("{e}"));
    (c, exe)
}

/// An `.npy` file (format 1.0) written by hand: `shape` as Python writes it.
fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
    let f = if fortran { "True" } else { "False" };
    npy_dict(
        &format!("{{'descr': '{descr}', 'fortran_order': {f}, 'shape': {shape}, }}"),
        data,
    )
}

/// An `.npy` file of a header dict given as text.
fn npy_dict(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut h = dict.to_string();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((h.len() as u16).to_le_bytes());
    out.extend(h.as_bytes());
    out.extend(data);
    out
}

fn f64s(xs: &[f64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The inputs of `fstats`, as `.npy` files, and as values for the interpreter.
fn fstats_inputs() -> (Vec<Vec<u8>>, Vec<Value>) {
    let a = [[1.0, 2.0, 3.0], [4.0, 5.0, -60.5]];
    let flags = [true, false];
    let s = 0.1;
    let files = vec![
        npy("<f8", false, "(2, 3)", &f64s(&a.concat())),
        npy("|b1", false, "(2,)", &[1, 0]),
        npy("<f8", false, "()", &f64s(&[s])),
    ];
    let row = |r: &[f64; 3]| Value::array(r.iter().map(|&x| Value::F64(x)).collect());
    let vals = vec![
        Value::array(a.iter().map(row).collect()),
        Value::array(flags.iter().map(|&b| Value::Bool(b)).collect()),
        Value::F64(s),
    ];
    (files, vals)
}

fn mixed_inputs() -> (Vec<Vec<u8>>, Vec<Value>) {
    let x = [1.5f32, -0.25, 3.0];
    let y = [7i32, -8, 2_000_000_000];
    let files = vec![
        npy(
            "<f4",
            false,
            "(3,)",
            &x.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
        ),
        npy(
            "<i4",
            false,
            "(3,)",
            &y.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
        ),
        npy("<i8", false, "()", &40i64.to_le_bytes()),
        npy("|b1", false, "()", &[1]),
    ];
    let vals = vec![
        Value::array(x.iter().map(|&v| Value::F32(v)).collect()),
        Value::array(y.iter().map(|&v| Value::I32(v)).collect()),
        Value::I64(40),
        Value::Bool(true),
    ];
    (files, vals)
}

/// The inputs of `ints`: every integer dtype, at its extremes.
fn ints_inputs() -> (Vec<Vec<u8>>, Vec<Value>) {
    let a = [0u8, 255, 7];
    let b = [-128i8, 127, -1];
    let c = [i16::MIN, i16::MAX, 300];
    let d = [0u16, 65535, 0x1234];
    let e = [u32::MAX, 1, 0x8000_0000];
    let f = [u64::MAX, 0, 1 << 63];
    let bytes = |v: Vec<Vec<u8>>| v.concat();
    let files = vec![
        npy("|u1", false, "(3,)", &a),
        npy(
            "|i1",
            false,
            "(3,)",
            &bytes(b.iter().map(|x| x.to_le_bytes().to_vec()).collect()),
        ),
        npy(
            "<i2",
            false,
            "(3,)",
            &bytes(c.iter().map(|x| x.to_le_bytes().to_vec()).collect()),
        ),
        npy(
            "<u2",
            false,
            "(3,)",
            &bytes(d.iter().map(|x| x.to_le_bytes().to_vec()).collect()),
        ),
        npy(
            "<u4",
            false,
            "(3,)",
            &bytes(e.iter().map(|x| x.to_le_bytes().to_vec()).collect()),
        ),
        npy(
            "<u8",
            false,
            "(3,)",
            &bytes(f.iter().map(|x| x.to_le_bytes().to_vec()).collect()),
        ),
        npy("<u8", false, "()", &u64::MAX.to_le_bytes()),
        npy("|i1", false, "()", &(-128i8).to_le_bytes()),
    ];
    let vals = vec![
        Value::array(a.iter().map(|&x| Value::U8(x)).collect()),
        Value::array(b.iter().map(|&x| Value::I8(x)).collect()),
        Value::array(c.iter().map(|&x| Value::I16(x)).collect()),
        Value::array(d.iter().map(|&x| Value::U16(x)).collect()),
        Value::array(e.iter().map(|&x| Value::U32(x)).collect()),
        Value::array(f.iter().map(|&x| Value::U64(x)).collect()),
        Value::U64(u64::MAX),
        Value::I8(-128),
    ];
    (files, vals)
}

/// The leaf results (in source order) with their types.
fn expected(c: &Compiled, entry: &str, args: Vec<Value>) -> Vec<(Value, Type)> {
    let v = run_entry_optimized(c, entry, args).unwrap_or_else(|e| panic!("{}", e.message));
    let def = c.program.find(entry).expect("the entry");
    match (&v, &def.ret) {
        (Value::Tuple(xs), Type::Tuple(ts)) => xs.iter().cloned().zip(ts.iter().cloned()).collect(),
        _ => vec![(v.clone(), def.ret.clone())],
    }
}

struct Out {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

fn run(exe: &Path, wrapper: &[&str], args: &[&str], stdin: &[u8]) -> Out {
    let mut cmd = match wrapper.split_first() {
        Some((w, rest)) => {
            let mut c = Command::new(w);
            c.args(rest).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    let dir = exe.parent().unwrap_or(Path::new("."));
    let mut child = cmd
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the executable");
    if let Some(mut s) = child.stdin.take() {
        let _ = s.write_all(stdin);
    }
    let o = child.wait_with_output().expect("wait");
    Out {
        code: o.status.code(),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).to_string(),
    }
}

/// Split a stream of concatenated `.npy` arrays.
fn split_stream(mut b: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while !b.is_empty() {
        let h = weir_interp::npy::parse_header(b).unwrap_or_else(|e| panic!("{e}"));
        // (the item size is the descr's number: `<f8`, `|u1`, ...)
        let size: u64 = h.descr[2..].parse().unwrap_or(1);
        let n = h.data_offset + (h.shape.iter().product::<u64>() * size) as usize;
        assert!(n <= b.len(), "a truncated .npy in the output stream");
        out.push(b[..n].to_vec());
        b = &b[n..];
    }
    out
}

fn check_npys(files: &[Vec<u8>], want: &[(Value, Type)], what: &str) {
    assert_eq!(files.len(), want.len(), "{what}: number of results");
    for (k, (f, (v, t))) in files.iter().zip(want).enumerate() {
        let got = weir_interp::npy::read_npy(f, t)
            .unwrap_or_else(|e| panic!("{what}: result {k} is not a valid .npy: {e}"));
        assert_eq!(&got, v, "{what}: result {k}");
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The members of an uncompressed zip, read through its central directory
/// (as `np.load` does), each checked against its local header and CRC.
fn read_zip(z: &[u8]) -> Vec<(String, Vec<u8>)> {
    let eocd = z.len().checked_sub(22).expect("a zip has an end record");
    assert_eq!(u32_at(z, eocd), 0x0605_4b50, "end of central directory");
    let n = u16_at(z, eocd + 10);
    let mut at = u32_at(z, eocd + 16) as usize;
    let mut out = Vec::new();
    for _ in 0..n {
        assert_eq!(u32_at(z, at), 0x0201_4b50, "central directory entry");
        assert_eq!(u16_at(z, at + 10), 0, "stored, not compressed");
        let crc = u32_at(z, at + 16);
        let size = u32_at(z, at + 20) as usize;
        assert_eq!(size, u32_at(z, at + 24) as usize);
        let name_len = u16_at(z, at + 28);
        let extra = u16_at(z, at + 30) + u16_at(z, at + 32);
        let local = u32_at(z, at + 42) as usize;
        let name = String::from_utf8_lossy(&z[at + 46..at + 46 + name_len]).to_string();
        at += 46 + name_len + extra;
        assert_eq!(u32_at(z, local), 0x0403_4b50, "local header of {name}");
        assert_eq!(u32_at(z, local + 14), crc, "local CRC of {name}");
        let start = local + 30 + u16_at(z, local + 26) + u16_at(z, local + 28);
        let data = z[start..start + size].to_vec();
        assert_eq!(crc32(&data), crc, "CRC-32 of {name}");
        out.push((name, data));
    }
    out
}

/// A JSON line of `--text` as (shape, elements as f64; bools as 0/1).
fn parse_json(line: &str) -> (Vec<usize>, Vec<f64>) {
    let mut shape: Vec<usize> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    let mut vals = Vec::new();
    let mut depth = 0usize;
    let toks = line
        .replace('[', " [ ")
        .replace(']', " ] ")
        .replace(',', " ");
    for t in toks.split_whitespace() {
        match t {
            "[" => {
                if counts.len() > depth {
                    counts[depth] += 1;
                }
                depth += 1;
                if counts.len() < depth + 1 {
                    counts.resize(depth + 1, 0);
                }
                counts[depth] = 0;
            }
            "]" => {
                if shape.len() < depth {
                    shape.resize(depth, 0);
                }
                shape[depth - 1] = counts[depth];
                depth -= 1;
            }
            _ => {
                if counts.len() > depth {
                    counts[depth] += 1;
                }
                vals.push(match t {
                    "true" => 1.0,
                    "false" => 0.0,
                    "NaN" => f64::NAN,
                    "Infinity" => f64::INFINITY,
                    "-Infinity" => f64::NEG_INFINITY,
                    _ => t
                        .parse::<f64>()
                        .unwrap_or_else(|_| panic!("`{t}` in `{line}` is not a JSON number")),
                });
            }
        }
    }
    assert_eq!(depth, 0, "unbalanced brackets in `{line}`");
    (shape, vals)
}

fn flat(v: &Value, out: &mut Vec<f64>) {
    match v {
        Value::Array(xs) => xs.iter().for_each(|x| flat(x, out)),
        Value::F64(x) => out.push(*x),
        Value::F32(x) => out.push(*x as f64),
        Value::I64(x) => out.push(*x as f64),
        Value::I32(x) => out.push(*x as f64),
        Value::Bool(b) => out.push(if *b { 1.0 } else { 0.0 }),
        x if x.as_int().is_some() => out.push(x.as_int().unwrap_or(0) as f64),
        _ => panic!("unexpected value {v:?}"),
    }
}

fn elem_type(t: &Type) -> &Type {
    match t {
        Type::Array(_, e) => elem_type(e),
        t => t,
    }
}

fn check_text(stdout: &[u8], want: &[(Value, Type)], what: &str) {
    let text = String::from_utf8_lossy(stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        want.len(),
        "{what}: one line per result: {text}"
    );
    for (line, (v, t)) in lines.iter().zip(want) {
        let (shape, vals) = parse_json(line);
        let mut w = Vec::new();
        flat(v, &mut w);
        assert_eq!(shape.len(), t.rank(), "{what}: rank of `{line}`");
        let want_shape: Vec<usize> = v.shape().to_vec();
        assert_eq!(shape, want_shape, "{what}: shape of `{line}`");
        assert_eq!(vals.len(), w.len(), "{what}: `{line}`");
        let f32s = matches!(elem_type(t), Type::Prim(weir_ir::PrimType::F32));
        for (a, b) in vals.iter().zip(&w) {
            // floats round-trip exactly (f32 through its shortest decimal)
            let same = if f32s {
                (*a as f32).to_bits() == (*b as f32).to_bits()
            } else {
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
            };
            assert!(same, "{what}: `{line}`: {a} != {b}");
        }
        // a float result prints as a float: 1.0, not 1
        if matches!(v, Value::F64(x) if x.fract() == 0.0 && x.is_finite()) {
            assert!(line.contains('.') || line.contains('e'), "{what}: `{line}`");
        }
    }
}

/// Every way of passing inputs and taking results, for one entry.
fn check_entry(
    c: &Compiled,
    exe: &Path,
    wrapper: &[&str],
    entry: &str,
    (files, vals): (Vec<Vec<u8>>, Vec<Value>),
    literals: &[(usize, &str)],
) {
    let dir = exe.parent().expect("a directory");
    let want = expected(c, entry, vals);
    let mut paths = Vec::new();
    for (k, f) in files.iter().enumerate() {
        let p = format!("{entry}_in{k}.npy");
        std::fs::write(dir.join(&p), f).expect("write an input");
        paths.push(p);
    }
    let ok = |o: &Out, what: &str| {
        assert_eq!(o.code, Some(0), "{entry} {what}: {}", o.stderr);
        assert!(!o.stderr.contains("Sanitizer"), "{}", o.stderr);
    };
    let mut base: Vec<&str> = vec!["-e", entry];
    base.extend(paths.iter().map(String::as_str));
    // positional .npy files, results as concatenated .npy on stdout
    let o = run(exe, wrapper, &base, &[]);
    ok(&o, "positional");
    check_npys(&split_stream(&o.stdout), &want, "positional");
    // scalar literals on the command line
    let mut lit = base.clone();
    for (k, l) in literals {
        lit[2 + k] = l;
    }
    let o = run(exe, wrapper, &lit, &[]);
    ok(&o, "literals");
    check_npys(&split_stream(&o.stdout), &want, "literals");
    // one input from stdin (`-`)
    let mut dash = base.clone();
    dash[2] = "-";
    let o = run(exe, wrapper, &dash, &files[0]);
    ok(&o, "dash");
    check_npys(&split_stream(&o.stdout), &want, "dash");
    // all inputs as one stream on stdin, and from --in
    let stream = files.concat();
    let o = run(exe, wrapper, &["-e", entry], &stream);
    ok(&o, "stream");
    check_npys(&split_stream(&o.stdout), &want, "stream");
    std::fs::write(dir.join("stream.bin"), &stream).expect("write the stream");
    let o = run(exe, wrapper, &["-e", entry, "--in", "stream.bin"], &[]);
    ok(&o, "--in");
    check_npys(&split_stream(&o.stdout), &want, "--in");
    // -o per result
    let outs: Vec<String> = (0..want.len())
        .map(|k| format!("{entry}_out{k}.npy"))
        .collect();
    let mut args = base.clone();
    for o in &outs {
        args.extend(["-o", o.as_str()]);
    }
    let o = run(exe, wrapper, &args, &[]);
    ok(&o, "-o");
    assert!(o.stdout.is_empty(), "-o: nothing on stdout");
    let got: Vec<Vec<u8>> = outs
        .iter()
        .map(|p| std::fs::read(dir.join(p)).expect("an -o file"))
        .collect();
    check_npys(&got, &want, "-o");
    // one .npz
    let npz = format!("{entry}.npz");
    let mut args = base.clone();
    args.extend(["-o", npz.as_str()]);
    let o = run(exe, wrapper, &args, &[]);
    ok(&o, "-o .npz");
    let members = read_zip(&std::fs::read(dir.join(&npz)).expect("the .npz"));
    let names: Vec<String> = members.iter().map(|(n, _)| n.clone()).collect();
    let want_names: Vec<String> = (0..want.len()).map(|k| format!("result_{k}.npy")).collect();
    assert_eq!(names, want_names);
    let data: Vec<Vec<u8>> = members.into_iter().map(|(_, d)| d).collect();
    check_npys(&data, &want, "-o .npz");
    // --text
    let mut args = base.clone();
    args.push("--text");
    let o = run(exe, wrapper, &args, &[]);
    ok(&o, "--text");
    check_text(&o.stdout, &want, "--text");
}

/// Bad inputs to `fstats`: each exits 2 with a message naming the problem.
fn check_bad(exe: &Path, wrapper: &[&str]) {
    let dir = exe.parent().expect("a directory");
    let (good, _) = fstats_inputs();
    let a_data = f64s(&[1.0; 6]);
    let put = |name: &str, bytes: &[u8]| {
        std::fs::write(dir.join(name), bytes).expect("write an input");
    };
    put("a.npy", &good[0]);
    put("flags.npy", &good[1]);
    put("s.npy", &good[2]);
    // (first input's bytes, other args, the message's words)
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "wrong dtype",
            npy("<i8", false, "(2, 3)", &a_data),
            "argument `a`: expected a float64 array of rank 2, got int64 of shape (2, 3)",
        ),
        (
            "an integer dtype",
            npy("|u1", false, "(2, 3)", &[1; 6]),
            "argument `a`: expected a float64 array of rank 2, got uint8 of shape (2, 3)",
        ),
        (
            "wrong rank",
            npy("<f8", false, "(6,)", &a_data),
            "argument `a`: expected a float64 array of rank 2, got float64 of shape (6,)",
        ),
        (
            "big-endian",
            npy(">f8", false, "(2, 3)", &a_data),
            "got dtype '>f8' of shape (2, 3)",
        ),
        (
            "Fortran order",
            npy("<f8", true, "(2, 3)", &a_data),
            "argument `a`: Fortran-order arrays are not supported",
        ),
        (
            "truncated data",
            npy("<f8", false, "(2, 3)", &a_data[..20]),
            "`a` needs 48 bytes of elements, the input has 20 left",
        ),
        (
            "truncated header",
            npy("<f8", false, "(2, 3)", &[])[..40].to_vec(),
            "argument `a`: not a valid .npy file",
        ),
        (
            "huge shape",
            npy("<f8", false, "(4611686018427387904, 4)", &[]),
            "`a` claims",
        ),
        (
            "huge rows",
            npy("<f8", false, "(1000000000, 1000000)", &a_data),
            "bad input",
        ),
        (
            "dimension past int64",
            npy("<f8", false, "(99999999999999999999, 3)", &[]),
            "a dimension in the header is too large",
        ),
        (
            "header claiming 4 GiB",
            [b"\x93NUMPY\x02\x00".to_vec(), vec![0xff; 4], vec![b' '; 16]].concat(),
            "the .npy header claims 4294967295 bytes",
        ),
        (
            "not a .npy",
            b"hello, this is not numpy".to_vec(),
            "does not start with the .npy magic string",
        ),
        ("empty", vec![], "the input ended: no .npy array for it"),
        (
            "malformed header",
            npy("<f8", false, "(2, 3", &a_data),
            "malformed shape",
        ),
        (
            "structured dtype",
            npy_dict(
                "{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (2, 3), }",
                &a_data,
            ),
            "structured dtypes",
        ),
    ];
    for (what, bytes, want) in &cases {
        put("bad.npy", bytes);
        // from a file, and from a pipe (where nothing says how much is left)
        let from_file = run(exe, wrapper, &["bad.npy", "flags.npy", "s.npy"], &[]);
        let from_pipe = run(exe, wrapper, &["-", "flags.npy", "s.npy"], bytes);
        for (how, o) in [("file", from_file), ("pipe", from_pipe)] {
            assert_eq!(
                o.code,
                Some(2),
                "{what} ({how}): want exit 2, got {:?}: {}",
                o.code,
                o.stderr
            );
            let pipe_ok = how == "pipe" && (o.stderr.contains("ended early"));
            assert!(
                (o.stderr.contains(want) || pipe_ok)
                    && !o.stderr.contains("Sanitizer")
                    && !o.stderr.contains("runtime error"),
                "{what} ({how}): stderr `{}` should say `{want}`",
                o.stderr
            );
        }
    }
    // command lines that do not fit the entry: errors before running
    let cmdlines: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["a.npy", "flags.npy"],
            "`fstats` takes 3 input(s), got 2",
        ),
        (
            vec!["a.npy", "flags.npy", "s.npy", "-o", "x.npy"],
            "`fstats` has 3 result(s), got 1 -o file(s)",
        ),
        (
            vec!["a.npy", "flags.npy", "zzz"],
            "argument `s`: `zzz` is neither a float64 literal nor a readable .npy file",
        ),
        (
            vec!["a.npy", "nope.npy", "2"],
            "argument `flags`: cannot open `nope.npy`",
        ),
        (
            vec!["a.npy", "flags.npy", "a.npy"],
            "expected a float64 scalar",
        ),
        (vec!["--raw", "a.npy", "flags.npy", "s.npy"], "--raw"),
        (vec!["--bogus"], "usage:"),
    ];
    for (args, want) in &cmdlines {
        let o = run(exe, wrapper, args, &[]);
        assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains(want),
            "{args:?}: `{}` should say `{want}`",
            o.stderr
        );
    }
    // integer literals outside their type's range (`ints`' inputs are
    // there: check_entry wrote them)
    let ins: Vec<String> = (0..6).map(|k| format!("ints_in{k}.npy")).collect();
    for (k, s, want) in [
        ("-1", "0", "argument `k`: `-1` is neither a uint64 literal"),
        (
            "18446744073709551616",
            "0",
            "argument `k`: `18446744073709551616` is neither",
        ),
        ("1", "128", "argument `s`: `128` is neither a int8 literal"),
        (
            "1",
            "-129",
            "argument `s`: `-129` is neither a int8 literal",
        ),
    ] {
        let mut args: Vec<&str> = vec!["-e", "ints"];
        args.extend(ins.iter().map(String::as_str));
        args.extend([k, s]);
        let o = run(exe, wrapper, &args, &[]);
        assert_eq!(o.code, Some(2), "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains(want),
            "{args:?}: `{}` should say `{want}`",
            o.stderr
        );
    }
    // a stream that ends after the first array
    let o = run(exe, wrapper, &[], &good[0]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        o.stderr.contains("argument `flags`: the input ended"),
        "{}",
        o.stderr
    );
}

fn check_all(opts: &BuildOptions, wrapper: &[&str], name: &str) {
    let dir = scratch(name);
    let (c, exe) = build(opts, &dir);
    check_entry(&c, &exe, wrapper, "fstats", fstats_inputs(), &[(2, "0.1")]);
    check_entry(
        &c,
        &exe,
        wrapper,
        "mixed",
        mixed_inputs(),
        &[(2, "40"), (3, "true")],
    );
    check_entry(
        &c,
        &exe,
        wrapper,
        "ints",
        ints_inputs(),
        &[(6, "18446744073709551615"), (7, "-128")],
    );
    check_bad(&exe, wrapper);
}

#[test]
fn npy_inputs_and_outputs_gcc_werror() {
    check_all(&werror("gcc"), &[], "gcc");
}

#[test]
#[cfg_attr(
    not(weir_has_clang),
    ignore = "clang not found when weir-driver was built: install it with scripts/install-c-tools.sh"
)]
fn npy_inputs_and_outputs_clang_werror() {
    check_all(&werror("clang"), &[], "clang");
}

#[test]
fn npy_inputs_and_outputs_under_asan_and_ubsan() {
    check_all(
        &sanitized(),
        &[
            "env",
            "ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1",
            "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1",
        ],
        "san",
    );
}

/// Special floats in `--text`: NaN, ±Infinity, integral doubles as `1.0`,
/// and values that need 17 digits, all read back exactly.
#[test]
fn text_output_round_trips_special_floats() {
    let dir = scratch("text");
    let (c, exe) = build(&werror("gcc"), &dir);
    let a = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.0,
        0.1 + 0.2,
        -0.0,
        1e300,
        5e-324,
    ];
    let file = npy("<f8", false, "(1, 8)", &f64s(&a));
    let files = [
        file,
        npy("|b1", false, "(1,)", &[1]),
        npy("<f8", false, "()", &f64s(&[1.0])),
    ];
    std::fs::write(dir.join("special.npy"), &files[0]).expect("write");
    std::fs::write(dir.join("t.npy"), &files[1]).expect("write");
    let o = run(&exe, &[], &["special.npy", "t.npy", "1", "--text"], &[]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    // the sum of a row with NaN is NaN
    assert_eq!(text.lines().next(), Some("[NaN]"), "{text}");
    let row = Value::array(a.iter().map(|&x| Value::F64(x)).collect());
    let want = expected(
        &c,
        "fstats",
        vec![
            Value::array(vec![row]),
            Value::array(vec![Value::Bool(true)]),
            Value::F64(1.0),
        ],
    );
    check_text(&o.stdout, &want, "special");
    // each element alone (as the interpreter computes it), and 1.0 as `1.0`
    for x in a {
        let f = npy("<f8", false, "(1, 1)", &f64s(&[x]));
        std::fs::write(dir.join("one.npy"), f).expect("write");
        let o = run(&exe, &[], &["one.npy", "t.npy", "1", "--text"], &[]);
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        let row = Value::array(vec![Value::F64(x)]);
        let want = expected(
            &c,
            "fstats",
            vec![
                Value::array(vec![row]),
                Value::array(vec![Value::Bool(true)]),
                Value::F64(1.0),
            ],
        );
        check_text(&o.stdout, &want, &format!("{x:?}"));
        if x == 1.0 {
            let text = String::from_utf8_lossy(&o.stdout).to_string();
            assert_eq!(text.lines().last(), Some("1.0"), "{text}");
        }
    }
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
