"""The build: the hot modules compiled by mypyc when a C compiler is present, else pure Python.

Everything else about the package is in pyproject.toml. The modules compiled
are listed once, in ``src/mustamaija/build.py`` (loaded here as a file: the
package cannot be imported before it is built). With no C compiler, or when compiling fails, the install goes on
without the compiled modules and says so in one line; so does
``MUSTAMAIJA_BUILD=pure`` at install time, which skips compiling.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
STAMP = HERE / "build" / "mustamaija-compiled.stamp"
"""What the compiled modules beside the sources were built from (editable installs): see :func:`up_to_date`."""
EDITABLE = "editable_wheel" in sys.argv or "develop" in sys.argv
"""This build compiles the modules beside the sources (an editable install), not into a wheel of its own."""
BUILDING = {"editable_wheel", "bdist_wheel", "build_ext", "build", "install", "develop"}
"""The commands that build extensions; pip also runs this file for metadata (``egg_info``, ``dist_info``), which needs none."""


def compiled_modules() -> list[str]:
    """Return the source paths of the modules to compile, as ``mustamaija.build.compiled_sources`` lists them.

    ``build.py`` is loaded as a file: the package itself cannot be imported before it is built.
    """
    spec = importlib.util.spec_from_file_location("_mustamaija_build", HERE / "src" / "mustamaija" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return [str(path.relative_to(HERE)) for path in build.compiled_sources(HERE / "src")]


def notice(why: str) -> None:
    """Say in one line that this install is pure Python, and why."""
    print(f"mustamaija: pure Python build ({why}); the game is the same, the bots search less", file=sys.stderr)


def has_compiler() -> bool:
    """Return whether the C compiler Python was built with (or ``$CC``) is on the path."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0]) is not None


def fingerprint() -> str:
    """Return a digest of everything a compiled build depends on: every source of the package, this file, the versions.

    Every module counts, not only the compiled ones: mypyc compiles a module against the types of those it imports.
    """
    digest = hashlib.sha256()
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = "none"
    digest.update(f"{sys.version}|{sysconfig.get_config_var('EXT_SUFFIX')}|{mypy_version}".encode())
    for path in sorted([*(HERE / "src").rglob("*.py"), HERE / "setup.py", HERE / "pyproject.toml"]):
        digest.update(str(path.relative_to(HERE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def up_to_date(sources: list[str]) -> bool:
    """Return whether an editable install's compiled modules beside the sources were built from these very sources.

    The README's second command installs the test extra, and pip then builds the editable project again: with this
    check it keeps the modules the first command compiled, instead of spending a minute or two compiling them anew.
    """
    if not EDITABLE or not STAMP.is_file() or STAMP.read_text() != FINGERPRINT:
        return False
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    modules = [HERE / (source.removesuffix(".py") + suffix) for source in sources]
    return all(m.is_file() for m in modules) and any((HERE / "src").glob(f"*__mypyc{suffix}"))


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure-Python modules when compiling fails, instead of failing the install."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = os.cpu_count() or 1  # The C files of one shared library compile side by side.

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # Any compiler failure: install the sources alone.
            notice(f"compiling failed: {error}")
            for ext in self.extensions:  # No half build: a module without the shared library would not import.
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            return
        if EDITABLE and self.extensions:
            STAMP.parent.mkdir(exist_ok=True)
            STAMP.write_text(FINGERPRINT)


def extensions() -> list[Any]:
    """Return mypyc's extensions of the hot modules, or none (with a notice) when they cannot be built here."""
    if not BUILDING & set(sys.argv[1:]):
        return []
    sources = compiled_modules()
    if os.environ.get("MUSTAMAIJA_BUILD") != "pure" and up_to_date(sources):
        print("mustamaija: the compiled modules beside the sources are up to date", file=sys.stderr)
        return []
    if EDITABLE:
        STAMP.unlink(missing_ok=True)
        # An editable install leaves its extensions beside the sources: remove those of an earlier build, or a module
        # dropped from the list would still load its old extension (which needs the old shared library). Only an
        # editable build puts them back, so no other build of this tree (a wheel, `pip install --target`) may
        # remove them: that silently turned the checkout's editable install into the pure build.
        for stale in (HERE / "src").rglob("*.so"):
            stale.unlink()
    if os.environ.get("MUSTAMAIJA_BUILD") == "pure":
        notice("MUSTAMAIJA_BUILD=pure")
        return []
    if not has_compiler():
        notice("no C compiler found")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        notice("mypyc is not installed")
        return []
    try:
        # The build environment has none of the runtime dependencies (numpy for the observations): their types
        # are Any to the compiler, and the code that uses them runs as it would interpreted.
        return list(mypycify(["--ignore-missing-imports", *sources], opt_level="3", multi_file=True))
    except (Exception, SystemExit) as error:  # mypyc refusing a module leaves the sources, which work.
        notice(f"mypyc failed: {error}")
        return []


FINGERPRINT = fingerprint()  # Before the build writes anything.
setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
