//! `weir run -o`: one `.npy` per result (a tuple's components in source
//! order, a scalar as a 0-d array, an array of tuples as one array per
//! component), one `.npz` for all, a wrong count refused before running;
//! `--format json` prints one line per result. On compiled C and on the
//! interpreter; the files are read back with the interpreter's `.npy` reader
//! (npyz) and the zip through its central directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use weir_interp::Value;
use weir_ir::{PrimType, Size, Type};

const PROG: &str = "\
entry summary [n] (a: [n]f64) (k: i64) : ([n]f64, [n]bool, f64) =
  (map (\\x -> x * 2.0) a, map (\\x -> x > 1.0) a, reduce (+) 0.0 a + f64 k)
entry pairs [n] (a: [n]i64) : [n](i64, f32) = map (\\x -> (x + 1, f32 x)) a
";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "run_output-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    std::fs::write(dir.join("p.weir"), PROG).expect("write the program");
    dir
}

fn weir(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_weir"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run weir")
}

fn arr(t: PrimType) -> Type {
    Type::Array(Size::Unknown, Box::new(Type::Prim(t)))
}

fn f64s(xs: &[f64]) -> Value {
    Value::array(xs.iter().map(|&x| Value::F64(x)).collect())
}

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}
fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

/// The members of a STORED zip, through its central directory.
fn unzip(z: &[u8]) -> Vec<(String, Vec<u8>)> {
    let eocd = z.len() - 22;
    assert_eq!(u32_at(z, eocd), 0x0605_4b50);
    let mut at = u32_at(z, eocd + 16);
    (0..u16_at(z, eocd + 10))
        .map(|_| {
            assert_eq!(u32_at(z, at), 0x0201_4b50, "central directory entry");
            assert_eq!(u16_at(z, at + 10), 0, "stored");
            let size = u32_at(z, at + 20);
            let nl = u16_at(z, at + 28);
            let local = u32_at(z, at + 42);
            let name = String::from_utf8_lossy(&z[at + 46..at + 46 + nl]).to_string();
            at += 46 + nl + u16_at(z, at + 30) + u16_at(z, at + 32);
            assert_eq!(u32_at(z, local), 0x0403_4b50, "local header");
            let start = local + 30 + u16_at(z, local + 26) + u16_at(z, local + 28);
            (name, z[start..start + size].to_vec())
        })
        .collect()
}

fn check(interp: bool) {
    let dir = scratch(if interp { "interp" } else { "c" });
    let mode: &[&str] = if interp { &["--interp"] } else { &[] };
    let run = |extra: &[&str]| {
        let mut a = vec!["run", "p.weir"];
        a.extend_from_slice(mode);
        a.extend_from_slice(extra);
        weir(&dir, &a)
    };
    let want = [
        (f64s(&[1.0, 4.0]), arr(PrimType::F64)),
        (
            Value::array(vec![Value::Bool(false), Value::Bool(true)]),
            arr(PrimType::Bool),
        ),
        (Value::F64(5.5), Type::F64),
    ];
    let input = ["-e", "summary", "[0.5, 2.0]", "3"];
    // -o per result
    let mut args = input.to_vec();
    args.extend(["-o", "a.npy", "-o", "b.npy", "-o", "c.npy"]);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (f, (v, t)) in ["a.npy", "b.npy", "c.npy"].iter().zip(&want) {
        let b = std::fs::read(dir.join(f)).expect("an -o file");
        assert_eq!(&weir_interp::npy::read_npy(&b, t).expect(f), v, "{f}");
    }
    // one .npz
    let mut args = input.to_vec();
    args.extend(["-o", "r.npz"]);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let members = unzip(&std::fs::read(dir.join("r.npz")).expect("the .npz"));
    assert_eq!(members.len(), 3);
    for (k, ((name, b), (v, t))) in members.iter().zip(&want).enumerate() {
        assert_eq!(name, &format!("result_{k}.npy"));
        assert_eq!(&weir_interp::npy::read_npy(b, t).expect(name), v, "{name}");
    }
    // a wrong number of -o files: refused
    let mut args = input.to_vec();
    args.extend(["-o", "a.npy", "-o", "b.npy"]);
    let o = run(&args);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("3 result(s) but 2 -o file(s)"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // --format json
    let mut args = input.to_vec();
    args.extend(["--format", "json"]);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "[1.0, 4.0]\n[false, true]\n5.5\n"
    );
    // an array of tuples: one array per component
    let o = run(&["-e", "pairs", "[1, 2]", "-o", "p0.npy", "-o", "p1.npy"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p0 = std::fs::read(dir.join("p0.npy")).expect("p0");
    let p1 = std::fs::read(dir.join("p1.npy")).expect("p1");
    assert_eq!(
        weir_interp::npy::read_npy(&p0, &arr(PrimType::I64)).expect("p0"),
        Value::array(vec![Value::I64(2), Value::I64(3)])
    );
    assert_eq!(
        weir_interp::npy::read_npy(&p1, &arr(PrimType::F32)).expect("p1"),
        Value::array(vec![Value::F32(1.0), Value::F32(2.0)])
    );
    let o = run(&["-e", "pairs", "[1, 2]", "--format", "json"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "[2, 3]\n[1.0, 2.0]\n");
}

#[test]
fn run_writes_every_result_compiled() {
    check(false);
}

#[test]
fn run_writes_every_result_interpreted() {
    check(true);
}

/// A result whose type holds records prints them with their field names (on
/// compiled C and on the interpreter), and record inputs read back.
#[test]
fn records_print_with_their_field_names() {
    let dir = scratch("records");
    std::fs::write(
        dir.join("r.weir"),
        "type vec2 = {y: f64, x: f64}\n\
         entry flip (ps: []vec2) : ([]vec2, {n: i64, first: (f64, f64)}) =\n  \
         (map (\\p -> p with x = -p.x) ps, {n = length ps, first = (ps[0].x, ps[0].y)})\n",
    )
    .expect("write");
    for backend in [&[][..], &["--interp"][..]] {
        let mut args = vec!["run"];
        args.extend_from_slice(backend);
        args.extend_from_slice(&["r.weir", "[{x = 1.0, y = 2.0}, {y = 4.0, x = 3.0}]"]);
        let out = weir(&dir, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "([{x = -1.0, y = 2.0}, {x = -3.0, y = 4.0}], {first = (1.0, 2.0), n = 2})",
            "backend {backend:?}"
        );
    }
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
