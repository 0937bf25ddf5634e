"""Test-run set-up shared by every test folder."""

collect_ignore = ["src/mustamaija/__main__.py"]
