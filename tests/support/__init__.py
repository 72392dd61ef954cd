"""Helpers shared by tests and benchmarks that talk to a real Orchard server over loopback."""
