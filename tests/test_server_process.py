"""The tests' real servers (support/loopback.py `ServerProcess`): one that exits as it starts says
why. A run on 2026-12-06 failed with "the server exited with 1" and nothing more: its output had
gone to /dev/null."""
import pytest

from support.loopback import ServerProcess


@pytest.mark.slow
def test_a_server_that_exits_as_it_starts_says_what_it_said(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db", env={"ORCHARD_WORKERS": "x"})
    with pytest.raises(RuntimeError) as error:
        server.start()
    said = str(error.value)
    assert f"the server on port {server.port} exited with 1" in said
    assert "ORCHARD_WORKERS must be a whole number above 0, not 'x'." in said
