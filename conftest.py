"""Test-run set-up shared by every test folder."""

from mustamaija.build import COMPILED, which

collect_ignore = ["src/mustamaija/__main__.py"]
if which() == "compiled":
    # pytest cannot import a source file whose module is a compiled extension: the doctests of the compiled
    # modules run against their sources, in the pure build (tests/test_builds.py).
    collect_ignore += ["src/" + name.replace(".", "/") + ".py" for name in COMPILED]
