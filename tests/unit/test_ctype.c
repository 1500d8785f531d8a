/*
 * test_ctype.c -- the C type system of D: type names, the layout of the
 * DTrace tests' structs, unions and bit-fields (against gcc's layout of
 * the same declarations compiled into this file, where DTrace and C
 * agree), enums, typedefs, kernel types from BTF (against ktypes.c's
 * independent reader), and DTrace's declaration errors.
 *
 * The kernel tests need /sys/kernel/btf/vmlinux; they pass on any kernel
 * that has the members they name.
 */
#include "test.h"

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "front/ctype.h"
#include "kern/ktypes.h"
#include "front/parse.h"

static struct arena A;
static struct diag D;

/* Declare a script's types as sema would: definitions and typedefs, and
 * the types of its variables.  NULL with D filled on error. */
static struct ctypes *declare(const char *script)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	struct program *prog;
	jmp_buf env;
	struct dtype t;

	memset(&D, 0, sizeof(D));
	prog = parse_program(&A, script, NULL, &D);
	if (!prog)
		return NULL;
	D.env = &env;
	if (setjmp(env))
		return NULL;
	for (int i = 0; i < prog->ndecls; i++) {
		const struct top_decl *td = prog->decls[i];

		if (td->kind == TOP_VAR)
			ctypes_resolve_decl(cs, td->type, td->name, &D, &t);
		else
			ctypes_declare(cs, td, &D);
	}
	return cs;
}

static struct dtype resolve(struct ctypes *cs, const char *text)
{
	struct dtype t = { .kind = T_NONE };

	if (!ctypes_resolve(cs, text, &t))
		fprintf(stderr, "cannot resolve: %s\n", text);
	return t;
}

/* offset of member `name` in type `text`, -1 if none */
static long off(struct ctypes *cs, const char *text, const char *name)
{
	struct dtype t = resolve(cs, text);
	struct cmember m;

	return ctype_member(&t, name, &m) ? (long)m.off : -1;
}

static long size(struct ctypes *cs, const char *text)
{
	return (long)resolve(cs, text).size;
}

TEST(ctype_builtin_names)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	static const struct { const char *text, *name; uint32_t size; bool sign; } c[] = {
		{ "int", "int", 4, true },
		{ "unsigned", "unsigned", 4, false },
		{ "unsigned int", "unsigned int", 4, false },
		{ "short int", "short", 2, true },
		{ "unsigned long int", "unsigned long", 8, false },
		{ "long long", "long long", 8, true },
		{ "signed char", "signed char", 1, true },
		{ "uint8_t", "uint8_t", 1, false },
		{ "pid_t", "pid_t", 4, true },
		{ "hrtime_t", "hrtime_t", 8, true },
		{ "bool", "bool", 1, false },
		{ "const volatile int", "int", 4, true },
		{ "D`uint32_t", "uint32_t", 4, false },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		struct dtype t = resolve(cs, c[i].text);
		CHECK(t.kind == T_INT);
		CHECK_STR(dtype_name(&t), c[i].name);
		CHECK(t.size == c[i].size);
		CHECK(t.is_signed == c[i].sign);
	}
	struct dtype t = resolve(cs, "string");	/* strsize 256, and its NUL */
	CHECK(t.kind == T_STRING && t.size == 257);
	t = resolve(cs, "void");
	CHECK(t.kind == T_VOID && t.size == 0);
	t = resolve(cs, "double");
	CHECK(dtype_is_float(&t) && t.size == 8 && dtype_align(&t) == 8);
	CHECK_STR(dtype_name(&t), "double");
	t = resolve(cs, "long double");
	CHECK(dtype_is_float(&t) && t.size == 16);
	CHECK(!ctypes_resolve(cs, "short long", &t));
	CHECK(!ctypes_resolve(cs, "int int", &t));
}

TEST(ctype_derived_names)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	static const struct { const char *text, *name; uint32_t size; } c[] = {
		{ "char *", "char *", 8 },
		{ "char **", "char **", 8 },
		{ "int [4]", "int [4]", 16 },
		{ "int [3][5]", "int [3][5]", 60 },
		{ "int *[4]", "int *[4]", 32 },
		{ "int (*)[4]", "int (*)[4]", 8 },
		{ "int (*) ()", "int (*)()", 8 },
		{ "int (* [2]) ()", "int (*[2])()", 16 },
		{ "unsigned long *", "unsigned long *", 8 },
		{ "char [sizeof (int) * 2]", "char [8]", 8 },
		{ "caddr_t", "caddr_t", 8 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		struct dtype t = resolve(cs, c[i].text);
		CHECK_STR(dtype_name(&t), c[i].name);
		CHECK(t.size == c[i].size);
	}
	struct dtype t = resolve(cs, "int [3][5]");
	CHECK(t.kind == T_ARRAY && t.ct->count == 3);
	CHECK(t.ct->elem.kind == T_ARRAY && t.ct->elem.ct->count == 5);
	t = resolve(cs, "char **");
	CHECK(t.kind == T_PTR && t.ct->elem.kind == T_PTR);
	CHECK(t.ct->elem.ct->elem.kind == T_INT && t.ct->elem.ct->elem.size == 1);
	t = resolve(cs, "caddr_t");
	CHECK(t.kind == T_PTR);

	struct dtype a = resolve(cs, "char *"), b = resolve(cs, "char*");
	CHECK(dtype_equal(&a, &b));
	b = resolve(cs, "unsigned char *");
	CHECK(!dtype_equal(&a, &b));
}

/* tests/struct/tst.StructDataTypes.d, and gcc's layout of it */
struct g_record {
	char new_char;
	short new_short;
	int new_int;
	long new_long;
	long long new_long_long;
	int8_t new_int8;
	int16_t new_int16;
	int32_t new_int32;
	int64_t new_int64;
	intptr_t new_intptr;
	uint8_t new_uint8;
	uint16_t new_uint16;
	uint32_t new_uint32;
	uint64_t new_uint64;
	uintptr_t new_uintptr;
	struct { char ch; int in; long lg; } new_struct;
	union { char ch; int in; long lg; } new_union;
	enum colors { RED, GREEN, BLUE } new_enum;
	unsigned long *pointer;
};

TEST(ctype_struct_datatypes_match_gcc)
{
	struct ctypes *cs = declare(
		"struct record {\n"
		"	char new_char;\n	short new_short;\n	int new_int;\n"
		"	long new_long;\n	long long new_long_long;\n"
		"	int8_t new_int8;\n	int16_t new_int16;\n"
		"	int32_t new_int32;\n	int64_t new_int64;\n"
		"	intptr_t new_intptr;\n	uint8_t new_uint8;\n"
		"	uint16_t new_uint16;\n	uint32_t new_uint32;\n"
		"	uint64_t new_uint64;\n	uintptr_t new_uintptr;\n"
		"	/* float new_float; */\n"
		"	struct { char ch; int in; long lg; } new_struct;\n"
		"	union { char ch; int in; long lg; } new_union;\n"
		"enum colors { RED, GREEN, BLUE } new_enum;\n"
		"	unsigned long *pointer;\n"
		"} var;\n");
	const char *s = "struct record";

	CHECK(cs != NULL);
	if (!cs)
		return;
#define SAME(m) CHECK(off(cs, s, #m) == (long)offsetof(struct g_record, m))
	SAME(new_char); SAME(new_short); SAME(new_int); SAME(new_long);
	SAME(new_long_long); SAME(new_int8); SAME(new_int16); SAME(new_int32);
	SAME(new_int64); SAME(new_intptr); SAME(new_uint8); SAME(new_uint16);
	SAME(new_uint32); SAME(new_uint64); SAME(new_uintptr);
	SAME(new_struct); SAME(new_union); SAME(new_enum); SAME(pointer);
#undef SAME
	CHECK(size(cs, s) == sizeof(struct g_record));
	struct dtype t = resolve(cs, s);
	CHECK(dtype_align(&t) == _Alignof(struct g_record));

	struct cmember m;
	CHECK(ctype_member(&t, "pointer", &m));
	CHECK_STR(dtype_name(&m.type), "unsigned long *");
	CHECK(ctype_member(&t, "new_struct", &m));
	CHECK(m.type.size == sizeof(((struct g_record *)0)->new_struct));
	CHECK_STR(dtype_name(&m.type), "struct");
	CHECK(ctype_member(&t, "new_enum", &m));
	CHECK_STR(dtype_name(&m.type), "enum colors");
	CHECK(m.type.kind == T_INT && m.type.size == 4);
	CHECK(!ctype_member(&t, "ch", &m));	/* named members: no lookup inside */

	/* a nested definition is visible at file scope, with its enumerators */
	int64_t v;
	CHECK(ctypes_enum_value(cs, "BLUE", &v, &t) && v == 2);
	CHECK_STR(dtype_name(&t), "enum colors");
	CHECK(size(cs, "enum colors") == 4);
	CHECK_STR(ctype_enum_name(&t, 1), "GREEN");
}

/* tests/print/tst.print.local.trunc.d: "a 0; b 4; u 16; s 24; g 40; h 44" */
struct g_test_struct {
	int a;
	char b[5];
	union { uint8_t c; uint64_t d; } u;
	struct { void *e; uint64_t f; } s;
	_Bool g;
	enum eh { FIRSTVAL = 1, SECONDVAL = 2, THIRDVAL = 3 } h;
};

TEST(ctype_print_struct_offsets)
{
	struct ctypes *cs = declare(
		"enum eh { FIRSTVAL = 1, SECONDVAL = 2, THIRDVAL= 3 };\n"
		"struct test_struct {\n"
		"	int	a;\n	char	b[5];\n"
		"	union {\n		__u8 c;\n		__u64 d;\n	} u;\n"
		"	struct {\n		void *e;\n		uint64_t f;\n	} s;\n"
		"	bool g;\n	enum eh h;\n};\n");
	const char *s = "struct test_struct";

	CHECK(cs != NULL);
	if (!cs)
		return;
	CHECK(off(cs, s, "a") == 0 && off(cs, s, "b") == 4);
	CHECK(off(cs, s, "u") == 16 && off(cs, s, "s") == 24);
	CHECK(off(cs, s, "g") == 40 && off(cs, s, "h") == 44);
	CHECK(off(cs, s, "h") == (long)offsetof(struct g_test_struct, h));
	CHECK(size(cs, s) == sizeof(struct g_test_struct));

	struct dtype t = resolve(cs, s);
	int n;
	const struct cmember *m = ctype_members(&t, &n);
	CHECK(n == 6);
	if (n == 6) {
		CHECK_STR(dtype_name(&m[1].type), "char [5]");
		CHECK_STR(dtype_name(&m[2].type), "union");
		CHECK_STR(dtype_name(&m[4].type), "bool");
		CHECK_STR(dtype_name(&m[5].type), "enum eh");
		CHECK_STR(ctype_enum_name(&m[5].type, 2), "SECONDVAL");
		struct cmember d;
		CHECK(ctype_member(&m[2].type, "d", &d));
		CHECK_STR(dtype_name(&d.type), "__u64");
	}
}

/* tests/funcs/alloca/tst.alloca-struct-union-load.d */
struct g_st {
	struct {
		union {
			struct { int a; char b; int c; } apa;
			uint64_t val;
		} u;
	} s;
};

TEST(ctype_nested_anonymous)
{
	struct ctypes *cs = declare(
		"struct st {\n    struct {\n\tunion {\n\t    struct {\n"
		"\t\tint	a;\n\t\tchar	b;\n\t\tint	c;\n"
		"\t    } apa;\n\t    uint64_t	val;\n\t} u;\n    } s;\n} *ptr;\n");
	CHECK(cs != NULL);
	if (!cs)
		return;
	/* DTrace has no tail padding: 12 where gcc says 16 */
	CHECK(size(cs, "struct st") == 12 && sizeof(struct g_st) == 16);
	struct dtype t = resolve(cs, "struct st"), apa;
	struct cmember m;

	CHECK(ctype_member(&t, "s", &m));
	CHECK(ctype_member(&m.type, "u", &m));
	CHECK(ctype_member(&m.type, "apa", &m));
	apa = m.type;
	CHECK(ctype_member(&apa, "c", &m));
	CHECK(m.off == offsetof(struct g_st, s.u.apa.c));
	CHECK(dtype_align(&apa) == 4);
}

/* tests/sizeof/tst.SizeofDataTypes.d, offsetof/tst.OffsetofAlias.d,
 * union/, offsetof/tst.OffsetofUnion.d */
TEST(ctype_sizeof_and_offsetof)
{
	struct ctypes *cs = declare(
		"struct record { char ch; int in; } new_struct;\n"
		"struct { char ch; int in; } anon_struct;\n"
		"union record { char ch; int in; } new_union;\n"
		"union { char ch; int in; } anon_union;\n"
		"enum colors { RED, GREEN, BLUE } new_enum;\n"
		"typedef struct rec { char c; int x; int y; } record_t;\n"
		"union u3 { int x; int y; char c; };\n"
		"int *pointer;\n");
	CHECK(cs != NULL);
	if (!cs)
		return;
	CHECK(size(cs, "struct record") == 8);
	CHECK(size(cs, "union record") == 4);
	/* "struct { ... } anon_struct;" reaches sema as a definition, then a
	 * variable of type "struct": the last anonymous one */
	CHECK(size(cs, "struct") == 8 && size(cs, "union") == 4);
	CHECK(off(cs, "struct", "in") == 4);
	CHECK(size(cs, "enum colors") == 4);
	CHECK(size(cs, "record_t") == 12);
	CHECK(off(cs, "record_t", "c") == 0);
	CHECK(off(cs, "record_t", "x") == 4);
	CHECK(off(cs, "record_t", "y") == 8);
	CHECK(off(cs, "union D`u3", "c") == 0);
	CHECK(off(cs, "union u3", "y") == 0);
	struct dtype t = resolve(cs, "record_t *");
	CHECK_STR(dtype_name(&t), "record_t *");
	CHECK(t.ct->elem.size == 12);
	t = resolve(cs, "record_t");
	CHECK_STR(dtype_name(&t), "record_t");
	struct dtype u = resolve(cs, "struct rec");
	CHECK(dtype_equal(&t, &u));
}

/* tests/bitfields/tst.SizeofBitField.d: DTrace packs bit-fields by bytes
 * (gcc would say 4, 4, 4, 4, 4, 8, 8, 8, 12) */
TEST(ctype_bitfield_sizes)
{
	struct ctypes *cs = declare(
		"struct bitRecord1 { int a : 1; } var1;\n"
		"struct bitRecord2 { int a : 1; int b : 3; } var2;\n"
		"struct bitRecord3 { int a : 1; int b : 3; int c : 3; } var3;\n"
		"struct bitRecord4 { int a : 1; int b : 3; int c : 3; int d : 3; } var4;\n"
		"struct bitRecord5 { int c : 12; int a : 10; int b : 3; } var5;\n"
		"struct bitRecord6 { int a : 20; int b : 3; int c : 12; } var6;\n"
		"struct bitRecord7 { long c : 32; long long d: 9; int e: 1; } var7;\n"
		"struct bitRecord8 { char a : 2; short b : 12; long c : 32; } var8;\n"
		"struct bitRecord12 { int a : 30; int b : 30; int c : 32; } var12;\n"
		"struct bits { int a : 3; int : 0; unsigned long d : 35; int e; };\n");
	static const long want[] = { 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 12 };

	CHECK(cs != NULL);
	if (!cs)
		return;
	for (int i = 1; i <= 12; i++) {
		char name[32];
		if (!want[i - 1])
			continue;
		snprintf(name, sizeof(name), "struct bitRecord%d", i);
		CHECK(size(cs, name) == want[i - 1]);
	}
	struct dtype t = resolve(cs, "struct bitRecord5");
	struct cmember m;
	CHECK(ctype_member(&t, "a", &m));
	CHECK(m.off == 2 && m.bit_off == 0 && m.bit_width == 10);
	CHECK_STR(dtype_name(&m.type), "int");
	CHECK(m.type.size == 4 && m.type.is_signed);
	t = resolve(cs, "struct bits");
	CHECK(ctype_member(&t, "d", &m));
	CHECK(m.off == 8 && m.bit_width == 35 && !m.type.is_signed);
	CHECK(ctype_member(&t, "e", &m));
	CHECK(m.off == 16 && m.bit_width == 0);
}

/* tests/enum/tst.EnumValAssign.d, types/tst.relenum.d */
TEST(ctype_enums)
{
	struct ctypes *cs = declare(
		"enum colors { RED, ORANGE = 5 + 5, YELLOW = 2, GREEN,\n"
		"	BLUE = GREEN + ORANGE, PINK = 5/4, INDIGO = -2, VIOLET,\n"
		"	SHIFT = 1 << 4 | 1, CH = 'A', COND = RED ? 1 : (2 * 3) };\n"
		"enum numbers_1 { zero, one, two };\n");
	static const struct { const char *name; int64_t v; } want[] = {
		{ "RED", 0 }, { "ORANGE", 10 }, { "YELLOW", 2 }, { "GREEN", 3 },
		{ "BLUE", 13 }, { "PINK", 1 }, { "INDIGO", -2 }, { "VIOLET", -1 },
		{ "SHIFT", 17 }, { "CH", 65 }, { "COND", 6 }, { "two", 2 },
	};

	CHECK(cs != NULL);
	if (!cs)
		return;
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		int64_t v = 12345;
		CHECK(ctypes_enum_value(cs, want[i].name, &v, NULL));
		CHECK(v == want[i].v);
	}
	struct dtype t = resolve(cs, "enum colors");
	int n;
	const struct cenumerator *e = ctype_enumerators(&t, &n);
	CHECK(n == 11 && e && !strcmp(e[4].name, "BLUE"));
	CHECK(t.kind == T_INT && t.size == 4 && t.is_signed);
	CHECK_STR(ctype_enum_name(&t, 13), "BLUE");
	CHECK(ctype_enum_name(&t, 99) == NULL);
}

/* tests/typedef/tst.ChainTypedef.d, types/tst.typedef2.d */
TEST(ctype_typedefs)
{
	struct ctypes *cs = declare(
		"typedef int new_int;\n"
		"typedef new_int latest_int;\n"
		"typedef latest_int *ip_t;\n"
		"typedef struct env_vars_32 { uint32_t e1; uint32_t e2; uint32_t e3; }"
		" env_vars_32_t;\n"
		"typedef struct { int x; } anon_t;\n"
		"typedef int arr_t[4];\n"
		"typedef struct later later_t;\n"
		"struct later { long l; char c; };\n");
	CHECK(cs != NULL);
	if (!cs)
		return;
	struct dtype t = resolve(cs, "latest_int");
	CHECK(t.kind == T_INT && t.size == 4 && t.is_signed);
	CHECK_STR(dtype_name(&t), "latest_int");
	t = resolve(cs, "ip_t");
	CHECK(t.kind == T_PTR);
	CHECK_STR(dtype_name(&t.ct->elem), "latest_int");
	t = resolve(cs, "D`env_vars_32_t *");
	CHECK_STR(dtype_name(&t), "env_vars_32_t *");
	CHECK(t.ct->elem.size == 12);
	CHECK(off(cs, "struct D`env_vars_32", "e3") == 8);
	CHECK(off(cs, "anon_t", "x") == 0);
	t = resolve(cs, "arr_t *");
	CHECK_STR(dtype_name(&t), "arr_t *");
	t = resolve(cs, "int (*)[4]");
	struct dtype u = resolve(cs, "arr_t *");
	CHECK(dtype_equal(&t, &u));
	/* a typedef of a forward struct sees the definition */
	CHECK(size(cs, "later_t") == 9);
	CHECK(off(cs, "later_t", "c") == 8);
}

TEST(ctype_forward_and_self_reference)
{
	struct ctypes *cs = declare(
		"struct node { int v; struct node *next; struct other *o; };\n"
		"struct other { char c[3]; };\n"
		"struct node *head;\n");
	CHECK(cs != NULL);
	if (!cs)
		return;
	struct dtype t = resolve(cs, "struct node");
	struct cmember m;
	CHECK(t.size == 24);
	CHECK(ctype_member(&t, "next", &m));
	CHECK(m.type.kind == T_PTR && m.type.ct->elem.size == 24);
	CHECK(ctype_member(&t, "o", &m));
	CHECK(m.type.ct->elem.size == 3);	/* patched when defined */
	t = resolve(cs, "struct nosuch_tag *");
	CHECK(t.kind == T_PTR && t.ct->elem.size == 0);
	t = resolve(cs, "struct nosuch_tag");
	CHECK(t.kind == T_STRUCT && t.size == 0 && !t.ct->complete);
	CHECK(!ctype_member(&t, "x", &m));
}

/* ---- kernel types ---- */

static void check_kernel_field(struct ctypes *cs, const char *sou,
			       const char *member)
{
	char path[128], type[128];
	struct ktype_field f;
	struct cmember m;

	snprintf(path, sizeof(path), "%s.%s", sou, member);
	snprintf(type, sizeof(type), "struct %s", sou);
	struct dtype t = resolve(cs, type);
	CHECK(ktype_field(path, &f) == 0);
	CHECK(ctype_member(&t, member, &m));
	if (m.off != f.off[0])
		fprintf(stderr, "%s: %u, BTF says %u\n", path, m.off, f.off[0]);
	CHECK(m.off == f.off[0]);
	CHECK(m.type.size == f.size);
}

TEST(ctype_kernel_task_struct)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	struct dtype t = resolve(cs, "struct task_struct *");
	struct cmember m;

	CHECK_STR(dtype_name(&t), "struct task_struct *");
	CHECK(t.kind == T_PTR && t.ct->elem.kind == T_STRUCT);
	CHECK(t.ct->elem.size > 1000 && t.btf_id != 0);
	check_kernel_field(cs, "task_struct", "pid");
	check_kernel_field(cs, "task_struct", "tgid");
	check_kernel_field(cs, "task_struct", "comm");
	check_kernel_field(cs, "task_struct", "real_parent");

	struct dtype task = t.ct->elem;
	CHECK(ctype_member(&task, "pid", &m));
	CHECK_STR(dtype_name(&m.type), "pid_t");
	CHECK(m.type.kind == T_INT && m.type.size == 4 && m.type.is_signed);
	CHECK(ctype_member(&task, "comm", &m));
	CHECK(m.type.kind == T_ARRAY && m.type.ct->count == 16);
	CHECK_STR(dtype_name(&m.type), "char [16]");
	CHECK(ctype_member(&task, "real_parent", &m));
	CHECK_STR(dtype_name(&m.type), "struct task_struct *");
	/* identity: the pointee is the same kernel struct */
	CHECK(m.type.ct->elem.ct == task.ct);
	CHECK(dtype_equal(&m.type, &t));
	CHECK(!ctype_member(&task, "no_such_member", &m));

	struct dtype v = resolve(cs, "vmlinux`struct task_struct");
	CHECK(v.ct == task.ct);
	v = resolve(cs, "struct vmlinux`task_struct");
	CHECK(v.ct == task.ct);
	CHECK(!ctypes_resolve(cs, "D`nosuch_kernel_typedef_t", &v));
}

TEST(ctype_kernel_anonymous_members)
{
	struct ctypes *cs = ctypes_new(&A, 256);

	/* sk_buff's next and dev live in anonymous unions and structs */
	check_kernel_field(cs, "sk_buff", "next");
	check_kernel_field(cs, "sk_buff", "dev");
	check_kernel_field(cs, "sk_buff", "len");
	check_kernel_field(cs, "file", "f_inode");
	check_kernel_field(cs, "inode", "i_ino");
}

TEST(ctype_kernel_typedefs_and_enums)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	struct dtype t = resolve(cs, "vmlinux`u64");
	int64_t v;

	CHECK(t.kind == T_INT && t.size == 8 && !t.is_signed);
	CHECK_STR(dtype_name(&t), "u64");
	t = resolve(cs, "atomic_t");
	CHECK(t.kind == T_STRUCT && t.size == 4);
	CHECK_STR(dtype_name(&t), "atomic_t");
	t = resolve(cs, "enum pid_type");
	CHECK(t.kind == T_INT && t.size == 4 && t.ct && t.ct->kind == CT_ENUM);
	CHECK(ctypes_enum_value(cs, "PIDTYPE_TGID", &v, &t));
	CHECK(v == 1);
	CHECK_STR(dtype_name(&t), "enum pid_type");
	CHECK_STR(ctype_enum_name(&t, 0), "PIDTYPE_PID");
	CHECK(!ctypes_enum_value(cs, "NO_SUCH_ENUMERATOR_X", &v, NULL));
	t = resolve(cs, "union sigval");
	CHECK(t.kind == T_STRUCT && t.ct->kind == CT_UNION && t.size == 8);
}

/* tests/types/tst.complex.d: kernel types inside a script's struct */
TEST(ctype_script_struct_with_kernel_members)
{
	struct ctypes *cs = declare(
		"struct s {\n	int i;\n	char c;\n	double d;\n	float f;\n"
		"	long l;\n	long long ll;\n	union sigval u;\n"
		"	enum pid_type e;\n	struct inode s;\n	int a[2];\n"
		"	int *p;\n	int *ap[4];\n	int (*fp)();\n"
		"	int (*afp[2])();\n};\n");
	CHECK(cs != NULL);
	if (!cs)
		return;
	struct dtype t = resolve(cs, "struct s"), inode = resolve(cs, "struct inode");
	struct cmember m;

	CHECK(off(cs, "struct s", "d") == 8 && off(cs, "struct s", "f") == 16);
	CHECK(off(cs, "struct s", "ll") == 32 && off(cs, "struct s", "u") == 40);
	CHECK(off(cs, "struct s", "e") == 48 && off(cs, "struct s", "s") == 56);
	CHECK(inode.size % 8 == 0);
	CHECK(ctype_member(&t, "afp", &m));
	CHECK_STR(dtype_name(&m.type), "int (*[2])()");
	CHECK(m.off == 56 + inode.size + 8 + 8 + 32 + 8);
	CHECK(t.size == m.off + 16);
}

/* ---- errors, with DTrace's tags and messages ---- */

static void check_error(const char *script, const char *tag, const char *msg)
{
	struct ctypes *cs = declare(script);

	CHECK(cs == NULL);
	CHECK_STR(D.tag, tag);
	CHECK_STR(D.msg, msg);
}

TEST(ctype_errors)
{
	check_error("struct record { struct pirate p; int position; };\n"
		    "struct pirate { struct record r; };\n",
		    "D_DECL_INCOMPLETE",
		    "incomplete struct/union/enum struct pirate: p");
	check_error("union record { union record rec; int position; };\n",
		    "D_DECL_INCOMPLETE",
		    "incomplete struct/union/enum union record: rec");
	check_error("struct { int trace(); };\n", "D_DECL_VOIDOBJ",
		    "cannot have void member: trace");
	check_error("struct bitRecord{ int a : 1; int b : -3; } var;\n",
		    "D_DECL_BFCONST", "positive integral constant expression "
		    "expected as bit-field size");
	check_error("struct bitRecord{ int a : 1; int b : 0; } var;\n",
		    "D_DECL_BFCONST", "positive integral constant expression "
		    "expected as bit-field size");
	check_error("struct bitRecord1{ char a : 10; } var1;\n",
		    "D_DECL_BFSIZE", "bit-field too big for type: a");
	check_error("struct bitRecord{ int a : 1; int b : 65; } var;\n",
		    "D_DECL_BFSIZE", "bit-field too big for type: b");
	check_error("struct bits { float : 1; } xyz;\n",
		    "D_DECL_BFTYPE", "invalid type for bit-field: (anon)");
	check_error("enum colors { RED, GREEN };\nenum shades { RED, ORANGE };\n",
		    "D_DECL_IDRED", "identifier redeclared: RED");
	check_error("enum e { TAG = \"i am not an integer constant!\" };\n",
		    "D_DECL_ENCONST", "enumerator 'TAG' must be assigned to an "
		    "integral constant expression");
	check_error("enum e { toobig = 2147483648 };\n", "D_DECL_ENOFLOW",
		    "enumerator 'toobig' value overflows INT_MAX (2147483647)");
	check_error("enum e { toosmall = -2147483649 };\n", "D_DECL_ENOFLOW",
		    "enumerator 'toosmall' value overflows INT_MAX (2147483647)");
	check_error("int a[];\n", "D_DECL_ARRNULL",
		    "array declaration requires array dimension or tuple "
		    "signature: a");
	check_error("int a[-7];\n", "D_DECL_ARRSUB",
		    "positive integral constant expression or tuple signature "
		    "expected as array declaration subscript");
	check_error("void a[3];\n", "D_DECL_VOIDOBJ", "cannot declare array of void");
	check_error("typedef int t1;\ntypedef char t1;\n", "D_DECL_IDRED",
		    "identifier redeclared: t1");
	check_error("struct s { int a; char a; };\n", "D_UNKNOWN",
		    "failed to define member 'a': Duplicate member or variable name");
	check_error("enum e { A = 1 / 0 };\n", "D_DIV_ZERO",
		    "expression contains division by zero");
	check_error("enum e { A = NOT_DEFINED_ANYWHERE_X };\n", "D_IDENT_UNDEF",
		    "failed to resolve NOT_DEFINED_ANYWHERE_X: Unknown variable name");
	check_error("unsigned struct mystruct { int i; } x;\n", "D_DECL_SIGNINT",
		    "invalid type declaration: signed and unsigned may only be "
		    "used with integer type");
	check_error("long struct mystruct { int i; } x;\n", "D_DECL_LONGINT",
		    "invalid type declaration: long and long long may only be "
		    "used with integer or floating-point type");
	check_error("short void ptr;\n", "D_DECL_VOIDATTR",
		    "invalid type declaration: attributes may not be used with "
		    "void type");
}

TEST(ctype_redefinition)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	struct decl_type dt = { .text = "struct foo { int a; }", .line = 3 };
	struct top_decl td = { .kind = TOP_STRUCT, .type = &dt, .name = "foo",
			       .line = 3 };
	jmp_buf env;

	memset(&D, 0, sizeof(D));
	D.env = &env;
	if (!setjmp(env)) {
		ctypes_declare(cs, &td, &D);
		CHECK(size(cs, "struct foo") == 4);
		ctypes_declare(cs, &td, &D);
		CHECK(!"no error");
		return;
	}
	CHECK_STR(D.tag, "D_DECL_TYPERED");
	CHECK_STR(D.msg, "type redeclared: struct foo");
}

/* Casts as the parser hands them over: tests/types/err.D_UNKNOWN.badtype*,
 * err.D_DECL_COMBO.badtype*, err.D_DECL_CHARATTR.badtype3. */
static void check_cast_error(const char *text, const char *tag, const char *msg)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	struct decl_type dt = { .text = text, .line = 21, .col = 7 };
	struct dtype t;
	jmp_buf env;

	memset(&D, 0, sizeof(D));
	D.env = &env;
	if (!setjmp(env)) {
		ctypes_resolve_decl(cs, &dt, NULL, &D, &t);
		CHECK(!"no error");
		return;
	}
	CHECK_STR(D.tag, tag);
	CHECK_STR(D.msg, msg);
	CHECK(D.line == 21);
}

TEST(ctype_specifier_errors)
{
	check_cast_error("long short", "D_UNKNOWN",
			 "failed to resolve type short long : Unknown type name");
	check_cast_error("short long", "D_UNKNOWN",
			 "failed to resolve type short long : Unknown type name");
	check_cast_error("char int", "D_DECL_COMBO", "invalid type combination");
	check_cast_error("double double", "D_DECL_COMBO",
			 "invalid type combination");
	check_cast_error("char long", "D_DECL_CHARATTR",
			 "invalid type declaration: short and long may not be "
			 "used with char type");
	check_cast_error("long long long", "D_DECL_COMBO",
			 "the attribute 'long' may only be used at most twice "
			 "in a declaration");
	check_cast_error("unsigned signed unsigned", "D_DECL_COMBO",
			 "the attribute 'unsigned' may only be used at most "
			 "once in a declaration");
}

/* With the definition's line breaks kept, errors land where DTrace puts
 * them: at the token that ends the member or enumerator. */
static int error_line(const char *text, int kind, int line)
{
	struct ctypes *cs = ctypes_new(&A, 256);
	struct decl_type dt = { .text = text, .line = line, .col = 1 };
	struct top_decl td = { .kind = kind, .type = &dt, .name = "",
			       .line = line, .col = 1 };
	jmp_buf env;

	memset(&D, 0, sizeof(D));
	D.env = &env;
	if (setjmp(env))
		return D.line;
	ctypes_declare(cs, &td, &D);
	return 0;
}

/* the lines of types/err.D_DECL_ENOFLOW.enoflow.d, union/
 * err.D_DECL_INCOMPLETE.recursive.d, bitfields/err.D_DECL_BFTYPE.badtype.d */
TEST(ctype_error_lines)
{
	CHECK(error_line("enum e {\n\ttoobig = 2147483648\n}", TOP_ENUM, 15) == 17);
	CHECK(error_line("union record {\n\tunion record rec;\n\tint position;\n}",
			 TOP_UNION, 17) == 18);
	CHECK(error_line("struct bits {\n\t/* a comment */ float : 1;\n}",
			 TOP_STRUCT, 19) == 20);
}
