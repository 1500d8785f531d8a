/*
 * ksym.c -- kernel symbolization.  See ksym.h.
 *
 * /proc/kallsyms lists "ADDR TYPE NAME [MODULE]" in no useful order; the
 * table is every symbol with a non-zero address, sorted by address, and a
 * lookup is a binary search for the last symbol at or below the address.
 * kallsyms gives no sizes, so an address past a module's last function
 * still names that function: DTrace's output for such an address would be
 * as approximate.  Names live in one buffer; modules are interned, so a
 * symbol carries a pointer to its module's single copy.
 */
#include "obj/ksym.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	uint64_t addr;
	const char *name;
	const char *mod;
	char type;		/* kallsyms' letter: 't' text, 'd' data... */
};

/* The process-wide table (ksym.h): filled once by load() under
 * table_once, read-only after. */
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static struct {
	struct ksym *syms;
	size_t n;
	char **mods;		/* interned module names */
	size_t nmods;
	size_t nhidden;		/* lines whose address reads 0 (kptr_restrict) */
	size_t nvars;		/* the core kernel's data symbols that are not
				 * the linker's section bounds ("__start_x") */
} table;

static bool is_data_type(char type)
{
	return type && strchr("dDbBrR", type);
}

static int cmp_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct ksym *)a)->addr;
	uint64_t y = ((const struct ksym *)b)->addr;

	return x < y ? -1 : x > y;
}

static const char *intern_mod(const char *name)
{
	for (size_t i = 0; i < table.nmods; i++)
		if (strcmp(table.mods[i], name) == 0)
			return table.mods[i];
	char **v = realloc(table.mods, sizeof(*v) * (table.nmods + 1));
	char *copy = strdup(name);

	if (!v || !copy) {
		free(copy);
		if (v)
			table.mods = v;
		return "vmlinux";
	}
	table.mods = v;
	table.mods[table.nmods++] = copy;
	return copy;
}

/* "ffffffff81000000 T _text" or "ffffffffc0a01000 t fn\t[mod]" */
static bool parse_line(char *line, struct ksym *out)
{
	char *end, *name, *mod;
	unsigned long long addr = strtoull(line, &end, 16);

	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	if (addr == 0) {
		table.nhidden++;
		return false;
	}
	name = end + 3;
	name[strcspn(name, "\t\n")] = '\0';
	mod = name + strlen(name) + 1;
	out->addr = addr;
	out->type = end[1];
	out->mod = "vmlinux";
	if (*mod == '[') {
		mod[strcspn(mod, "]\n")] = '\0';
		out->mod = intern_mod(mod + 1);
	}
	out->name = strdup(name);
	return out->name != NULL;
}

static void load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	size_t cap = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct ksym k;

		if (!strchr(line, '\n') || !parse_line(line, &k))
			continue;
		if (table.n == cap) {
			size_t ncap = cap ? 2 * cap : 1 << 16;
			struct ksym *v = realloc(table.syms, sizeof(*v) * ncap);

			if (!v) {
				free((char *)k.name);
				break;
			}
			table.syms = v;
			cap = ncap;
		}
		table.syms[table.n++] = k;
		if (is_data_type(k.type) && strcmp(k.mod, "vmlinux") == 0 &&
		    strncmp(k.name, "__", 2) != 0)
			table.nvars++;
	}
	fclose(f);
	qsort(table.syms, table.n, sizeof(*table.syms), cmp_addr);
}

bool ksym_range(const char *name, uint64_t *start, uint64_t *end)
{
	pthread_once(&table_once, load);
	for (size_t i = 0; i < table.n; i++)
		if (strcmp(table.syms[i].name, name) == 0) {
			*start = table.syms[i].addr;
			*end = i + 1 < table.n ? table.syms[i + 1].addr : *start + 1;
			return true;
		}
	return false;
}

/* by name, then module, then address */
static int cmp_name(const void *a, const void *b)
{
	const struct ksym *x = *(const struct ksym *const *)a;
	const struct ksym *y = *(const struct ksym *const *)b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->mod, y->mod);
	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

void ksym_func_addrs(size_t n, const char *const *mods,
		     const char *const *names, uint64_t *addrs)
{
	const struct ksym **by_name;

	pthread_once(&table_once, load);
	memset(addrs, 0, n * sizeof(*addrs));
	if (!table.n || !(by_name = malloc(table.n * sizeof(*by_name))))
		return;
	for (size_t i = 0; i < table.n; i++)
		by_name[i] = &table.syms[i];
	qsort(by_name, table.n, sizeof(*by_name), cmp_name);
	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = table.n;	/* the first not below key */

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(by_name[mid]->name, names[i]);

			if (!c)
				c = strcmp(by_name[mid]->mod, mods[i]);
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* a function's: a variable of the same name is passed over */
		for (; lo < table.n && strcmp(by_name[lo]->name, names[i]) == 0 &&
		       strcmp(by_name[lo]->mod, mods[i]) == 0; lo++)
			if (by_name[lo]->type && strchr("tTwW", by_name[lo]->type)) {
				addrs[i] = by_name[lo]->addr;
				break;
			}
	}
	free(by_name);
}

bool ksym_lookup(void *ctx, uint64_t addr, const char **mod, const char **sym,
		 uint64_t *symaddr)
{
	size_t lo = 0, hi;

	(void)ctx;
	pthread_once(&table_once, load);
	hi = table.n;
	if (!hi || addr < table.syms[0].addr)
		return false;
	while (hi - lo > 1) {	/* syms[lo].addr <= addr < syms[hi].addr */
		size_t mid = lo + (hi - lo) / 2;

		if (table.syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*mod = table.syms[lo].mod;
	*sym = table.syms[lo].name;
	*symaddr = table.syms[lo].addr;
	return true;
}

enum ksym_var ksym_var_addr(const char *mod, const char *name, uint64_t *addr,
			   const char **kmod)
{
	const struct ksym *func = NULL;

	pthread_once(&table_once, load);
	for (size_t i = 0; i < table.n; i++) {
		const struct ksym *k = &table.syms[i];

		if (strcmp(k->name, name) != 0 || (mod && strcmp(k->mod, mod) != 0))
			continue;
		/* 'A': absolute, as per-CPU variables are on 6.1 */
		if (is_data_type(k->type) || k->type == 'A') {
			*addr = k->addr;
			*kmod = k->mod;
			return KSYM_VAR_OK;
		}
		func = k;
	}
	if (func)
		return KSYM_VAR_FUNC;
	if (!table.n && table.nhidden)
		return KSYM_VAR_HIDDEN;
	return table.nvars ? KSYM_VAR_NONE : KSYM_VAR_NO_DATA;
}
