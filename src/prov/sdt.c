/*
 * sdt.c -- the sdt provider: every kernel tracepoint, named as Oracle's
 * DTrace names it, sdt:GROUP::EVENT (tracefs event GROUP/EVENT).
 *
 * A probe is offered only when a BPF raw tracepoint program can attach to
 * it: BTF then has the typedef btf_trace_EVENT, a pointer to a function
 * whose first parameter is the tracepoint's `void *__data` and whose others
 * are TP_PROTO's arguments -- exactly what a raw tracepoint program finds
 * in ctx->args[], one u64 each.  So args[N] is TP_PROTO's N-th argument,
 * typed from BTF: sched_switch's args[1] is a struct task_struct *.  Events
 * that are not tracepoints (syscalls:sys_enter_*, kprobe and ftrace
 * events) have no such typedef and are left out.
 *
 * Enumerating is a readdir of every tracefs group (some 2,300 events) and
 * one pass over BTF; the catalog does it only when a description can name
 * an sdt probe (catalog.c), so `dscope -n BEGIN` never pays for it.
 */
#include "sdt.h"

#include <bpf/btf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kern/ktypes.h"
#include "tracefs.h"

#define TRACE_PREFIX "btf_trace_"

struct tp_type {
	const char *event;	/* the name after btf_trace_ */
	uint32_t id;		/* the typedef's BTF id */
};

static int cmp_tp(const void *a, const void *b)
{
	return strcmp(((const struct tp_type *)a)->event,
		      ((const struct tp_type *)b)->event);
}

/*
 * Every btf_trace_* typedef, sorted by event: an index of the kernel's
 * BTF, which is process-wide (kern/ktypes.h), so the index is too: built
 * once, under pthread_once, by whichever session asks first, read-only
 * after, kept for the life of the process.
 */
static struct tp_type *tp_index;
static int tp_nindex;
static pthread_once_t tp_index_once = PTHREAD_ONCE_INIT;

static void tp_index_build(void)
{
	const struct btf *btf = ktype_btf();
	struct tp_type *v = NULL;
	uint32_t cnt;
	int cap = 0, nv = 0;

	if (!btf)
		return;
	cnt = btf__type_cnt(btf);
	for (uint32_t id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_typedef(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || strncmp(name, TRACE_PREFIX, sizeof(TRACE_PREFIX) - 1))
			continue;
		if (nv == cap) {
			cap = cap ? 2 * cap : 2048;
			v = realloc(v, sizeof(*v) * (size_t)cap);
			if (!v) {
				fprintf(stderr, "dscope: out of memory\n");
				abort();
			}
		}
		v[nv].event = name + sizeof(TRACE_PREFIX) - 1;
		v[nv++].id = id;
	}
	if (v)
		qsort(v, (size_t)nv, sizeof(*v), cmp_tp);
	tp_index = v;
	tp_nindex = nv;
}

static const struct tp_type *tp_types(int *n)
{
	pthread_once(&tp_index_once, tp_index_build);
	*n = tp_nindex;
	return tp_index;
}

/* The function prototype behind btf_trace_EVENT, or NULL. */
static const struct btf_type *tp_proto(const char *event)
{
	const struct btf *btf = ktype_btf();
	struct tp_type key = { .event = event };
	const struct tp_type *v, *hit;
	const struct btf_type *t;
	int n;

	v = tp_types(&n);
	if (!btf || !n || !(hit = bsearch(&key, v, (size_t)n, sizeof(*v), cmp_tp)))
		return NULL;
	t = btf__type_by_id(btf, btf__resolve_type(btf, hit->id));
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t) && btf_vlen(t) >= 1 ? t : NULL;
}

int sdt_tp_nargs(const char *event)
{
	const struct btf_type *t = tp_proto(event);

	return t ? btf_vlen(t) - 1 : -1;
}

void sdt_populate(struct catalog *cat)
{
	struct arena *a = catalog_arena(cat);
	const char **groups, **events;
	int ngroups = tracefs_group_events(a, "", &groups);

	for (int i = 0; i < ngroups; i++) {
		int nev = tracefs_group_events(a, groups[i], &events);

		for (int j = 0; j < nev; j++) {
			int nargs = sdt_tp_nargs(events[j]);

			if (nargs < 0)
				continue;
			catalog_add(cat, &(struct probe){ .kind = PROV_SDT,
				    .prov = "sdt", .mod = groups[i], .func = "",
				    .name = events[j], .sysnr = -1,
				    .tp_group = groups[i], .tp_event = events[j],
				    .tp_nargs = nargs });
		}
	}
}

void sdt_why_none(const struct probe_desc *pd, char *buf, size_t n)
{
	const char *why = tracefs_unreadable();

	(void)pd;
	if (why)
		snprintf(buf, n, "%s", why);
}

void sdt_type_text(const struct btf *btf, uint32_t id, char *buf, size_t n)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	size_t len;

	if (!t || id == 0) {
		snprintf(buf, n, "void");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		sdt_type_text(btf, t->type, buf, n);
		return;
	case BTF_KIND_PTR:
		if (btf_is_func_proto(btf__type_by_id(btf, t->type))) {
			snprintf(buf, n, "void *");
			return;
		}
		sdt_type_text(btf, t->type, buf, n);
		len = strlen(buf);
		snprintf(buf + len, n - len, "%s*",
			 len && buf[len - 1] == '*' ? "" : " ");
		return;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		snprintf(buf, n, "%s %s",
			 btf_is_enum(t) || btf_is_enum64(t) ? "enum"
			 : btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t))
				 ? "union" : "struct",
			 name ? name : "");
		return;
	case BTF_KIND_ARRAY:
		sdt_type_text(btf, btf_array(t)->type, buf, n);
		len = strlen(buf);
		snprintf(buf + len, n - len, " *");
		return;
	default:	/* int, float, typedef */
		snprintf(buf, n, "%s", name && *name ? name : "void");
	}
}

int sdt_load_args(struct catalog *cat, struct probe *p)
{
	const struct btf_type *t = tp_proto(p->tp_event);
	const struct btf *btf = ktype_btf();
	struct arena *a = catalog_arena(cat);
	struct probe_arg *args;
	int n;

	if (!t)
		return p->nargs = -1;
	n = btf_vlen(t) - 1;
	args = arena_alloc(a, sizeof(*args) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const struct btf_param *pa = &btf_params(t)[i + 1];
		char buf[256];

		sdt_type_text(btf, pa->type, buf, sizeof(buf));
		args[i].type = arena_strdup(a, buf);
		args[i].name = "";
	}
	p->args = args;
	return p->nargs = n;
}
