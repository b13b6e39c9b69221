"""A costly result made once per test run, though pytest-xdist runs the tests that need
it in two processes (make test: -n 2): the first to ask makes it under a lock, the
others wait and read it (issue 20, item 6).  pytest-xdist's own grouping (--dist
loadgroup) does not group tests under pytest 9."""

import fcntl
import json


def once(tmp_path_factory, worker_id, name, make):
    """make(folder) -> a JSON value, made in `folder` once per run; the value."""
    if worker_id == "master":            # no pytest-xdist: nobody to share with
        return make(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent      # the run's, above each worker's
    with open(shared / (name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / (name + ".json")
        if not done.exists():
            folder = shared / name
            folder.mkdir(exist_ok=True)     # a worker that failed before may have begun it
            done.write_text(json.dumps(make(folder)))
        return json.loads(done.read_text())
