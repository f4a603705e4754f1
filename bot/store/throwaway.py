"""A throwaway PostgreSQL cluster in a temporary folder, for the tests and the load test.

It listens on a Unix socket inside its folder only, so any number can run side by side
without picking ports. PostgreSQL refuses to run as root; as root the binaries run as the
`postgres` user (the Debian package creates it), otherwise as whoever we are.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

import asyncpg

SOCKET_PORT = 5432  # only names the socket file; nothing listens on TCP

# Speed over durability: a test database that a crash would lose is no loss.
DISPOSABLE = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


class PostgresMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def _runuser() -> str:
    """util-linux's runuser, also where root's PATH lacks the sbin folders (as in some CI)."""
    found = shutil.which("runuser") or next(
        (p for p in ("/usr/sbin/runuser", "/sbin/runuser") if Path(p).exists()), None
    )
    if found is None:
        raise PostgresMissing("runuser (util-linux) is needed to start PostgreSQL as root")
    return found


def server_binaries() -> Path:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's newest version."""
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    found = glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")
    if not found:
        raise PostgresMissing(
            "PostgreSQL's server binaries (initdb, pg_ctl) are neither on PATH nor under "
            "/usr/lib/postgresql/*/bin; install them (Debian: apt-get install postgresql)"
        )
    newest = max(found, key=lambda path: int(Path(path).parts[-3].split(".")[0]))
    return Path(newest).parent


class ThrowawayPostgres:
    """`with ThrowawayPostgres.start() as server:` a running cluster, removed afterwards."""

    def __init__(self, folder: Path, binaries: Path) -> None:
        self.folder = folder
        self.binaries = binaries
        self._options = ""  # the server's command-line options, for restarts

    @classmethod
    def start(cls, *, durable: bool = False, max_connections: int = 100) -> ThrowawayPostgres:
        """`durable` keeps fsync on, for measurements that should mean something."""
        binaries = server_binaries()
        server = cls(Path(tempfile.mkdtemp(prefix="boardgames-pg-")), binaries)
        try:
            if os.geteuid() == 0:
                shutil.chown(server.folder, user="postgres")
            server._run("initdb", "-N", "-D", str(server.data), "-A", "trust", "-U", "postgres")
            settings = [f"max_connections={max_connections}", "listen_addresses=''"]
            settings += [] if durable else list(DISPOSABLE)
            options = f"-k {server.folder} -p {SOCKET_PORT} " + " ".join(
                f"-c {setting}" for setting in settings
            )
            server._start(options)
        except BaseException:
            shutil.rmtree(server.folder, ignore_errors=True)
            raise
        return server

    def restart(self) -> None:
        """Restart the server as an operator would: every connection open before is dead
        afterwards, and the data stays (a fast stop writes it all out first, which
        `DISPOSABLE`'s settings otherwise leave to chance)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self._start(self._options)

    def _start(self, options: str) -> None:
        self._options = options
        log = str(self.folder / "log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={SOCKET_PORT}"

    async def create_schema(self, name: str) -> str:
        """A fresh, empty schema, and a URL whose connections work in it (asyncpg passes
        unknown URL parameters on as server settings): far cheaper than a database each."""
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await admin.close()
        return f"{self.url()}&search_path={name}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:
            command = [_runuser(), "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}")

    def __enter__(self) -> ThrowawayPostgres:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
