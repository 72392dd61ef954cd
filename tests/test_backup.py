"""Backups: the command, and the rolling daily copies beside the database."""
import datetime
from pathlib import Path

from store import connect
from store.backup import rolling_backup
from test_rounds import BIG_COUNTS, BIG_TARGETS


def test_backup_command_copies_every_round(app, table, tmp_path):
    table.start_game()
    table.enter_quick_round(BIG_TARGETS, BIG_COUNTS)
    target = tmp_path / "copies" / "orchard-backup.db"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert f"to {target}" in result.output
    copy = connect(target)
    assert [row["score"] for row in copy.query("SELECT score FROM hands ORDER BY seat")] == [160, 80, 80, 80]
    assert list(copy.query("PRAGMA integrity_check")) == [{"integrity_check": "ok"}]


def test_rolling_backup_keeps_one_copy_a_day_for_a_week(app, table):
    table.start_game()
    database = app.config["DATABASE"]
    start = datetime.date(2026, 11, 1)
    for day in range(10):
        rolling_backup(database, today=start + datetime.timedelta(days=day))
    rolling_backup(database, today=start + datetime.timedelta(days=9))
    names = sorted(path.name for path in (Path(database).parent / "backups").iterdir())
    assert names == [f"orchard-2026-11-{day:02d}.db" for day in range(4, 11)]
