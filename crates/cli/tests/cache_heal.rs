//! Issue 46: a damaged entry of the build cache is rebuilt, never a failure
//! of every later `weir run`: an executable that lost its execute bit, one
//! truncated, one that is no executable at all, a directory where it or its
//! record should be. Each test has a cache of its own (`WEIR_CACHE`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cache_heal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// `weir run` of the program in `dir` with the cache `dir/cache`: its
/// output, or the failure.
fn run(dir: &Path) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_weir"))
        .args(["run", "p.weir", "-e", "inc", "41"])
        .current_dir(dir)
        .env("WEIR_CACHE", dir.join("cache"))
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).to_string())
    }
}

/// The cached executables (`wHASH`, no extension).
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("cache"))
        .expect("cache")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.len() == 17 && n.starts_with('w')
        })
        .collect();
    v.sort();
    v
}

/// Build once, damage the entry with `damage`, and run again (twice).
fn heals(name: &str, damage: impl Fn(&Path)) {
    let dir = scratch(name);
    std::fs::write(dir.join("p.weir"), "entry inc (x: i64) : i64 = x + 1\n").expect("source");
    assert_eq!(run(&dir).as_deref(), Ok("42"));
    let es = entries(&dir);
    assert_eq!(es.len(), 1, "{es:?}");
    damage(&es[0]);
    assert_eq!(
        run(&dir).as_deref(),
        Ok("42"),
        "{name}: the first run after"
    );
    assert_eq!(
        run(&dir).as_deref(),
        Ok("42"),
        "{name}: the second run after"
    );
    assert!(es[0].is_file(), "{name}: the entry is whole again");
}

#[test]
fn an_executable_without_its_execute_bit_is_rebuilt() {
    heals("chmod", |p| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    });
}

#[test]
fn a_truncated_executable_is_rebuilt() {
    heals("truncate", |p| {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .expect("open");
        f.set_len(100).expect("truncate");
    });
}

#[test]
fn an_executable_replaced_by_other_bytes_is_rebuilt() {
    // (of the same size: its record and its header show it)
    heals("garbage", |p| {
        let len = std::fs::metadata(p).expect("size").len();
        std::fs::write(p, vec![b'#'; len as usize]).expect("overwrite");
    });
}

#[test]
fn a_directory_at_the_entry_is_replaced() {
    heals("dir", |p| {
        std::fs::remove_file(p).expect("remove");
        std::fs::create_dir_all(p.join("inside")).expect("directory");
        std::fs::write(p.join("inside/file"), "x").expect("file");
    });
}

#[test]
fn a_directory_at_the_record_is_replaced() {
    heals("meta", |p| {
        let meta = p.with_extension("meta");
        let mut m = p.as_os_str().to_owned();
        m.push(".meta");
        let meta = if meta.exists() {
            meta
        } else {
            PathBuf::from(m)
        };
        std::fs::remove_file(&meta).expect("remove the record");
        std::fs::create_dir_all(meta.join("x")).expect("directory");
    });
}
