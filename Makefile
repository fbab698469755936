# Every target that needs the virtual environment makes it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install demo test test-fast test-postgres bench lint proto clean screenshots docs

$(BIN)/rage: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(BIN)/rage

install: $(BIN)/rage

# The main job: a league among the example bots, each its own gRPC process, then the rating table.
demo: install
	$(BIN)/rage league run examples/league.toml

# The suite runs on every core (pytest-xdist); a test that is long goes to a free worker.
XDIST := -n auto --dist worksteal

test: install
	$(BIN)/python -m pytest $(XDIST)

# The suite without the tests marked slow, for a quick loop while working.
test-fast: install
	$(BIN)/python -m pytest $(XDIST) -m "not slow"

# The tests that run on each database, against a throwaway PostgreSQL server (apt-get install postgresql).
test-postgres: install
	.ci/services/postgres.sh $(BIN)/python -m pytest $(XDIST) -k postgresql

bench: install
	$(BIN)/rage bench engine --players 4 --ruleset amigo --seconds 5
	$(BIN)/rage bench search --players 4 --seconds 3
	$(BIN)/rage bench protocol --matches 1,8,32
	$(BIN)/rage bench league --matches 1,4,16
	$(BIN)/rage bench test
	$(BIN)/rage bench runner

# Regenerate sdk/rage_sdk/pb from proto/ (a test fails when they disagree).
proto: install
	$(BIN)/python proto/generate.py

# PNGs of the report's pages (not committed) from a small league, to see a change of look; needs chromium.
screenshots: install
	$(BIN)/python -m tests.screenshots screenshots

# The documentation site, into site/: a broken link or reference fails the build.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: install
	$(BIN)/ruff check sdk referee tests examples
	$(BIN)/ruff format --check sdk referee tests examples
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis demo screenshots site
