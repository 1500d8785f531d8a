/*
 * usdt.c -- the usdt provider.  See usdt.h.
 *
 * A <sys/sdt.h> probe site is a nop in the text and a note elsewhere
 * saying where the nop is (pc), where the semaphore is (sem, when the
 * program was built with _SDT_HAS_SEMAPHORES) and, for each argument, an
 * assembler operand as the compiler chose it under the "nor" constraint:
 * a register, a memory operand, or an immediate, prefixed with its size
 * ("-4@" is a signed 4-byte value).  Nothing else describes the
 * arguments: the operand text is the whole contract, so the parser below
 * must take every form gcc writes, and refuse, with a reason, what it
 * cannot fetch rather than fetch something else.
 *
 * Addresses in a note are link-time.  A prelinker that moves a file
 * updates its sections but not the notes' contents; .stapsdt.base, a
 * one-byte section whose address every note also records, tells how far
 * the file moved, and pc and sem move by as much.
 *
 * A symbol in an operand ("counter(%rip)", "8+pair(%rip)", "$buf",
 * "table(,%r10,8)") is the symbol's address, not an offset from rip: the
 * note holds the operand's text, not the encoded instruction.  At run
 * time only the registers are known, but the uprobe's regs->ip is the
 * site's run-time address, so sym's run-time address is
 * ip + (sym - pc): an operand with a symbol becomes base = ip,
 * disp = sym - pc + offset.  A non-PIE executable (ET_EXEC) is loaded
 * where it was linked, so there the symbol's address is the constant
 * itself and the base register stays free for a scaled-index operand.
 *
 * Offsets: a site's uprobe is at the file offset of pc, and its
 * semaphore's ref_ctr_offset is the file offset of sem, both through the
 * PT_LOAD segments (the .probes section is in the data segment, in the
 * file).  The kernel raises the semaphore in each process it attaches
 * the uprobe to and lowers it when the link is closed, however dscope
 * ends.
 */
#include "prov/usdt.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prov/pid.h"
#include "obj/usym.h"

#define NT_STAPSDT 3
#define PT_REGS_IP 128

/* -- Argument operands ---------------------------------------------------- */

/* x86-64 general registers by width (64, 32, 16, low 8), with their
 * struct pt_regs offsets; ah..dh are the second byte of their family. */
static const struct reg_family {
	const char *names[4];
	const char *high8;
	uint8_t off;
} reg_families[] = {
	{ { "rax", "eax", "ax", "al" }, "ah", 80 },
	{ { "rbx", "ebx", "bx", "bl" }, "bh", 40 },
	{ { "rcx", "ecx", "cx", "cl" }, "ch", 88 },
	{ { "rdx", "edx", "dx", "dl" }, "dh", 96 },
	{ { "rsi", "esi", "si", "sil" }, NULL, 104 },
	{ { "rdi", "edi", "di", "dil" }, NULL, 112 },
	{ { "rbp", "ebp", "bp", "bpl" }, NULL, 32 },
	{ { "rsp", "esp", "sp", "spl" }, NULL, 152 },
	{ { "r8", "r8d", "r8w", "r8b" }, NULL, 72 },
	{ { "r9", "r9d", "r9w", "r9b" }, NULL, 64 },
	{ { "r10", "r10d", "r10w", "r10b" }, NULL, 56 },
	{ { "r11", "r11d", "r11w", "r11b" }, NULL, 48 },
	{ { "r12", "r12d", "r12w", "r12b" }, NULL, 24 },
	{ { "r13", "r13d", "r13w", "r13b" }, NULL, 16 },
	{ { "r14", "r14d", "r14w", "r14b" }, NULL, 8 },
	{ { "r15", "r15d", "r15w", "r15b" }, NULL, 0 },
};

struct reg {
	uint8_t off, width, shift;	/* pt_regs offset, bytes, >> for ah.. */
	bool ip;			/* %rip */
};

/* "%name" at *pp (after the '%'), advancing past it; false if unknown. */
static bool parse_reg(const char **pp, struct reg *r)
{
	const char *p = *pp;
	size_t n = 0;

	while (isalnum((unsigned char)p[n]))
		n++;
	if (n == 3 && strncmp(p, "rip", 3) == 0) {
		*r = (struct reg){ PT_REGS_IP, 8, 0, true };
		*pp = p + n;
		return true;
	}
	for (size_t i = 0; i < sizeof(reg_families) / sizeof(reg_families[0]); i++) {
		const struct reg_family *f = &reg_families[i];

		for (int w = 0; w < 4; w++)
			if (strlen(f->names[w]) == n && strncmp(p, f->names[w], n) == 0) {
				*r = (struct reg){ f->off, (uint8_t)(8 >> w), 0, false };
				*pp = p + n;
				return true;
			}
		if (f->high8 && n == 2 && strncmp(p, f->high8, 2) == 0) {
			*r = (struct reg){ f->off, 1, 8, false };
			*pp = p + n;
			return true;
		}
	}
	return false;
}

/* A displacement or immediate: terms joined by + and -, each a number or
 * (at most one, added) symbol: "-20", "8+pair", "sym+8", "0x10". */
struct expr {
	int64_t num;
	char sym[128];		/* "" when none */
};

static bool sym_char(int c, bool first)
{
	return isalpha(c) || c == '_' || c == '.' || (!first && (isdigit(c) || c == '$'));
}

static int parse_expr(const char **pp, struct expr *e, const char **why)
{
	const char *p = *pp;
	bool any = false;

	e->num = 0;
	e->sym[0] = '\0';
	for (;;) {
		int sign = 1;

		if (*p == '+' || *p == '-')
			sign = *p++ == '-' ? -1 : 1;
		else if (any)
			break;
		if (isdigit((unsigned char)*p)) {
			char *end;
			unsigned long long v = strtoull(p, &end, 0);

			/* two's complement, as the assembler wraps */
			e->num = (int64_t)((uint64_t)e->num + (sign < 0 ? 0 - v : v));
			p = end;
		} else if (sym_char((unsigned char)*p, true)) {
			size_t n = 0;

			while (sym_char((unsigned char)p[n], n == 0))
				n++;
			if (e->sym[0] || sign < 0 || n >= sizeof(e->sym)) {
				*why = "a displacement with more than one symbol, or a "
				       "subtracted one";
				return -1;
			}
			memcpy(e->sym, p, n);
			e->sym[n] = '\0';
			p += n;
		} else if (any || sign < 0) {
			*why = "a sign not followed by a number or symbol";
			return -1;
		} else {
			break;
		}
		any = true;
	}
	*pp = p;
	return 0;
}

/* "%reg" at *pp naming a 64-bit register, as an address's parts must */
static bool parse_addr_reg(const char **pp, struct reg *r)
{
	if (**pp != '%')
		return false;
	++*pp;
	return parse_reg(pp, r) && r->width == 8;
}

/* regs = [%base] ["," %index ["," scale]] ")", after the '(' */
static int parse_mem_regs(const char **pp, struct reg *base, struct reg *index,
			  int *scale, const char **why)
{
	const char *p = *pp;
	bool ok = *p != '%' || parse_addr_reg(&p, base);

	if (ok && *p == ',') {
		p++;
		ok = parse_addr_reg(&p, index) && !index->ip;
	}
	if (!ok) {
		*why = "a memory operand's registers must be 64-bit: (%base,%index,scale)";
		return -1;
	}
	if (index->off != USDT_REG_NONE && *p == ',') {
		char *end;

		*scale = (int)strtol(p + 1, &end, 10);
		p = end;
		if (*scale != 1 && *scale != 2 && *scale != 4 && *scale != 8) {
			*why = "an index scale other than 1, 2, 4 or 8";
			return -1;
		}
	}
	if (*p != ')') {
		*why = "an unclosed memory operand";
		return -1;
	}
	*pp = p + 1;
	return 0;
}

/* The symbol's run-time address as base = ip, disp = sym - pc (see the
 * top of the file); in a non-PIE executable simply disp = sym, when the
 * operand is not rip-relative. */
static int place_symbol(const struct expr *e, bool rip, const struct usdt_arg_ctx *cx,
			struct usdt_arg *a, const char **why)
{
	uint64_t addr;

	if (!e->sym[0]) {
		if (rip)
			*why = "a rip-relative operand without a symbol";
		return rip ? -1 : 0;
	}
	if (!cx->sym || !cx->sym(cx->sym_arg, e->sym, &addr)) {
		*why = "the operand's symbol is not in the file's symbol tables";
		return -1;
	}
	/* Addresses wrap, as the CPU's own arithmetic does: a displacement
	 * the file makes absurd fetches from an absurd address, which the
	 * probe's fault handling reports, and is no overflow here. */
	if (!rip && !cx->pic) {
		a->disp = (int64_t)((uint64_t)a->disp + addr);
		return 0;
	}
	if (a->base != USDT_REG_NONE && !rip) {
		*why = "a symbol with a base register in a position-independent file";
		return -1;
	}
	a->base = PT_REGS_IP;
	a->disp = (int64_t)((uint64_t)a->disp + (addr - cx->pc));
	return 0;
}

/* A register operand: its value, no wider than the register. */
static int parse_reg_operand(const char *p, struct usdt_arg *a, const char **why)
{
	struct reg r;

	if (!parse_reg(&p, &r) || r.ip) {
		*why = "not a general-purpose register (floating point?)";
		return -1;
	}
	if (*p) {
		*why = "text after a register";
		return -1;
	}
	a->base = r.off;
	a->shift = r.shift;
	if (a->size > r.width)
		a->size = r.width;
	return 0;
}

/* operand = "%" reg | "$" expr | expr ["(" regs] | "(" regs */
static int parse_operand(const char *p, const struct usdt_arg_ctx *cx,
			 struct usdt_arg *a, const char **why)
{
	struct reg base = { USDT_REG_NONE, 8, 0, false }, index = base;
	bool imm = *p == '$';
	struct expr e;
	int scale = 1;

	if (*p == '%')
		return parse_reg_operand(p + 1, a, why);
	if (!*p) {
		*why = "an empty operand";
		return -1;
	}
	if (imm)
		p++;
	if (parse_expr(&p, &e, why) < 0)
		return -1;
	a->disp = e.num;
	if (!imm) {
		if (*p == '(') {
			p++;
			if (parse_mem_regs(&p, &base, &index, &scale, why) < 0)
				return -1;
		}
		a->flags |= USDT_ARG_DEREF;
		a->base = base.ip ? USDT_REG_NONE : base.off;
		a->index = index.off;
		a->scale = (uint8_t)__builtin_ctz((unsigned)scale);
	}
	if (*p) {
		*why = imm ? "text after an immediate" : "text after a memory operand";
		return -1;
	}
	return place_symbol(&e, base.ip, cx, a, why);
}

int usdt_parse_arg(const char *text, const struct usdt_arg_ctx *cx,
		   struct usdt_arg *a, const char **why)
{
	const char *p = text;
	bool is_signed = *p == '-';
	char *end;
	long size;

	memset(a, 0, sizeof(*a));
	a->base = a->index = USDT_REG_NONE;
	size = strtol(p + is_signed, &end, 10);
	if (end == p + is_signed || *end != '@' ||
	    (size != 1 && size != 2 && size != 4 && size != 8)) {
		*why = "not SIZE@OPERAND with a size of 1, 2, 4 or 8 bytes";
		return -1;
	}
	a->size = (uint8_t)size;
	a->flags = is_signed ? USDT_ARG_SIGNED : 0;
	if (parse_operand(end + 1, cx, a, why) < 0) {
		memset(a, 0, sizeof(*a));
		return -1;
	}
	return 0;
}

int usdt_parse_args(const char *text, const struct usdt_arg_ctx *cx,
		    struct usdt_arg *v, int max, const char **why)
{
	int n = 0;

	*why = NULL;
	while (*text) {
		char one[256];
		size_t len;

		text += strspn(text, " \t");
		len = strcspn(text, " \t");
		if (!len)
			break;
		if (n == max) {
			*why = "more arguments than <sys/sdt.h> allows";
			break;
		}
		if (len >= sizeof(one)) {
			*why = "an argument too long to be an operand";
			break;
		}
		memcpy(one, text, len);
		one[len] = '\0';
		if (usdt_parse_arg(one, cx, &v[n], why) < 0)
			break;
		n++;
		text += len;
	}
	return n;
}

/* -- Notes ---------------------------------------------------------------- */

static int cmp_sym(const void *a, const void *b)
{
	return strcmp(((const struct usdt_sym *)a)->name,
		      ((const struct usdt_sym *)b)->name);
}

bool usdt_file_sym(void *arg, const char *name, uint64_t *addr)
{
	const struct usdt_file *uf = arg;
	struct usdt_sym key = { name, 0 };
	const struct usdt_sym *s = uf->nsyms ? bsearch(&key, uf->syms,
		(size_t)uf->nsyms, sizeof(key), cmp_sym) : NULL;

	if (s)
		*addr = s->addr;
	return s != NULL;
}

/* Every defined, named symbol of .symtab and .dynsym: operands name
 * static variables ("counter.0") as well as functions. */
static void read_syms(struct arena *a, Elf *e, struct usdt_file *uf)
{
	int cap = 0;

	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB &&
		    sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
			    GELF_ST_TYPE(s.st_info) == STT_SECTION ||
			    GELF_ST_TYPE(s.st_info) == STT_FILE ||
			    !(name = elf_strptr(e, sh.sh_link, s.st_name)) || !*name)
				continue;
			*ARENA_PUSH(a, uf->syms, uf->nsyms, cap) =
				(struct usdt_sym){ arena_strdup(a, name), s.st_value };
		}
	}
	if (uf->nsyms)
		qsort(uf->syms, (size_t)uf->nsyms, sizeof(*uf->syms), cmp_sym);
}

/* desc = pc, base, sem (8 bytes each), provider\0 name\0 args\0; NULL,
 * or why the note is not one. */
static const char *add_note(struct arena *a, struct usdt_file *uf, int *cap,
			    const char *desc, size_t len, uint64_t base_now)
{
	uint64_t addr[3];
	const char *s = desc + sizeof(addr), *end = desc + len;
	const char *strs[3];

	if (len < sizeof(addr) + 3)
		return "shorter than three addresses and three strings";
	memcpy(addr, desc, sizeof(addr));
	for (int i = 0; i < 3; i++) {
		const char *nul = memchr(s, '\0', (size_t)(end - s));

		if (!nul)
			return "its provider, name and arguments are not three "
			       "terminated strings";
		strs[i] = s;
		s = nul + 1;
	}
	uint64_t moved = base_now && addr[1] ? base_now - addr[1] : 0;

	*ARENA_PUSH(a, uf->notes, uf->nnotes, *cap) = (struct usdt_note){
		arena_strdup(a, strs[0]), arena_strdup(a, strs[1]),
		arena_strdup(a, strs[2]), addr[0] + moved,
		addr[2] ? addr[2] + moved : 0 };
	return NULL;
}

/* The notes of e (the file at path): a malformed one is said and left
 * out, the others kept. */
static void read_notes(struct arena *a, Elf *e, const char *path,
		       struct usdt_file *uf)
{
	uint64_t base_now = 0;
	size_t shstrndx;
	int cap = 0;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) &&
		    (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    strcmp(name, ".stapsdt.base") == 0)
			base_now = sh.sh_addr;
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t off, noff, doff, at = 0;
		const char *why, *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		while ((off = gelf_getnote(d, at, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_STAPSDT && nh.n_namesz == 8 &&
			    memcmp((char *)d->d_buf + noff, "stapsdt", 8) == 0 &&
			    (why = add_note(a, uf, &cap, (char *)d->d_buf + doff,
					    nh.n_descsz, base_now)))
				usym_warn(path, "the stapsdt note at offset %zu of section "
					  "%zu is malformed (%s); its probe site is left "
					  "out", at, elf_ndxscn(scn), why);
			at = off;
		}
		/* libelf stops at a header whose sizes run past the data */
		if (at < d->d_size && name && strcmp(name, ".note.stapsdt") == 0)
			usym_warn(path, "its .note.stapsdt notes are malformed from "
				  "offset %zu on; the probe sites past there are left "
				  "out", at);
	}
}

int usdt_file_read(struct arena *a, const char *path, struct usdt_file *uf)
{
	int fd = elf_open(path), rc = 0;
	GElf_Ehdr eh;
	Elf *e;

	memset(uf, 0, sizeof(*uf));
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) ||
	    gelf_getclass(e) != ELFCLASS64) {
		rc = -ENOEXEC;
		goto out;
	}
	uf->pic = eh.e_type == ET_DYN;
	read_notes(a, e, path, uf);
	if (uf->nnotes)
		read_syms(a, e, uf);
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* -- The provider --------------------------------------------------------- */

/* Provider field "myprov123" -> 123, the length of "myprov" in *plen; 0
 * if it does not end in a pid, or is the pid provider's. */
static long provider_pid(const char *prov, size_t *plen)
{
	size_t n = prov ? strlen(prov) : 0, k = n;
	long pid;

	while (k > 0 && isdigit((unsigned char)prov[k - 1]))
		k--;
	if (k == 0 || k == n || n - k > 10 || (k == 3 && strncmp(prov, "pid", 3) == 0))
		return 0;
	pid = strtol(prov + k, NULL, 10);
	*plen = k;
	return pid > 0 && pid <= INT_MAX ? pid : 0;
}

/* "a__b" -> "a-b", as DTrace shows a probe name */
static const char *dashed(struct arena *a, const char *name)
{
	char *s = arena_strdup(a, name), *w = s;

	for (const char *r = name; *r; r++) {
		*w++ = *r;
		if (r[0] == '_' && r[1] == '_') {
			w[-1] = '-';
			r++;
		}
	}
	*w = '\0';
	return s;
}

static void make_site(struct arena *a, const struct elf_file *f,
		      struct usdt_file *uf, const struct usdt_note *n,
		      struct usdt_site *site)
{
	struct usdt_arg *args = arena_alloc(a, sizeof(*args) * USDT_ARGS_MAX);
	struct usdt_arg_ctx cx = { n->pc, uf->pic, usdt_file_sym, uf };

	site->args = args;
	site->argtext = n->args;
	site->nargs = usdt_parse_args(n->args, &cx, args, USDT_ARGS_MAX,
				      &site->argerr);
	if (!n->sem || !elf_file_offset(f, n->sem, &site->ref_ctr))
		site->ref_ctr = 0;
}

static bool same_probe(const struct usdt_note *x, const char *xfunc,
		       const struct usdt_note *y, const char *yfunc)
{
	return strcmp(x->prov, y->prov) == 0 && strcmp(x->name, y->name) == 0 &&
	       strcmp(xfunc, yfunc) == 0;
}

static const char *site_func(const struct elf_file *f, const struct usdt_note *n)
{
	const struct elf_sym *s = elf_file_sym(f, n->pc);

	return s ? s->name : "";
}

/* One probe per (provider, function, name), with every site of it. */
static void add_file_probes(struct catalog *cat, long pid, const struct pid_module *m)
{
	struct arena *a = catalog_arena(cat);
	struct usdt_file *uf = arena_alloc(a, sizeof(*uf));
	const struct elf_file *f = m->f;
	bool *done;

	if (usdt_file_read(a, f->path, uf) < 0 || !uf->nnotes)
		return;
	done = arena_alloc(a, (size_t)uf->nnotes);
	for (int i = 0; i < uf->nnotes; i++) {
		const struct usdt_note *n = &uf->notes[i];
		const char *func = site_func(f, n);
		struct usdt_site *sites = NULL;
		int nsites = 0, cap = 0;
		uint64_t off;

		if (done[i] || strcmp(n->prov, "pid") == 0)
			continue;
		for (int j = i; j < uf->nnotes; j++) {
			if (done[j] || !same_probe(n, func, &uf->notes[j],
						   site_func(f, &uf->notes[j])) ||
			    !elf_file_offset(f, uf->notes[j].pc, &off))
				continue;
			done[j] = true;
			make_site(a, f, uf, &uf->notes[j], ARENA_PUSH(a, sites, nsites, cap));
			sites[nsites - 1].uoffset = off;
		}
		if (!nsites)
			continue;
		const char *name = dashed(a, n->name);

		catalog_add(cat, &(struct probe){
			.kind = PROV_USDT, .prov = arena_printf(a, "%s%ld", n->prov, pid),
			.mod = f->base, .func = func, .name = name, .sysnr = -1,
			.upid = (int)pid, .upath = f->path, .uoffset = sites[0].uoffset,
			.uexe = m->is_exe,
			.name_raw = strcmp(name, n->name) ? n->name : NULL,
			.usites = sites, .nusites = nsites });
	}
}

const char *usdt_provide(struct catalog *cat, const struct probe_desc *pd)
{
	size_t plen;
	long pid = provider_pid(pd->prov, &plen);
	struct pid_module *mods;
	int n;

	if (!pid)
		return pd->mod;
	mods = pid_modules(cat, pid, &n);
	const char *mod = pid_module_resolve(mods, n, pd->mod);

	for (int i = 0; i < n; i++)
		if (pid_module_named(&mods[i], mod) &&
		    catalog_pid_module_new(cat, PROV_USDT, pid, mods[i].f->path))
			add_file_probes(cat, pid, &mods[i]);
	return mod;
}

int usdt_load_args(struct catalog *cat, struct probe *p)
{
	static const char *const types[2][9] = {	/* [signed][size] */
		{ [1] = "uint8_t", [2] = "uint16_t", [4] = "uint32_t", [8] = "uint64_t" },
		{ [1] = "int8_t", [2] = "int16_t", [4] = "int32_t", [8] = "int64_t" },
	};
	const struct usdt_site *s = p->nusites ? &p->usites[0] : NULL;
	struct probe_arg *args;

	if (!s || !s->nargs)
		return 0;
	args = arena_alloc(catalog_arena(cat), sizeof(*args) * (size_t)s->nargs);
	for (int i = 0; i < s->nargs; i++)
		args[i] = (struct probe_arg){
			types[s->args[i].flags & USDT_ARG_SIGNED][s->args[i].size], "",
			NULL, NULL, 0 };
	p->args = args;
	p->nargs = s->nargs;
	return s->nargs;
}
