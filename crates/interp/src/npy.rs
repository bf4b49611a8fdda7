//! `.npy` input and output (NumPy's array format) through the npyz crate.

use crate::value::Value;
use npyz::WriterBuilder;
use weir_ir::{PrimType, Type};

/// The dtypes Weir reads, by element type: the descr NumPy writes on a
/// little-endian machine, and the item size.
fn descr_of(p: PrimType) -> (&'static str, usize) {
    match p {
        PrimType::F64 => ("<f8", 8),
        PrimType::F32 => ("<f4", 4),
        PrimType::I64 => ("<i8", 8),
        PrimType::I32 => ("<i4", 4),
        PrimType::Bool => ("|b1", 1),
        PrimType::I16 => ("<i2", 2),
        PrimType::I8 => ("|i1", 1),
        PrimType::U64 => ("<u8", 8),
        PrimType::U32 => ("<u4", 4),
        PrimType::U16 => ("<u2", 2),
        PrimType::U8 => ("|u1", 1),
    }
}

/// The dtypes Weir reads, as NumPy writes them.
const KNOWN_DESCRS: [&str; 11] = [
    "<f8", "<f4", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1", "|b1",
];

/// The header of an `.npy` file.
#[derive(Debug, PartialEq)]
pub struct NpyHeader {
    pub descr: String,
    pub fortran_order: bool,
    pub shape: Vec<u64>,
    /// Where the data starts.
    pub data_offset: usize,
}

/// A Python literal in an `.npy` header (only what headers use).
#[derive(Debug, PartialEq)]
enum Lit {
    Str(String),
    Bool(bool),
    Int(u64),
    Tuple(Vec<Lit>),
    Other,
}

struct HeaderParser<'a> {
    b: &'a [u8],
    at: usize,
    depth: usize,
}

impl HeaderParser<'_> {
    fn ws(&mut self) {
        while self.at < self.b.len() && self.b[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn lit(&mut self) -> Result<Lit, String> {
        self.ws();
        self.depth += 1;
        if self.depth > 32 {
            return Err("the header is nested too deeply".into());
        }
        let r = match self.b.get(self.at) {
            Some(&q @ (b'\'' | b'"')) => {
                self.at += 1;
                let start = self.at;
                while self.at < self.b.len() && self.b[self.at] != q {
                    self.at += 1;
                }
                if self.at >= self.b.len() {
                    return Err("unterminated string in the header".into());
                }
                let text = String::from_utf8_lossy(&self.b[start..self.at]).into_owned();
                self.at += 1;
                Ok(Lit::Str(text))
            }
            Some(b'(') | Some(b'[') => {
                let close = if self.b[self.at] == b'(' { b')' } else { b']' };
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    if self.eat(close) {
                        break;
                    }
                    items.push(self.lit()?);
                    if !self.eat(b',') {
                        if self.eat(close) {
                            break;
                        }
                        return Err("malformed tuple in the header".into());
                    }
                }
                Ok(if close == b')' {
                    Lit::Tuple(items)
                } else {
                    Lit::Other
                })
            }
            Some(c) if c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_' => {
                let start = self.at;
                while self.at < self.b.len()
                    && (self.b[self.at].is_ascii_alphanumeric()
                        || b"-_.".contains(&self.b[self.at]))
                {
                    self.at += 1;
                }
                let word = String::from_utf8_lossy(&self.b[start..self.at]).into_owned();
                let digits = word.strip_suffix('L').unwrap_or(&word);
                Ok(match word.as_str() {
                    "True" => Lit::Bool(true),
                    "False" => Lit::Bool(false),
                    _ if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) => {
                        match digits.parse::<u64>() {
                            Ok(v) => Lit::Int(v),
                            Err(_) => {
                                return Err(format!("dimension {word} in the header is too large"));
                            }
                        }
                    }
                    _ => Lit::Other,
                })
            }
            Some(b'{') => Err("unexpected `{` in the header".into()),
            _ => Err("malformed header".into()),
        };
        self.depth -= 1;
        r
    }
}

/// Parse and check the header of an `.npy` file (format versions 1.0, 2.0 and
/// 3.0). Never allocates more than the header's own size.
pub fn parse_header(bytes: &[u8]) -> Result<NpyHeader, String> {
    let bad = |m: &str| format!("not a valid .npy file: {m}");
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("it does not start with the .npy magic string"));
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10usize),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err(bad("the header is truncated"));
            }
            let n = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
            (usize::try_from(n).unwrap_or(usize::MAX), 12)
        }
        v => return Err(bad(&format!("unsupported format version {v}"))),
    };
    let end = start
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| bad("the header is longer than the file"))?;
    let mut p = HeaderParser {
        b: &bytes[start..end],
        at: 0,
        depth: 0,
    };
    if !p.eat(b'{') {
        return Err(bad("the header is not a dictionary"));
    }
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        if p.eat(b'}') {
            break;
        }
        let key = p.lit().map_err(|e| bad(&e))?;
        if !p.eat(b':') {
            return Err(bad("expected `:` in the header"));
        }
        let val = p.lit().map_err(|e| bad(&e))?;
        match (key, val) {
            (Lit::Str(k), Lit::Str(d)) if k == "descr" => descr = Some(d),
            (Lit::Str(k), Lit::Other) if k == "descr" => {
                return Err("structured .npy arrays (records) are not supported".into());
            }
            (Lit::Str(k), Lit::Bool(f)) if k == "fortran_order" => fortran = Some(f),
            (Lit::Str(k), Lit::Tuple(ds)) if k == "shape" => {
                let dims = ds
                    .into_iter()
                    .map(|d| match d {
                        Lit::Int(v) => Ok(v),
                        _ => Err(bad("the shape must be a tuple of non-negative integers")),
                    })
                    .collect::<Result<Vec<u64>, String>>()?;
                shape = Some(dims);
            }
            (Lit::Str(k), _) if matches!(k.as_str(), "descr" | "fortran_order" | "shape") => {
                return Err(bad(&format!("the header's `{k}` has the wrong type")));
            }
            _ => {}
        }
        if !p.eat(b',') {
            if p.eat(b'}') {
                break;
            }
            return Err(bad("expected `,` or `}` in the header"));
        }
    }
    match (descr, fortran, shape) {
        (Some(descr), Some(fortran_order), Some(shape)) => Ok(NpyHeader {
            descr,
            fortran_order,
            shape,
            data_offset: end,
        }),
        _ => Err(bad("the header needs `descr`, `fortran_order` and `shape`")),
    }
}

/// At most this many arrays (rows of rows...) are made for the empty inner
/// dimensions of an `.npy` array beyond its elements: a 100-byte file claiming
/// shape `(10**18, 0)` holds no data but would need 10**18 empty rows.
const MAX_EXTRA_ROWS: u64 = 1 << 24;

/// Read an `.npy` array. The element type and rank must match `ty` (an array type).
/// Hostile files are errors: the shape's element and byte counts are checked for
/// overflow and against the data the file holds before anything is allocated.
pub fn read_npy(bytes: &[u8], ty: &Type) -> Result<Value, String> {
    let h = parse_header(bytes)?;
    let shape = &h.shape;
    if h.fortran_order && shape.iter().filter(|&&d| d != 1).count() > 1 {
        return Err(
            "Fortran-ordered .npy arrays are not supported; save with np.ascontiguousarray".into(),
        );
    }
    let rank = ty.rank();
    let mut elem = ty;
    while let Type::Array(_, e) = elem {
        elem = e;
    }
    let &Type::Prim(p) = elem else {
        return Err(format!(
            "a .npy file cannot hold values of type {}",
            weir_ir::print::user_type_to_string(ty)
        ));
    };
    if rank != shape.len() {
        return Err(format!(
            "expected an array of rank {rank}, but the .npy file has rank {} (shape {shape:?})",
            shape.len()
        ));
    }
    let (want, size) = descr_of(p);
    let descr = h.descr.as_str();
    let same = descr == want
        || (p == PrimType::Bool && descr == "?")
        || (size == 1 && descr.get(1..) == want.get(1..));
    if !same {
        let one_byte = descr.len() == 3 && matches!(&descr[..1], "<" | "=" | "|");
        let known = KNOWN_DESCRS.contains(&descr)
            || (one_byte && KNOWN_DESCRS.contains(&format!("|{}", &descr[1..]).as_str()));
        return Err(if known {
            format!(
                "expected .npy elements of dtype '{want}' ({}), found '{descr}'",
                p.name()
            )
        } else {
            format!(
                "unsupported .npy dtype '{descr}' (expected '{want}', {}; Weir reads {})",
                p.name(),
                KNOWN_DESCRS.map(|d| format!("'{d}'")).join(", ")
            )
        });
    }
    let count = shape
        .iter()
        .try_fold(1u64, |a, &d| a.checked_mul(d))
        .ok_or_else(|| format!("the .npy shape {shape:?} has more elements than fit in 64 bits"))?;
    let data = &bytes[h.data_offset..];
    let need = count
        .checked_mul(size as u64)
        .ok_or_else(|| format!("the .npy shape {shape:?} needs more bytes than fit in 64 bits"))?;
    if need != data.len() as u64 {
        return Err(format!(
            "the .npy shape {shape:?} needs {need} bytes of data, but the file holds {}",
            data.len()
        ));
    }
    // the rows made above the elements: 1 + d0 + d0*d1 + ... (up to the last
    // dimension); bounded by the elements, unless some dimension is 0
    let mut rows: u64 = 0;
    let mut prefix: u64 = 1;
    for &d in shape.iter().take(shape.len().saturating_sub(1)) {
        prefix = prefix.saturating_mul(d);
        rows = rows.saturating_add(prefix);
    }
    if rows > count.saturating_add(MAX_EXTRA_ROWS) {
        return Err(format!(
            "the .npy shape {shape:?} has too many empty rows for the interpreter"
        ));
    }
    let count = usize::try_from(count).map_err(|_| "the .npy array is too large".to_string())?;
    let mut flat: Vec<Value> = Vec::new();
    flat.try_reserve_exact(count)
        .map_err(|_| format!("out of memory reading a .npy array of {count} elements"))?;
    for c in data.chunks_exact(size) {
        flat.push(match p {
            PrimType::F64 => Value::F64(f64::from_le_bytes(le8(c))),
            PrimType::I64 => Value::I64(i64::from_le_bytes(le8(c))),
            PrimType::F32 => Value::F32(f32::from_le_bytes(le4(c))),
            PrimType::I32 => Value::I32(i32::from_le_bytes(le4(c))),
            PrimType::U64 => Value::U64(u64::from_le_bytes(le8(c))),
            PrimType::U32 => Value::U32(u32::from_le_bytes(le4(c))),
            PrimType::I16 => Value::I16(i16::from_le_bytes([c[0], c[1]])),
            PrimType::U16 => Value::U16(u16::from_le_bytes([c[0], c[1]])),
            PrimType::I8 => Value::I8(c[0] as i8),
            PrimType::U8 => Value::U8(c[0]),
            PrimType::Bool => match c[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                b => return Err(format!("invalid bool byte {b} in the .npy data")),
            },
        });
    }
    let dims: Vec<usize> = shape
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(usize::MAX))
        .collect();
    nest(flat, &dims)
}

fn le8(c: &[u8]) -> [u8; 8] {
    let mut a = [0u8; 8];
    a.copy_from_slice(&c[..8]);
    a
}

fn le4(c: &[u8]) -> [u8; 4] {
    let mut a = [0u8; 4];
    a.copy_from_slice(&c[..4]);
    a
}

/// Rows of `shape` from the row-major elements `flat` (whose length is the
/// product of `shape`).
fn nest(flat: Vec<Value>, shape: &[usize]) -> Result<Value, String> {
    if shape.is_empty() {
        // a 0-d array: a scalar
        return flat
            .into_iter()
            .next()
            .ok_or_else(|| "a 0-d .npy array without its element".to_string());
    }
    if shape.len() == 1 {
        return Ok(Value::array(flat));
    }
    // saturating: a 0 further in makes it 0; without one, the product fits
    let inner = shape[1..].iter().fold(1usize, |a, &d| a.saturating_mul(d));
    let mut rows = Vec::new();
    rows.try_reserve_exact(shape[0])
        .map_err(|_| format!("out of memory reading a .npy array of {} rows", shape[0]))?;
    let mut it = flat.into_iter();
    for _ in 0..shape[0] {
        let chunk: Vec<Value> = it.by_ref().take(inner).collect();
        rows.push(nest(chunk, &shape[1..])?);
    }
    Ok(Value::array(rows))
}

/// Read an `.npy` file from disk (a regular file of at most
/// [`crate::files::MAX_INPUT_BYTES`]).
pub fn read_npy_file(path: &std::path::Path, ty: &Type) -> Result<Value, String> {
    let bytes = crate::files::read_bounded(path, crate::files::MAX_INPUT_BYTES)?;
    read_npy(&bytes, ty)
}

fn flatten(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(xs) => xs.iter().for_each(|x| flatten(x, out)),
        Value::Empty(_) => {}
        x => out.push(x.clone()),
    }
}

/// Encode an array (or scalar) of one primitive type as `.npy` bytes.
pub fn write_npy(v: &Value) -> Result<Vec<u8>, String> {
    let shape: Vec<u64> = v.shape().iter().map(|&d| d as u64).collect();
    let mut flat = Vec::new();
    flatten(v, &mut flat);
    let mut buf = Vec::new();
    macro_rules! put {
        ($t:ty, $pat:path) => {{
            let data: Vec<$t> = flat
                .iter()
                .map(|x| match x {
                    $pat(y) => Ok(*y),
                    _ => Err("only arrays of one scalar type can be written as .npy".to_string()),
                })
                .collect::<Result<_, _>>()?;
            let mut w = npyz::WriteOptions::new()
                .default_dtype()
                .shape(&shape)
                .writer(&mut buf)
                .begin_nd()
                .map_err(|e| e.to_string())?;
            w.extend(data).map_err(|e| e.to_string())?;
            w.finish().map_err(|e| e.to_string())?;
        }};
    }
    match flat.first() {
        Some(Value::F64(_)) | None => put!(f64, Value::F64),
        Some(Value::F32(_)) => put!(f32, Value::F32),
        Some(Value::I64(_)) => put!(i64, Value::I64),
        Some(Value::I32(_)) => put!(i32, Value::I32),
        Some(Value::Bool(_)) => put!(bool, Value::Bool),
        Some(Value::I16(_)) => put!(i16, Value::I16),
        Some(Value::I8(_)) => put!(i8, Value::I8),
        Some(Value::U64(_)) => put!(u64, Value::U64),
        Some(Value::U32(_)) => put!(u32, Value::U32),
        Some(Value::U16(_)) => put!(u16, Value::U16),
        Some(Value::U8(_)) => put!(u8, Value::U8),
        Some(_) => {
            return Err("tuples cannot be written as .npy; write each component separately".into());
        }
    }
    Ok(buf)
}

/// The leaf results of a value of type `ty`, in source order: the
/// components of tuples, nested tuples flattened, and an array of tuples
/// split into one array per component (as compiled code returns them).
pub fn leaves(v: &Value, ty: &Type) -> Vec<(Value, Type)> {
    let mut out = Vec::new();
    split(v, ty, &mut out);
    out
}

fn split(v: &Value, ty: &Type, out: &mut Vec<(Value, Type)>) {
    match (v, ty) {
        (Value::Tuple(xs), Type::Tuple(ts)) => {
            for (x, t) in xs.iter().zip(ts) {
                split(x, t, out);
            }
        }
        (_, Type::Array(n, e)) if matches!(elem_of(e), Type::Tuple(_)) => {
            // one array per component: split every element, then regroup
            let rows: Vec<Value> = match v {
                Value::Array(xs) => xs.to_vec(),
                _ => Vec::new(),
            };
            let mut probe = Vec::new();
            split_empty(e, &mut probe);
            let mut cols: Vec<Vec<Value>> = vec![Vec::new(); probe.len()];
            for r in &rows {
                for (k, (x, _)) in leaves(r, e).into_iter().enumerate() {
                    if let Some(c) = cols.get_mut(k) {
                        c.push(x);
                    }
                }
            }
            for (c, t) in cols.into_iter().zip(probe) {
                out.push((Value::array(c), Type::Array(n.clone(), Box::new(t))));
            }
        }
        _ => out.push((v.clone(), ty.clone())),
    }
}

fn elem_of(t: &Type) -> &Type {
    match t {
        Type::Array(_, e) => elem_of(e),
        t => t,
    }
}

/// The leaf types of `ty` (for an array of tuples with no elements).
fn split_empty(ty: &Type, out: &mut Vec<Type>) {
    match ty {
        Type::Tuple(ts) => ts.iter().for_each(|t| split_empty(t, out)),
        Type::Array(n, e) if matches!(elem_of(e), Type::Tuple(_)) => {
            let mut inner = Vec::new();
            split_empty(e, &mut inner);
            out.extend(
                inner
                    .into_iter()
                    .map(|t| Type::Array(n.clone(), Box::new(t))),
            );
        }
        t => out.push(t.clone()),
    }
}

/// Encode a leaf result (an array of one primitive type, or a scalar as a 0-d
/// array) of type `ty` as `.npy` (format 1.0): the element type comes from
/// `ty`, so an empty array keeps its dtype and rank.
pub fn write_npy_typed(v: &Value, ty: &Type) -> Result<Vec<u8>, String> {
    let &Type::Prim(p) = elem_of(ty) else {
        return Err(format!(
            "a .npy file cannot hold values of type {}",
            weir_ir::print::user_type_to_string(ty)
        ));
    };
    let rank = ty.rank();
    let mut dims = v.shape();
    dims.resize(rank, 0);
    let mut flat_vals = Vec::new();
    flatten(v, &mut flat_vals);
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!(
            "({})",
            dims.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let (descr, size) = descr_of(p);
    let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let hlen = u16::try_from(h.len()).map_err(|_| "the .npy header is too long".to_string())?;
    let mut out = Vec::with_capacity(10 + h.len() + flat_vals.len() * size);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&hlen.to_le_bytes());
    out.extend_from_slice(h.as_bytes());
    for x in &flat_vals {
        match (p, x) {
            (PrimType::F64, Value::F64(y)) => out.extend_from_slice(&y.to_le_bytes()),
            (PrimType::F32, Value::F32(y)) => out.extend_from_slice(&y.to_le_bytes()),
            (PrimType::I64, Value::I64(y)) => out.extend_from_slice(&y.to_le_bytes()),
            (PrimType::I32, Value::I32(y)) => out.extend_from_slice(&y.to_le_bytes()),
            (PrimType::Bool, Value::Bool(y)) => out.push(u8::from(*y)),
            (p, x) if x.prim() == Some(p) && p.is_int() => {
                // little-endian two's complement, `size` bytes
                let v = x.as_int().unwrap_or(0);
                out.extend_from_slice(&v.to_le_bytes()[..size]);
            }
            _ => return Err(format!("a {} array holds {}", p.name(), x.kind_name())),
        }
    }
    Ok(out)
}

/// CRC-32 (IEEE, as zip uses).
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut c = !0u32;
    for &b in data {
        c = table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// An uncompressed `.npz` (a zip of STORED members, what `np.savez` writes
/// and `np.load` reads) of the named `.npy` files. Members and the whole
/// archive must stay under 4 GiB (no ZIP64).
pub fn write_npz(members: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let too_big = || {
        "the results are too large for a .npz (no ZIP64 support); write one .npy per result"
            .to_string()
    };
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let crc = crc32(data);
        let size = u32::try_from(data.len()).map_err(|_| too_big())?;
        let offset = u32::try_from(out.len()).map_err(|_| too_big())?;
        let name_len = u16::try_from(name.len()).map_err(|_| too_big())?;
        let fields = |out: &mut Vec<u8>| {
            out.extend_from_slice(&20u16.to_le_bytes()); // version needed
            out.extend_from_slice(&0u16.to_le_bytes()); // flags
            out.extend_from_slice(&0u16.to_le_bytes()); // stored
            out.extend_from_slice(&0u16.to_le_bytes()); // time
            out.extend_from_slice(&0x21u16.to_le_bytes()); // date: 1980-01-01
            out.extend_from_slice(&crc.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&name_len.to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        fields(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        fields(&mut central);
        central.extend_from_slice(&[0u8; 6]); // comment, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = u32::try_from(out.len()).map_err(|_| too_big())?;
    let cd_size = u32::try_from(central.len()).map_err(|_| too_big())?;
    let n = u16::try_from(members.len()).map_err(|_| too_big())?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0u8; 4]); // disks
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&cd_size.to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // comment
    Ok(out)
}

/// A leaf result as one line of JSON that Python's `json.loads` reads and
/// `np.array` turns back into it: nested arrays, floats that round-trip
/// (`1.0`, not `1`), `NaN`, `Infinity`, `-Infinity`, `true`/`false`.
pub fn json_line(v: &Value) -> String {
    let mut s = String::new();
    json(v, &mut s);
    s
}

fn json(v: &Value, s: &mut String) {
    fn float(x: f64, shortest: String, s: &mut String) {
        if x.is_nan() {
            s.push_str("NaN");
        } else if x.is_infinite() {
            s.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
        } else {
            s.push_str(&shortest);
            if !shortest.contains(['.', 'e', 'E']) {
                s.push_str(".0");
            }
        }
    }
    match v {
        Value::F64(x) => float(*x, format!("{x:?}"), s),
        Value::F32(x) => float(f64::from(*x), format!("{x:?}"), s),
        Value::I64(x) => s.push_str(&x.to_string()),
        Value::I32(_)
        | Value::I8(_)
        | Value::I16(_)
        | Value::U8(_)
        | Value::U16(_)
        | Value::U32(_)
        | Value::U64(_) => s.push_str(&v.as_int().unwrap_or(0).to_string()),
        Value::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        Value::Array(xs) | Value::Tuple(xs) => {
            s.push('[');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                json(x, s);
            }
            s.push(']');
        }
        Value::Empty(_) => s.push_str("[]"),
    }
}
