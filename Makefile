# dscope -- DTrace for Linux.  `make` builds build/dscope; `make check` runs
# every test (unit tests under ASan/UBSan, then D scripts against the live
# kernel).  Dependencies are Debian packages: scripts/install-deps.sh.

CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	   -Wno-missing-field-initializers -Iinclude -Isrc -fvisibility=hidden
# libmicrohttpd (and libcrypt) are not linked: rt/metrics.c opens them
# when -x metrics is used, so that other runs do not load GnuTLS.
LDLIBS  := -lbpf -lelf -lz -lpthread
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -Wno-format-truncation

B       := build
LIB_SRC := $(sort $(filter-out src/cmd/%,$(wildcard src/*/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
SAN_OBJ := $(LIB_SRC:%.c=$(B)/san/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
TARGETS := $(patsubst tests/targets/%.c,$(B)/targets/%,$(wildcard tests/targets/*.c))
HDRS    := $(wildcard include/*.h src/*/*.h)

all: deps-ok $(B)/dscope $(TARGETS) $(B)/targets/napper-nofp

deps-ok:
	@test -f /usr/include/bpf/libbpf.h -a -f /usr/include/libelf.h -a -f /usr/include/microhttpd.h || { \
	  echo "dscope: missing build dependencies; run: sudo scripts/install-deps.sh" >&2; \
	  exit 1; }

$(B)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/san/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) -c -o $@ $<

# Made afresh: `ar r` into an old archive would keep the objects of
# source files since renamed or removed.
$(B)/libdscope.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/dscope: $(B)/src/cmd/main.o $(B)/libdscope.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/unit-tests: $(UNIT_SRC) $(SAN_OBJ) $(HDRS)
	$(CC) $(CFLAGS) $(SAN) -Itests/unit -o $@ $(UNIT_SRC) $(SAN_OBJ) $(LDLIBS)

# Traced programs: no optimisation that would merge or drop the calls a
# test counts, frame pointers kept so the tests can compare stacks.
$(B)/targets/%: tests/targets/%.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -fno-omit-frame-pointer -fno-inline -o $@ $<

# dlopen() is in libc from glibc 2.34; Debian 11's 2.31 wants -ldl.
$(B)/targets/drv: tests/targets/drv.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -fno-omit-frame-pointer -fno-inline -o $@ $< -ldl

# The exception: USDT operands as an optimiser writes them (scaled index,
# rip-relative symbols), which -O0's stack slots never show.
$(B)/targets/usdtopt: tests/targets/usdtopt.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -o $@ $<

# The same napper optimised and without frame pointers: the .eh_frame
# walk must get through the executable's own frames as well as libc's.
$(B)/targets/napper-nofp: tests/targets/napper.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -o $@ $<

# Spinning in a call chain through libc, for system-wide ustack(): built
# as Debian builds libc, optimised and without frame pointers.
$(B)/targets/spinsort $(B)/targets/spinwalk: $(B)/targets/%: tests/targets/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -o $@ $<


# objdump against the x86-64 length decoder (tests/sh/x86insn.sh)
$(B)/x86insn-check: tests/tools/x86insn_check.c $(B)/libdscope.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The file parsers' fuzz harnesses as plain replayers (gcc, sanitizers):
# make check replays tests/fuzz/regress/NAME/ through them.
FUZZ_FILE_TARGETS := elf ehframe usdt usdt_args debugfile perfmap maps x86insn webconfig ctf
REPLAY_BINS := $(FUZZ_FILE_TARGETS:%=$(B)/replay/fuzz_%)

$(B)/replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_file.h $(SAN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) -o $@ $< tests/fuzz/replay.c $(SAN_OBJ) $(LDLIBS)

# The folders' import rules first (scripts/check-layout.sh), then the tests.
check: all $(B)/unit-tests $(B)/x86insn-check $(REPLAY_BINS)
	@scripts/check-layout.sh
	@tests/run.sh

# The same tests in a qemu guest running Debian 12's 6.1 kernel
# (tests/vm/run; VM_KERNEL picks another).  Built here first: the guest
# only runs what the host compiled.
check-vm: vm-deps
	@tests/vm/run $(if $(VM_KERNEL),--kernel $(VM_KERNEL)) $(if $(VM_TIMEOUT),--timeout $(VM_TIMEOUT)) -- tests/run.sh

# What a guest runs, built on the host; .ci/run builds it before starting
# two guests at once, so that neither make builds while the other reads.
vm-deps: all $(B)/unit-tests $(B)/x86insn-check $(REPLAY_BINS)

# The kernel-facing tests only (tests/vm/kernel-tests), in a guest.
check-vm-kernel: all
	@tests/vm/run $(if $(VM_KERNEL),--kernel $(VM_KERNEL)) $(if $(VM_TIMEOUT),--timeout $(VM_TIMEOUT)) -- \
		tests/run.sh $$(grep -v '^#' tests/vm/kernel-tests)

peer: all
	../shared/peer-suite/run --dscope $(B)/dscope

# As a packager expects: `make install PREFIX=/usr DESTDIR=$pkgdir`.  The
# binary, its manual page and the example scripts; the D library (the
# types and translators of psinfo_t, fileinfo_t, ...) is compiled into
# the binary (front/dlib.c), so no library directory is installed or read
# (-xlibdir is refused).  tests/sh/install.sh installs into a DESTDIR and
# runs what it installed.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DOCDIR  ?= $(PREFIX)/share/doc/dscope
INSTALL ?= install

install: $(B)/dscope
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 755 $(B)/dscope $(DESTDIR)$(BINDIR)/dscope
	$(INSTALL) -m 644 docs/dscope.1 $(DESTDIR)$(MANDIR)/man1/dscope.1
	$(INSTALL) -m 644 examples/*.d examples/README.md $(DESTDIR)$(DOCDIR)/examples/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/dscope $(DESTDIR)$(MANDIR)/man1/dscope.1
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(B)

.PHONY: all deps-ok check check-vm check-vm-kernel vm-deps peer install uninstall clean bench \
	bench-bin bench-vm bench-system

# dscope against bpftrace, side by side (root; ~10 minutes; not part of
# check).  Results and method: bench/RESULTS.md.
bench: bench-bin
	python3 bench/bench.py --dscope $(B)/dscope --bin $(B)/bench $(BENCH_ARGS)

bench-bin: all
	@mkdir -p $(B)/bench
	$(CC) -O2 -Wall -Wextra -Werror -o $(B)/bench/loop bench/loop.c
	$(CC) -O2 -Wall -Wextra -Werror -DBENCH_NO_SDT -o $(B)/bench/loop-nosdt bench/loop.c
	$(CC) $(CFLAGS) -o $(B)/bench/floor bench/floor.c -lbpf
	$(CC) $(CFLAGS) -o $(B)/bench/handload bench/hand/handload.c -lbpf
	clang-14 -O2 -g -target bpf -I/usr/include/$(shell $(CC) -dumpmachine) \
		-c -o $(B)/bench/hand.bpf.o bench/hand/hand.bpf.c

# The whole-system cost: a clean build of this tree untraced and traced
# system-wide by each tool (root; three clean builds a round, 3 rounds).
bench-system: all
	python3 bench/system.py --dscope $(B)/dscope $(BENCH_ARGS)

# The attach phases in the Debian 12 6.1 guest (tests/vm/run), both tools
# in the same guest: under TCG only the ratios mean anything.  The tables
# are printed (what the guest writes to its overlay is lost with it).
BENCH_VM_ONLY ?= attach,attach-libc,fbt-vfs,fbt-vfs-kfunc,fbt-tcp,fbt-all
bench-vm: bench-bin
	@tests/vm/run $(if $(VM_KERNEL),--kernel $(VM_KERNEL)) --timeout 3600 -- \
		python3 bench/bench.py --dscope $(B)/dscope --bin $(B)/bench \
		--only $(BENCH_VM_ONLY) $(BENCH_ARGS)

# libFuzzer over the front end and the code generator, and over every
# parser of a file a traced process controls (clang; no kernel loading):
# tests/fuzz/README.md.  `make fuzz` builds build/fuzz/ and the seeds of
# the file parsers (build/fuzz/seeds/, from this system's libraries);
# `make fuzz-smoke` replays the regressions and fuzzes each target for
# FUZZ_SECONDS.
FUZZ_CC    ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all \
	      -fno-omit-frame-pointer
# No -Werror: the gcc build polices warnings; clang's extra ones must not
# stop a fuzz run.
FUZZ_FLAGS := -O1 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	      -Wno-missing-field-initializers -Iinclude -Isrc $(FUZZ_SAN)
FUZZ_OBJ   := $(LIB_SRC:%.c=$(B)/fuzz/%.o)
# One per parser of outside input (FUZZ_FILE_TARGETS, above):
# tests/fuzz/fuzz_NAME.c
FUZZ_BINS  := $(B)/fuzz/fuzz_compile $(B)/fuzz/fuzz_compile_opts \
	      $(FUZZ_FILE_TARGETS:%=$(B)/fuzz/fuzz_%)
FUZZ_SECONDS ?= 60

$(B)/fuzz/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_file.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

$(B)/fuzz/fuzz_compile_opts: tests/fuzz/fuzz_compile.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_OPTIONS -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz: deps-ok $(FUZZ_BINS) $(B)/fuzz/seeds/.done

$(B)/fuzz/seeds/.done: tests/fuzz/seeds.sh $(B)/targets/usdtprog $(B)/targets/usdtopt
	tests/fuzz/seeds.sh $(B)/fuzz/seeds
	@touch $@

# The regression inputs are replayed first, each whole (some are larger
# than the 4 KiB the fuzzer generates); then FUZZ_SECONDS of fuzzing from
# the seeds.  New inputs go to build/fuzz/corpus, crashes to
# build/fuzz/crash-* (and make fails).
fuzz-smoke: fuzz
	@mkdir -p $(B)/fuzz/corpus
	$(B)/fuzz/fuzz_compile -timeout=10 tests/fuzz/regress/*.d
	$(B)/fuzz/fuzz_compile -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=4096 \
	  -dict=tests/fuzz/d.dict -artifact_prefix=$(B)/fuzz/ -print_final_stats=1 \
	  $(B)/fuzz/corpus tests/fuzz/corpus tests/d
	tests/fuzz/run-files.sh --replay $(B)/fuzz
	tests/fuzz/run-files.sh --seconds $(FUZZ_SECONDS) $(B)/fuzz

.PHONY: fuzz fuzz-smoke
