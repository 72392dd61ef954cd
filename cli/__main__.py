"""`python -m cli` is the `orchard` command."""
from cli import main

main()
