//! Reading input files safely: only regular files (a device such as `/dev/zero`
//! or a FIFO would never end, or block before the first byte), and never more
//! than [`MAX_INPUT_BYTES`].

use std::io::Read;
use std::path::Path;

/// The largest value file (text or `.npy`) or standard input read: 4 GiB.
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Read a whole input file: it must be a regular file (after following links) of
/// at most `limit` bytes. Checked before the file is opened (opening a FIFO
/// blocks), and again while reading (a file may grow).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        return Err(format!(
            "cannot read {shown}: it is {what}; value files must be regular files"
        ));
    }
    if meta.len() > limit {
        return Err(too_big(&shown.to_string(), limit));
    }
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    read_limited(f, limit).map_err(|e| match e {
        Limited::Io(e) => format!("cannot read {shown}: {e}"),
        Limited::TooBig => too_big(&shown.to_string(), limit),
    })
}

/// Read a whole value file as text (UTF-8), as [`read_bounded`].
pub fn read_text_bounded(path: &Path, limit: u64) -> Result<String, String> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| format!("cannot read {}: it is not UTF-8 text", path.display()))
}

/// Read standard input (or any reader) as text, at most `limit` bytes.
pub fn read_text_from(r: impl Read, what: &str, limit: u64) -> Result<String, String> {
    let bytes = read_limited(r, limit).map_err(|e| match e {
        Limited::Io(e) => format!("cannot read {what}: {e}"),
        Limited::TooBig => too_big(what, limit),
    })?;
    String::from_utf8(bytes).map_err(|_| format!("cannot read {what}: it is not UTF-8 text"))
}

enum Limited {
    Io(std::io::Error),
    TooBig,
}

fn read_limited(r: impl Read, limit: u64) -> Result<Vec<u8>, Limited> {
    let mut bytes = Vec::new();
    r.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Limited::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Limited::TooBig);
    }
    Ok(bytes)
}

fn too_big(what: &str, limit: u64) -> String {
    format!(
        "cannot read {what}: it is larger than {} MiB, the limit for value inputs",
        limit >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_directories_are_refused_without_reading() {
        for p in ["/dev/zero", "/dev/null", "/dev/urandom", "/"] {
            if Path::new(p).exists() {
                let e = read_bounded(Path::new(p), MAX_INPUT_BYTES).expect_err(p);
                assert!(e.contains("regular file") || e.contains("directory"), "{e}");
            }
        }
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("weir-fifo-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .is_ok_and(|s| s.success());
        assert!(made, "mkfifo is needed for this test (coreutils)");
        // opening a FIFO for reading blocks until a writer comes: it must not be opened
        let e = read_bounded(&p, MAX_INPUT_BYTES).expect_err("a FIFO");
        assert!(e.contains("not a regular file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn limits_hold() {
        let dir = std::env::temp_dir().join(format!("weir-files-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("v.txt");
        std::fs::write(&p, "1.0 2.0").expect("write");
        assert_eq!(read_text_bounded(&p, 7).expect("fits"), "1.0 2.0");
        let e = read_text_bounded(&p, 6).expect_err("too big");
        assert!(e.contains("larger than"), "{e}");
        let e = read_text_from(&b"0123456789"[..], "standard input", 4).expect_err("too big");
        assert!(e.contains("standard input"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
