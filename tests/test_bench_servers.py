"""Every bench starts its server one way (issue 45.7): bench/serve.py's `served`, never a
ServerProcess of its own."""
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_every_bench_starts_its_server_through_served():
    own = sorted(path.name for path in BENCH.glob("*.py")
                 if path.name != "serve.py" and "ServerProcess" in path.read_text())
    assert own == []
