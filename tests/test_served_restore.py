"""Restores through the real server (`orchard serve`): a damaged file is one clear sentence, and a
refused file does not use up the address's allowance of new crews."""
import json
import re

import pytest

from support.loopback import Phone, ServerProcess

# Real `orchard serve` processes and their timeouts: in `make test`, not in `make check`.
pytestmark = pytest.mark.served

CREW_LIMIT = 2


@pytest.fixture
def server(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db", env={"ORCHARD_CREW_LIMIT": f"{CREW_LIMIT} per hour"}).start()
    yield server
    server.stop()


def _restore(phone, content):
    phone.get("/restore")
    return phone.post("/restore", files={"file": ("crew.json", content, "application/json")})


def _file_error(answer):
    found = re.search(r'<[^>]*id="error-file"[^>]*>(.*?)</', answer.body, re.S)
    return " ".join(found.group(1).split()) if found else None


def _export_with_a_round(phone):
    crew = phone.start_crew("Exported")
    game = phone.start_game(crew)
    phone.enter_round(game)
    return json.loads(phone.get(crew + "history/export.json").body)


def test_a_restore_with_two_open_revisions_of_a_round_is_one_clear_sentence(server):
    phone = Phone(server.base)
    data = _export_with_a_round(phone)
    rounds = data["games"][0]["rounds"]
    rounds.extend(dict(rounds[0], revision=rounds[0]["revision"] + step, status="entering") for step in (1, 2))
    answer = _restore(phone, json.dumps(data).encode())
    assert answer.status == 422
    assert _file_error(answer) == ("Nothing was restored. Game 1, round 1 has two revisions open for entry at "
                                   "once; live entry opens one at a time.")
    assert "UNIQUE" not in answer.body


def test_refused_restore_files_do_not_count_towards_the_crews_an_address_may_start(server):
    phone = Phone(server.base)
    for content in (b"not json at all", b"{}", b"[1, 2, 3]"):
        assert _restore(phone, content).status == 422
    for night in range(CREW_LIMIT):
        phone.get("/")
        assert phone.post("/crews", {"name": f"Night {night}"}).status == 303
    phone.get("/")
    refused = phone.post("/crews", {"name": "One too many"})
    assert refused.status == 429
    assert "started many crews lately" in refused.body
