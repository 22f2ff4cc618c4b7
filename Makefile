# llmplan - plain GNU make.  `make` builds ./llmplan, `make check` runs every
# test and ends with "N passed, N failed".  Each MODE builds into its own
# directory (build/$(MODE)), so switching modes never needs a clean.
#
#   make [MODE=debug|release|asan|ubsan|coverage]   build ./llmplan
#   make run [ARGS=...]      build and start the program (the TUI on a tty)
#   make check               unit, golden, shell and corpus tests
#   make asan | ubsan        the tests under sanitizers
#   make valgrind            the unit runners and corpus replays under valgrind
#   make bench               evaluations per second and search wall time
#   make validate            calibration table (README) from the cases
#   make readme              README output and screen blocks from the binary
#   make fuzz | fuzz-run FUZZ=name SECS=n     libFuzzer targets (clang)
#   make lint                clang-format, cppcheck, layer rules
#   make deps                install the Debian packages that are missing
#   make install | uninstall PREFIX=... DESTDIR=...
#   make clean

MODE ?= debug
BUILD := build/$(MODE)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/llmplan
MANDIR ?= $(PREFIX)/share/man
VERSION := 0.1.0
SHARED ?= ../shared

.DELETE_ON_ERROR:
.SUFFIXES:

ifeq ($(V),1)
Q :=
else
Q := @
endif

# ---- dependencies (Debian packages) -------------------------------------
DEB_PACKAGES := libncurses-dev libsqlite3-dev libcsv-dev check libjansson-dev \
                pkg-config
DEPS_STAMP := build/.deps-ok

PKGS := sqlite3 jansson
NCURSES_PC = $(shell pkg-config --exists ncursesw 2>/dev/null && echo ncursesw || echo ncurses)

# Filter the _XOPEN_SOURCE=600 that ncursesw's .pc adds on Debian 12: we
# define 700 ourselves and -Werror would stop on the redefinition.
PKG_CFLAGS = $(filter-out -D_XOPEN_SOURCE=600 -D_XOPEN_SOURCE,$(shell pkg-config --cflags $(PKGS) $(NCURSES_PC) 2>/dev/null))
PKG_LIBS = $(shell pkg-config --libs $(PKGS) $(NCURSES_PC) 2>/dev/null) -lcsv -lm
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

# ---- flags --------------------------------------------------------------
# snprintf truncation is the intended, safe behaviour for fixed buffers.
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wvla -Wwrite-strings -Wcast-qual \
        -Wdouble-promotion -Wundef -Wno-format-truncation
HARDEN := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
BASE_CFLAGS := -std=c11 -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE \
               -DLLMPLAN_VERSION='"$(VERSION)"' -Isrc -I$(BUILD)/gen $(WARN) -MMD -MP
BASE_LDFLAGS := -pie -Wl,-z,relro,-z,now

ifeq ($(MODE),debug)
MODE_CFLAGS := -O2 -g $(HARDEN) -Werror
else ifeq ($(MODE),release)
MODE_CFLAGS := -O2 -g -DNDEBUG $(HARDEN)
else ifeq ($(MODE),asan)
MODE_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Werror
MODE_LDFLAGS := -fsanitize=address,undefined
else ifeq ($(MODE),ubsan)
MODE_CFLAGS := -O1 -g -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Werror
MODE_LDFLAGS := -fsanitize=undefined
else ifeq ($(MODE),coverage)
MODE_CFLAGS := -O0 -g --coverage
MODE_LDFLAGS := --coverage
else ifeq ($(MODE),fuzz)
# libFuzzer targets (make fuzz): clang, sanitizers, no -Werror (clang's
# warnings differ from the gcc the tree is kept clean with).
CC := clang
MODE_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer \
               -Wno-unknown-warning-option -DSEARCH_MAX_TRIED=20000u
MODE_LDFLAGS := -fsanitize=address,undefined
else
$(error unknown MODE '$(MODE)': debug, release, asan, ubsan, coverage, fuzz)
endif

ALL_CFLAGS = $(BASE_CFLAGS) $(MODE_CFLAGS) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(BASE_LDFLAGS) $(MODE_LDFLAGS) $(LDFLAGS)

# ---- sources ------------------------------------------------------------
CORE_SRC := $(sort $(wildcard src/core/*.c))
APP_SRC := $(sort $(wildcard src/util/*.c src/catalog/*.c src/plan/*.c \
                              src/export/*.c src/cli/*.c src/ui/*.c))
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
APP_OBJ := $(APP_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
MAIN_OBJ := $(BUILD)/src/main.o
LIBCORE := $(BUILD)/libcore.a

# Embedded at build time: the default catalog, seed plans, themes, schema.
EMBED_FILES := $(sort $(wildcard data/*.csv themes/*.theme \
                                 src/catalog/schema/*.sql))

TEST_CORE_SRC := $(sort $(wildcard tests/unit/core/*.c))
TEST_APP_SRC := $(sort $(wildcard tests/unit/app/*.c))
TEST_COMMON_SRC := $(sort $(wildcard tests/unit/common/*.c))
UNIT_CORE := $(BUILD)/tests/unit-core
UNIT_APP := $(BUILD)/tests/unit-app

# Fuzz targets: tests/fuzz/fuzz_<name>.c.  Each links twice: with the plain
# driver (replay-<name>, built by `make check` in every MODE, replays the
# corpus) and, in MODE=fuzz, with libFuzzer (fuzz_<name>).
FUZZ_NAMES := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
REPLAY_BINS := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/replay-%)
FUZZ_BINS := $(FUZZ_NAMES:%=build/fuzz/fuzz_%)
FUZZ ?= plan_ini
SECS ?= 60
.SECONDARY: $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/fuzz_%.o) $(BUILD)/tests/fuzz/driver.o

.PHONY: all run check check-unit check-golden check-shell check-themes \
        check-fuzz-corpus golden-update asan ubsan valgrind coverage bench \
        validate readme fuzz fuzz-build fuzz-run lint deps install uninstall clean

all: $(DEPS_STAMP) llmplan

# ./llmplan is the binary of the last MODE built (make asan puts the ASan
# build there for the tests); refresh it whenever it differs.
llmplan: $(BUILD)/llmplan FORCE
	$(Q)cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@; }

FORCE:

$(BUILD)/llmplan: $(MAIN_OBJ) $(APP_OBJ) $(LIBCORE)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(LIBCORE): $(CORE_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The embed tool runs on the build machine: plain cc, no sanitizers.
$(BUILD)/gen/embed: src/gen/embed.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=c11 -O1 -o $@ $<

$(BUILD)/gen/embedded.c: $(BUILD)/gen/embed $(EMBED_FILES)
	@echo "  EMBED   $@"
	$(Q)$(BUILD)/gen/embed $@ $(EMBED_FILES)

$(BUILD)/gen/embedded.o: $(BUILD)/gen/embedded.c
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-overlength-strings -c -o $@ $<

run: all
	./llmplan $(ARGS)

# ---- tests --------------------------------------------------------------
# Each tests/unit/{core,app}/check_*.c defines `Suite *suite_<name>(void)`;
# the list of suites is generated so adding a file is enough.
$(BUILD)/tests/%-suites.h: $(TEST_CORE_SRC) $(TEST_APP_SRC)
	@mkdir -p $(dir $@)
	$(Q)sed -n 's/^Suite \*\(suite_[a-z0-9_]*\)(void)$$/X(\1)/p' \
	    $(wildcard tests/unit/$*/*.c) > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%.o: tests/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Wno-missing-prototypes -Itests/unit -Itests/unit/common -c -o $@ $<

$(BUILD)/tests/unit-core-main.o: tests/unit/check_main.c $(BUILD)/tests/core-suites.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -DSUITES='"core-suites.h"' -I$(BUILD)/tests -c -o $@ $<

$(BUILD)/tests/unit-app-main.o: tests/unit/check_main.c $(BUILD)/tests/app-suites.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -DSUITES='"app-suites.h"' -I$(BUILD)/tests -c -o $@ $<

# The core runner links libcore.a and nothing else: if it links, core is pure.
$(UNIT_CORE): $(BUILD)/tests/unit-core-main.o $(TEST_CORE_SRC:%.c=$(BUILD)/%.o) $(TEST_COMMON_SRC:%.c=$(BUILD)/%.o) $(LIBCORE)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(CHECK_LIBS) -lm

$(UNIT_APP): $(BUILD)/tests/unit-app-main.o $(TEST_APP_SRC:%.c=$(BUILD)/%.o) $(TEST_COMMON_SRC:%.c=$(BUILD)/%.o) $(APP_OBJ) $(LIBCORE)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) $(CHECK_LIBS)

$(BUILD)/tests/fuzz/replay-%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/driver.o $(APP_OBJ) $(LIBCORE)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

check: all $(UNIT_CORE) $(UNIT_APP) $(REPLAY_BINS)
	$(Q)BUILD=$(BUILD) SHARED=$(SHARED) sh tests/run_all.sh

check-fuzz-corpus: $(REPLAY_BINS)
	$(Q)BUILD=$(BUILD) ONLY=corpus sh tests/run_all.sh

check-unit: all $(UNIT_CORE) $(UNIT_APP)
	$(Q)BUILD=$(BUILD) ONLY=unit sh tests/run_all.sh

check-golden: all
	$(Q)BUILD=$(BUILD) ONLY=golden sh tests/run_all.sh

# Rewrites the CLI goldens and the TUI screen goldens (which show model
# numbers, so a change to core, the search or data/ moves them): review
# the diff before committing.
golden-update: all
	$(Q)BUILD=$(BUILD) GOLDEN_UPDATE=1 ONLY=golden sh tests/run_all.sh
	$(Q)GOLDEN_UPDATE=1 sh tests/shell/test_tui_screens.sh | tail -n 1
	$(Q)README_UPDATE=1 sh tests/shell/test_readme_screens.sh
	$(Q)FIELDS_UPDATE=1 sh tests/shell/test_fields.sh | grep -v "^ok "; true

asan:
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  $(MAKE) --no-print-directory MODE=asan check

ubsan:
	$(Q)UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  $(MAKE) --no-print-directory MODE=ubsan check

valgrind: $(UNIT_CORE) $(UNIT_APP) $(REPLAY_BINS)
	$(Q)CK_FORK=no valgrind -q --leak-check=full --error-exitcode=1 $(UNIT_CORE)
	$(Q)CK_FORK=no valgrind -q --leak-check=full --error-exitcode=1 $(UNIT_APP)
	$(Q)out=$$(BUILD=$(BUILD) REPLAY_LIMIT=30 REPLAY_RUNNER="valgrind -q --leak-check=full --error-exitcode=1" \
	  sh tests/fuzz/replay.sh); echo "$$out"; ! echo "$$out" | grep -q '^FAIL'

# ---- fuzzing (clang, libFuzzer) ---------------------------------------------
# make fuzz                      build every target into build/fuzz/
# make fuzz-run FUZZ=name SECS=n run one; new inputs go to
#   build/fuzz-corpus/<name>/ (copy the useful ones to tests/fuzz/corpus/),
#   crashes to build/fuzz-artifacts/, the log to build/fuzz-logs/<name>.log
fuzz:
	$(Q)$(MAKE) --no-print-directory MODE=fuzz fuzz-build

fuzz-build: $(FUZZ_BINS)

build/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(APP_OBJ) $(LIBCORE)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

fuzz-run:
	$(Q)$(MAKE) --no-print-directory MODE=fuzz build/fuzz/fuzz_$(FUZZ)
	$(Q)FUZZ=$(FUZZ) SECS=$(SECS) sh tests/fuzz/run.sh

bench: all
	$(Q)sh tests/bench/run.sh ./llmplan

validate: all
	$(Q)python3 tests/validate_table.py --bin ./llmplan --shared $(SHARED) --loso
	$(Q)README_UPDATE=1 sh tests/shell/test_readme_screens.sh | grep -v '^ok '; true

# Every block between <!-- begin output: CMD --> / <!-- begin screen: KEYS -->
# and its end marker in README.md, rewritten from what ./llmplan prints.
readme: all
	$(Q)README_UPDATE=1 sh tests/shell/test_readme_screens.sh

# ---- lint ---------------------------------------------------------------
lint:
	$(Q)sh tests/lint.sh

# ---- install ------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(MANDIR)/man1
	install -m 0755 llmplan $(DESTDIR)$(BINDIR)/llmplan
	install -m 0644 llmplan.1 $(DESTDIR)$(MANDIR)/man1/llmplan.1
	for t in themes/*.theme; do install -m 0644 $$t $(DESTDIR)$(DATADIR)/themes/; done
	install -d $(DESTDIR)$(DATADIR)/plans
	for p in data/plans/*.ini; do install -m 0644 $$p $(DESTDIR)$(DATADIR)/plans/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/llmplan $(DESTDIR)$(MANDIR)/man1/llmplan.1
	rm -rf $(DESTDIR)$(DATADIR)

# ---- deps ---------------------------------------------------------------
# Installs what is missing when run as root on Debian; otherwise says what
# to install.  The stamp keeps every later make from asking dpkg again.
deps: $(DEPS_STAMP)

$(DEPS_STAMP):
	$(Q)missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "  DEPS   installing$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null || exit 1; \
	  else \
	    echo "llmplan: missing packages:$$missing (run: sudo apt-get install$$missing)" >&2; exit 1; \
	  fi; \
	fi
	@mkdir -p $(dir $@) && touch $@

clean:
	rm -rf build llmplan

-include $(shell find build/$(MODE) -name '*.d' 2>/dev/null)
