/*
 * sdtgen.c -- dscope -h's header and -G's object.  See sdtgen.h.
 *
 * Why the parser and not a reader of our own: a provider file is D --
 * comments, "#pragma D attributes" lines, typedefs and structs its
 * probes' types use, cpp with -C -- and DTrace refuses a bad one with its
 * syntax error and line.  The parser already accepts all of it and
 * reports errors in that form, so it records each probe's name and
 * argument types (ast.h, struct provider_probe) and this module only
 * reads them.  A second, smaller grammar would drift from the first;
 * SystemTap's script carries two (pyparsing, and regular expressions
 * when that fails), which do not accept the same files.
 *
 * Names: the note keeps the probe's name as declared ("request__start";
 * tracers show it as request-start); a macro's name is the provider's
 * and the probe's upper-cased, each "__" of the probe's folded to "_"
 * (MYSERV_REQUEST_START); the semaphore's is provider_probe_semaphore
 * with the names as declared, the symbol <sys/sdt.h> puts in the note.
 */
#include "cg/sdtgen.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- gathering ---- */

/* "request__start" as D scripts name it: "request-start" */
static const char *hyphenated(struct arena *a, const char *name)
{
	char *s = arena_strdup(a, name), *p = s;

	for (const char *q = name; *q; q++) {
		*p++ = q[0] == '_' && q[1] == '_' ? '-' : *q;
		q += q[0] == '_' && q[1] == '_';
	}
	*p = '\0';
	return s;
}

static bool declared(const struct sdt_set *set, const char *provider,
		     const char *name)
{
	for (int i = 0; i < set->nprobes; i++)
		if (strcmp(set->probes[i].provider, provider) == 0 &&
		    strcmp(set->probes[i].decl->name, name) == 0)
			return true;
	return false;
}

/* One probe: a second declaration would define its semaphore twice. */
static void add_probe(struct sdt_set *set, const char *provider,
		      const struct provider_probe *pp, struct diag *d)
{
	if (declared(set, provider, pp->name))
		diag_fail(d, pp->line, pp->col, "D_PROV_PRDUP",
			  "probe redeclared: %s:::%s", provider,
			  hyphenated(set->a, pp->name));
	if (pp->nargs > SDT_MAX_ARGS)
		diag_fail(d, pp->line, pp->col, "D_PROV_PRARGLEN",
			  "probe %s:::%s has %d arguments, more than the %d "
			  "<sys/sdt.h> carries", provider,
			  hyphenated(set->a, pp->name), pp->nargs, SDT_MAX_ARGS);
	struct sdt_probe *p = ARENA_PUSH(set->a, set->probes, set->nprobes,
					 set->cap);

	p->provider = provider;
	p->decl = pp;
}

static void add_provider(struct sdt_set *set, const struct top_decl *td,
			 struct diag *d)
{
	/* a process's provider is traced as name + pid: myserv1234 */
	if (isdigit((unsigned char)td->name[strlen(td->name) - 1]))
		diag_fail(d, td->line, td->col, "D_PROV_BADNAME",
			  "provider name may not end with a digit: %s",
			  td->name);
	for (int i = 0; i < td->nprobes; i++)
		add_probe(set, td->name, &td->probes[i], d);
	set->nproviders++;
}

int sdtgen_add(struct sdt_set *set, const struct program *prog,
	       struct diag *d)
{
	jmp_buf env, *saved = d->env;

	d->env = &env;
	if (setjmp(env)) {
		d->env = saved;
		return -1;
	}
	for (int i = 0; i < prog->ndecls; i++)
		if (prog->decls[i]->kind == TOP_PROVIDER)
			add_provider(set, prog->decls[i], d);
	d->env = saved;
	return 0;
}

/* ---- the header ---- */

/* MYSERV_REQUEST_START: the provider, "_", the probe with "__" folded */
static void print_macro_name(FILE *out, const struct sdt_probe *p)
{
	for (const char *s = p->provider; *s; s++)
		fputc(toupper((unsigned char)*s), out);
	fputc('_', out);
	for (const char *s = p->decl->name; *s; s++) {
		fputc(toupper((unsigned char)*s), out);
		s += s[0] == '_' && s[1] == '_';
	}
}

/* _SERVER_PROBES_H for server_probes.h, as DTrace guards its headers */
static void print_guard(FILE *out, const char *name)
{
	const char *slash = strrchr(name, '/');

	fputc('_', out);
	for (const char *s = slash ? slash + 1 : name; *s; s++)
		fputc(isalnum((unsigned char)*s) ? toupper((unsigned char)*s)
						  : '_', out);
}

/* "arg1, arg2": the macro's parameters, as the probe's arguments */
static void print_params(FILE *out, int nargs, const char *lead)
{
	for (int i = 1; i <= nargs; i++)
		fprintf(out, "%sarg%d", i == 1 ? lead : ", ", i);
}

/*
 *	// myserv:::request-start (int, char *)
 *	extern unsigned short myserv_request__start_semaphore ...;
 *	#define MYSERV_REQUEST_START_ENABLED() \
 *		__builtin_expect(myserv_request__start_semaphore, 0)
 *	#define MYSERV_REQUEST_START(arg1, arg2) \
 *		DTRACE_PROBE2(myserv, request__start, arg1, arg2)
 */
static void print_probe(FILE *out, struct arena *a, const struct sdt_probe *p)
{
	const struct provider_probe *pp = p->decl;
	const char *prov = p->provider;

	fprintf(out, "/* %s:::%s (", prov, hyphenated(a, pp->name));
	for (int i = 0; i < pp->nargs; i++)
		fprintf(out, "%s%s", i ? ", " : "", pp->args[i]);
	fprintf(out, ") */\n");
	fprintf(out, "__extension__ extern unsigned short %s_%s_semaphore\n"
		     "\t__attribute__((unused)) "
		     "__attribute__((section(\".probes\")));\n", prov, pp->name);
	fprintf(out, "#define ");
	print_macro_name(out, p);
	fprintf(out, "_ENABLED() \\\n\t__builtin_expect(%s_%s_semaphore, 0)\n",
		prov, pp->name);
	fprintf(out, "#define ");
	print_macro_name(out, p);
	fputc('(', out);
	print_params(out, pp->nargs, "");
	if (pp->nargs)
		fprintf(out, ") \\\n\tDTRACE_PROBE%d(%s, %s", pp->nargs, prov,
			pp->name);
	else
		fprintf(out, ") \\\n\tDTRACE_PROBE(%s, %s", prov, pp->name);
	print_params(out, pp->nargs, ", ");
	fprintf(out, ")\n\n");
}

void sdtgen_header(const struct sdt_set *set, FILE *out, const char *name)
{
	fprintf(out,
		"/*\n"
		" * Generated by dscope -h from a D provider definition: do not "
		"edit.\n"
		" *\n"
		" * PROVIDER_PROBE(args...) places a probe: a <sys/sdt.h> note "
		"and a nop.\n"
		" * PROVIDER_PROBE_ENABLED() is nonzero while a tracer traces "
		"it: guard\n"
		" * arguments that cost something to compute with it.  Its "
		"semaphore is\n"
		" * defined by the object dscope -G writes; link that object "
		"too.\n"
		" */\n");
	fprintf(out, "#ifndef ");
	print_guard(out, name);
	fprintf(out, "\n#define ");
	print_guard(out, name);
	fprintf(out, "\n\n"
		"/* The notes name each probe's semaphore.  Older <sys/sdt.h> "
		"spell it\n   STAP_HAS_SEMAPHORES. */\n"
		"#define _SDT_HAS_SEMAPHORES 1\n"
		"#define STAP_HAS_SEMAPHORES 1\n"
		"#include <sys/sdt.h>\n\n"
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
	for (int i = 0; i < set->nprobes; i++)
		print_probe(out, set->a, &set->probes[i]);
	fprintf(out, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* ");
	print_guard(out, name);
	fprintf(out, " */\n");
}

/* ---- the object ---- */

/* The host's ELF, for a build that names no object (x86 takes -32/-64). */
static int host_target(struct sdt_target *t, int bits)
{
	bool lp64 = sizeof(void *) == 8;

#if defined(__x86_64__) || defined(__i386__)
	if (bits)
		lp64 = bits == 64;
	t->machine = lp64 ? EM_X86_64 : EM_386;
#elif defined(__aarch64__)
	if (bits == 32)
		return -1;
	t->machine = EM_AARCH64;
#else
	return -1;
#endif
	t->elfclass = lp64 ? ELFCLASS64 : ELFCLASS32;
	t->data = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
							    : ELFDATA2MSB;
	t->flags = 0;
	return 0;
}

static bool object_target(struct sdt_target *t, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	GElf_Ehdr eh;

	if (fd < 0)
		return false;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	bool ok = e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh);

	if (ok) {
		t->elfclass = eh.e_ident[EI_CLASS];
		t->data = eh.e_ident[EI_DATA];
		t->machine = eh.e_machine;
		t->flags = eh.e_flags;
	}
	elf_end(e);
	close(fd);
	return ok;
}

int sdtgen_target(struct sdt_target *t, int bits, int nobjs,
		  char *const *objs, char *err, size_t errlen)
{
	elf_version(EV_CURRENT);
	for (int i = 0; i < nobjs; i++)
		if (object_target(t, objs[i]))
			return 0;
	if (host_target(t, bits) == 0)
		return 0;
	snprintf(err, errlen, "no ELF object among the operands to take the "
			      "machine from, and no default for %d-bit objects "
			      "on this host", bits ? bits : 64);
	return -1;
}

/* The object's sections, in file order after the null section. */
enum { SCN_PROBES = 1, SCN_GNU_STACK, SCN_SYMTAB, SCN_STRTAB, SCN_SHSTRTAB,
       SCN_COUNT };

/* ORDER SCN */
static const struct section_spec {
	const char *name;
	GElf_Word type;
	GElf_Xword flags;
	GElf_Xword align;	/* 0: the class's word */
} sections[SCN_COUNT] = {
	[SCN_PROBES] = { ".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 2 },
	/* present and empty: the stack need not be executable */
	[SCN_GNU_STACK] = { ".note.GNU-stack", SHT_PROGBITS, 0, 1 },
	[SCN_SYMTAB] = { ".symtab", SHT_SYMTAB, 0, 0 },
	[SCN_STRTAB] = { ".strtab", SHT_STRTAB, 0, 1 },
	[SCN_SHSTRTAB] = { ".shstrtab", SHT_STRTAB, 0, 1 },
};

/* A string table being built: "\0name\0name\0...". */
struct strtab {
	char *buf;
	size_t len, cap;
	struct arena *a;
};

static size_t strtab_add(struct strtab *st, const char *s)
{
	size_t n = strlen(s) + 1, off = st->len;

	if (st->len + n > st->cap) {
		size_t cap = 2 * (st->len + n);
		char *buf = arena_alloc(st->a, cap);

		memcpy(buf, st->buf, st->len);
		st->buf = buf;
		st->cap = cap;
	}
	memcpy(st->buf + off, s, n);
	st->len += n;
	return off;
}

/* Section i holding size bytes at buf (libelf converts ELF_T_SYM's byte
 * order on write; buf must live until elf_update).  Its data, or NULL. */
static Elf_Data *add_section(Elf *e, int i, size_t name, void *buf,
			     size_t size, Elf_Type type, size_t word)
{
	const struct section_spec *s = &sections[i];
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (!d || !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = type;
	d->d_align = s->align ? s->align : word;
	d->d_version = EV_CURRENT;
	sh.sh_name = name;
	sh.sh_type = s->type;
	sh.sh_flags = s->flags;
	sh.sh_addralign = d->d_align;
	if (i == SCN_SYMTAB) {
		sh.sh_link = SCN_STRTAB;
		sh.sh_info = 1;		/* every symbol but the null one is global */
		sh.sh_entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	}
	return gelf_update_shdr(scn, &sh) ? d : NULL;
}

/* One weak hidden 2-byte object in .probes per probe, in set order, into
 * the symbol table's data d; their names into names. */
static bool add_semaphores(const struct sdt_set *set, Elf_Data *d,
			   struct strtab *names)
{
	for (int i = 0; i < set->nprobes; i++) {
		const struct sdt_probe *p = &set->probes[i];
		const char *name = arena_printf(set->a, "%s_%s_semaphore",
						p->provider, p->decl->name);
		GElf_Sym sym = {
			.st_name = strtab_add(names, name),
			.st_value = 2 * (GElf_Addr)i,
			.st_size = 2,
			.st_info = GELF_ST_INFO(STB_WEAK, STT_OBJECT),
			.st_other = STV_HIDDEN,
			.st_shndx = SCN_PROBES,
		};

		if (!gelf_update_sym(d, i + 1, &sym))
			return false;
	}
	return true;
}

static bool set_header(Elf *e, const struct sdt_target *t)
{
	GElf_Ehdr eh;

	if (!gelf_newehdr(e, t->elfclass) || !gelf_getehdr(e, &eh))
		return false;
	eh.e_ident[EI_DATA] = t->data;
	eh.e_type = ET_REL;
	eh.e_machine = t->machine;
	eh.e_version = EV_CURRENT;
	eh.e_flags = t->flags;
	eh.e_shstrndx = SCN_SHSTRTAB;
	return gelf_update_ehdr(e, &eh);
}

/*
 * The sections, in SCN order; the string tables are filled before
 * elf_update reads them (libelf keeps the pointers, not copies):
 *   .probes           2 zero bytes a probe, the semaphores
 *   .note.GNU-stack   empty
 *   .symtab           null, then one symbol a semaphore
 *   .strtab .shstrtab their names, the sections'
 */
static bool write_elf(const struct sdt_set *set, const struct sdt_target *t,
		      int fd)
{
	struct strtab shnames = { .a = set->a }, names = { .a = set->a };
	size_t word = t->elfclass == ELFCLASS64 ? 8 : 4, name[SCN_COUNT];
	size_t n = (size_t)set->nprobes;
	Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
	Elf_Data *syms, *strs, *shstrs;

	if (!e || !set_header(e, t)) {
		elf_end(e);
		return false;
	}
	strtab_add(&shnames, "");
	strtab_add(&names, "");
	for (int i = 1; i < SCN_COUNT; i++)
		name[i] = strtab_add(&shnames, sections[i].name);
	size_t symsize = gelf_fsize(e, ELF_T_SYM, n + 1, EV_CURRENT);
	bool ok = add_section(e, SCN_PROBES, name[SCN_PROBES],
			      arena_alloc(set->a, 2 * n + 1), 2 * n, ELF_T_BYTE,
			      word) &&
		  add_section(e, SCN_GNU_STACK, name[SCN_GNU_STACK], NULL, 0,
			      ELF_T_BYTE, word) &&
		  (syms = add_section(e, SCN_SYMTAB, name[SCN_SYMTAB],
				      arena_alloc(set->a, symsize), symsize,
				      ELF_T_SYM, word)) &&
		  (strs = add_section(e, SCN_STRTAB, name[SCN_STRTAB], NULL, 0,
				      ELF_T_BYTE, word)) &&
		  (shstrs = add_section(e, SCN_SHSTRTAB, name[SCN_SHSTRTAB],
					shnames.buf, shnames.len, ELF_T_BYTE,
					word)) &&
		  add_semaphores(set, syms, &names);

	if (ok) {
		strs->d_buf = names.buf;
		strs->d_size = names.len;
		ok = elf_update(e, ELF_C_WRITE) >= 0;
	}
	elf_end(e);
	return ok;
}

int sdtgen_object(const struct sdt_set *set, const struct sdt_target *t,
		  const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	bool ok = write_elf(set, t, fd);

	if (!ok)
		snprintf(err, errlen, "%s", elf_errmsg(-1));
	if (close(fd) < 0 && ok) {
		snprintf(err, errlen, "%s", strerror(errno));
		ok = false;
	}
	if (!ok)
		unlink(path);
	return ok ? 0 : -1;
}
