"""`python -m orchard` is the `orchard` command."""
from orchard.cli import main

main()
