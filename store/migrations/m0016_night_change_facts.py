"""m0016: a club night's log holds facts, the web words them (issue 37)."""
from .. import club_nights, old_night_words
from . import migrations


@migrations()
def m0016_night_change_facts(db):
    """A night's log line keeps its facts in columns: the stage it is about, the players it names
    (`players`, their ids as a JSON list: a swap's two, the night's first players, who joined, left
    or came back), a count (players drawn, tables started, stages played) and a run's `times`. Its
    words in `detail` are dropped where the page words those facts exactly so; any other line keeps
    them, and reads as before."""
    table = db["club_night_changes"]
    table.add_column("stage", int)
    table.add_column("players", str)
    table.add_column("count", int)
    table.add_column("times", int, not_null_default=1)
    names = {}
    for night_id, player_id, name in db.execute(
            "SELECT night_id, players.id, players.name FROM club_night_players"
            " JOIN players ON players.id = club_night_players.player_id").fetchall():
        names.setdefault(night_id, {})[player_id] = name
    for change_id, night_id, action, detail in db.execute(
            "SELECT id, night_id, action, detail FROM club_night_changes WHERE detail != ''").fetchall():
        found = old_night_words.facts(action, detail, names.get(night_id, {}))
        if found is not None:
            db.execute("UPDATE club_night_changes SET detail = '', stage = ?, players = ?, count = ?, times = ?"
                       " WHERE id = ?", [found["stage"], club_nights.ids(found["players"]), found["count"],
                                         found["times"], change_id])
