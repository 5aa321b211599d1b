# kiln: the two commands of the README are `make run` and `make test`; both set up .venv first.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.kiln-installed
LINT_STAMP := $(VENV)/.kiln-lint-installed

# The editable install maps each top-level package to its folder, so a package added since the
# last install needs a new one: the stamp records the packages it was made for.
PACKAGES := $(sort $(patsubst %/__init__.py,%,$(wildcard */__init__.py)))
ifneq ($(strip $(shell cat $(STAMP) 2>/dev/null)),$(strip $(PACKAGES)))
.PHONY: $(STAMP)
endif

.PHONY: venv run test lint typecheck

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	echo '$(PACKAGES)' > $@

$(LINT_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $@

# The main job: evaluate the bundled HumanEval samples on the embedded local Ray farm (--farm; no
# GPU needed);
# results go to examples/humaneval_samples.jsonl_results.jsonl, pass@k and throughput PNGs beside it.
run: venv
	$(BIN)/kiln eval examples/humaneval_samples.jsonl --k 1,2 --report --farm

test: venv
	$(BIN)/pytest -n 2 -q

lint: $(LINT_STAMP)
	$(BIN)/ruff check .

typecheck: $(LINT_STAMP)
	$(BIN)/mypy $(PACKAGES)
