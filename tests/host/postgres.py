"""A real PostgreSQL server for the floor's tests, where one is installed (Debian's
postgresql): a cluster of the test's own in a temporary folder, listening on a Unix
socket only, started and stopped by the test.  As root it runs as the postgres user,
since PostgreSQL refuses to run as root."""

import glob
import os
import shutil
import subprocess
import tempfile

BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def installed():
    return bool(BINARIES) and os.access(os.path.join(BINARIES[-1], "postgres"), os.X_OK)


class Postgres:
    def __init__(self):
        self.bin = BINARIES[-1]
        self.folder = tempfile.mkdtemp(prefix="felt-pg-")
        os.chmod(self.folder, 0o755)
        self.data = os.path.join(self.folder, "data")
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            shutil.chown(self.folder, self.user)
        self._run("initdb", "-D", self.data, "-U", "felt", "--auth=trust", "-E", "UTF8")
        self.start()
        self.databases = 0

    def start(self):
        self._run("pg_ctl", "-D", self.data, "-w", "-l", os.path.join(self.folder, "log"),
                  "-o", "-k %s -c listen_addresses='' -p 5432" % self.folder, "start")

    def halt(self):
        """The server stops (its data kept): the floor finds no database."""
        self._run("pg_ctl", "-D", self.data, "-w", "-m", "fast", "stop")

    def database(self):
        """The URL of a new, empty database of the cluster's."""
        self.databases += 1
        name = "floor%d" % self.databases
        self._run("createdb", "-h", self.folder, "-U", "felt", name)
        return "postgresql+psycopg://felt@/%s?host=%s" % (name, self.folder)

    def _run(self, tool, *args):
        cmd = [os.path.join(self.bin, tool), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--"] + cmd
        subprocess.run(cmd, check=True, capture_output=True, cwd=self.folder)

    def stop(self):
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)
