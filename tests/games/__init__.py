"""Browser tests that hold one driver per installed game and check the same thing in each (the
undo line after acting, what a waiting tap was): the core's own tests (tests/*.py,
tests/browser/) name no game and use the fixture game; a game's own tests live in tests/<game>/.
Adding a game adds its driver here."""
