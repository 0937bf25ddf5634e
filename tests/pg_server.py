"""A throw-away PostgreSQL server for the tests: Debian's ``initdb`` and ``pg_ctl`` in a temporary directory.

    with PostgresServer.start() as server:
        Store(server.url)

The cluster listens on a free port of 127.0.0.1 with ``trust`` authentication,
runs without fsync (nothing in it outlives the tests) and is deleted when
stopped. PostgreSQL refuses to run as root, so a root process runs the
binaries as the ``postgres`` user (Debian's package creates it) through
``runuser``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

__all__ = ["PostgresServer", "UnavailableError", "find_binaries"]

USER = "mustamaija"
DATABASE = "mustamaija_test"


class UnavailableError(RuntimeError):
    """PostgreSQL cannot be started here (no binaries, no driver, or no user to run it as)."""


def find_binaries() -> Path:
    """Return the directory holding ``initdb`` and ``pg_ctl``: the newest Debian install, else ``$PATH``."""
    def version(initdb: str) -> int:
        number = Path(initdb).parts[-3]
        return int(number) if number.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).parent
    raise UnavailableError("PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb and no initdb on PATH "
                           "(on Debian: apt-get install postgresql)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """A running throw-away cluster; :attr:`url` is a SQLAlchemy URL for its database ``mustamaija_test``."""

    def __init__(self, bindir: Path, root: Path, port: int, prefix: list[str]) -> None:
        self.bindir, self.root, self.port, self.prefix = bindir, root, port, prefix
        self.data = root / "data"
        self.url = f"postgresql+psycopg://{USER}@127.0.0.1:{port}/{DATABASE}"

    @classmethod
    def start(cls, timeout: float = 30.0) -> PostgresServer:
        """Create, start and fill in a cluster; raise :class:`UnavailableError` if this machine cannot."""
        try:
            import psycopg
        except ImportError as e:
            raise UnavailableError("the PostgreSQL driver is missing: pip install 'psycopg[binary]' (the postgres extra)") from e
        bindir = find_binaries()
        prefix: list[str] = []
        root = Path(tempfile.mkdtemp(prefix="mustamaija-pg-"))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError as e:
                shutil.rmtree(root, ignore_errors=True)
                raise UnavailableError("running as root and there is no 'postgres' user to run PostgreSQL as") from e
            runuser = shutil.which("runuser")
            if runuser is None:
                shutil.rmtree(root, ignore_errors=True)
                raise UnavailableError("running as root and runuser (util-linux) is missing, so PostgreSQL cannot drop root")
            os.chown(root, owner.pw_uid, owner.pw_gid)
            prefix = [runuser, "-u", "postgres", "--"]
        server = cls(bindir, root, _free_port(), prefix)
        try:
            server._run("initdb", "-D", str(server.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
            options = f"-h 127.0.0.1 -p {server.port} -k {root} -F -c max_connections=50"
            server._run("pg_ctl", "-D", str(server.data), "-l", str(root / "log"), "-o", options, "-w", "-t", str(int(timeout)), "start")
            deadline = time.monotonic() + timeout
            while True:
                try:
                    with psycopg.connect(host="127.0.0.1", port=server.port, user=USER, dbname="postgres", autocommit=True) as conn:
                        conn.execute(f"CREATE DATABASE {DATABASE}")
                    break
                except psycopg.OperationalError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
        except BaseException:
            server.stop()
            raise
        return server

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.prefix, str(self.bindir / tool), *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed with exit code {done.returncode}:\n{done.stdout}{done.stderr}{tail}")

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        if (self.data / "postmaster.pid").exists():
            subprocess.run([*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
