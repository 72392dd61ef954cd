"""`python -m scoring pile|round|trick|bid [--json]`: the rule engine's command line, the same as
`orchard score` (scoring/command_line.py)."""
from scoring.command_line import main

raise SystemExit(main())
