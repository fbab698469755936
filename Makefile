# Every target that needs the virtual environment makes it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install demo test test-fast test-postgres bench lint proto clean screenshots docs

# Two distributions, both editable: the SDK (sdk/, rage-sdk) and the referee (rage-arena), which depends on it.
$(VENV)/installed: pyproject.toml sdk/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	RAGE_PURE_PYTHON=1 $(BIN)/python -m pip install --quiet -e ./sdk -e ".[dev]"
	touch $@

# The SDK built again whenever one of its sources changed: its engine modules are compiled with mypyc when
# a C compiler is there (sdk/setup.py) into extension modules beside their sources, which Python imports
# in the sources' place (and mypyc reads the types of the modules they import). The dev tools hold its
# build requirements, so it builds here, without pip's build environment.
SDK_SOURCES := $(wildcard sdk/rage_sdk/*.py) sdk/setup.py

$(VENV)/compiled: $(VENV)/installed $(SDK_SOURCES)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e ./sdk
	touch $@

install: $(VENV)/compiled

# The main job: a league among the example bots, each its own gRPC process, then the rating table.
demo: install
	$(BIN)/rage league run examples/league.toml

# The suite runs on every core (pytest-xdist); a test that is long goes to a free worker.
XDIST := -n auto --dist worksteal

# The whole suite on the build installed (compiled where a C compiler is), then the engine's, the SDK's
# and the conformance tests again on the pure Python modules.
PURE_TESTS := tests/sdk tests/project/test_conformance.py

test: install
	$(BIN)/python -m pytest $(XDIST)
	RAGE_PURE_PYTHON=1 $(BIN)/python -m pytest $(XDIST) $(PURE_TESTS)

# The suite without the tests marked slow, for a quick loop while working.
test-fast: install
	$(BIN)/python -m pytest $(XDIST) -m "not slow"

# The tests that run on each database, against a throwaway PostgreSQL server (apt-get install postgresql).
test-postgres: install
	.ci/services/postgres.sh $(BIN)/python -m pytest $(XDIST) -k postgresql

bench: install
	$(BIN)/rage bench engine --players 4 --ruleset amigo --seconds 5
	RAGE_PURE_PYTHON=1 $(BIN)/rage bench engine --players 4 --ruleset amigo --seconds 5
	$(BIN)/rage bench search --players 4 --seconds 3
	RAGE_PURE_PYTHON=1 $(BIN)/rage bench search --players 4 --seconds 3
	$(BIN)/rage bench protocol --matches 1,8,32
	$(BIN)/rage bench league --matches 1,4,16
	$(BIN)/rage bench test
	$(BIN)/rage bench runner
	$(BIN)/rage bench contest

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
