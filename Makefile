# benchbook: `make run` runs the investigation notebook headless and writes
# the executed notebook and its HTML; `make test` passes the tests. Both set
# up what is missing first (scripts/setup.sh: Go, gcc, Debian's Jupyter).
SHELL := /bin/sh
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
BIN := bin/benchbook
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
NOTEBOOK := notebooks/investigation.ipynb
PUBLISHED := notebooks/published/investigation.ipynb
OUT := out

.PHONY: all setup setup-test build install run test test-measure test-measure-go test-measure-integration test-fresh test-fleet test-go fuzz mutate test-integration check-generated bench bench-targets bench-makerun bench-testload bench-start soak clean

all: build

setup:
	@scripts/setup.sh

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) .

# The kernelspec for Jupyter (honours JUPYTER_DATA_DIR).
install: build
	$(BIN) install --user

run: setup install
	@mkdir -p $(OUT)
	$(BIN) run $(NOTEBOOK) -o $(OUT)/investigation.ipynb --html $(OUT)/investigation.html
	$(BIN) verify $(OUT)/investigation.ipynb
	$(BIN) compare $(PUBLISHED) $(OUT)/investigation.ipynb
	@echo
	@echo "executed notebook: $(OUT)/investigation.ipynb"
	@echo "HTML:              $(OUT)/investigation.html"
	@echo "open it in Jupyter: jupyter notebook $(OUT)/investigation.ipynb$$( [ "$$(id -u)" = 0 ] && echo ' --allow-root') (kernel: Go (benchbook))"

# make test: everything that does not need a quiet machine; the tests that
# really measure (internal/measuretest's Gate, pytest's measure marker) skip.
test: setup-test build check-generated test-go fuzz test-integration

# make test-measure: only the tests that really measure (BENCHBOOK_MEASURE=1),
# the Go ones one package at a time (they would measure each other), then
# pytest -m measure. CI runs it after make test.
test-measure: setup-test build test-measure-go test-measure-integration

test-measure-go:
	scripts/measure-tests.sh

test-measure-integration: build
	BENCHBOOK_MEASURE=1 BENCHBOOK_BIN=$(CURDIR)/$(BIN) /usr/bin/python3 -m pytest -q -p no:cacheprovider -m measure tests

setup-test:
	@scripts/setup.sh --browser

check-generated:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: the files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) generate ./stdlib/symbols ./internal/records ./schema
	@git diff --exit-code -- stdlib/symbols internal/records schema || { echo "generated files are stale: run go generate ./stdlib/symbols ./internal/records ./schema"; exit 1; }

# Packages in parallel: what measures is gated (make test-measure runs it
# one package at a time).
test-go:
	$(GO) test -count=1 ./...
	cd third_party/zmq4 && $(GO) test -count=1 -run 'Patch|Fuzz' .

# Every fuzz target for FUZZTIME each (scripts/fuzz.sh: one line a target,
# and where a failing input was written); FUZZTIME=60s make fuzz for longer.
FUZZTIME ?= 2s
fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

# Known bugs put back one at a time into a scratch copy of the tree, each
# against the suite that should catch it (scripts/mutate.sh: one line a
# mutant, caught or SURVIVED; exits 1 if any survives). MUTANTS=holm- runs
# the mutants whose names start so.
MUTANTS ?=
mutate:
	scripts/mutate.sh $(MUTANTS)

test-integration: build
	BENCHBOOK_BIN=$(CURDIR)/$(BIN) /usr/bin/python3 -m pytest -q -p no:cacheprovider tests

# The README's two commands on a Debian 12 minbase root (debootstrap, chroot).
test-fresh:
	scripts/test-fresh.sh

# benchbook fleet on a real one-node Slurm on localhost (as root; installs
# Debian's Slurm and munge, starts and stops its own daemons).
test-fleet:
	scripts/test-fleet.sh

# 3000 cells and 50 %bench runs in one session: does the kernel grow?
soak: build
	BENCHBOOK_BIN=$(CURDIR)/$(BIN) /usr/bin/python3 bench/soak.py

# Speed targets, measured side by side in one run (never in unit tests).
bench:
	$(GO) test -run '^$$' -bench . -benchtime 20x ./bench/...

# Issue 19's targets end to end: right headlines out of N real
# before/afters, time to the headline (run it on a quiet machine).
TRIALS ?= 20
bench-targets: build
	BENCHBOOK_BIN=$(CURDIR)/$(BIN) /usr/bin/python3 bench/targets.py --trials $(TRIALS) --html

# make run's notebook against the tree before issue 19 (13a8548), side by
# side in one run (ROUNDS pairs; run it on a quiet machine).
bench-makerun:
	bench/makerun.sh

# make test three times while two busy loops run, beside a quiet run
# (issue 21's target; about 25 minutes).
bench-testload:
	bench/testload.sh

# Start to kernel_info and an empty cell's round trip, against ipykernel in
# the same run (Debian's python3-ipykernel), as ratios.
bench-start: build
	BENCHBOOK_BIN=$(CURDIR)/$(BIN) /usr/bin/python3 bench/startup.py

clean:
	rm -rf bin $(OUT)
