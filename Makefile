# `make run` starts the app, `make test` runs every test. Both set everything up on a fresh
# Debian machine with Python 3.11: a virtual environment in .venv, the packages, the compiled
# translations, and (for the browser tests) Debian's Chromium, (for the store's tests) PostgreSQL.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The tests run in parallel (pytest-xdist): one worker per core (`make test JOBS=1` runs them one
# after another). tests/conftest.py says which tests each target runs and why (the markers).
JOBS ?= auto
PYTEST := $(PY) -m pytest -n $(JOBS)

.PHONY: run test css test-fast test-deep screenshots setup test-setup lint typecheck format translations \
	i18n-update js benchmark clean

$(PY):
	$(PYTHON) -m venv $(VENV) || { $(SUDO) apt-get update && $(SUDO) apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

translations: | $(PY)
	$(PY) -m scripts.i18n compile

setup: $(VENV)/.installed translations

run: setup
	$(PY) -m companion.serve

# The browser itself, and its headless shell (the same build), which the browser tests drive
# (tests/support/browser.py says why).
CHROMIUM_SHELL := /usr/lib/chromium/chromium-headless-shell
/usr/bin/chromium $(CHROMIUM_SHELL):
	$(SUDO) apt-get update
	$(SUDO) apt-get install -y chromium chromium-headless-shell fonts-noto-cjk

# The store's tests also run on a throwaway PostgreSQL server (scripts/throwaway_postgres.py).
/usr/lib/postgresql:
	$(SUDO) apt-get update
	$(SUDO) apt-get install -y postgresql

# What a user's `pip install .` downloads, as wheels in .wheels/ (ignored by git): the runtime
# requirements, what they require, and the build's own (setuptools, Babel). tests/test_package.py
# installs the app from this folder alone (--no-index), so a requirement pyproject.toml forgets
# fails there as it would on a fresh machine; the test environment's packages never leak in.
WHEELS := .wheels
$(WHEELS)/.filled: pyproject.toml | $(PY)
	rm -rf $(WHEELS)
	$(PY) -m pip wheel --quiet --wheel-dir $(WHEELS) . 'setuptools>=68' 'Babel>=2.12'
	rm -f $(WHEELS)/companion-*.whl
	touch $@

# tests/test_machines.py serves two machines through docs/nginx.conf (nginx -t, then for real).
/usr/sbin/nginx:
	$(SUDO) apt-get update
	$(SUDO) apt-get install -y nginx-light

test-setup: $(VENV)/.test-installed translations /usr/bin/chromium $(CHROMIUM_SHELL) /usr/lib/postgresql \
	/usr/sbin/nginx $(WHEELS)/.filled

# Everything but the deep runs: the linter, the type check, every test (browsers and PostgreSQL
# included) with the short property runs. The goal: under 6 minutes on 2 free cores
# (docs/performance.md, "Test time").
test: test-setup lint typecheck
	$(PYTEST) -m "not deep"

# The inner loop: no browser, no PostgreSQL, no deep runs.
test-fast: $(VENV)/.test-installed translations
	$(PYTEST) -m "not browser and not postgresql and not deep"

# The browser tests again, in the browser itself (not its headless shell), writing the
# screenshots to look at (screenshots/*.png; `make test` checks the same pages without them),
# the deep ones too (Serengeti's whole game on three phones shoots its end).
screenshots: test-setup
	COMPANION_SHOTS=1 $(PYTEST) -m browser

# The property tests at full depth (the hypothesis profile "deep") and the tests marked deep.
test-deep: test-setup
	$(PYTEST) -m "deep or hypothesis" --hypothesis-profile=deep

# The linter, the formatter's check and the type check: `make format` fixes what the formatter can.
lint: $(VENV)/.test-installed typecheck
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy over the app and the fixture game, as configured in pyproject.toml ([tool.mypy]).
typecheck: $(VENV)/.test-installed
	$(VENV)/bin/mypy

format: $(VENV)/.test-installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Re-extract the strings after editing code or templates, then translate the new entries.
i18n-update: | $(PY)
	$(PY) -m scripts.i18n update

# static/js/app.js, the one script the pages load, built from static/js/src (one file per concern):
# run after editing a source (tests/test_js_bundle.py fails until then).
# The bundles, then their minified twins (terser, on Node: `npm ci --prefix scripts/minify`
# once). Without terser the twins go stale and the server minifies the bundles itself (larger);
# tests/test_js_bundle.py says so.
js: | $(PY)
	$(PY) -m scripts.bundle_js
	@if [ -x scripts/minify/node_modules/.bin/terser ]; then $(PY) -m scripts.minify_js; \
	else echo "terser not installed (npm ci --prefix scripts/minify): the .min.js twins are stale"; fi

css: | $(PY)
	$(PY) -m scripts.bundle_css

/usr/bin/wrk:
	$(SUDO) apt-get update
	$(SUDO) apt-get install -y wrk

# The performance goals, measured against a bare Flask baseline, and push against polling with up
# to 8,000 phones held (about 25 minutes; not in `make test`).
benchmark: test-setup /usr/bin/wrk
	$(PY) -m scripts.benchmark

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
