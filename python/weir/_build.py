"""Compiling a .weir file into a cached library folder (``weir lib``).

The cache is a folder of library folders, one per build:

    CACHE/py/NAME-KEY/   NAME.json, libNAME.so, libNAME.a, NAME.h, C sources

where CACHE is the ``cache_dir`` argument, else ``$WEIR_CACHE``, else
``$XDG_CACHE_HOME/weir``, else ``~/.cache/weir`` (the compiler's own build
cache lives in the same folder; it never touches ``py/``), and KEY is a hash
of everything the library depends on: the source text and its path (error
locations name it), the compiler (``weir --version``, the binary's path and
modification time), the options (name, flags), ``$CC`` and ``$WEIR_CFLAGS``,
and the machine (``weir lib`` compiles with ``-march=native``).

A build goes into a fresh temporary folder next to its final place and is
renamed into place when complete, so loaders running at the same time (threads,
processes, Dask workers sharing a network file system) never see a partial
library: the first rename wins and the others discard their copy.
"""

import hashlib
import os
import platform
import re
import shutil
import subprocess
import tempfile
import time

from ._errors import WeirBuildError, WeirCompilerNotFound

# Bumped when the layout of the cache or of what the binding expects changes.
CACHE_LAYOUT = "weir-py-1"

INSTALL_HINT = (
    "install the Weir compiler with the package: `pip install ./python` in the "
    "Weir repository (it builds the compiler; needs Rust's `cargo`), or "
    "`cargo install --locked --path crates/cli` (or `cargo build --release -p weir-cli` and "
    "point to target/release/weir); then pass weir=PATH to weir.load, set $WEIR "
    "to its path, or put `weir` on PATH"
)

# Temporary build folders older than this are left-overs of interrupted builds.
STALE_TEMP_S = 3600.0

_NO_BUNDLE = object()
_bundled = _NO_BUNDLE


def bundled_compiler_in(dist, package_dir):
    """The ``weir`` executable that the installed distribution ``dist``
    (an ``importlib.metadata.Distribution``) carries, if ``dist`` is the one
    the package in ``package_dir`` was installed from; else None."""
    files = dist.files or ()
    mine = False
    exe = None
    for f in files:
        parts = f.parts
        if len(parts) == 2 and parts[0] == "weir" and parts[1] == "_build.py":
            try:
                loc = os.path.realpath(os.fspath(f.locate()))
            except Exception:
                return None
            mine = os.path.dirname(loc) == os.path.realpath(package_dir)
        elif f.name in ("weir", "weir.exe") and len(parts) > 1 and parts[-2] in ("bin", "Scripts"):
            exe = f
    if not mine or exe is None:
        return None
    path = os.path.abspath(os.fspath(exe.locate()))
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    return None


def bundled_compiler():
    """The ``weir`` compiler installed with this package (the wheel built
    with maturin puts it into the environment's scripts folder, and its
    RECORD lists it), or None (a pure-Python install, e.g. the repository's
    scripts/install-python.sh). Memoised."""
    global _bundled
    if _bundled is _NO_BUNDLE:
        found = None
        try:
            from importlib import metadata

            found = bundled_compiler_in(
                metadata.distribution("weir"), os.path.dirname(os.path.abspath(__file__))
            )
        except Exception:
            found = None
        _bundled = found
    return _bundled


def find_compiler(weir=None):
    """The path of the ``weir`` binary, the first of: the ``weir`` argument,
    ``$WEIR``, the compiler installed with this package (the wheel), ``weir``
    on PATH."""
    if weir is not None:
        cand, origin = os.fspath(weir), "weir="
    elif os.environ.get("WEIR"):
        cand, origin = os.environ["WEIR"], "$WEIR"
    elif bundled_compiler() is not None:
        cand, origin = bundled_compiler(), "the package"
    else:
        found = shutil.which("weir")
        if found is None:
            raise WeirCompilerNotFound("the Weir compiler `weir` was not found: " + INSTALL_HINT)
        cand, origin = found, "PATH"
    if os.sep not in cand:
        found = shutil.which(cand)
        if found is not None:
            cand = found
    if not (os.path.isfile(cand) and os.access(cand, os.X_OK)):
        raise WeirCompilerNotFound(
            f"the Weir compiler given by {origin} ({cand!r}) is not an executable file: "
            + INSTALL_HINT
        )
    return os.path.abspath(cand)


_versions = {}


def compiler_version(weir):
    """``weir --version`` (memoised per binary path and modification time)."""
    st = os.stat(weir)
    key = (weir, st.st_mtime_ns, st.st_size)
    v = _versions.get(key)
    if v is None:
        try:
            r = subprocess.run([weir, "--version"], capture_output=True, text=True, timeout=60)
        except OSError as e:
            raise WeirCompilerNotFound(f"cannot run the Weir compiler {weir!r}: {e}") from None
        if r.returncode != 0:
            raise WeirBuildError(
                f"`{weir} --version` failed (status {r.returncode}): {r.stderr.strip()}"
            )
        v = r.stdout.strip()
        _versions[key] = v
    return v, st.st_mtime_ns


def default_cache_root():
    """``$WEIR_CACHE``, else ``$XDG_CACHE_HOME/weir``, else ``~/.cache/weir``."""
    d = os.environ.get("WEIR_CACHE")
    if d:
        return d
    d = os.environ.get("XDG_CACHE_HOME")
    if d:
        return os.path.join(d, "weir")
    return os.path.join(os.path.expanduser("~"), ".cache", "weir")


def library_name(path):
    """The default library name: the file name as a C identifier (as ``weir
    lib`` makes it)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    name = re.sub(r"[^A-Za-z0-9_]", "_", stem) or "lib"
    if name[0].isdigit():
        name = "lib_" + name
    return name


_machine_id = None


def machine_id():
    """What the code `-march=native` generates depends on: the architecture
    and the CPU's feature flags."""
    global _machine_id
    if _machine_id is None:
        flags = ""
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith(("flags", "Features", "isa")):
                        flags = line.split(":", 1)[-1].strip()
                        break
        except OSError:
            pass
        _machine_id = platform.machine() + ":" + hashlib.sha256(flags.encode()).hexdigest()[:16]
    return _machine_id


def cache_key(source_text, source_path, weir, version, mtime_ns, name, flags):
    h = hashlib.sha256()
    for part in (
        CACHE_LAYOUT,
        source_text,
        source_path,
        weir,
        str(mtime_ns),
        version,
        name,
        "\x1f".join(flags),
        os.environ.get("CC", ""),
        os.environ.get("WEIR_CFLAGS", ""),
        machine_id(),
    ):
        b = part.encode("utf-8", "surrogateescape")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def is_complete(folder, name):
    return os.path.isfile(os.path.join(folder, name + ".json")) and os.path.isfile(
        os.path.join(folder, "lib" + name + ".so")
    )


def _remove_stale_temps(parent):
    now = time.time()
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for n in names:
        if n.startswith(".tmp-"):
            p = os.path.join(parent, n)
            try:
                if now - os.stat(p).st_mtime > STALE_TEMP_S:
                    shutil.rmtree(p, ignore_errors=True)
            except OSError:
                pass


def build(weir, source_path, name, flags, final):
    """Compile ``source_path`` with ``weir lib`` into the folder ``final``
    (atomically: a temporary folder renamed into place)."""
    parent = os.path.dirname(final)
    os.makedirs(parent, exist_ok=True)
    _remove_stale_temps(parent)
    tmp = tempfile.mkdtemp(prefix=".tmp-" + os.path.basename(final) + "-", dir=parent)
    try:
        cmd = [weir, "lib", source_path, "-o", tmp, "--name", name, "--color", "never", *flags]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise WeirCompilerNotFound(f"cannot run the Weir compiler {weir!r}: {e}") from None
        if r.returncode != 0:
            msg = (r.stderr.strip() or r.stdout.strip()) or f"status {r.returncode}"
            raise WeirBuildError(f"`weir lib {source_path}` failed:\n{msg}")
        if not is_complete(tmp, name):
            raise WeirBuildError(
                f"`weir lib {source_path}` did not write {name}.json and lib{name}.so"
            )
        try:
            os.rename(tmp, final)
        except OSError:
            # Another loader renamed its build into place first (the folder
            # exists and is not empty): use that one.
            if is_complete(final, name):
                return
            # An incomplete folder is in the way (not one of ours): move it
            # aside and try once more.
            trash = tempfile.mkdtemp(prefix=".tmp-old-", dir=parent)
            try:
                os.rename(final, os.path.join(trash, "x"))
            except OSError:
                pass
            os.rename(tmp, final)
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
