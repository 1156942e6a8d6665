"""A throwaway PostgreSQL server for the tests, the checks and the benchmark.

It uses Debian's `postgresql` package (`make test-setup` installs it): initdb makes a cluster in
a temporary directory, the server listens on a free port of 127.0.0.1 (and a socket in that
directory), trusts local connections, and is stopped and deleted at the end. initdb and postgres
refuse to run as root, so as root they run as the unprivileged `postgres` user (runuser).

    with ThrowawayPostgres() as server:
        url = server.create_database("companion")   # postgresql://postgres@127.0.0.1:port/...

Run it alone to try it: `python -m scripts.throwaway_postgres`.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class Unavailable(RuntimeError):
    """PostgreSQL is not installed (or cannot start here): the message says why."""


def binaries() -> Path:
    """The newest installed server's bin directory."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3])
    )
    if not found:
        on_path = shutil.which("initdb")
        if on_path is None:
            raise Unavailable(
                "PostgreSQL is not installed (no initdb): `make test-setup` installs Debian's "
                "postgresql package"
            )
        return Path(on_path).parent
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayPostgres:
    """A PostgreSQL server of its own, for as long as the `with` block (or start() to stop())."""

    def __init__(self) -> None:
        self.bin = binaries()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.data = self.folder / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            # initdb and postgres will not run as root.
            try:
                import pwd

                pwd.getpwnam("postgres")
            except KeyError as error:
                raise Unavailable("running as root and there is no `postgres` user") from error
            shutil.chown(self.folder, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_user, *command], capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise Unavailable(f"{Path(command[0]).name} failed: {done.stderr.strip()[-400:]}")

    def start(self) -> ThrowawayPostgres:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",  # a throwaway cluster: nothing to keep through a power cut
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "start",
        )
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new, empty database on this server; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(
            [
                *self.as_user,
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> ThrowawayPostgres:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


if __name__ == "__main__":
    with ThrowawayPostgres() as server:
        print("started:", server.create_database("companion"))
