/*
 * test_usym.c -- JIT names (obj/perfmap.c) and separate debug files
 * (obj/debugfile.c) as obj/usym.c uses them.
 *
 * The perf map tests name code of this very process: an anonymous page
 * mapped here, a map file written as /tmp/perf-<our pid>.map and removed
 * again, so what usym keeps after the file is gone is seen directly.
 * The debug file end to end (objcopy, strip, each route alone) is
 * tests/sh/usym-debugfile.sh; here, the CRC and Debian's libc with
 * libc6-dbg when it is installed.
 */
#include "test.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "obj/debugfile.h"
#include "obj/perfmap.h"
#include "obj/usym.h"

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static void parse_text(struct perfmap *m, const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");

	perfmap_parse(m, fp);
	fclose(fp);
}

TEST(perfmap_parse_lines)
{
	struct perfmap m = { 0 };
	const struct perfmap_sym *s;

	parse_text(&m, "1000 10 first\n"
		       "0x2000 0x20 LFoo;::bar (Ljava/lang/String;)V\n"
		       "not a line\n"
		       "3000 0 empty\n"
		       "4000 10\n"
		       "1000 8 reused\n"
		       "5000 10 last-without-newline");
	CHECK(m.n == 3);
	CHECK((s = perfmap_find(&m, 0x1000)) && strcmp(s->name, "reused") == 0);
	CHECK((s = perfmap_find(&m, 0x1007)) && s->start == 0x1000);
	CHECK(!perfmap_find(&m, 0x1008));	/* the later line's size */
	CHECK(!perfmap_find(&m, 0xfff));
	CHECK((s = perfmap_find(&m, 0x201f)) &&
	      strcmp(s->name, "LFoo;::bar (Ljava/lang/String;)V") == 0);
	CHECK(!perfmap_find(&m, 0x2020));
	CHECK(!perfmap_find(&m, 0x3000) && !perfmap_find(&m, 0x4000));
	CHECK((s = perfmap_find(&m, 0x5000)) &&
	      strcmp(s->name, "last-without-newline") == 0);
	perfmap_clear(&m);
	CHECK(m.n == 0 && !perfmap_find(&m, 0x1000));
}

static void write_map(const char *path, const char *mode, uint64_t start,
		      const char *name)
{
	FILE *fp = fopen(path, mode);

	CHECK(fp != NULL);
	if (fp) {
		fprintf(fp, "%llx 10 %s\n", (unsigned long long)start, name);
		fclose(fp);
	}
}

static bool jit_name(uint64_t addr, const char *want, uint64_t start)
{
	const char *mod, *sym;
	char wmod[64];
	uint64_t at;

	snprintf(wmod, sizeof(wmod), "perf-%d.map", (int)getpid());
	return usym_lookup((uint32_t)getpid(), addr, &mod, &sym, &at) &&
	       strcmp(mod, wmod) == 0 && sym && strcmp(sym, want) == 0 && at == start;
}

/* Read when the pid is noted, again when an address is not named, kept
 * after the file is removed. */
TEST(perfmap_names_outlive_the_file)
{
	char path[64];
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t a = (uint64_t)(uintptr_t)page, b = a + 0x40;

	CHECK(page != MAP_FAILED);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	write_map(path, "w", a, "jit_a");
	usym_forget_pid((uint32_t)getpid());
	CHECK(usym_note_pid((uint32_t)getpid()));
	CHECK(jit_name(a + 3, "jit_a", a));
	CHECK(!jit_name(b, "jit_b", b));

	write_map(path, "a", b, "jit_b");	/* the JIT emits more */
	CHECK(jit_name(b + 0xf, "jit_b", b));

	unlink(path);
	usym_forget_pid((uint32_t)getpid());	/* as at the exit stop */
	CHECK(usym_note_pid((uint32_t)getpid()));
	CHECK(jit_name(a, "jit_a", a));
	CHECK(jit_name(b, "jit_b", b));
	munmap(page, 4096);
}

/* /tmp/perf-PID.map as a symlink is not followed. */
TEST(perfmap_refuses_symlink)
{
	char path[64], target[64];
	struct perfmap m = { 0 };

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	snprintf(target, sizeof(target), "/tmp/dscope-unit-%d.map", (int)getpid());
	write_map(target, "w", 0x1000, "planted");
	unlink(path);
	CHECK(symlink(target, path) == 0);
	CHECK(!perfmap_refresh(&m, (uint32_t)getpid()));
	unlink(path);
	CHECK(rename(target, path) == 0);	/* the same file, not a link */
	CHECK(perfmap_refresh(&m, (uint32_t)getpid()));
	CHECK(perfmap_find(&m, 0x1000) != NULL);
	unlink(path);
	perfmap_clear(&m);
}

/* A map claiming more than 256 MiB (a sparse file costs nothing to make)
 * is refused, not read; the names read before it are kept. */
TEST(perfmap_refuses_huge_file)
{
	char path[64];
	struct perfmap m = { 0 };
	int fd;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	write_map(path, "w", 0x1000, "small");
	CHECK(perfmap_refresh(&m, (uint32_t)getpid()));
	fd = open(path, O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && ftruncate(fd, (256 << 20) + 1) == 0);
	close(fd);
	CHECK(perfmap_refresh(&m, (uint32_t)getpid()));
	CHECK(m.n == 1 && perfmap_find(&m, 0x1000) != NULL);
	unlink(path);
	perfmap_clear(&m);
}

TEST(debugfile_crc_of_check_string)
{
	char path[64];
	uint32_t crc = 0;
	int fd;

	snprintf(path, sizeof(path), "/tmp/dscope-unit-crc-%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "123456789", 9) == 9);
	close(fd);
	CHECK(debugfile_crc(path, &crc) && crc == 0xcbf43926);	/* CRC-32's check */
	unlink(path);
	CHECK(!debugfile_crc(path, &crc));
}

/* With libc6-dbg: libc's static functions, unversioned global names. */
TEST(libc_debug_symbols)
{
	const struct elf_file *f = elf_file_get(LIBC);
	const struct elf_sym *s = NULL;

	if (!f || !f->debug)
		return;		/* libc6-dbg is not installed */
	for (size_t i = 0; i < f->nsyms; i++) {
		CHECK(!strchr(f->syms[i].name, '@'));
		if (strcmp(f->syms[i].name, "__libc_start_call_main") == 0)
			s = &f->syms[i];
	}
	CHECK(s != NULL);
	for (size_t i = 0; i < f->nsyms; i++)
		if (strcmp(f->syms[i].name, "__libc_malloc") == 0)
			s = elf_file_sym(f, f->syms[i].addr);
	CHECK(s && strcmp(s->name, "malloc") == 0);
}

/* A file with its own .symtab needs no debug file. */
TEST(target_symtab_without_debug_file)
{
	const char *path = unit_target("napper");
	const struct elf_file *f;

	if (!path)
		return;
	CHECK((f = elf_file_get(path)) != NULL);
	if (!f)
		return;
	CHECK(f->debug == NULL);
	CHECK(f->nsyms > 0);
}

/* Paths come from the traced process: a FIFO there (which would block
 * open and read until someone writes) and a device (read without end)
 * are refused at once, as ELF files and as debug-link candidates. */
TEST(non_regular_files_refused)
{
	char dir[] = "/tmp/dscope-usym-XXXXXX", fifo[64];
	uint32_t crc;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK(elf_open(fifo) < 0);
	CHECK(elf_file_read(fifo) == NULL);
	CHECK(!debugfile_crc(fifo, &crc));
	CHECK(elf_open("/dev/zero") < 0);
	CHECK(!debugfile_crc("/dev/zero", &crc));
	unlink(fifo);
	rmdir(dir);
}
