"""Export and restore: a crew's history or one game out as CSV (one row per player per counted
round) and as JSON (everything a restore needs, but not the crew's link), and a JSON export in
again as a new crew with a new link of its own.

A restore's writes are many short transactions, opened here, each one step of store/restore.py's
(whose comment tells the whole of it): the crew, a few games at a time, then its link; a failure
part way removes what is in, a few games at a time too."""
import json
import time

from store import crews as crew_store
from store import export as crew_export
from store import get_db, write
from store import restore as crew_restore
from store.restore import NotJson, RestoreError

from .refusals import Refused


def csv_chunks(crew_id, game_id=None):
    """The crew's (or one game's) CSV text in pieces, to stream, header first."""
    return crew_export.csv_chunks(crew_id, game_id)


def json_text(crew_id, game_id=None):
    """The crew's (or one game's) JSON export as one line of text, compact (a long history is
    tens of megabytes; any JSON viewer lays it out again)."""
    body = json.dumps(crew_export.export(crew_id, game_id), ensure_ascii=False, separators=(",", ":"))
    return body + "\n"


def restore(source):
    """An export (the file's bytes, or its parsed JSON) stored as a new crew; returns its row with
    its new token and its number of games. Refused (422, the file's field) when it is not JSON, or
    not a whole, consistent export: nothing is stored then."""
    try:
        return _restore(source)
    except NotJson as error:
        raise Refused(str(error), 422, field="file") from None
    except RestoreError as error:
        raise Refused(f"Nothing was restored. {error}", 422, field="file") from None


def _restore(source):
    if not isinstance(source, bytes):
        source = json.dumps(source, ensure_ascii=False).encode("utf-8", "surrogatepass")
    db = get_db()
    _remove_leftovers(db)
    marker = crew_restore.new_marker()
    with crew_restore.staging(source) as staging:
        try:
            crew_id, games = _copy_while_staged(db, staging, marker)
            with write(db):  # the crew appears, whole, with its club nights and its link
                token = crew_restore.link(db, crew_id)
        except BaseException as error:
            staging.stop()
            _remove_marked(db, marker)
            failure = staging.failure(error)
            if failure is None:
                raise
            raise failure from None
        finally:
            crew_restore.detach(db)
    return {**crew_store.crew_by_token(token), "games": games}


def _copy_while_staged(db, staging, marker):
    """Copy the games in as the child process stages them; (crew id, games)."""
    crew_id, copied = None, 0
    for staged in staging.counts():
        if crew_id is None:
            crew_restore.attach(db, staging.path)
            with write(db):
                crew_id = crew_restore.copy_crew(db, marker)
        while copied + crew_restore.GAMES_PER_WRITE <= staged:
            copied = _copy_games(db, crew_id, copied, copied + crew_restore.GAMES_PER_WRITE)
    games = staging.games()
    while copied < games:
        copied = _copy_games(db, crew_id, copied, min(copied + crew_restore.GAMES_PER_WRITE, games))
    return crew_id, games


def _copy_games(db, crew_id, done, upto):
    """Staged games done + 1 to upto in, in one write transaction; then a save waiting for the
    write lock takes it. Returns upto."""
    with write(db):
        crew_restore.copy_games(db, crew_id, done, upto)
    time.sleep(0.001)
    return upto


def _remove_leftovers(db):
    """Delete what restores cut off by a dying process left behind (crews that never got a link)."""
    for marker in crew_restore.leftover_markers(db):
        _remove_marked(db, marker)


def _remove_marked(db, marker):
    """Delete a crew still being restored, a few games per transaction."""
    crew_id = crew_restore.marked_crew(db, marker)
    if crew_id is None:
        return
    with write(db):
        crew_restore.remove_nights(db, crew_id)
    gone = False
    while not gone:
        with write(db):
            gone = crew_restore.remove_games(db, crew_id)
