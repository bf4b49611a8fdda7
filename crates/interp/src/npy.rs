//! `.npy` input and output (NumPy's array format) through the npyz crate.

use crate::value::Value;
use npyz::WriterBuilder;
use std::io::Read;
use weir_ir::{PrimType, Type};

fn nest(flat: Vec<Value>, shape: &[usize]) -> Value {
    if shape.len() <= 1 {
        return Value::array(flat);
    }
    let inner: usize = shape[1..].iter().product();
    let mut rows = Vec::with_capacity(shape[0]);
    let mut it = flat.into_iter();
    for _ in 0..shape[0] {
        let chunk: Vec<Value> = it.by_ref().take(inner).collect();
        rows.push(nest(chunk, &shape[1..]));
    }
    Value::array(rows)
}

/// Read an `.npy` array. The element type and rank must match `ty` (an array type).
pub fn read_npy(bytes: &[u8], ty: &Type) -> Result<Value, String> {
    let npy = npyz::NpyFile::new(bytes).map_err(|e| format!("not a valid .npy file: {e}"))?;
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    if npy.order() == npyz::Order::Fortran && shape.len() > 1 {
        return Err(
            "Fortran-ordered .npy arrays are not supported; save with np.ascontiguousarray".into(),
        );
    }
    let descr = match npy.dtype() {
        npyz::DType::Plain(ts) => ts.to_string(),
        other => return Err(format!("unsupported .npy element type {}", other.descr())),
    };
    let rank = ty.rank();
    let mut elem = ty;
    while let Type::Array(_, e) = elem {
        elem = e;
    }
    let Type::Prim(p) = elem else {
        return Err(format!(
            "a .npy file cannot hold values of type {}",
            weir_ir::print::type_to_string(ty)
        ));
    };
    if rank != shape.len() {
        return Err(format!(
            "expected an array of rank {rank}, but the .npy file has rank {} (shape {shape:?})",
            shape.len()
        ));
    }
    let want = match p {
        PrimType::F64 => "<f8",
        PrimType::F32 => "<f4",
        PrimType::I64 => "<i8",
        PrimType::I32 => "<i4",
        PrimType::Bool => "|b1",
    };
    if descr != want {
        return Err(format!(
            "expected .npy elements of dtype '{want}' ({}), found '{descr}'",
            p.name()
        ));
    }
    let io = |e: std::io::Error| format!("cannot read .npy data: {e}");
    let flat: Vec<Value> = match p {
        PrimType::F64 => npy
            .into_vec::<f64>()
            .map_err(io)?
            .into_iter()
            .map(Value::F64)
            .collect(),
        PrimType::F32 => npy
            .into_vec::<f32>()
            .map_err(io)?
            .into_iter()
            .map(Value::F32)
            .collect(),
        PrimType::I64 => npy
            .into_vec::<i64>()
            .map_err(io)?
            .into_iter()
            .map(Value::I64)
            .collect(),
        PrimType::I32 => npy
            .into_vec::<i32>()
            .map_err(io)?
            .into_iter()
            .map(Value::I32)
            .collect(),
        PrimType::Bool => npy
            .into_vec::<bool>()
            .map_err(io)?
            .into_iter()
            .map(Value::Bool)
            .collect(),
    };
    Ok(nest(flat, &shape))
}

/// Read an `.npy` file from disk.
pub fn read_npy_file(path: &std::path::Path, ty: &Type) -> Result<Value, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    read_npy(&bytes, ty)
}

fn flatten(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(xs) => xs.iter().for_each(|x| flatten(x, out)),
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
        Some(_) => {
            return Err("tuples cannot be written as .npy; write each component separately".into());
        }
    }
    Ok(buf)
}
