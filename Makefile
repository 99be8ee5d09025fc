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
# Each function in a section of its own (Swift and C), so that lld can place the ones common
# commands run side by side (Package.swift's --symbol-ordering-file) and drop unused ones.
# Concrete generic types (Option<Int>, OptionGroup<EncoderFlags<Help>>, Result<...>) made by
# metadata accessors with their conformances passed in, not from mangled names: a mangled name
# has the runtime find each conformance by scanning every conformance record of the binary
# (about 180 K instructions a type), which was 4% of a DNG thumbnail and 11% of --version
# (callgrind: 93.8 M -> 90.1 M and 12.7 M -> 11.3 M instructions; issue 51). Costs 160 KB of code.
RELEASE_FLAGS ?= -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
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
# time (GNU /usr/bin/time) measures each hostile-input run's peak memory; util-linux's
# unshare and mount make the tmpfs for the full-disk tests; python3 writes Fixtures/hostile.
# libwebp-dev (libwebp, libwebpdemux) and libheif-dev (HEIC/HEIF/AVIF; Debian's libheif1 brings
# libde265, dav1d, aom and x265) are the WebP and HEIF decoders; webp (cwebp, dwebp, webpmux,
# img2webp) and libheif-examples (heif-enc, heif-convert) make the test files in .cache/formats
# and decode the references the tests compare against. liblcms2-dev is the colour engine
# (`--icc srgb`, CMYK JPEGs); libgs-common holds Ghostscript's default_cmyk.icc, the CMYK
# profile for CMYK JPEGs that carry none (AGPL, read at run time, never copied into the repo).
# python3-numpy computes the reference metrics `compare` is checked against (Tools/testkit);
# python3-jsonschema validates the JSON against docs/json (skipped where it is missing).
# libsixel-bin's sixel2png decodes what --show --graphics sixel writes (the sixel tests compare it).
DEPS := libpng-dev libjpeg62-turbo-dev libturbojpeg0-dev libimage-exiftool-perl pkg-config zlib1g-dev libjpeg-turbo-progs python3-pil python3-png git ca-certificates time python3 \
        libwebp-dev libheif-dev webp libheif-examples liblcms2-dev libgs-common python3-numpy python3-jsonschema libsixel-bin
# Camera RAW and DNG (issue 35): libraw-dev is the decoder (opened on first use: CFZRaw); libraw-bin's
# dcraw_emu, raw-identify and simple_dcraw are the tests' references and the bench's peers.
# Test DNGs are written by Tools/raw/make-dng.py with python3-numpy and python3-pil alone.
DEPS += libraw-dev libraw-bin
# GIF and BMP (issue 35): giflib; ImageMagick is the BMP tests' second oracle (Pillow 9.4 misreads RLE4).
DEPS += libgif-dev imagemagick
# TIFF (issue 35): libtiff-dev is the decoder; libtiff-tools (tiffcp, tiffset) and libvips-tools
# (vips: bit depths, premultiplied alpha, pyramids, the 200 MP tiled file) make .cache/formats/tiff.
DEPS += libtiff-dev libtiff-tools libvips-tools
# JPEG XL (issue 35): libjxl 0.7 to build against; cjxl/djxl/jxlinfo make and check the test files.
DEPS += libjxl-dev libjxl-tools
# compare's exit codes and pixel counts (issue 36): jq reads --json in the README's CI example,
# python3-pytest runs its pytest example; PyPI's pixelmatch (the Python port of mapbox/pixelmatch,
# not packaged by Debian) is what --metric pixelmatch is checked against, installed with pip for
# Debian's /usr/bin/python3 (the tests' python) by `make deps` (PIP_DEPS, pip_install).
DEPS += jq python3-pytest python3-pip
# Live Photos and motion photos (issue 50): ffmpeg (and ffprobe) make and check the test movies
# (Tools/formats/make-motion.py); forcezoom itself reads their boxes without FFmpeg.
DEPS += ffmpeg
# URL inputs (issue 52): libcurl4-openssl-dev's headers (libcurl4 is opened on the first URL);
# nginx-light and openssl serve the URL tests and bench rows on 127.0.0.1 (Tools/http/local-nginx.sh).
DEPS += libcurl4-openssl-dev nginx-light openssl
PIP_DEPS += pixelmatch==0.4.0
# $(call pip_install,TARGET,PACKAGES): pip installs for /usr/bin/python3 those of PACKAGES
# (name==version) it does not have, or says they are all present.
pip_install = missing=""; \
	for p in $(2); do /usr/bin/python3 -m pip show -q "$${p%%==*}" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "$(1) pip installing:$$missing"; \
	  $(SUDO) /usr/bin/python3 -m pip install -q --break-system-packages $$missing; \
	else echo "$(1): pip packages present"; fi
# S3 (issue 52): FZS3Tests' S3 server on 127.0.0.1 is PyPI's moto in server mode with SigV4
# checked (Tools/s3/moto_server.py; flask and flask-cors are its [server] extra), botocore (moto's
# dependency) is the independent signer, and curl carries the test requests.
DEPS += curl
PIP_DEPS += moto==5.2.5 flask flask-cors
# compare on folders (issue 36): python3-junitparser reads the junit.xml it writes (the tests).
DEPS += python3-junitparser
# HDR gain maps (issue 39): pillow-heif (PyPI; not packaged by Debian) reads HEIC auxiliary images,
# the tests' independent reader of Apple's hdrgainmap item. Its releases with auxiliary images need
# Pillow >= 10.1, newer than Debian's 9.4 that every other test reads with, so `make deps` installs it
# with its own Pillow into .cache/pillow-heif, and only the tests that use it put that on PYTHONPATH.
PILLOW_HEIF := pillow-heif==1.8.1
# PNG decoding (issue 38): ISA-L's streaming inflate and CRC-32 under our own PNG reader
# (Sources/CFZPNG/fz_png_read.c); libpng stays for writing. Runtime package: libisal2.
DEPS += libisal-dev
# HEVC tiles of HEIF grids straight into libde265 (issue 38): its headers and library (runtime
# package libde265-0, which libheif already depends on).
DEPS += libde265-dev
# Videos (issue 50): FFmpeg's libraries to build against (opened on first use: CFZVideo; runtime
# packages libavformat59 libavcodec59 libswscale6 libavutil57); ffmpeg makes the test videos and is
# their reference decoder; ffmpegthumbnailer is the bench's peer.
DEPS += libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg ffmpegthumbnailer
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# $(call apt_install,TARGET,PACKAGES): apt-get installs those of PACKAGES that dpkg does not
# know, or says they are all present. One recipe for deps, bench-deps and the test suites
# that bring their own services (cluster-test, term-test).
apt_install = missing=""; \
	for p in $(2); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "$(1) installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "$(1): all present"; fi

# `make bench`: the peers it times (vips, vipsthumbnail; ImageMagick convert/mogrify/compare;
# GraphicsMagick gm), hyperfine, GNU time for peak RSS, and a C compiler for bench/floor.c.
BENCH_DEPS := libvips-tools imagemagick graphicsmagick libjpeg-turbo-progs hyperfine time gcc libc6-dev \
              libjpeg62-turbo-dev libpng-dev pkg-config
# Video posters (issue 50): ffmpegthumbnailer and ffmpeg are the peers of the v4k, v1080 and vb20 rows.
BENCH_DEPS += ffmpegthumbnailer ffmpeg
# The bucket rows' peer (issue 52): the AWS CLI from PyPI, in its own venv under .cache (its
# pinned botocore would fight moto's in /usr/bin/python3); an `aws` already on PATH is used first.
BENCH_DEPS += python3-venv
AWSCLI_VENV := .cache/awscli
BENCH_ARGS ?=

DEMO_IN  := Fixtures/photos/peek.jpg
DEMO_OUT := out/demo-peek.png

# The data scripts share apt's lock, so never run targets side by side (make -j).
.NOTPARALLEL:

.PHONY: help deps build format lint release symbol-order cluster-test term-test report-test conformance photos formats heicgrids heicgrids-bench videos videos-bench fixtures hostile test test-sanitize test-sanitize-full fuzz-build fuzz-replay fuzz demo bench-deps bench man install uninstall clean

help: ## List the targets
	@echo "forcezoom make targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 16
	@echo "Variables: PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) FZ=$(FZ)"

deps: ## apt-get install the missing system packages (nothing if all present)
	@$(call apt_install,deps,$(DEPS))
	@$(call pip_install,deps,$(PIP_DEPS))
	@CACHED_KEY=$(PILLOW_HEIF) $(CACHED) pillow-heif '' sh -c 'test -f .cache/pillow-heif/pillow_heif/__init__.py || \
	  /usr/bin/python3 -m pip install -q --disable-pip-version-check --target .cache/pillow-heif $(PILLOW_HEIF)'

build: deps ## Debug build (.build/debug/forcezoom)
	$(SWIFT) build

release: deps ## Release build, Swift stdlib linked statically (.build/release/forcezoom)
	$(SWIFT) build $(RELEASE_FLAGS)
	@if ldd $(FZ) | grep -q 'libswiftCore\.so'; then \
	  echo "warning: $(FZ) links libswiftCore.so dynamically"; fi
	@$(FZ) --version >/dev/null && echo "built $(FZ) ($$($(FZ) --version))"

# Tools/release/symbol-order.txt, the functions common commands run, which the release link
# places side by side (Package.swift): remade from the current release binary under callgrind
# (a few minutes; needs valgrind and make photos). Rerun after large changes; a stale list
# costs peak RSS, never correctness.
symbol-order: release photos ## Remake Tools/release/symbol-order.txt (the release link's function order)
	python3 Tools/release/symbol-order.py --fz $(FZ)

# swift-format ships with the toolchain (`swift format`); .swift-format holds the house style.
# SwiftPM lets a target import its dependencies' dependencies, so Tools/lint/imports.py checks
# every target's imports against what `swift package describe` says it declares (the fuzz
# package's too, FORCEZOOM_FUZZ=1 exposing the product it uses); Tools/lint/lengths.py checks
# that files over 300 lines and functions over 80 say why (`// Length: ...`). Their own tests
# (Tools/lint/tests) run first. No build (23 s with the 2-core machine busy, most of it
# swift-format). Every check runs; lint fails if any did.
FORMAT_PATHS := Sources Tests Tools/fuzz/Sources Package.swift
format: ## Reformat the Swift sources in place with swift-format
	$(SWIFT) format format --in-place --parallel --recursive $(FORMAT_PATHS)

lint: ## swift-format lint (strict), undeclared imports, long files and functions without a reason
	@status=0; \
	$(SWIFT) format lint --strict --parallel --recursive $(FORMAT_PATHS) || status=1; \
	python3 -m unittest discover -s Tools/lint/tests || status=1; \
	python3 Tools/lint/imports.py || status=1; \
	FORCEZOOM_FUZZ=1 python3 Tools/lint/imports.py --package-path Tools/fuzz || status=1; \
	python3 Tools/lint/lengths.py $(FORMAT_PATHS) || status=1; \
	exit $$status

# `make cluster-test`: a one-machine Slurm cluster (Debian's slurm-wlm and munge, no systemd)
# runs Tools/cluster/thumbs.sbatch, the recipe in docs/clusters.md, as job arrays: outputs identical to
# one run, each input once in the journals, a cancelled task resumed (Tools/cluster/).
CLUSTER_DEPS := slurm-wlm munge python3
cluster-test: release ## Real Slurm job arrays run thumb --shard auto/--journal/--resume (installs slurm-wlm, munge)
	@$(call apt_install,cluster-test,$(CLUSTER_DEPS))
	$(SUDO) env FZ=$(FZ) Tools/cluster/cluster-test.sh

# `make term-test`: forcezoom in a real terminal. Xvfb (xvfb) runs xterm as a VT340 with 256
# colour registers (xterm); `crop --show` (auto-detected sixel) and `peek` draw in it, and the
# screenshot (xwd from x11-apps, xwdtopnm from netpbm, read by Pillow) must hold the peeks'
# exact pixels (Tools/term/xterm_test.py). libsixel-bin's sixel2png decodes sixel for the
# swift tests. About 20 s on the 2-core dev machine (three xterms: crop --show, peek, peek's r key), most of it waiting.
TERM_DEPS := xvfb xterm libsixel-bin x11-apps netpbm python3-pil
term-test: build ## xterm under Xvfb shows crop --show and peek; screenshot checked (installs xvfb, xterm, libsixel-bin, x11-apps, netpbm)
	@$(call apt_install,term-test,$(TERM_DEPS))
	FZ=$(FZ_DEBUG) /usr/bin/python3 Tools/term/xterm_test.py

# `make report-test`: compare's HTML report (compare EXPECTED_DIR ACTUAL_DIR --report) in a real
# browser. Headless Chromium (Debian's chromium) loads index.html from disk: screenshots must show
# a changed pair's expected, actual and difference pictures at their places (by colour, Pillow),
# each filter only its images, a click on a filter link (DevTools protocol, python3-websocket)
# likewise, and its net log no http(s) request (Tools/report/chromium_test.py). python3-junitparser
# reads junit.xml in the swift tests (CompareFolderCLITests).
REPORT_DEPS := chromium python3-pil python3-websocket python3-junitparser
report-test: build ## Chromium opens compare's HTML report from disk; screenshots checked (installs chromium, python3-websocket)
	@$(call apt_install,report-test,$(REPORT_DEPS))
	FZ=$(FZ_DEBUG) /usr/bin/python3 Tools/report/chromium_test.py

# Generated test data is made once per content of the scripts that make it (and the files they
# read): Tools/testdata/cached.sh keeps the sha256 of those inputs in a stamp and runs the
# scripts only when it differs. In a clone without .cache/NAME folders of its own (CI's fresh
# clone) the data lives outside the clone, in $${FORCEZOOM_DATA_CACHE:-$$HOME/.cache/forcezoom}/NAME-HASH,
# and .cache/NAME links there, so a later clone on the same machine reuses it.
CACHED := Tools/testdata/cached.sh
conformance: deps ## Fetch decoder conformance images into .cache/conformance/
	@$(CACHED) conformance Tools/conformance sh -ec \
	  'Tools/conformance/fetch.sh; python3 Tools/conformance/pngref.py; Tools/conformance/jpegref.sh'

photos: deps ## Fetch real photos from Debian packages into .cache/photos/
	@$(CACHED) photos 'Tools/photos/get-photos.sh Tools/photos/lib.sh' Tools/photos/get-photos.sh

formats: deps ## Make the WebP/HEIC/AVIF test files and their reference decodes in .cache/formats/
	@$(CACHED) 'formats jxl' 'Tools/formats Fixtures/generated' sh -ec 'Tools/formats/make-formats.sh; \
	  Tools/formats/make-tiff.sh --big; Tools/formats/make-jxl.sh; \
	  mkdir -p .cache/formats/gifbmp && /usr/bin/python3 Tools/formats/make-gif-bmp.py .cache/formats/gifbmp'

videos: deps ## Make the test videos (H.264, HEVC, VP9, AV1; MP4, MKV, WebM, AVI; rotated, HDR) in .cache/videos/
	@$(CACHED) videos Tools/video Tools/video/make-videos.sh

# The benchmark's videos: a 30 s 4K HEVC rotated 90, a 30 s 1080p H.264, 20 short clips (about 3 min).
videos-bench: videos
	Tools/video/make-videos.sh --bench

heicgrids: deps ## Make the HEIF grid test files (tiles from heif-enc) and references in .cache/heicgrid/
	@$(CACHED) heicgrid Tools/heicgrid Tools/heicgrid/make-grids.sh

# The 48 MP and 200 MP grids the benchmark crops and thumbnails (about 30 s, 116 MB).
heicgrids-bench: heicgrids
	Tools/heicgrid/make-grids.sh --bench

fixtures: build ## Remake Fixtures/generated from Tools/fixtures/fixtures.txt
	FZ=$(FZ_DEBUG) Tools/fixtures/make-fixtures.sh

hostile: ## Regenerate Fixtures/hostile/ (crafted broken and bomb files; byte-identical each time)
	python3 Tools/hostile/make-hostile.py

# Tests read .cache/conformance and .cache/photos; the end-to-end tests run the binary in
# FORCEZOOM_BIN (swift test alone does not build the executable).
# No --parallel by default: swift-testing already runs tests concurrently, and XCTest's
# process-level --parallel has not been shown reliable here. Opt in: make test TEST_FLAGS=--parallel
TEST_FLAGS ?=
# The end-to-end tests run once, on the release binary: the configuration users run (Swift's
# checks kept, no -Ounchecked), and what `make deb` packages. The debug binary is still built:
# term-test, report-test and fixtures run it, and it costs only the link once swift test has
# compiled every module in debug for the tests (`swift build` is run after the tests' build).
test: deps conformance photos formats heicgrids videos ## Build and run all tests (fetches test data first)
	$(SWIFT) build $(RELEASE_FLAGS)
	$(SWIFT) build --build-tests
	FORCEZOOM_BIN=$(abspath $(FZ)) FORCEZOOM_RELEASE_BIN=$(abspath $(FZ)) $(SWIFT) test --skip-build $(TEST_FLAGS)

# Tests under AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer (for the C
# shims; Swift's own checks trap anyway), in their own build folder. The CLI tests run the
# sanitized binary, so a leak or overflow in any run fails the test that made it.
# FORCEZOOM_SANITIZED widens the hostile-input CPU-time and memory limits (ASan's shadow
# memory and slower code), see Tests/EndToEndTests/HostileInputTests.swift.
SANITIZE_FLAGS := --scratch-path .build-asan --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
SANITIZE_ENV   := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                  LSAN_OPTIONS=suppressions=$(abspath Tools/sanitize/lsan.supp):print_suppressions=0 \
                  SWIFT_BACKTRACE=enable=no FORCEZOOM_SANITIZED=1
# `make test-sanitize` (CI): the suites whose code reaches C, by suite name (swift test --filter
# matches Target.Suite/test): every test of the targets over the codecs, the colour engine,
# rendering and the C process shims, and the end-to-end suites that feed hostile input to the
# binary (broken and bomb files, terminal replies, journals, locations, decode budgets, HEIF box
# counts, the BMP Suite's and GIF files through the binary, what libheif asserts on). The BMP and
# GIF readers' own suites (BMPTests, BMPMaskTests, GIFTests) are FZCodecsTests'. Then every hostile file and fuzz seed (and the corpus, when `make fuzz` kept one) runs
# once through the ASan fuzz target, which reaches the surfaces the tests do not (fuzz-replay).
# The rest is Swift over values that the sanitizers add nothing to, and 35-45 minutes:
# `make test-sanitize-full` runs the whole suite, before a release.
SANITIZE_TARGETS := FZCodecsTests|FZRenderTests|FZImageTests|FZSystemTests|FZCompareTests|FZFixturesTests|FZTerminalTests|FZOperationsTests
SANITIZE_SUITES  := HostileInputTests|TerminalHostileTests|JournalAttackTests|LocationAttackTests|DecodeBudgetCLITests|HEIFBoxCountCLITests|HEIFBoxCountGridCLITests|GIFBMPCLITests|LibheifAssertCLITests
SANITIZE_FILTER  := ^($(SANITIZE_TARGETS))\.|^EndToEndTests\.($(SANITIZE_SUITES))/
# fuzz-replay comes first, so that the output ends with swift test's closing lines.
test-sanitize: deps conformance photos formats heicgrids fuzz-replay ## Tests that reach C under ASan+UBSan (.build-asan/); hostile files and fuzz seeds through the fuzz target
	$(SWIFT) build $(SANITIZE_FLAGS)
	$(SANITIZE_ENV) FORCEZOOM_BIN=$(abspath .build-asan/debug/forcezoom) $(SWIFT) test $(SANITIZE_FLAGS) \
	  --filter '$(SANITIZE_FILTER)' $(TEST_FLAGS)

test-sanitize-full: deps conformance photos formats heicgrids ## The whole suite under ASan+UBSan (.build-asan/; 35-45 min, before a release)
	$(SWIFT) build $(SANITIZE_FLAGS)
	$(SANITIZE_ENV) FORCEZOOM_BIN=$(abspath .build-asan/debug/forcezoom) $(SWIFT) test $(SANITIZE_FLAGS) $(TEST_FLAGS)

# libFuzzer over the decode path (Tools/fuzz/): sniff, header, EXIF, crops, resample.
# SwiftPM's --sanitize=fuzzer links libFuzzer's main but instruments only C targets and the
# executable; -Xswiftc -sanitize=fuzzer adds coverage to the Swift layers too. -O: Swift's
# checks stay on (the release build's -Ounchecked would hide overflow traps). The target caps
# images at 4 MP and 64 MiB, so any single malloc over 512 MiB is a finding.
# New inputs go to .cache/fuzz/corpus, crashes/hangs/leaks to .cache/fuzz/artifacts/;
# copy each finding into Fixtures/hostile via Tools/hostile/make-hostile.py (regressions).
FUZZ_SECONDS ?= 300
FUZZ_FLAGS   ?=
FUZZ_BIN     := .build-fuzz/debug/fuzz-decode
FUZZ_SEEDS   := Fixtures .cache/fuzz/seeds $(wildcard .cache/conformance/png .cache/conformance/jpeg .cache/jxl)
FUZZ_ENV     := SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(abspath Tools/sanitize/lsan.supp):print_suppressions=0
# The target (FUZZ_OPT=-O, fuzz's speed; fuzz-replay builds it -Onone into .build-fuzz-replay,
# which compiles in about half the time and runs a few hundred files as well), and its seeds in
# .cache/fuzz/seeds. .cache/fuzz lives outside a fresh clone (Tools/testdata/cached.sh), so the
# corpus a fuzz run adds to is kept for the next clone's replay.
FUZZ_OPT     ?= -O
FUZZ_SCRATCH ?= .build-fuzz
fuzz-build: deps heicgrids
	FORCEZOOM_FUZZ=1 $(SWIFT) build --package-path Tools/fuzz --scratch-path $(FUZZ_SCRATCH) --sanitize=fuzzer \
	  --sanitize=address -Xswiftc -sanitize=fuzzer -Xswiftc $(FUZZ_OPT)
	@$(CACHED) fuzz ''
	@mkdir -p .cache/fuzz/corpus .cache/fuzz/artifacts
	/usr/bin/python3 Tools/fuzz/make-seeds.py .cache/fuzz/seeds

# The replay looks for crashes, leaks and hangs, not slow units: through the -Onone ASan target a
# real lossless JPEG XL seed takes 14 s of CPU and the 100,000-region PNG 41 s, so its timeout is
# 120 s (make fuzz, at -O, keeps 10 s for the units it finds slow).
# Every distinct file (by sha256: the seeds hold a copy of the hostile set) of Fixtures/hostile,
# the seeds and the corpus runs once through the ASan fuzz target, in batches on every core
# (Tools/fuzz/replay.sh); a crash, leak, timeout or over-large allocation fails it and names the
# file.
FUZZ_REPLAY := Fixtures/hostile .cache/fuzz/seeds .cache/fuzz/corpus
fuzz-replay: ## Run the hostile files, fuzz seeds and corpus once each through the ASan fuzz target
	@$(MAKE) --no-print-directory fuzz-build FUZZ_OPT=-Onone FUZZ_SCRATCH=.build-fuzz-replay
	@env $(FUZZ_ENV) Tools/fuzz/replay.sh .build-fuzz-replay/debug/fuzz-decode .cache/fuzz/replay.log $(FUZZ_REPLAY)

# FUZZ_FORK=N runs N worker processes (libFuzzer's fork mode) that go on past a crash, a
# timeout or an out-of-memory input (-ignore_crashes, -ignore_timeouts, -ignore_ooms): one
# run collects every distinct finding in .cache/fuzz/artifacts/ instead of stopping at the
# first (`make fuzz FUZZ_FORK=1 FUZZ_SECONDS=1800`).
FUZZ_FORK    ?=
FUZZ_FORK_FLAGS := $(if $(FUZZ_FORK),-fork=$(FUZZ_FORK) -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fuzz: fuzz-build ## Fuzz the decode path for FUZZ_SECONDS (default 300) under ASan, seeded from Fixtures/ (FUZZ_FORK=1: collect every crash)
	@echo "fuzz: $$(find -L $(FUZZ_SEEDS) -type f ! -name MANIFEST.tsv | wc -l) seed files, $$(find .cache/fuzz/corpus -type f | wc -l) in the corpus"
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(abspath Tools/sanitize/lsan.supp):print_suppressions=0 \
	  $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
	  -max_len=65536 -dict=Tools/fuzz/png-jpeg.dict -artifact_prefix=.cache/fuzz/artifacts/ \
	  -print_final_stats=1 $(FUZZ_FORK_FLAGS) $(FUZZ_FLAGS) .cache/fuzz/corpus $(FUZZ_SEEDS) 2>&1 | tee .cache/fuzz/last-run.log; \
	  status=$${PIPESTATUS[0]}; grep -E '^(Done|stat::number_of_executed_units|#[0-9]+: cov)' .cache/fuzz/last-run.log | tail -n 3; \
	  ls .cache/fuzz/artifacts/ | sed 's/^/fuzz: finding /'; exit $$status

demo: release ## Crop Fixtures/photos/peek.jpg into out/demo-peek.png
	@mkdir -p out
	$(FZ) crop $(DEMO_IN) --at 62%,45% --size 400 -o $(DEMO_OUT) --json
	$(FZ) info $(DEMO_IN) $(DEMO_OUT)
	@echo "demo: wrote $(abspath $(DEMO_OUT))"

bench-deps: ## apt-get install the benchmark's peers and tools when missing
	@$(call apt_install,bench-deps,$(BENCH_DEPS))
	@command -v aws >/dev/null || [ -x $(AWSCLI_VENV)/bin/aws ] || \
	  { /usr/bin/python3 -m venv $(AWSCLI_VENV) && $(AWSCLI_VENV)/bin/pip install -q awscli==1.45.11; }

# Times forcezoom against vips, ImageMagick, GraphicsMagick and a C decode floor, side by
# side in one run (about 10-15 minutes), and writes BENCHMARKS.md. Run it on a quiet machine;
# BENCH_ARGS passes options to bench/bench.py (e.g. BENCH_ARGS="--quiet-wait 600 --runs 20").
bench: bench-deps release photos heicgrids-bench videos-bench ## Benchmark against vips/ImageMagick/gm and write BENCHMARKS.md
	python3 bench/bench.py --fz $(FZ) $(BENCH_ARGS)

man: deps ## Generate the man page with argument-parser's GenerateManual plugin
	$(SWIFT) package plugin generate-manual --configuration debug $(if $(MAN_DATE),--date $(MAN_DATE))
	@# The version in the footer (.Os), and .Pp for the empty lines the plugin leaves between
	@# paragraphs (no mdoc: groff warns, and lintian with it).
	sed -i -e 's/^\.Os$$/.Os forcezoom $(VERSION)/' -e 's/^$$/.Pp/' $(MAN_OUT)
	@test -s $(MAN_OUT) && echo "man page: $(MAN_OUT)"

install: release man ## Install binary, man page, completions under $(DESTDIR)$(PREFIX)
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(FZ) $(BINDIR)/forcezoom
	install -m 644 $(MAN_OUT) $(MANDIR)/forcezoom.1
	$(FZ) --generate-completion-script bash > $(BASHDIR)/forcezoom
	$(FZ) --generate-completion-script zsh  > $(ZSHDIR)/_forcezoom
	$(FZ) --generate-completion-script fish > $(FISHDIR)/forcezoom.fish

# Debian package (issue 37). The version is written in one place, ForceZoom.swift's
# `static let version`: the binary's --version, the man page's footer (`make man` puts it in
# .Os) and the package's Version come from it, and make-deb.sh refuses a binary that says another.
# dpkg-dev: dpkg-shlibdeps (Depends from the binary's NEEDED libraries) and binutils' strip;
# lintian checks the package and fails on any error or warning; what it reports at the
# info level stays (lintian -I shows it): hardening-no-bindnow and hardening-no-fortify-functions
# (SwiftPM links without dpkg-buildflags' -z now and _FORTIFY_SOURCE) and spelling-error-in-binary
# (fragments of strings in the linked Swift runtime). debootstrap makes deb-test's bookworm root;
# libheif-examples' heif-enc makes its HEIC.
# `make deb` and `make deb-test` install nothing: lintian and debootstrap bring about 130
# packages onto the host, so they come from `make deb-deps`, which says what it installs first
# (CI's .ci/run calls it). Without them, deb and deb-test stop at once (before the release
# build) with one line naming `make deb-deps`. lintian runs as nobody where it can
# (Tools/deb/lintian.sh: a copy only nobody reads, setpriv), not as root.
VERSION  := $(shell sed -n 's/^ *static let version = "\(.*\)"$$/\1/p' Sources/ForceZoomCLI/ForceZoom.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB      := out/forcezoom_$(VERSION)_$(DEB_ARCH).deb
DEB_BUILD_DEPS := dpkg-dev lintian
DEB_DEPS := $(DEB_BUILD_DEPS) debootstrap libheif-examples
# $(call deb_need,TARGET,PACKAGES): fails, naming make deb-deps, when dpkg lacks one of PACKAGES.
deb_need = missing=""; \
	for p in $(2); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make $(1): missing$$missing; run 'make deb-deps' first (it apt-get installs $(DEB_DEPS) and what they need, about 130 packages)" >&2; \
	  exit 1; \
	fi
.PHONY: deb deb-deps deb-test deb-check deb-test-check
deb-deps: ## apt-get install what deb and deb-test need (dpkg-dev, lintian, debootstrap, libheif-examples: ~130 packages)
	@echo "deb-deps: make deb needs dpkg-dev (dpkg-shlibdeps, strip) and lintian; make deb-test needs debootstrap"
	@echo "deb-deps: and libheif-examples (heif-enc). lintian and debootstrap bring about 130 packages (perl modules...)."
	@$(call apt_install,deb-deps,$(DEB_DEPS))
deb-check:
	@$(call deb_need,deb,$(DEB_BUILD_DEPS))
deb-test-check:
	@$(call deb_need,deb-test,$(DEB_DEPS))
deb: deb-check release man ## Build out/forcezoom_VERSION_ARCH.deb (binary, man page, completions, docs) and lintian it (as nobody)
	Tools/deb/make-deb.sh $(FZ) $(MAN_OUT) $(VERSION) out
	Tools/deb/lintian.sh $(DEB)

# Installs the package in a fresh debootstrap bookworm root and uses it there, then purges it
# (Tools/deb/deb-test.sh). The root is made once into .cache/deb-test (40 s on a quiet machine,
# 2 min niced on a busy one); a run after that takes about 25 s, most of it apt-get unpacking
# the libraries (their .debs are kept in .cache/deb-test/archives).
# .cache/deb-test lives outside a fresh clone (Tools/testdata/cached.sh), kept while deb-test.sh
# is unchanged, so CI makes the root once per machine.
deb-test: deb-test-check deb ## Install the .deb in a bare bookworm chroot: crop, thumb, man, ldd; purge leaves nothing
	@$(CACHED) deb-test Tools/deb/deb-test.sh
	Tools/deb/deb-test.sh $(DEB)

uninstall: ## Remove exactly what install put there
	rm -f $(BINDIR)/forcezoom $(MANDIR)/forcezoom.1 $(BASHDIR)/forcezoom \
	      $(ZSHDIR)/_forcezoom $(FISHDIR)/forcezoom.fish

clean: ## Remove build products and out/ (keeps .cache/ test data)
	$(SWIFT) package clean
	rm -rf out .build-asan .build-fuzz .build-fuzz-replay
