# Every target that needs the virtual environment makes it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install demo test bench lint clean

$(BIN)/rage: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(BIN)/rage

install: $(BIN)/rage

demo: install
	$(BIN)/rage demo

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/rage bench engine --players 4 --ruleset amigo --seconds 5

lint: install
	$(BIN)/ruff check sdk referee tests examples
	$(BIN)/ruff format --check sdk referee tests examples
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
