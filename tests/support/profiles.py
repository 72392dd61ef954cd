"""How much a property test tries: the full run in `make test`, a short one in `make check`
(which sets ORCHARD_TESTS=check). Tests without a count of their own take hypothesis's profile,
loaded in conftest.py; tests with one write `examples(200)`."""
import os

from hypothesis import settings

CHECK = os.environ.get("ORCHARD_TESTS") == "check"

settings.register_profile("check", max_examples=20)
settings.register_profile("full", max_examples=100)
settings.load_profile("check" if CHECK else "full")


def examples(full, check=None):
    """`full` examples in `make test`; in `make check`, `check` (a fifth of `full`, at least 5)."""
    if not CHECK:
        return full
    return check if check is not None else max(5, full // 5)
