"""A note's rule lives once (issue 45, item 5: `scoring.notes`): the note form and a restored file
refuse the same notes. A restore took a note with a control character that the form refuses."""
import pytest

from scoring import NOTE_MAX
from scoring import notes as note_rule
from support.exports import export_of, restore


@pytest.mark.parametrize("note, sentence", [
    ("Tab\there", None),  # whitespace runs together into one space: kept as "Tab here"
    ("Bell\x07", "A note cannot contain control characters."),
    ("x" * (NOTE_MAX + 1), f"A note is at most {NOTE_MAX} characters."),
])
def test_the_form_and_a_restored_file_take_the_same_notes(app, client, table, crew, note, sentence):
    game = table.start_game()
    game_id = game.rsplit("/", 1)[1]
    answer = client.post(crew + f"history/games/{game_id}/note", data={"text": note})
    assert (answer.status_code < 400) == (sentence is None), answer.status_code
    data = export_of(client, crew)
    data["games"][0]["note"] = note
    restored = restore(client, data)
    assert (restored.status_code == 303) == (sentence is None), restored.status_code
    if sentence:
        assert note_rule.problem(note_rule.clean(note)) == sentence
        assert "Game 1 has no proper note (text of at most 200 characters, no control characters)." in \
            restored.get_data(as_text=True)
    else:
        again = export_of(client, restored.headers["Location"].removesuffix("history"))
        assert again["games"][0]["note"] == "Tab here"
