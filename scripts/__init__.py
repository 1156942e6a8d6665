"""The project's scripts: benchmarks, robustness checks, translations. Each runs from the
repository's root as a module (`python -m scripts.check_fuzz`), so they import the app, each
other and the tests' support package (tests/support) without editing sys.path."""
