/*
 * cg_zone.c -- which container a firing belongs to: the cgroup,
 * zonename and nspid built-ins and option zone's filter.
 *
 * The probe records a number and nothing else.  A thread's container is
 * its cgroup v2 group (the kernel's id for it is the inode number of the
 * group's directory, bpf_get_current_cgroup_id()); cgroup and zonename
 * are both that id, and they differ only in how the consumer prints
 * them: zonename is named by its container at print time, by
 * rt/container.c reading the runtime's own state.  So no string is built
 * in the probe, an aggregation keyed by zonename is keyed by an 8-byte
 * integer, and a container that started a moment ago is named as well as
 * one that ran all along.
 *
 * Option zone's filter is one hash lookup before any clause runs: the
 * consumer fills dscope_zones with the ids of every group that belongs
 * to a matching container (and keeps it filled as containers come), so a
 * firing outside them costs a helper call and a lookup that misses.
 */
#include "cg/cg_impl.h"

#include <bpf/btf.h>
#include <string.h>

#include "front/sema.h"

/* The map of cgroup ids option zone admits (key u64, value unused). */
static int zone_map(struct cg *g)
{
	struct spec *sp = g->spec;

	for (int i = 0; i < sp->nmaps; i++)
		if (strcmp(sp->maps[i].name, SPEC_ZONE_MAP) == 0)
			return i;
	struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps,
					g->c->maps_cap);

	m->name = SPEC_ZONE_MAP;
	m->type = BPF_MAP_TYPE_HASH;
	m->key_size = 8;
	m->value_size = 1;
	m->max_entries = 65536;
	m->fd = -1;
	return sp->nmaps - 1;
}

/*
 * Leave unless the thread's cgroup is one option zone admits.  BEGIN and
 * END run in dscope itself, and tick-N in whatever thread its timer
 * interrupts, so the filter is no question to ask of them: they always
 * fire (profile-N samples the thread it interrupts, and is filtered).
 *	fp[SLOT_FIRST] = bpf_get_current_cgroup_id()
 *	if (!lookup(zones, &fp[SLOT_FIRST])) goto out
 */
void cg_zone_filter(struct cg *g, int out)
{
	if (!g->c->zone_filter || g->att == ATTACH_BEGIN ||
	    g->att == ATTACH_END || g->att == ATTACH_TICK)
		return;
	emit_call(&g->e, BPF_FUNC_get_current_cgroup_id);
	emit_store(&g->e, 8, R10, SLOT_FIRST, R0);
	cg_ld_map(g, R1, zone_map(g));
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, out);
}

/* sizeof(struct upid), from BTF: the stride of struct pid's numbers[] */
static int upid_size(struct cg *g, const struct node *n)
{
	const struct btf *btf = ktype_btf();
	int id = btf ? btf__find_by_name_kind(btf, "upid", BTF_KIND_STRUCT) : -1;
	long long size = id > 0 ? btf__resolve_size(btf, (uint32_t)id) : -1;

	if (size <= 0)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "nspid: kernel type information (BTF) lacks struct upid");
	return (int)size;
}

/*
 * nspid: the process's ID in its own PID namespace, the innermost of the
 * IDs its struct pid holds (numbers[level]; numbers[0] is the host's):
 *	slot = r0 = task->group_leader->thread_pid
 *	r3 = r0; slot = r0 = r3->level
 *	r0 = r0 * sizeof(struct upid) + r3 + offsetof(numbers) + offsetof(nr)
 *	r3 = r0; slot = r0 = *(int *)r3
 * The struct pid waits in a slot of its own while its level is read (a
 * helper call clobbers r1-r5).
 */
static void nspid(struct cg *g, const struct node *n, int16_t slot)
{
	struct ktype_field level, nr, numbers;
	int16_t pid = cg_slot_new(g, n);

	cg_need_ktype(g, n, "pid.level", &level);
	cg_need_ktype(g, n, "pid.numbers", &numbers);
	cg_need_ktype(g, n, "upid.nr", &nr);
	cg_task_field(g, n, pid, "task_struct.group_leader->thread_pid");
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, slot, 4, (int32_t)level.off[0]);
	emit_alu_imm(&g->e, BPF_MUL, R0, upid_size(g, n));
	cg_load_slot(g, R3, pid);
	emit_alu_reg(&g->e, BPF_ADD, R3, R0);	/* r3 = &numbers[level] - off */
	cg_kread(g, slot, 4, (int32_t)(numbers.off[0] + nr.off[0]));
}

void cg_zone_builtin(struct cg *g, const struct node *n, int16_t slot, int b)
{
	if (b == BI_NSPID) {
		nspid(g, n, slot);
		return;
	}
	/* the cgroup v2 id is the id of the group's kernfs node */
	if (cg_other_task(g)) {
		cg_task_field(g, n, slot, "task_struct.cgroups->dfl_cgrp->kn->id");
		return;
	}
	emit_call(&g->e, BPF_FUNC_get_current_cgroup_id);
	cg_store_slot(g, slot, R0);
}
