"""What the app does, a module per feature (crews, games, rounds, taps, phones, history, players,
ratings, records, transfer, allowances, health): the only callers of the store (SQL). The web layer
parses forms, calls one of these and draws what it returns; the rule engine (`scoring`) judges."""
