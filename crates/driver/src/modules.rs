//! Modules: loading the files a program imports and flattening them into the
//! one [`ast::Program`] the checker sees.
//!
//! * `import "p"` reads `p.weir` relative to the importing file's directory
//!   (`std/NAME` is the standard library shipped with the compiler, [`STD`]);
//!   every file is read and parsed once however many files import it (a
//!   diamond is fine), and added to the [`SourceMap`], so diagnostics point
//!   into it. A cycle of imports, a missing file or an unknown `std/` module
//!   is an error at the import's path.
//! * A file's *members* are its own definitions and type abbreviations (not
//!   what it imports). `import "p"` brings `p`'s members into scope by their
//!   names; `module m = import "p"` brings them in as `m.f` and `m.t` only.
//!   Two different definitions of one name in one file's scope are an error
//!   (E0703) naming both.
//! * `f64` and `f32` are built-in modules (`f64.isnan`, `f32.sqrt`, ...),
//!   written in Weir ([`FLOAT_MODULES`]) and loaded only when a program uses one.
//!
//! Flattening gives every file's members names unique in the program: the main
//! file's and a plainly imported file's keep their names where they can, a
//! module's are `m.f` (`m` the name of the first `module m = import` of the
//! file); a clash picks another prefix (`m2.f`, or the file's name). Every
//! reference, in the importing files and in the file's own bodies (a local
//! variable that shadows a member is left alone), is rewritten to those
//! names ([`crate::resolve`]); type abbreviations likewise (`m.t` is the type
//! named `"m.t"`). Only the main file's `entry` definitions stay entries.

use crate::resolve::{self, Entry, Everywhere, Members, Renamer, Scope, is_reserved};
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use weir_syntax::{Diagnostic, SourceMap, Span, ast};

/// The standard library: `import "std/NAME"` (name, source).
pub const STD: &[(&str, &str)] = &[
    ("math", include_str!("../std/math.weir")),
    ("linalg", include_str!("../std/linalg.weir")),
    ("sort", include_str!("../std/sort.weir")),
];

/// The built-in float modules (name, source): used as `f64.NAME` without
/// an import.
pub const FLOAT_MODULES: &[(&str, &str)] = &[
    ("f64", include_str!("../std/f64.weir")),
    ("f32", include_str!("../std/f32.weir")),
];

/// Why an imported file could not be read.
pub enum ReadError {
    NotFound,
    Other(String),
}

/// How imported files are read (injected: tests load from memory).
pub trait Files {
    /// The text of the file at `path`.
    fn read(&self, path: &Path) -> Result<String, ReadError>;
    /// An identity of the file at `path`: two paths to one file give one key.
    fn key(&self, path: &Path) -> PathBuf {
        normalize(path)
    }
}

/// Files on disk, each at most [`crate::pipeline::MAX_SOURCE_BYTES`] and a
/// regular file (as `compile_file` reads the main file).
pub struct Disk;

impl Files for Disk {
    fn read(&self, path: &Path) -> Result<String, ReadError> {
        if let Err(e) = std::fs::metadata(path)
            && e.kind() == std::io::ErrorKind::NotFound
        {
            return Err(ReadError::NotFound);
        }
        weir_interp::files::read_text_bounded(path, crate::pipeline::MAX_SOURCE_BYTES)
            .map_err(ReadError::Other)
    }
    fn key(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| normalize(path))
    }
}

/// A program's files, flattened.
pub struct Loaded {
    /// Every file read (the main file first).
    pub sources: SourceMap,
    /// One program of every file's definitions, dependencies first (no
    /// imports left).
    pub program: ast::Program,
    /// Errors found reading, parsing and resolving.
    pub diags: Vec<Diagnostic>,
    /// An imported file could not be loaded (missing, a cycle, a syntax
    /// error): checking the rest would only report what follows from that.
    pub incomplete: bool,
}

/// `a/./b/../c` → `a/c` (lexically; for shown names and keys of files that
/// do not exist).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Main,
    File,
    Std,
    Float,
}

struct Unit {
    shown: String,
    /// Where its relative imports are read (None: the standard library).
    dir: Option<PathBuf>,
    /// The directory of its shown name.
    shown_dir: PathBuf,
    kind: Kind,
    prog: ast::Program,
    /// The unit each import names (None: it could not be loaded).
    deps: Vec<Option<usize>>,
    /// The name of the first `module m = import` of it.
    alias: Option<String>,
    prefix: String,
}

enum Target {
    Std(String),
    File { real: PathBuf, shown: PathBuf },
}

fn qualify(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

fn std_names() -> String {
    STD.iter()
        .map(|(n, _)| format!("`std/{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Load the program whose main file is `name` with `text`, its relative
/// imports read from `dir`, and flatten it.
pub fn load(name: &str, text: &str, dir: &Path, files: &dyn Files) -> Loaded {
    let mut sources = SourceMap::new();
    let main_file = sources.add(name, text);
    let (prog, mut diags) = weir_syntax::parse_file(main_file, text);
    let shown_dir = Path::new(name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let main_key = match Path::new(name).file_name() {
        Some(f) => files.key(&dir.join(f)),
        None => PathBuf::from(name),
    };
    let mut units = vec![Unit {
        shown: name.to_string(),
        dir: Some(dir.to_path_buf()),
        shown_dir,
        kind: Kind::Main,
        deps: vec![None; prog.imports.len()],
        prog,
        alias: None,
        prefix: String::new(),
    }];
    let mut incomplete = false;
    let mut by_key: HashMap<PathBuf, usize> = HashMap::from([(main_key, 0)]);
    // depth-first, without recursion: (unit, its next import)
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    let mut on_stack = vec![true];
    let mut order = Vec::new();
    while let Some(top) = stack.last_mut() {
        let (u, i) = *top;
        let Some(imp) = units[u].prog.imports.get(i).cloned() else {
            stack.pop();
            on_stack[u] = false;
            order.push(u);
            continue;
        };
        top.1 += 1;
        let target = match (imp.path.strip_prefix("std/"), &units[u].dir) {
            (Some(rest), _) => Target::Std(rest.to_string()),
            (None, None) => Target::Std(normalize(Path::new(&imp.path)).display().to_string()),
            (None, Some(d)) => {
                let file = format!("{}.weir", imp.path);
                Target::File {
                    real: d.join(&file),
                    shown: normalize(&units[u].shown_dir.join(&file)),
                }
            }
        };
        if imp.path.is_empty() {
            diags.push(
                Diagnostic::new("E0701", imp.path_span, "the import's path is empty")
                    .with_label("no file named")
                    .with_help("write the file's path relative to this file, without `.weir`: `import \"lib/vectors\"`"),
            );
            incomplete = true;
            continue;
        }
        let key = match &target {
            Target::Std(n) => PathBuf::from(format!("<std>/{n}")),
            Target::File { real, .. } => files.key(real),
        };
        if let Some(&v) = by_key.get(&key) {
            if on_stack[v] {
                let from = stack.iter().position(|(w, _)| *w == v).unwrap_or(0);
                let mut chain: Vec<String> = stack[from..]
                    .iter()
                    .map(|(w, _)| format!("`{}`", units[*w].shown))
                    .collect();
                chain.push(format!("`{}`", units[v].shown));
                diags.push(
                    Diagnostic::new(
                        "E0702",
                        imp.path_span,
                        format!("import cycle: {}", chain.join(" imports ")),
                    )
                    .with_label(format!("`{}` imports this file again", units[u].shown))
                    .with_help("files may not import each other in a cycle: move what they share into a file that both import"),
                );
                incomplete = true;
                continue;
            }
            units[u].deps[i] = Some(v);
            if units[v].alias.is_none() {
                units[v].alias = imp.module.as_ref().map(|m| m.name.clone());
            }
            continue;
        }
        let (text, shown, dir, shown_dir, kind) = match target {
            Target::Std(n) => match STD.iter().find(|(s, _)| *s == n) {
                Some((_, t)) => (
                    t.to_string(),
                    format!("std/{n}.weir"),
                    None,
                    PathBuf::from("std"),
                    Kind::Std,
                ),
                None => {
                    let near = resolve::closest(&n, STD.iter().map(|(s, _)| *s));
                    let mut help = match near {
                        Some(s) => format!("did you mean `std/{s}`? "),
                        None => String::new(),
                    };
                    help.push_str(&format!("the standard library has {}", std_names()));
                    diags.push(
                        Diagnostic::new(
                            "E0706",
                            imp.path_span,
                            format!("the standard library has no module `{n}`"),
                        )
                        .with_label("not a standard module")
                        .with_help(help),
                    );
                    incomplete = true;
                    continue;
                }
            },
            Target::File { real, shown } => {
                let shown_s = shown.display().to_string();
                match files.read(&real) {
                    Ok(t) => (
                        t,
                        shown_s,
                        Some(real.parent().map(Path::to_path_buf).unwrap_or_default()),
                        shown.parent().map(Path::to_path_buf).unwrap_or_default(),
                        Kind::File,
                    ),
                    Err(e) => {
                        let (msg, help) = match e {
                            ReadError::NotFound => (
                                format!("cannot find the imported file `{shown_s}`"),
                                if imp.path.ends_with(".weir") {
                                    "write the path without `.weir`, which is added to it"
                                        .to_string()
                                } else {
                                    format!(
                                        "the path is relative to the importing file's directory, and `.weir` is added to it; the standard library's modules are {}",
                                        std_names()
                                    )
                                },
                            ),
                            ReadError::Other(m) => (
                                format!("cannot read the imported file `{shown_s}`"),
                                format!(
                                    "{m}; an imported file must be a readable Weir source file"
                                ),
                            ),
                        };
                        diags.push(
                            Diagnostic::new("E0701", imp.path_span, msg)
                                .with_label(format!("imports `{shown_s}`"))
                                .with_help(help),
                        );
                        incomplete = true;
                        continue;
                    }
                }
            }
        };
        let file = sources.add(shown.clone(), text.as_str());
        let (prog, pd) = weir_syntax::parse_file(file, &text);
        // what failed to parse is missing: its uses would only be unknown names
        incomplete |= !pd.is_empty();
        diags.extend(pd);
        let v = units.len();
        units.push(Unit {
            shown,
            dir,
            shown_dir,
            kind,
            deps: vec![None; prog.imports.len()],
            prog,
            alias: imp.module.as_ref().map(|m| m.name.clone()),
            prefix: String::new(),
        });
        by_key.insert(key, v);
        on_stack.push(true);
        units[u].deps[i] = Some(v);
        stack.push((v, 0));
    }
    // the built-in float modules, where used
    let mut floats = Vec::new();
    for (m, text) in FLOAT_MODULES {
        if !units.iter().any(|u| resolve::mentions_module(&u.prog, m)) {
            continue;
        }
        let file = sources.add(format!("std/{m}.weir"), *text);
        let (prog, pd) = weir_syntax::parse_file(file, text);
        diags.extend(pd);
        floats.push(units.len());
        units.push(Unit {
            shown: format!("std/{m}.weir"),
            dir: None,
            shown_dir: PathBuf::from("std"),
            kind: Kind::Float,
            deps: Vec::new(),
            prog,
            alias: None,
            prefix: m.to_string(),
        });
    }
    let order: Vec<usize> = floats.iter().copied().chain(order).collect();
    assign_prefixes(&mut units, &order);
    let (program, rdiags) = flatten(&units, &order, &floats);
    diags.extend(rdiags);
    Loaded {
        sources,
        program,
        diags,
        incomplete,
    }
}

/// Choose each file's prefix: names unique in the whole program.
fn assign_prefixes(units: &mut [Unit], order: &[usize]) {
    let mut taken_v: HashSet<String> = HashSet::new();
    let mut taken_t: HashSet<String> = HashSet::new();
    let mut firsts: Vec<usize> = order.iter().copied().filter(|&u| u == 0).collect();
    firsts.extend(
        order
            .iter()
            .copied()
            .filter(|&u| units[u].kind == Kind::Float),
    );
    firsts.extend(
        order
            .iter()
            .copied()
            .filter(|&u| u != 0 && units[u].kind != Kind::Float),
    );
    for u in firsts {
        let unit = &units[u];
        let fits = |p: &str| {
            unit.prog
                .defs
                .iter()
                .all(|d| !taken_v.contains(&qualify(p, &d.name.name)))
                && unit
                    .prog
                    .types
                    .iter()
                    .all(|t| !taken_t.contains(&qualify(p, &t.name.name)))
        };
        let prefix = match unit.kind {
            Kind::Main => String::new(),
            Kind::Float => unit.prefix.clone(),
            Kind::File | Kind::Std => {
                let stem: String = Path::new(&unit.shown)
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default()
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                let base = match &unit.alias {
                    Some(a) => a.clone(),
                    None if fits("") => String::new(),
                    None if stem.is_empty() => "m".to_string(),
                    None => stem,
                };
                if base.is_empty()
                    || (fits(&base) && !resolve::FLOAT_MODULES.contains(&base.as_str()))
                {
                    base
                } else {
                    (2..)
                        .map(|k| format!("{base}{k}"))
                        .find(|p| fits(p))
                        .unwrap_or_default()
                }
            }
        };
        for d in &unit.prog.defs {
            taken_v.insert(qualify(&prefix, &d.name.name));
        }
        for t in &unit.prog.types {
            taken_t.insert(qualify(&prefix, &t.name.name));
        }
        units[u].prefix = prefix;
    }
}

/// Each file's members, by their flat names.
fn members(unit: &Unit) -> Members {
    let mut m = Members {
        shown: format!("`{}`", unit.shown),
        ..Members::default()
    };
    for d in &unit.prog.defs {
        m.values.entry(d.name.name.clone()).or_insert(Entry {
            canonical: qualify(&unit.prefix, &d.name.name),
            span: d.name.span,
        });
    }
    for t in &unit.prog.types {
        m.types.entry(t.name.name.clone()).or_insert(Entry {
            canonical: qualify(&unit.prefix, &t.name.name),
            span: t.name.span,
        });
    }
    m
}

/// Add an imported member to a scope; a different member of the same name is
/// an error (E0703).
fn bring(
    (table, via): (&mut HashMap<String, Entry>, &mut HashMap<String, Span>),
    name: &str,
    e: &Entry,
    imp: &ast::Import,
    shown: &str,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) {
    match table.get(name) {
        None => {
            table.insert(name.to_string(), e.clone());
            via.insert(name.to_string(), imp.span);
        }
        Some(prev) if prev.canonical == e.canonical => {}
        Some(prev) => {
            let help = format!(
                "import one of the files as a module (`module m = import \"{}\"`) and write `m.{name}`, or rename one of the {what}s",
                imp.path
            );
            let d = match via.get(name) {
                // defined in this file
                None => Diagnostic::new(
                    "E0703",
                    prev.span,
                    format!("`{name}` is defined here and in {shown}, which this file imports"),
                )
                .with_label(format!("this `{name}`"))
                .with_secondary(imp.span, format!("brings another `{name}` into scope"))
                .with_secondary(e.span, format!("the other `{name}`")),
                Some(first) => Diagnostic::new(
                    "E0703",
                    imp.path_span,
                    format!("two imported files define `{name}`"),
                )
                .with_label(format!("{shown} defines `{name}`"))
                .with_secondary(
                    *first,
                    format!("an earlier import brings `{name}` into scope"),
                )
                .with_secondary(prev.span, format!("the first `{name}`"))
                .with_secondary(e.span, format!("the second `{name}`")),
            };
            diags.push(d.with_help(help));
        }
    }
}

/// What `unit` sees: its own members, its plain imports' and its modules.
fn scope_of<'a>(
    unit: &Unit,
    all: &'a [Members],
    floats: &[(String, usize)],
    everywhere: &'a Everywhere,
    diags: &mut Vec<Diagnostic>,
) -> Scope<'a> {
    let mut s = Scope {
        everywhere: Some(everywhere),
        ..Scope::default()
    };
    for d in &unit.prog.defs {
        s.values.entry(d.name.name.clone()).or_insert(Entry {
            canonical: qualify(&unit.prefix, &d.name.name),
            span: d.name.span,
        });
    }
    for t in &unit.prog.types {
        s.types.entry(t.name.name.clone()).or_insert(Entry {
            canonical: qualify(&unit.prefix, &t.name.name),
            span: t.name.span,
        });
    }
    let mut via_v = HashMap::new();
    let mut via_t = HashMap::new();
    let mut aliases: HashMap<String, (usize, Span)> = HashMap::new();
    for (imp, dep) in unit.prog.imports.iter().zip(&unit.deps) {
        let Some(v) = *dep else { continue };
        let members = &all[v];
        match &imp.module {
            None => {
                let mut names: Vec<&String> = members.values.keys().collect();
                names.sort();
                for n in names {
                    let e = &members.values[n];
                    bring(
                        (&mut s.values, &mut via_v),
                        n,
                        e,
                        imp,
                        &members.shown,
                        "definition",
                        diags,
                    );
                }
                let mut names: Vec<&String> = members.types.keys().collect();
                names.sort();
                for n in names {
                    let e = &members.types[n];
                    bring(
                        (&mut s.types, &mut via_t),
                        n,
                        e,
                        imp,
                        &members.shown,
                        "type",
                        diags,
                    );
                }
            }
            Some(m) => {
                if is_reserved(&m.name) {
                    diags.push(
                        Diagnostic::new(
                            "E0705",
                            m.span,
                            format!("`{}` is a builtin and cannot name a module", m.name),
                        )
                        .with_label("reserved name")
                        .with_help(format!("choose another name, e.g. `{}_m`", m.name)),
                    );
                    continue;
                }
                if let Some((w, first)) = aliases.get(&m.name)
                    && *w != v
                {
                    diags.push(
                        Diagnostic::new(
                            "E0705",
                            m.span,
                            format!("the module name `{}` is used twice", m.name),
                        )
                        .with_label("second module of this name")
                        .with_secondary(*first, "first module of this name")
                        .with_help("give the modules different names"),
                    );
                    continue;
                }
                aliases.insert(m.name.clone(), (v, m.span));
                s.modules.insert(m.name.clone(), members);
            }
        }
    }
    let mut names: Vec<(&String, &(usize, Span))> = aliases.iter().collect();
    names.sort();
    for (m, (_, span)) in names {
        if let Some(e) = s.values.get(m) {
            diags.push(
                Diagnostic::new(
                    "E0705",
                    *span,
                    format!("the module name `{m}` is also the name of a definition"),
                )
                .with_label("module")
                .with_secondary(e.span, "definition")
                .with_help("rename the module or the definition: `m.x` must mean one thing"),
            );
        }
    }
    for (m, v) in floats {
        s.modules.insert(m.clone(), &all[*v]);
    }
    s
}

/// One program of every unit's items, renamed.
fn flatten(units: &[Unit], order: &[usize], floats: &[usize]) -> (ast::Program, Vec<Diagnostic>) {
    let all: Vec<Members> = units.iter().map(members).collect();
    let floats: Vec<(String, usize)> = floats
        .iter()
        .map(|&v| (units[v].prefix.clone(), v))
        .collect();
    let mut everywhere = Everywhere::default();
    for m in &all {
        for e in m.values.values() {
            everywhere
                .values
                .insert(e.canonical.clone(), m.shown.clone());
        }
        for e in m.types.values() {
            everywhere
                .types
                .insert(e.canonical.clone(), m.shown.clone());
        }
    }
    let mut out = ast::Program::default();
    let mut diags = Vec::new();
    for &u in order {
        let unit = &units[u];
        let scope = scope_of(unit, &all, &floats, &everywhere, &mut diags);
        let mut r = Renamer::new(&scope);
        for t in &unit.prog.types {
            let mut t = t.clone();
            t.name.name = qualify(&unit.prefix, &t.name.name);
            if !r.type_def(&mut t) {
                t.ty = ast::TypeExp::Tuple(Vec::new(), t.ty.span());
            }
            out.types.push(t);
        }
        for d in &unit.prog.defs {
            let mut d = d.clone();
            let prefixed = !unit.prefix.is_empty() && unit.kind != Kind::Float;
            if prefixed && is_reserved(&d.name.name) {
                // the checker sees `m.sum`, which it would accept
                r.diags.push(
                    Diagnostic::new(
                        "E0101",
                        d.name.span,
                        format!("`{}` is a builtin and cannot be redefined", d.name.name),
                    )
                    .with_label("reserved name")
                    .with_help(format!("choose another name, e.g. `my_{}`", d.name.name)),
                );
                continue;
            }
            d.name.name = qualify(&unit.prefix, &d.name.name);
            if unit.kind != Kind::Main {
                d.entry = false;
            }
            if !r.def(&mut d) {
                // reported; the checker leaves it out without another error
                let span = d.body.span;
                d.params.clear();
                d.size_params.clear();
                d.exists.clear();
                d.ret = None;
                d.body = ast::Expr {
                    kind: ast::ExprKind::Error,
                    span,
                };
            }
            out.defs.push(d);
        }
        diags.append(&mut r.diags);
    }
    (out, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files in memory.
    struct Mem(Vec<(&'static str, &'static str)>);

    impl Files for Mem {
        fn read(&self, path: &Path) -> Result<String, ReadError> {
            let p = normalize(path);
            self.0
                .iter()
                .find(|(n, _)| Path::new(n) == p)
                .map(|(_, t)| t.to_string())
                .ok_or(ReadError::NotFound)
        }
    }

    fn load_mem(main: &str, files: Vec<(&'static str, &'static str)>) -> Loaded {
        load("main.weir", main, Path::new("."), &Mem(files))
    }

    fn names(l: &Loaded) -> Vec<String> {
        l.program.defs.iter().map(|d| d.name.name.clone()).collect()
    }

    #[test]
    fn plain_and_module_imports_are_renamed() {
        let l = load_mem(
            "import \"a\"\nmodule b = import \"lib/b\"\nentry main (x: f64) : f64 = f x + b.g x\n",
            vec![
                ("a.weir", "entry f (x: f64) : f64 = x\n"),
                (
                    "lib/b.weir",
                    "def h (x: f64) : f64 = x\ndef g (h: f64) : f64 = h + (let h = 1.0 in h)\ndef k (x: f64) : f64 = h x\n",
                ),
            ],
        );
        assert!(l.diags.is_empty(), "{:?}", l.diags);
        assert_eq!(names(&l), ["f", "b.h", "b.g", "b.k", "main"]);
        // an imported file's entry is an ordinary definition
        assert!(!l.program.defs[0].entry);
        assert!(l.program.defs[4].entry);
        // the parameter `h` shadows the definition `h`; `h x` in `k` is it
        let g = format!("{:?}", l.program.defs[2].body);
        assert!(g.contains("name: \"h\"") && !g.contains("b.h"), "{g}");
        assert!(format!("{:?}", l.program.defs[3].body).contains("b.h"));
        assert!(format!("{:?}", l.program.defs[4].body).contains("b.g"));
        assert!(l.program.imports.is_empty());
    }

    #[test]
    fn types_are_renamed_with_their_module() {
        let l = load_mem(
            "module v = import \"v\"\ndef f (p: v.vec) : v.vec = p\n",
            vec![(
                "v.weir",
                "type vec = (f64, f64)\ntype pair = (vec, vec)\ndef g (p: pair) : vec = p.0\n",
            )],
        );
        assert!(l.diags.is_empty(), "{:?}", l.diags);
        let tys: Vec<&str> = l
            .program
            .types
            .iter()
            .map(|t| t.name.name.as_str())
            .collect();
        assert_eq!(tys, ["v.vec", "v.pair"]);
        let all = format!("{:?}", l.program);
        assert!(
            all.contains("name: \"v.vec\"") && !all.contains("name: \"vec\""),
            "{all}"
        );
        let bad = load_mem(
            "module v = import \"v\"\ndef f (p: v.vce) : f64 = 1.0\n",
            vec![("v.weir", "type vec = (f64, f64)\n")],
        );
        assert_eq!(bad.diags.len(), 1);
        assert_eq!(bad.diags[0].code, "E0704");
        assert!(
            bad.diags[0]
                .help
                .as_deref()
                .unwrap_or("")
                .contains("did you mean `v.vec`")
        );
    }

    #[test]
    fn float_modules_load_only_when_used() {
        let l = load_mem("def f (x: f64) : f64 = f64.pi * x\n", vec![]);
        assert_eq!(l.sources.files().len(), 1);
        assert_eq!(names(&l), ["f"]);
        let l = load_mem("def f (x: f64) : bool = f64.isnan x\n", vec![]);
        assert_eq!(l.sources.files().len(), 2);
        assert!(l.diags.is_empty(), "{:?}", l.diags);
        assert!(names(&l).contains(&"f64.isnan".to_string()));
        let l = load_mem("def f (x: f64) : bool = f64.isnun x\n", vec![]);
        assert_eq!(l.diags[0].code, "E0016");
    }

    #[test]
    fn diamonds_load_each_file_once_and_cycles_are_errors() {
        let l = load_mem(
            "import \"p\"\nimport \"q\"\nentry main (x: f64) : f64 = p1 x + q1 x\n",
            vec![
                ("p.weir", "import \"r\"\ndef p1 (x: f64) : f64 = r1 x\n"),
                ("q.weir", "import \"r\"\ndef q1 (x: f64) : f64 = r1 x\n"),
                ("r.weir", "def r1 (x: f64) : f64 = x\n"),
            ],
        );
        assert!(l.diags.is_empty(), "{:?}", l.diags);
        assert_eq!(names(&l), ["r1", "p1", "q1", "main"]);
        assert_eq!(l.sources.files().len(), 4);
        let l = load_mem(
            "import \"p\"\n",
            vec![("p.weir", "import \"q\"\n"), ("q.weir", "import \"p\"\n")],
        );
        assert!(l.incomplete);
        assert_eq!(l.diags[0].code, "E0702");
        assert!(
            l.diags[0]
                .message
                .contains("`p.weir` imports `q.weir` imports `p.weir`")
        );
    }

    /// Source text imports relative to its name's directory (`cargo test`
    /// runs in the crate's directory).
    #[test]
    fn source_text_imports_relative_to_its_name() {
        let text = "module g = import \"modules/geom\"\nentry f (a: []f64) : f64 = g.norm a\n";
        for name in [
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/regress/text.weir"),
            "../../tests/regress/text.weir",
        ] {
            if let Err(e) = crate::pipeline::compile_source(name, text) {
                panic!("{}", e.render(false));
            }
        }
        let Err(e) = crate::pipeline::compile_source("text.weir", text) else {
            panic!("modules/geom.weir is not in the crate's directory");
        };
        assert!(e.render(false).contains("E0701"));
    }

    #[test]
    fn what_an_imported_file_imports_is_not_in_scope() {
        let l = load_mem(
            "import \"p\"\nentry main (x: f64) : f64 = r1 x\n",
            vec![
                ("p.weir", "import \"r\"\ndef p1 (x: f64) : f64 = r1 x\n"),
                ("r.weir", "def r1 (x: f64) : f64 = x\n"),
            ],
        );
        assert_eq!(l.diags.len(), 1, "{:?}", l.diags);
        assert_eq!(l.diags[0].code, "E0104");
        assert!(
            l.diags[0]
                .help
                .as_deref()
                .unwrap_or("")
                .contains("`r.weir`")
        );
    }

    #[test]
    fn clashing_names_get_other_prefixes() {
        // `r1` of r (plain, through p) and main's own `r1` do not meet in a scope
        let l = load_mem(
            "import \"p\"\ndef r1 (x: f64) : f64 = x\nentry main (x: f64) : f64 = p1 (r1 x)\n",
            vec![
                ("p.weir", "import \"r\"\ndef p1 (x: f64) : f64 = r1 x\n"),
                ("r.weir", "def r1 (x: f64) : f64 = x\n"),
            ],
        );
        assert!(l.diags.is_empty(), "{:?}", l.diags);
        assert_eq!(names(&l), ["r.r1", "p1", "r1", "main"]);
        assert!(format!("{:?}", l.program.defs[1].body).contains("r.r1"));
    }

    /// docs/language.md lists every definition of the standard library
    /// (§3.2) and of the float modules (§3.1).
    #[test]
    fn the_reference_lists_the_standard_library() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/language.md"
        ))
        .unwrap_or_default();
        let defs = |text: &str| -> Vec<String> {
            let (prog, errs) = weir_syntax::parse_file(weir_syntax::FileId(0), text);
            assert!(errs.is_empty(), "{errs:?}");
            prog.defs.into_iter().map(|d| d.name.name).collect()
        };
        for (m, text) in STD {
            let row = doc
                .lines()
                .find(|l| l.starts_with(&format!("| `std/{m}` |")))
                .unwrap_or_else(|| panic!("no row for std/{m} in docs/language.md"));
            // one item per definition: "`name args` (and `_f32`): ..."
            let cell = row.splitn(3, '|').nth(2).unwrap_or("").trim();
            let items: Vec<&str> = cell.trim_start_matches('`').split(", `").collect();
            for d in defs(text) {
                let (base, f32) = match d.strip_suffix("_f32") {
                    Some(b) => (b.to_string(), true),
                    None => (d.clone(), false),
                };
                let item = items.iter().find(|i| {
                    i.starts_with(&format!("{base} ")) || i.starts_with(&format!("{base}`"))
                });
                let Some(item) = item else {
                    panic!("docs/language.md does not list `{d}` of std/{m}");
                };
                assert!(
                    !f32 || item.contains("(and `_f32`"),
                    "docs/language.md does not list `{d}` of std/{m}"
                );
            }
        }
        let (_, f64_text) = FLOAT_MODULES[0];
        let start = doc.find("**The built-in modules").unwrap_or(0);
        let section = &doc[start..];
        for d in defs(f64_text) {
            assert!(
                section.contains(&format!("`{d} ")) || section.contains(&format!("`{d}`")),
                "docs/language.md does not list `f64.{d}`"
            );
        }
        // and the f32 module has the same functions (the conversion from the
        // other float type named for it)
        let other = |text: &str, from: &str| -> Vec<String> {
            defs(text)
                .into_iter()
                .map(|d| if d == from { "float".to_string() } else { d })
                .collect()
        };
        assert_eq!(other(f64_text, "f32"), other(FLOAT_MODULES[1].1, "f64"));
    }
}
