"""What the tests share (the benchmarks too): cheap apps, rounds saved through the round service,
pages read as parsed HTML, a table's steps over HTTP, and a real server over loopback."""
