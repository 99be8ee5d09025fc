# forcezoom — build, test, demo and install on Debian (bookworm) with Swift on PATH.
# `make` alone lists the targets. Everything here is safe to re-run.

SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  := $(DESTDIR)$(PREFIX)/bin
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR  := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

# Release binary. --static-swift-stdlib works with Swift 6.3 on bookworm: the binary
# links only libc/libm/libstdc++/libgcc_s, libpng16, libjpeg and libz (no libswiftCore.so),
# so it runs on a machine without a Swift toolchain. `release` checks this with ldd.
RELEASE_FLAGS ?= -c release --static-swift-stdlib
FZ        := .build/release/forcezoom
FZ_DEBUG  := .build/debug/forcezoom

# Where swift-argument-parser's GenerateManual plugin writes (it always writes here,
# no --allow-writing-to-package-directory needed). It builds the tool itself; it uses
# the debug configuration so that it never relinks the static release binary.
MAN_OUT  := .build/plugins/GenerateManual/outputs/forcezoom/forcezoom.1
MAN_DATE := $(shell git log -1 --format=%cs 2>/dev/null)

# System packages: headers + pkg-config for libpng/libjpeg; djpeg (reference decoder);
# Pillow (python3-pil, for /usr/bin/python3): a real APNG decoder and the thumbnail quality reference.
# git and ca-certificates let SwiftPM fetch swift-argument-parser on a bare machine.
DEPS := libpng-dev libjpeg62-turbo-dev pkg-config zlib1g-dev libjpeg-turbo-progs python3-pil git ca-certificates
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# `make bench`: the peers it times (vips, vipsthumbnail; ImageMagick convert/mogrify/compare;
# GraphicsMagick gm), hyperfine, GNU time for peak RSS, and a C compiler for bench/floor.c.
BENCH_DEPS := libvips-tools imagemagick graphicsmagick libjpeg-turbo-progs hyperfine time gcc libc6-dev \
              libjpeg62-turbo-dev libpng-dev pkg-config
BENCH_ARGS ?=

DEMO_IN  := Fixtures/photos/peek.jpg
DEMO_OUT := out/demo-peek.png

# The data scripts share apt's lock, so never run targets side by side (make -j).
.NOTPARALLEL:

.PHONY: help deps build release conformance photos fixtures test demo bench-deps bench man install uninstall clean

help: ## List the targets
	@echo "forcezoom make targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 16
	@echo "Variables: PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) FZ=$(FZ)"

deps: ## apt-get install the missing system packages (nothing if all present)
	@missing=""; \
	for p in $(DEPS); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: all present ($(DEPS))"; fi

build: deps ## Debug build (.build/debug/forcezoom)
	$(SWIFT) build

release: deps ## Release build, Swift stdlib linked statically (.build/release/forcezoom)
	$(SWIFT) build $(RELEASE_FLAGS)
	@if ldd $(FZ) | grep -q 'libswiftCore\.so'; then \
	  echo "warning: $(FZ) links libswiftCore.so dynamically"; fi
	@$(FZ) --version >/dev/null && echo "built $(FZ) ($$($(FZ) --version))"

conformance: deps ## Fetch decoder conformance images into .cache/conformance/
	Tools/conformance/fetch.sh
	python3 Tools/conformance/pngref.py
	Tools/conformance/jpegref.sh

photos: deps ## Fetch real photos from Debian packages into .cache/photos/
	Tools/photos/get-photos.sh

fixtures: build ## Remake Fixtures/generated from Tools/fixtures/fixtures.txt
	FZ=$(FZ_DEBUG) Tools/fixtures/make-fixtures.sh

# Tests read .cache/conformance and .cache/photos; the CLI tests run the debug binary,
# so build it first (swift test alone does not build the executable).
# No --parallel by default: swift-testing already runs tests concurrently, and XCTest's
# process-level --parallel has not been shown reliable here. Opt in: make test TEST_FLAGS=--parallel
TEST_FLAGS ?=
test: deps conformance photos ## Build and run all tests (fetches test data first)
	$(SWIFT) build
	FORCEZOOM_BIN=$(abspath $(FZ_DEBUG)) $(SWIFT) test $(TEST_FLAGS)

demo: release ## Crop Fixtures/photos/peek.jpg into out/demo-peek.png
	@mkdir -p out
	$(FZ) crop $(DEMO_IN) --at 62%,45% --size 400 -o $(DEMO_OUT) --json
	$(FZ) info $(DEMO_IN) $(DEMO_OUT)
	@echo "demo: wrote $(abspath $(DEMO_OUT))"

bench-deps: ## apt-get install the benchmark's peers and tools when missing
	@missing=""; \
	for p in $(BENCH_DEPS); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "bench-deps: all present"; fi

# Times forcezoom against vips, ImageMagick, GraphicsMagick and a C decode floor, side by
# side in one run (about 10-15 minutes), and writes BENCHMARKS.md. Run it on a quiet machine;
# BENCH_ARGS passes options to bench/bench.py (e.g. BENCH_ARGS="--quiet-wait 600 --runs 20").
bench: bench-deps release photos ## Benchmark against vips/ImageMagick/gm and write BENCHMARKS.md
	python3 bench/bench.py --fz $(FZ) $(BENCH_ARGS)

man: deps ## Generate the man page with argument-parser's GenerateManual plugin
	$(SWIFT) package plugin generate-manual --configuration debug $(if $(MAN_DATE),--date $(MAN_DATE))
	@test -s $(MAN_OUT) && echo "man page: $(MAN_OUT)"

install: release man ## Install binary, man page, completions under $(DESTDIR)$(PREFIX)
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(FZ) $(BINDIR)/forcezoom
	install -m 644 $(MAN_OUT) $(MANDIR)/forcezoom.1
	$(FZ) --generate-completion-script bash > $(BASHDIR)/forcezoom
	$(FZ) --generate-completion-script zsh  > $(ZSHDIR)/_forcezoom
	$(FZ) --generate-completion-script fish > $(FISHDIR)/forcezoom.fish

uninstall: ## Remove exactly what install put there
	rm -f $(BINDIR)/forcezoom $(MANDIR)/forcezoom.1 $(BASHDIR)/forcezoom \
	      $(ZSHDIR)/_forcezoom $(FISHDIR)/forcezoom.fish

clean: ## Remove build products and out/ (keeps .cache/ test data)
	$(SWIFT) package clean
	rm -rf out
