"""A throwaway PostgreSQL cluster for the test suite's PostgreSQL pass.

``python -m tests.support.pg_cluster -- COMMAND...`` makes a cluster in a temporary folder (initdb; as the
``postgres`` user when run as root, since the server refuses to run as root), starts it listening on a unix
socket in that folder only (no TCP port), runs COMMAND with ``MAGISTER_TEST_DB`` set to its URL, then stops
the server by its PID and deletes the folder. Exits with COMMAND's status. ``--check`` exits 0 when
PostgreSQL's server programs are installed here, 1 when not (``make test`` then skips the pass).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATABASE = "magister_test"
USER = "magister"


def bindir() -> Path | None:
    """The newest installed server's programs (Debian keeps them under /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _as_owner(owner: pwd.struct_passwd | None):
    if owner is None:
        return None

    def demote() -> None:
        os.setgid(owner.pw_gid)
        os.setuid(owner.pw_uid)

    return demote


def start(folder: Path) -> tuple[subprocess.Popen, str]:
    """initdb and start a server in ``folder``; its URL. Socket only, fsync off: a test cluster, not a store."""
    bin_ = _bin()
    owner = _owner()
    if owner is not None:
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data = folder / "data"
    subprocess.run(
        [bin_ / "initdb", "-D", data, "-U", USER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
        check=True,
        stdout=subprocess.DEVNULL,
        preexec_fn=_as_owner(owner),
    )
    server = serve(folder)
    subprocess.run(
        [bin_ / "createdb", "-h", str(folder), "-U", USER, DATABASE], check=True, preexec_fn=_as_owner(owner)
    )
    return server, f"postgresql://{USER}@/{DATABASE}?host={folder}"


def serve(folder: Path) -> subprocess.Popen:
    """Start the server on the cluster ``start`` made in ``folder`` (again, after :func:`stop`); wait until ready."""
    bin_ = _bin()
    settings = {
        "listen_addresses": "",
        "unix_socket_directories": str(folder),
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "200",
        "shared_buffers": "64MB",
    }
    server = subprocess.Popen(
        [bin_ / "postgres", "-D", folder / "data", *[arg for k, v in settings.items() for arg in ("-c", f"{k}={v}")]],
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "server.log", "ab"),  # noqa: SIM115 (the server keeps it open)
        preexec_fn=_as_owner(_owner()),
    )
    for _ in range(300):
        ready = subprocess.run(
            [bin_ / "pg_isready", "-h", str(folder), "-U", USER, "-d", "postgres", "-q"], check=False
        ).returncode
        if ready == 0:
            return server
        if server.poll() is not None:
            raise SystemExit(f"PostgreSQL did not start: {(folder / 'server.log').read_text()[-2000:]}")
        time.sleep(0.1)
    raise SystemExit(f"PostgreSQL did not become ready: {(folder / 'server.log').read_text()[-2000:]}")


def _bin() -> Path:
    found = bindir()
    if found is None:
        raise SystemExit("PostgreSQL is not installed (apt-get install -y postgresql)")
    return found


def _owner() -> pwd.struct_passwd | None:
    """Who runs the server: ``postgres`` when we are root (the server refuses to run as root), else us."""
    return pwd.getpwnam("postgres") if os.geteuid() == 0 else None


def stop(server: subprocess.Popen) -> None:
    """By its PID: SIGINT is PostgreSQL's fast shutdown."""
    if server.poll() is None:
        os.kill(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.kill(server.pid, signal.SIGKILL)
            server.wait()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--check"]:
        return 0 if bindir() is not None else 1
    command = argv[1:] if argv[:1] == ["--"] else argv
    if not command:
        raise SystemExit("usage: python -m tests.support.pg_cluster [--check | -- COMMAND...]")
    folder = Path(tempfile.mkdtemp(prefix="magister-pg-"))
    server = None
    try:
        server, url = start(folder)
        print(f"PostgreSQL test cluster (pid {server.pid}) at {url}", flush=True)
        return subprocess.run(command, env={**os.environ, "MAGISTER_TEST_DB": url}, check=False).returncode
    finally:
        if server is not None:
            stop(server)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
