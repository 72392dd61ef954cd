"""m0020: a crew's and a game's house rules as one JSON value (issue 45, item 4), read and checked by
the engine's `HouseRules.from_json`, so a new rule is a field of the engine's, not a column in
every table, query, export and restore. The goal and a stage's hand limit stay readable by SQL
(history, stats, the spreadsheet) as columns computed from the value."""
from . import migrations

_RULES = ("json_object('goal', goal, 'tie_rule', tie_rule, 'min_bid', min_bid,"
          " 'redeal_moves_deal', json(CASE WHEN redeal_moves_deal THEN 'true' ELSE 'false' END))")
_OLD = ("goal", "tie_rule", "min_bid", "redeal_moves_deal")


@migrations()
def m0020_house_rules_as_one_value(db):
    db.execute("ALTER TABLE crews ADD COLUMN rules TEXT NOT NULL DEFAULT '{}'")
    db.execute(f"UPDATE crews SET rules = {_RULES}")
    db.execute("ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT '{}'")
    db.execute(f"UPDATE games SET rules = json_patch({_RULES}, CASE WHEN hand_limit IS NULL THEN '{{}}'"
               " ELSE json_object('hand_limit', hand_limit) END)")
    for column in _OLD:
        db.execute(f"ALTER TABLE crews DROP COLUMN {column}")
    for column in _OLD + ("hand_limit",):
        db.execute(f"ALTER TABLE games DROP COLUMN {column}")
    for column in ("goal", "hand_limit"):
        db.execute(f"ALTER TABLE games ADD COLUMN {column} INTEGER"
                   f" GENERATED ALWAYS AS (json_extract(rules, '$.{column}')) VIRTUAL")
