"""The type information of the public API: alhambra_ai/_core.pyi matches the compiled core (mypy's stubtest),
and every name of ``alhambra_ai.__all__`` is typed (declared in the stub, or annotated Python)."""

import ast
import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import alhambra_ai
from alhambra_ai import _core

PACKAGE = Path(alhambra_ai.__file__).parent
ROOT = PACKAGE.parent
STUB = PACKAGE / "_core.pyi"
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def _stub_tree():
    return ast.parse(STUB.read_text(encoding="utf-8"), filename=str(STUB))


def _unannotated(fn, skip_first):
    """Parameters (and 'return') of an ast function definition that have no annotation."""
    a = fn.args
    params = a.posonlyargs + a.args + a.kwonlyargs
    if skip_first and params:
        params = params[1:]
    params += [p for p in (a.vararg, a.kwarg) if p is not None]
    missing = [p.arg for p in params if p.annotation is None]
    return missing + (["return"] if fn.returns is None else [])


def test_stubtest_passes():
    """The stub and the built extension agree on every name, parameter, default and property."""
    try:
        import mypy.stubtest  # noqa: F401
    except ImportError:
        pytest.skip("mypy is not installed (pip install -e '.[test]'): the stub goes unchecked")
    # the same alhambra_ai this test imports (the worktree's build), with the project's mypy config
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "alhambra_ai._core", "--mypy-config-file",
         str(ROOT / "pyproject.toml"), "--allowlist", str(ALLOWLIST)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_stub_is_fully_annotated():
    """Every function and method the stub declares has annotated parameters and a return type."""
    problems = []

    def visit(body, where, in_class):
        for node in body:
            if isinstance(node, ast.FunctionDef):
                static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
                missing = _unannotated(node, skip_first=in_class and not static)
                if missing:
                    problems.append(f"{where}{node.name}: {', '.join(missing)}")
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{where}{node.name}.", True)

    visit(_stub_tree().body, "", False)
    assert not problems, problems


def _stub_names():
    """Top-level names of the stub, and per class the names declared in its body."""
    names, members = set(), {}
    for node in _stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            members[node.name] |= {n.target.id for n in node.body
                                   if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    return names, members


def _python_untyped(obj, name):
    """What of a Python-defined function or class lacks annotations (its own methods and properties)."""
    if inspect.isfunction(obj):
        sig = inspect.signature(obj)
        missing = [p for p in sig.parameters if sig.parameters[p].annotation is inspect.Parameter.empty
                   and p not in ("self", "cls")]
        if sig.return_annotation is inspect.Signature.empty:
            missing.append("return")
        return [f"{name}: {', '.join(missing)}"] if missing else []
    if inspect.isclass(obj):
        out = []
        for attr, value in vars(obj).items():
            if attr.startswith("_") and attr != "__init__":
                continue
            if isinstance(value, property):
                value = value.fget
            elif isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if inspect.isfunction(value) and value.__module__ == obj.__module__:
                out += _python_untyped(value, f"{name}.{attr}")
        return out
    return [f"{name}: neither a function nor a class"]


@pytest.mark.parametrize("module", ["alhambra_ai", "alhambra_ai.bot.api"])
def test_public_names_are_typed(module):
    """``__all__`` of the public modules: the core's names are declared in the stub (with every public
    attribute of their classes); the Python ones are annotated."""
    mod = importlib.import_module(module)
    stub_names, stub_members = _stub_names()
    problems = []
    for name in mod.__all__:
        obj = getattr(mod, name)
        if getattr(obj, "__module__", None) == _core.__name__:
            if name not in stub_names:
                problems.append(f"{name}: not in alhambra_ai/_core.pyi")
            elif inspect.isclass(obj) and not issubclass(obj, Exception):
                public = {a for a in dir(obj) if not a.startswith("_")}
                problems += [f"{name}.{a}: not in the stub" for a in sorted(public - stub_members[name])]
        else:
            problems += _python_untyped(obj, name)
    assert not problems, problems

