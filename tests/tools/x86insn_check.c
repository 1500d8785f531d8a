/*
 * x86insn_check.c -- compare where x86insn_walk() says the instructions
 * of each function of an ELF file begin with where objdump says they do.
 *
 *	objdump -d --no-show-raw-insn FILE | x86insn-check FILE
 *
 * The functions are those the pid provider sees (usym.c's symbols, each
 * address once).  For each, the offsets from the walk must be exactly
 * the addresses objdump prints within [start, start + size).  A function
 * the decoder refuses is counted, not compared: refusing is its right,
 * a different boundary is a bug.  One difference is presentation, not
 * decoding: objdump shows FWAIT (9B) and the x87 instruction after it as
 * one ("fstcw" for 9B D9 /7), where the CPU runs two instructions; such
 * a boundary is counted as agreeing.
 *
 * Also counted: the instructions reached from each function's entry
 * (x86insn_reach), the only ones the pid provider probes.  Prints one
 * summary line; exits 1 on any disagreement (the first few are shown),
 * 2 when FILE is unusable.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "obj/usym.h"
#include "obj/x86insn.h"

struct addrs {
	uint64_t *v;
	size_t n, cap;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* "  401126:\tpush ..." -> 0x401126; symbol headers and the rest skipped */
static void read_objdump(FILE *in, struct addrs *a)
{
	char line[1024];

	while (fgets(line, sizeof(line), in)) {
		char *p = line, *end;
		uint64_t addr;

		if (*p != ' ')
			continue;
		while (*p == ' ')
			p++;
		addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 65536;
			a->v = realloc(a->v, a->cap * sizeof(*a->v));
			if (!a->v)
				abort();
		}
		a->v[a->n++] = addr;
	}
	qsort(a->v, a->n, sizeof(*a->v), cmp_u64);
}

static size_t lower_bound(const struct addrs *a, uint64_t x)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct tally {
	size_t funcs, insns, refused, differ, reached, fwait;
};

/* starts[k] follows a one-byte FWAIT that objdump shows merged with it */
static bool after_fwait(const uint8_t *code, const uint32_t *starts, long k)
{
	return k > 0 && starts[k - 1] + 1 == starts[k] && code[starts[k - 1]] == 0x9b;
}

/* One function: 1 when it agrees (or was refused), 0 when it differs. */
static int check_function(int fd, const struct elf_file *f, const struct elf_sym *s,
			  const struct addrs *a, struct tally *t)
{
	uint8_t *code = malloc(s->size);
	uint32_t *starts = malloc(s->size * sizeof(*starts));
	bool *reached = malloc(s->size);
	uint64_t off;
	size_t i = lower_bound(a, s->addr), bad = 0;
	long n;
	int ok = 1;

	if (!code || !starts || !reached)
		abort();
	if (!elf_file_offset(f, s->addr, &off) ||
	    pread(fd, code, s->size, (off_t)off) != (ssize_t)s->size)
		goto out;
	t->funcs++;
	if ((n = x86insn_walk(code, s->size, starts, &bad)) < 0) {
		t->refused++;
		fprintf(stderr, "refused %s+0x%zx\n", s->name, bad);
		goto out;
	}
	for (long k = 0; k < n && ok; k++) {
		if (i < a->n && a->v[i] == s->addr + starts[k])
			i++;
		else if (after_fwait(code, starts, k))
			t->fwait++;
		else
			ok = 0;
	}
	ok = ok && (i >= a->n || a->v[i] >= s->addr + s->size);
	if (ok) {
		long r = x86insn_reach(code, s->size, starts, n, reached, &bad);

		t->insns += (size_t)n;
		if (r < 0)
			fprintf(stderr, "inconsistent %s: branch at +0x%zx\n", s->name, bad);
		t->reached += r > 0 ? (size_t)r : 0;
	} else if (t->differ++ < 5) {
		printf("%s: %s at 0x%llx differs from objdump near 0x%llx\n", f->path,
		       s->name, (unsigned long long)s->addr,
		       (unsigned long long)(i < a->n ? a->v[i] : 0));
	}
out:
	free(code);
	free(starts);
	free(reached);
	return ok;
}

int main(int argc, char **argv)
{
	const struct elf_file *f;
	struct addrs a = { 0 };
	struct tally t = { 0 };
	int fd;

	if (argc != 2 || !(f = elf_file_get(argv[1])) ||
	    (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "usage: objdump -d --no-show-raw-insn FILE | "
			"x86insn-check FILE\n");
		return 2;
	}
	read_objdump(stdin, &a);
	for (size_t i = 0; i < f->nsyms; i++) {
		const struct elf_sym *s = &f->syms[i];

		if (s->size && (i == 0 || s->addr != f->syms[i - 1].addr))
			check_function(fd, f, s, &a, &t);
	}
	printf("%s: %zu functions, %zu instructions agree with objdump "
	       "(%zu after an fwait), %zu reached from entries; %zu functions "
	       "refused, %zu differ\n", argv[1], t.funcs, t.insns, t.fwait,
	       t.reached, t.refused, t.differ);
	close(fd);
	free(a.v);
	return t.differ ? 1 : 0;
}
