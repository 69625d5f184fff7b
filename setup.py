"""Build the Cython core (cython_core/) into the alhambra_ai._core extension."""

import runpy
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

# the modules' hooks as direct calls, written from their table (a build output: see the script's docstring)
runpy.run_path(str(Path(__file__).parent / "cython_core/alhambra/modules/dispatch.py"), run_name="__main__")

extensions = [
    Extension(
        "alhambra_ai._core",
        ["cython_core/_core.pyx"],
        extra_compile_args=["-O3", "-g0"],  # no debug info: 2.2 MB, not 12.3 (Ray ships it to every node)
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
