"""Bytecode for the browser's Python: the standard library's boot modules,
micropip, and our own archives.

These functions run inside the pinned Pyodide under Node (``sitebuild.pyodide``
sends their source there, so that the bytecode is that Python's) and in
CPython (the unit tests): they use the standard library and ``sitebuild.files``'
zip helpers only, by the names those have there.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import marshal
import zipfile
from collections.abc import Iterable

from sitebuild.files import with_record, zip_bytes, zip_members

# --------------------------------------------------------------------------- precompiled runtime
#
# Pyodide's npm package ships the standard library as source, so every cold
# load compiles each module it imports: about 1.3 s of the 2.3 s a bare
# Pyodide takes to start on this machine.  The build compiles the modules the
# boot imports (web/boot-modules.txt) and micropip's modules ahead of time, with
# the very Python that runs in the browser (Pyodide itself, under Node), and
# ships them as sourceless .pyc files.  The helpers below run both there and in
# CPython (the unit tests), so they use the standard library only.


def strip_docstrings(tree: ast.Module) -> ast.Module:
    """Remove module and function docstrings from ``tree`` (most of what ``-OO`` drops).

    Class docstrings stay: without one, ``@dataclass`` builds a ``__doc__`` from
    ``inspect.signature`` at class creation, which costs more than it saves.
    Assertions stay too (unlike ``-OO``).
    """
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                if len(body) == 1:
                    body[0] = ast.copy_location(ast.Pass(), first)
                else:
                    del body[0]
    return tree


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A sourceless .pyc of ``source`` for the running Python, docstrings stripped.

    ``filename`` is the path the module will have at run time (tracebacks show it).
    """
    tree = strip_docstrings(ast.parse(source, filename))
    code = compile(tree, filename, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + bytes(12)  # flags 0, mtime 0, size 0: unchecked
    return header + marshal.dumps(code)


def precompile_stdlib(
    stdlib: bytes, modules: Iterable[str], root: str, dropped: Iterable[str] = ()
) -> bytes:
    """``python_stdlib.zip`` with ``modules`` as sourceless .pyc, without the
    top-level modules and packages named in ``dropped``; the rest unchanged.

    ``root`` is where the zip is mounted at run time (``/lib/python314.zip``).
    A name that is not a source module of the zip, or that is dropped, raises
    ``ValueError``.
    """
    source = zipfile.ZipFile(io.BytesIO(stdlib))
    gone = set(dropped)

    def top(name: str) -> str:
        return name.split("/", 1)[0].removesuffix(".py")

    present = {name for name in source.namelist() if top(name) not in gone}
    wanted: dict[str, str] = {}
    for module in modules:
        if module.split(".", 1)[0] in gone:
            raise ValueError(f"{module} is imported at boot but its package is dropped")
        path = module.replace(".", "/")
        entry = next((p for p in (f"{path}.py", f"{path}/__init__.py") if p in present), None)
        if entry is None:
            raise ValueError(f"{module} is not a source module of the standard library zip")
        wanted[entry] = module
    entries = []
    for name in source.namelist():
        if name in present:
            data = source.read(name)
            if name in wanted:
                data, name = pyc_bytes(data, f"{root}/{name}"), name + "c"
            entries.append((name, data))
    return zip_bytes(entries)


def precompile_wheel(wheel: bytes, site_packages: str) -> bytes:
    """A pure-Python wheel with every module as a sourceless .pyc and RECORD rewritten.

    ``site_packages`` is where the wheel is unpacked at run time.
    """
    members, record = zip_members(wheel)
    if record is None:
        raise ValueError("the wheel has no RECORD")
    entries: list[tuple[str, bytes]] = []
    for name, data in members:
        if name.endswith(".py") and ".dist-info/" not in name:
            entries.append((name + "c", pyc_bytes(data, f"{site_packages}/{name}")))
        else:
            entries.append((name, data))
    return zip_bytes(with_record(entries, record))


def with_bytecode(archive: bytes, root: str = "", sources: bool = True) -> bytes:
    """A wheel or zip of Python packages plus, beside each module ``x.py``, its
    bytecode for the running Python as ``x.pyc`` (a wheel's RECORD is rewritten);
    without ``sources``, the bytecode replaces the module's source.

    That is where ``zipimport`` looks for bytecode: the page imports our code
    straight from these archives on ``sys.path`` (docs/boot.md).  Our own code
    keeps its docstrings.  The .pyc files are "unchecked hash-based" (PEP 552):
    each records the hash of the source it was compiled from (tests/test_build.py
    checks them against the source beside them, or in the repository), and the
    import system does not read the source to check it again on every import:
    both come from this one step, into one archive named by its content.
    (Unpacked into a directory, Python ignores a .pyc beside its source.)
    ``root`` is the archive's path at run time (tracebacks name ``<root>/<module>``,
    and show its lines only when the source is there).
    """
    members, record = zip_members(archive)
    entries: list[tuple[str, bytes]] = []
    for name, data in members:
        module = name.endswith(".py") and ".dist-info/" not in name
        if sources or not module:
            entries.append((name, data))
        if module:
            code = compile(data, f"{root}/{name}" if root else name, "exec", dont_inherit=True)
            flags = (0b01).to_bytes(4, "little")  # hash-based, not checked at import
            header = importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(data)
            entries.append((name + "c", header + marshal.dumps(code)))
    return zip_bytes(with_record(entries, record))


# Runs under Node: loads the pinned Pyodide, copies the inputs into its file
