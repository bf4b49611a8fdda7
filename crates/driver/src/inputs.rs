//! Reading an entry point's arguments: inline text, value files and `.npy` files.

use std::path::Path;
use weir_interp::Value;
use weir_interp::files::{MAX_INPUT_BYTES, read_text_bounded, read_text_from};
use weir_interp::npy::read_npy_file;
use weir_interp::value::{count_values, parse_values};
use weir_ir::{FunDef, Type};

/// The parameters of an entry, named for messages (`argument 2 (b: [n]f64)`).
pub fn param_names(d: &FunDef) -> Vec<(String, Type)> {
    d.params
        .iter()
        .enumerate()
        .map(|(i, (n, t))| {
            (
                format!("argument {} (`{}`)", i + 1, weir_check::display_name(n)),
                t.clone(),
            )
        })
        .collect()
}

/// One source of argument values.
#[derive(Debug, Clone)]
pub enum Source {
    /// Value text (inline or read from a file), with a description for messages.
    Text(String, String),
    /// An `.npy` file, holding one value.
    Npy(std::path::PathBuf),
}

/// Interpret command-line input arguments: `.npy` files, value files, or inline values.
pub fn classify(args: &[String]) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    for a in args {
        let p = Path::new(a);
        if a.ends_with(".npy") {
            out.push(Source::Npy(p.to_path_buf()));
        } else if a == "-" {
            let s = read_text_from(std::io::stdin(), "standard input", MAX_INPUT_BYTES)?;
            out.push(Source::Text(s, "standard input".into()));
        } else if p.exists() {
            // a value file: regular and bounded (`/dev/zero` is an error, not a hang)
            let s = read_text_bounded(p, MAX_INPUT_BYTES)?;
            out.push(Source::Text(s, a.clone()));
        } else {
            out.push(Source::Text(a.clone(), format!("the argument `{a}`")));
        }
    }
    Ok(out)
}

/// Read the arguments of `entry` from the sources, in order.
pub fn read_args(entry: &FunDef, sources: &[Source]) -> Result<Vec<Value>, String> {
    read_args_as(entry, None, sources)
}

/// [`read_args`] with the parameter types as written where they differ
/// (records: `Program::surface`), so that record values have their field
/// names checked.
pub fn read_args_as(
    entry: &FunDef,
    surface: Option<&[Type]>,
    sources: &[Source],
) -> Result<Vec<Value>, String> {
    let mut params = param_names(entry);
    if let Some(ts) = surface
        && ts.len() == params.len()
    {
        for (p, t) in params.iter_mut().zip(ts) {
            p.1 = t.clone();
        }
    }
    let mut vals = Vec::new();
    for src in sources {
        let rest = &params[vals.len().min(params.len())..];
        match src {
            Source::Npy(path) => {
                let Some((name, ty)) = rest.first() else {
                    return Err(format!(
                        "too many inputs: `{}` takes {} argument(s)",
                        entry.name,
                        params.len()
                    ));
                };
                vals.push(
                    read_npy_file(path, ty)
                        .map_err(|e| format!("{name} from {}: {e}", path.display()))?,
                );
            }
            Source::Text(text, what) => {
                let k = count_values(text).map_err(|e| format!("in {what}: {e}"))?;
                if k > rest.len() {
                    return Err(format!(
                        "too many inputs: `{}` takes {} argument(s), but {what} holds {k} more value(s) than remain",
                        entry.name,
                        params.len()
                    ));
                }
                let vs = parse_values(text, &rest[..k]).map_err(|e| match e.offset {
                    Some(o) => format!("in {what} at {}: {}", line_col(text, o), e.message),
                    None => format!("in {what}: {}", e.message),
                })?;
                vals.extend(vs);
            }
        }
    }
    if vals.len() != params.len() {
        return Err(format!(
            "`{}` takes {} argument(s) ({}), but {} were given",
            entry.name,
            params.len(),
            params
                .iter()
                .map(|(n, t)| format!("{n}: {}", show_type(t)))
                .collect::<Vec<_>>()
                .join(", "),
            vals.len()
        ));
    }
    Ok(vals)
}

/// `line L, column C` of a byte offset.
pub fn line_col(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    format!("line {line}, column {col}")
}

/// A type as the user wrote it: size names without the `_N` suffix of core names.
pub fn show_type(t: &Type) -> String {
    weir_ir::print::user_type_to_string(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_an_error_not_a_hang() {
        // `/dev/zero` exists but is not a regular file: it is neither read (it never
        // ends) nor taken for an inline value
        let e = classify(&["/dev/zero".to_string()]).expect_err("a device");
        assert!(e.contains("not a regular file"), "{e}");
        let e = classify(&["/".to_string()]).expect_err("a directory");
        assert!(e.contains("directory"), "{e}");
        // inline values are still values
        assert!(matches!(
            classify(&["[1.0, 2.0]".to_string()]).as_deref(),
            Ok([Source::Text(..)])
        ));
    }
}
