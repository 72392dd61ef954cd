"""One blueprint per feature."""
