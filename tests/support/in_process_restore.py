"""A restore's staging step in a thread of the test process, not a child process: the same checks
and the same staging file (store/restore.py's `_stage_and_answer`), spoken to through the same
`Staging`, without starting a Python for every file a test restores (`make test` restores
thousands). Tests that start a real server (`orchard serve`) keep the child process."""
import contextlib
import json
import os
import queue
import tempfile
import threading

from store import restore


class ThreadChild:
    """What `Staging` asks of its child process: stdin to write the file to and close, stdout to
    read its lines from, wait, kill and a return code."""

    def __init__(self, path, per_write):
        self.path, self.per_write = path, per_write
        self.raw = bytearray()
        self.lines = queue.Queue()
        self.returncode = None
        self.thread = None
        self.stdin = self

    def write(self, data):
        self.raw += data

    def close(self):
        def run():
            try:
                restore._stage_and_answer(bytes(self.raw), self.path, self.per_write,
                                          lambda value: self.lines.put(json.dumps(value) + "\n"))
                self.returncode = 0
            finally:
                self.lines.put(None)
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    @property
    def stdout(self):
        return iter(self.lines.get, None)

    def wait(self):
        if self.thread is not None:
            self.thread.join()
        return self.returncode

    def kill(self):
        pass  # the thread ends with the file


@contextlib.contextmanager
def staging_in_a_thread(raw):
    with tempfile.TemporaryDirectory(prefix="orchard-restore-") as folder:
        path = os.path.join(folder, "staged.db")
        with open(os.path.join(folder, "errors.txt"), "w+b") as errors:
            child = ThreadChild(path, restore.GAMES_PER_WRITE)
            try:
                yield restore.Staging(child, raw, path, errors)
            finally:
                child.wait()


def restore_in_process():
    """Every restore made from now on in this process stages its file in a thread."""
    restore.staging = staging_in_a_thread
