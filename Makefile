# Tessera: `make play` and `make test` set everything up from a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORE_SOURCES := $(wildcard src/tessera/_core/*.cpp src/tessera/_core/*.hpp) CMakeLists.txt pyproject.toml

.PHONY: setup play test test-slow lint bench docs i18n clean

setup: $(STAMP)

$(STAMP): $(CORE_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: setup
	$(BIN)/tessera serve --host 127.0.0.1 --port 8000

test: setup
	bash scripts/ensure-system-packages
	$(BIN)/ruff check src tests benchmarks docs/_ext
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m pytest -n 2 -q -m "not slow and not packaging"
	$(BIN)/python -m pytest -q -m packaging tests/packaging

test-slow: setup
	$(BIN)/python -m pytest -q -m slow

# The style, the layers (pyproject.toml's [tool.importlinter]), and the structure checks:
# no import cycle between modules, no module over 800 lines (tests/test_architecture.py).
lint: setup
	$(BIN)/ruff check src tests benchmarks docs/_ext
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_architecture.py

bench: setup
	$(BIN)/python -m benchmarks

docs: setup
	$(BIN)/mkdocs build --strict -d site

# Re-extract the interface's messages (src/tessera/locale/*.pot) and merge them into each
# language's .po; translate what comes out untranslated (the catalogue test lists it).
i18n: setup
	$(BIN)/python -m tessera.i18n_extract

clean:
	rm -rf $(VENV) build dist site .pytest_cache .ruff_cache .mypy_cache .hypothesis
