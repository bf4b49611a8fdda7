//! Hostile `.npy` input is a clear error, never a panic, an abort or a huge
//! allocation: the reproducer of issue 14 (a 128-byte header whose shape
//! overflows made `weir run` panic with `capacity overflow`), hand-written
//! malformed headers, and random mutations of valid files.

use proptest::prelude::*;
use weir_interp::Value;
use weir_interp::npy::{parse_header, read_npy, write_npy};
use weir_ir::{PrimType, Size, Type};

fn arr(rank: usize, p: PrimType) -> Type {
    (0..rank).fold(Type::Prim(p), |t, _| Type::array(Size::Unknown, t))
}

/// A version-1.0 `.npy` file with this header dictionary (padded as NumPy
/// does, to a multiple of 64 bytes) and data.
fn npy(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut h = dict.to_string();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend((h.len() as u16).to_le_bytes());
    b.extend(h.as_bytes());
    b.extend(data);
    b
}

#[test]
fn the_issue_reproducer_is_an_error() {
    // 128 bytes: a shape whose element count overflows
    for shape in [
        "(4611686018427387904, 4)",
        "(18446744073709551615,)",
        "(4294967296, 4294967296)",
        "(2305843009213693952,)",
    ] {
        let f = npy(
            &format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}"),
            &[],
        );
        assert_eq!(f.len(), 128);
        let rank = shape
            .trim_matches(|c| c == '(' || c == ')')
            .split(',')
            .filter(|d| !d.trim().is_empty())
            .count();
        let e = read_npy(&f, &arr(rank, PrimType::F64)).expect_err(shape);
        assert!(
            e.contains("64 bits") || e.contains("bytes of data"),
            "{shape}: {e}"
        );
    }
}

#[test]
fn malformed_headers_are_clear_errors() {
    let f64s = |n: usize| vec![0u8; 8 * n];
    let cases: Vec<(Vec<u8>, Type, &str)> = vec![
        (b"\x93NUMPY".to_vec(), arr(1, PrimType::F64), "magic"),
        (
            b"\x93NUMPY\x09\x00\x10\x00".to_vec(),
            arr(1, PrimType::F64),
            "version 9",
        ),
        (
            b"\x93NUMPY\x01\x00\xff\xff{}".to_vec(),
            arr(1, PrimType::F64),
            "longer than the file",
        ),
        (
            b"\x93NUMPY\x02\x00\xff\xff\xff\xff{}".to_vec(),
            arr(1, PrimType::F64),
            "longer than the file",
        ),
        (
            npy("[1, 2]", &[]),
            arr(1, PrimType::F64),
            "not a dictionary",
        ),
        (
            npy("{'descr': '<f8', 'shape': (2,), }", &f64s(2)),
            arr(1, PrimType::F64),
            "needs `descr`",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2,) ",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "expected `,`",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "non-negative",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2.5,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "non-negative",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "too large",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': 'no', 'shape': (2,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "wrong type",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': 2, }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "wrong type",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': ((((((((((((((((((((((((((((((((((2,),),),),),),),),),),),),),),),),),),),),),),),),),),),),),),),),),), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "nested too deeply",
        ),
        (
            npy("{'descr': '<f8", &[]),
            arr(1, PrimType::F64),
            "unterminated",
        ),
        (
            npy(
                "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "structured",
        ),
        (
            npy(
                "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "unsupported .npy dtype '>f8'",
        ),
        (
            npy(
                "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }",
                &[0; 16],
            ),
            arr(1, PrimType::I32),
            "unsupported .npy dtype '<c8'",
        ),
        (
            npy(
                "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
                &f64s(2),
            ),
            arr(1, PrimType::F64),
            "dtype '<f8'",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
                &f64s(6),
            ),
            arr(2, PrimType::F64),
            "Fortran",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                &f64s(5),
            ),
            arr(2, PrimType::F64),
            "needs 48 bytes of data, but the file holds 40",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                &f64s(7),
            ),
            arr(2, PrimType::F64),
            "needs 48 bytes",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                &f64s(6),
            ),
            arr(1, PrimType::F64),
            "rank 1",
        ),
        (
            npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000000000, 0), }",
                &[],
            ),
            arr(2, PrimType::F64),
            "too many empty rows",
        ),
        (
            npy(
                "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
                &[1, 7],
            ),
            arr(1, PrimType::Bool),
            "invalid bool",
        ),
    ];
    for (bytes, ty, want) in cases {
        let e = read_npy(&bytes, &ty).expect_err(want);
        assert!(e.contains(want), "expected `{want}` in: {e}");
    }
}

#[test]
fn unusual_but_valid_files_are_read() {
    // rows of empty rows, a Fortran-ordered vector, `?` bools, keys in any order
    let v = read_npy(
        &npy(
            "{'shape': (3, 0), 'fortran_order': False, 'descr': '<f8'}",
            &[],
        ),
        &arr(2, PrimType::F64),
    )
    .expect("3 empty rows");
    assert_eq!(v.shape(), vec![3, 0]);
    let v = read_npy(
        &npy(
            "{'descr': '<i4', 'fortran_order': True, 'shape': (2,), }",
            &[1, 0, 0, 0, 2, 0, 0, 0],
        ),
        &arr(1, PrimType::I32),
    )
    .expect("vector");
    assert_eq!(v, Value::array(vec![Value::I32(1), Value::I32(2)]));
    let v = read_npy(
        &npy(
            "{\"descr\": \"?\", \"fortran_order\": False, \"shape\": (1, 1), }",
            &[1],
        ),
        &arr(2, PrimType::Bool),
    )
    .expect("bool");
    assert_eq!(v, Value::array(vec![Value::array(vec![Value::Bool(true)])]));
}

fn valid_files() -> Vec<(Vec<u8>, Type)> {
    let row = |n: usize, f: &dyn Fn(usize) -> Value| Value::array((0..n).map(f).collect());
    let mut out = Vec::new();
    for (p, f) in [
        (
            PrimType::F64,
            &(|i: usize| Value::F64(i as f64 * 0.5)) as &dyn Fn(usize) -> Value,
        ),
        (PrimType::F32, &|i| Value::F32(i as f32)),
        (PrimType::I64, &|i| Value::I64(i as i64 - 3)),
        (PrimType::I32, &|i| Value::I32(i as i32)),
        (PrimType::Bool, &|i| Value::Bool(i % 2 == 0)),
    ] {
        out.push((write_npy(&row(5, f)).expect("writes"), arr(1, p)));
        let m = Value::array((0..3).map(|_| row(4, f)).collect());
        out.push((write_npy(&m).expect("writes"), arr(2, p)));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Overwrite, insert or delete bytes of a valid file, anywhere (mostly in the header).
    #[test]
    fn mutated_files_never_panic(which in 0usize..10, edits in prop::collection::vec((0usize..200, any::<u8>(), 0u8..4), 1..6), rank in 0usize..4) {
        let files = valid_files();
        let (mut b, ty) = files[which % files.len()].clone();
        for (at, byte, op) in edits {
            let at = at % (b.len() + 1);
            match op {
                0 if at < b.len() => b[at] = byte,
                1 => b.insert(at, byte),
                2 if at < b.len() => { b.remove(at); }
                _ => b.truncate(at),
            }
        }
        let _ = read_npy(&b, &ty);
        let _ = read_npy(&b, &arr(rank, PrimType::F64));
        let _ = parse_header(&b);
    }

    /// Headers built from plausible and hostile pieces, with data of any length.
    #[test]
    fn generated_headers_never_panic(
        descr in prop::sample::select(vec!["'<f8'", "'<f4'", "'<i8'", "'<i4'", "'|b1'", "'?'", "'>f8'", "'<c16'", "'O'", "[('a', '<f8')]", "3", "'<f8", ""]),
        fortran in prop::sample::select(vec!["False", "True", "0", "'x'", ""]),
        dims in prop::collection::vec(prop::sample::select(vec![0u64, 1, 2, 3, 7, 1 << 20, 1 << 31, 1 << 32, 1 << 62, u64::MAX]), 0..5),
        data_len in 0usize..200,
        version in 1u8..4,
        rank in 0usize..5,
    ) {
        let shape = match dims.len() {
            1 => format!("({},)", dims[0]),
            _ => format!("({})", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
        };
        let dict = format!("{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}");
        let mut b = npy(&dict, &vec![0u8; data_len]);
        if version > 1 {
            // versions 2 and 3: a 4-byte header length
            let hl = u16::from_le_bytes([b[8], b[9]]) as u32;
            b[6] = version;
            b.splice(8..10, hl.to_le_bytes());
        }
        for p in [PrimType::F64, PrimType::F32, PrimType::I64, PrimType::I32, PrimType::Bool] {
            let _ = read_npy(&b, &arr(rank, p));
        }
    }

    #[test]
    fn random_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut f = b"\x93NUMPY".to_vec();
        f.extend(b);
        let _ = read_npy(&f, &arr(2, PrimType::F64));
    }
}
