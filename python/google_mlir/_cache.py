"""The disk cache's index for CPU modules, read without the compiler.

The compiler keys a cache entry on its parsed options, its own build and the
host CPU, which needs the compiler (and libMLIR) loaded. A call in a new
process that hits the cache should not pay for that: after each compile
through the cache, the entry is recorded under a key computed here from what
determines the compiler's key (the module text, the options as written, the
compiler library's identity, the CPU's features and the cache directory).
A later lookup with the same key loads the object with the runtime alone.
The record holds the entry's size and modification time, which the compiler
validated: a changed entry is not used, and the compiler decides again.
GPU targets always go through the compiler (their key depends on the
toolkit found at compile time).
"""

import hashlib
import os
import tempfile

from . import _native

_INDEX = "index"
_identity = None


def default_directory():
    """The compiler's default cache directory (getDefaultCacheDirectory)."""
    directory = os.environ.get("GOOGLE_MLIR_CACHE_DIR")
    if directory:
        return directory
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        base = xdg
    else:
        home = os.path.expanduser("~")
        base = os.path.join(home, ".cache") if home != "~" else \
            tempfile.gettempdir()
    return os.path.join(base, "google-mlir")


def _compiler_identity():
    """What identifies this compiler and CPU, once per process."""
    global _identity
    if _identity is None:
        library = _native.compiler_library()
        try:
            st = os.stat(library)
            build = f"{library} {st.st_size} {st.st_mtime_ns}"
        except (OSError, TypeError):
            build = None
        _identity = (build, " ".join(_native.cpu_features()))
    return _identity


def index_key(text, pipeline, directory):
    build, cpu = _compiler_identity()
    if build is None:
        return None
    digest = hashlib.sha256()
    for part in (build, cpu, os.path.abspath(directory), pipeline, text):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


def lookup(directory, key):
    """The entry recorded under `key`, if it is unchanged; else None."""
    try:
        with open(os.path.join(directory, _INDEX, key)) as record:
            name, size, mtime = record.read().split()
        path = os.path.join(directory, name)
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if os.path.dirname(name) or (st.st_size, st.st_mtime_ns) != \
            (int(size), int(mtime)):
        return None
    return path


def record(directory, key, path):
    """Records the entry at `path` under `key` (best effort)."""
    if os.path.dirname(os.path.abspath(path)) != os.path.abspath(directory):
        return
    try:
        st = os.stat(path)
        index = os.path.join(directory, _INDEX)
        os.makedirs(index, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=index, suffix=".tmp")
        with os.fdopen(fd, "w") as out:
            out.write(f"{os.path.basename(path)} {st.st_size} "
                      f"{st.st_mtime_ns}\n")
        os.replace(temporary, os.path.join(index, key))
    except OSError:
        pass
