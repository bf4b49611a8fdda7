//! Value formats: text round-trips exactly; `.npy` round-trips and rejects mismatches.

use weir_interp::Value;
use weir_interp::npy::{read_npy, write_npy};
use weir_interp::value::{format_value, parse_value};
use weir_ir::{PrimType, Size, Type};

fn arr2(t: PrimType) -> Type {
    Type::array(Size::Unknown, Type::array(Size::Unknown, Type::Prim(t)))
}

#[test]
fn text_round_trip_is_exact() {
    let ty = Type::Tuple(vec![
        arr2(PrimType::F64),
        Type::Prim(PrimType::I32),
        Type::Prim(PrimType::Bool),
    ]);
    let text = "([[0.1, -2.5e-300, inf], [nan, -0.0, 1e300]], -7i32, true)";
    let v = parse_value(text, &ty).expect("parses");
    let printed = format_value(&v);
    assert_eq!(
        printed,
        "([[0.1, -2.5e-300, inf], [nan, -0.0, 1e300]], -7i32, true)"
    );
    assert_eq!(
        format_value(&parse_value(&printed, &ty).expect("reparses")),
        printed
    );
}

#[test]
fn text_errors_name_what_was_expected() {
    let e = parse_value("[[1.0, 2.0], [3.0]]", &arr2(PrimType::F64)).expect_err("irregular");
    assert!(e.message.contains("irregular array"), "{}", e.message);
    let e =
        parse_value("[1.5]", &Type::array(Size::Unknown, Type::I64)).expect_err("float for int");
    assert!(
        e.message
            .contains("expected an integer of type i64, found `1.5`"),
        "{}",
        e.message
    );
    let e = parse_value("[1.0, 2.0]", &Type::array(Size::Const(3), Type::F64)).expect_err("size");
    assert!(
        e.message
            .contains("size mismatch: expected an array of 3 elements, found 2"),
        "{}",
        e.message
    );
}

#[test]
fn npy_round_trip_and_type_checks() {
    for (t, v) in [
        (PrimType::F64, Value::F64(1.5)),
        (PrimType::F32, Value::F32(-2.25)),
        (PrimType::I64, Value::I64(-9)),
        (PrimType::I32, Value::I32(42)),
        (PrimType::Bool, Value::Bool(true)),
        (PrimType::I16, Value::I16(-300)),
        (PrimType::I8, Value::I8(-128)),
        (PrimType::U64, Value::U64(u64::MAX)),
        (PrimType::U32, Value::U32(u32::MAX - 1)),
        (PrimType::U16, Value::U16(65535)),
        (PrimType::U8, Value::U8(200)),
    ] {
        let row = Value::array(vec![v.clone(), v.clone(), v.clone()]);
        let m = Value::array(vec![row.clone(), row]);
        let bytes = write_npy(&m).expect("writes");
        let back = read_npy(&bytes, &arr2(t)).expect("reads");
        assert_eq!(back, m);
        // written with a type: the same bytes as npyz writes
        let typed = weir_interp::npy::write_npy_typed(&m, &arr2(t)).expect("writes typed");
        assert_eq!(read_npy(&typed, &arr2(t)).expect("reads typed"), m);
        // wrong rank and wrong dtype are clear errors
        let e = read_npy(&bytes, &Type::array(Size::Unknown, Type::Prim(t))).expect_err("rank");
        assert!(e.contains("rank 1"), "{e}");
        let other = if t == PrimType::F64 {
            PrimType::I64
        } else {
            PrimType::F64
        };
        let e = read_npy(&bytes, &arr2(other)).expect_err("dtype");
        assert!(e.contains("dtype"), "{e}");
    }
    assert!(read_npy(b"not an npy file", &arr2(PrimType::F64)).is_err());
}

/// The integer types in the text format: a suffix names the type (`200u8`;
/// none for i64), hex is allowed, a value outside the type's range or of
/// another type is an error naming both.
#[test]
fn integer_text_values() {
    let ty = Type::Tuple(
        [
            PrimType::I8,
            PrimType::I16,
            PrimType::U8,
            PrimType::U16,
            PrimType::U32,
            PrimType::U64,
            PrimType::I64,
        ]
        .iter()
        .map(|&p| Type::Prim(p))
        .collect(),
    );
    let text = "(-128i8, 32767i16, 255u8, 0u16, 4294967295u32, 18446744073709551615u64, -1)";
    let v = parse_value(text, &ty).expect("parses");
    assert_eq!(format_value(&v), text);
    // no suffix, and hex
    let v2 = parse_value(
        "(-128, 32767, 0xff, 0, 0xffffffff, 18446744073709551615, -0x1)",
        &ty,
    )
    .expect("parses");
    assert_eq!(v2, v);
    for (text, p, want) in [
        ("256", PrimType::U8, "an integer that fits in u8"),
        ("-1u8", PrimType::U8, "an integer that fits in u8"),
        ("128i8", PrimType::I8, "an integer that fits in i8"),
        (
            "18446744073709551616",
            PrimType::U64,
            "an integer that fits in u64",
        ),
        (
            "5i32",
            PrimType::U32,
            "expected a value of type u32, found `5i32` (a i32)",
        ),
        ("1.5", PrimType::U16, "an integer of type u16"),
    ] {
        let e = parse_value(text, &Type::Prim(p)).expect_err(text);
        assert!(e.message.contains(want), "{text}: {}", e.message);
    }
}
