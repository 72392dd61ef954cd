"""What the tests and the bench scripts share to drive Orchard as players do: a server on a
loopback port and phones that talk to it over HTTP (`loopback`), a table entered through the app
(`table`, `rounds`), page text read as a player reads it (`html_text`), and a phone's browser
under Playwright (`browser`). It needs the test packages (requirements-test.txt); the app never
imports it."""
