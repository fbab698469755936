# Every target that needs the virtual environment makes it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install demo test bench lint proto clean

$(BIN)/rage: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(BIN)/rage

install: $(BIN)/rage

# The main job: a league among the example bots, each its own gRPC process, then the rating table.
demo: install
	$(BIN)/rage league run examples/league.toml

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/rage bench engine --players 4 --ruleset amigo --seconds 5
	$(BIN)/rage bench search --players 4 --seconds 3
	$(BIN)/rage bench protocol --matches 1,8,32
	$(BIN)/rage bench league --matches 1,4,16

# Regenerate sdk/rage_sdk/pb from proto/ (a test fails when they disagree).
proto: install
	$(BIN)/python proto/generate.py

lint: install
	$(BIN)/ruff check sdk referee tests examples
	$(BIN)/ruff format --check sdk referee tests examples
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis demo
