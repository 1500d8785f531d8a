/*
 * cg_mem.c -- reading kernel memory: members, array elements, pointer
 * targets, strings behind char pointers.
 *
 * An lvalue in kernel memory is an address computed into a stack slot
 * (cg_mem_addr); only scalars are read, with bpf_probe_read_kernel, whose
 * failure is a fault reported as DTrace reports "invalid address" (see
 * cg_kread).  What a userland pointer reaches (dtrace-utils' "userland int
 * *", types.h) is the probe's process memory, read with the user helpers;
 * a plain pointer is the kernel's, as in DTrace, so *(int *)arg1 at a
 * system call faults where copyin(arg1, 4) or a userland cast reads.  Struct, union and array values stay addresses (sema_type.c
 * explains the model), so a->b.c[2] costs one read, of the last scalar.
 */
#include "cg/cg_impl.h"

#include <bpf/libbpf.h>
#include <string.h>

#include "front/ctype.h"
#include "kern/ktypes.h"

static int16_t mem_addr(struct cg *g, struct node *n);

/* slot = the address of the object n denotes */
static int16_t mem_addr(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct val base;

	switch (n->kind) {
	case N_MEMBER: {
		const struct cmember *m = n->cg;

		/* a.m: a's value is its address; p->m: p's value is one */
		base = cg_expr(g, n->a);
		cg_load_slot(g, R0, base.slot);
		if (m->off)
			emit_alu_imm(&g->e, BPF_ADD, R0, (int32_t)m->off);
		break;
	}
	case N_INDEX: {
		uint32_t esize = n->type.size ? n->type.size : 1;

		base = cg_expr(g, n->a);
		struct val ix = cg_expr(g, n->args.v[0]);

		cg_load_slot(g, R1, ix.slot);
		if (esize != 1)
			emit_alu_imm(&g->e, BPF_MUL, R1, (int32_t)esize);
		cg_load_slot(g, R0, base.slot);
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);
		break;
	}
	default:	/* *p */
		base = cg_expr(g, n->a);
		cg_load_slot(g, R0, base.slot);
		break;
	}
	cg_store_slot(g, slot, R0);
	g->sp = slot;
	return slot;
}

struct val cg_mem_addr(struct cg *g, struct node *n)
{
	return cg_int_val(mem_addr(g, n));
}

/* Is the object n denotes in the probe's process memory: reached through
 * a userland pointer (*p, p[i], p->m), or a part of one that is? */
static bool in_user_memory(const struct node *n)
{
	const struct dtype *a = n->a ? &n->a->type : NULL;

	switch (n->kind) {
	case N_MEMBER:
		return n->op == OP_ARROW ? a->kind == T_PTR && a->user
					 : in_user_memory(n->a);
	case N_INDEX:
		return a->kind == T_PTR ? a->user : in_user_memory(n->a);
	case N_UNARY:
		return n->op == '*' && a->kind == T_PTR && a->user;
	default:
		return false;
	}
}

/*
 * A string read from memory: the NUL-terminated bytes at the address in
 * addr_slot, into a zeroed temp of n's string type (stringof's and a
 * string lvalue's rule, the one place it is applied):
 *
 *	probe_read_{kernel,user}_str(&temp, size, addr); fault if r0 < 0
 */
static struct val read_string(struct cg *g, const struct node *n,
			      int16_t addr_slot, bool user)
{
	struct val v = { .str = true, .size = cg_round8(n->type.size) };

	v.off = cg_temp_new(g, n, v.size);
	cg_zero_words(g, R9, v.off, v.size);	/* keep the NUL padding */
	cg_scratch_ptr(g, R1, v.off);
	emit_mov_imm(&g->e, R2, (int32_t)n->type.size);
	cg_load_slot(g, R3, addr_slot);
	emit_mov_reg(&g->e, R8, R3);
	cg_call_or_fault(g, user ? BPF_FUNC_probe_read_user_str
				 : BPF_FUNC_probe_read_kernel_str, 0);
	return v;
}

/* the value of n: an aggregate's address, the string at it (*q, q a
 * string *), or the scalar read from it */
struct val cg_mem_read(struct cg *g, struct node *n)
{
	int16_t slot = mem_addr(g, n);
	const struct cmember *m = n->kind == N_MEMBER ? n->cg : NULL;
	const struct dtype *t = &n->type;

	if (t->kind == T_STRUCT || t->kind == T_ARRAY)
		return cg_int_val(slot);
	if (t->kind == T_STRING)
		return read_string(g, n, slot, in_user_memory(n));
	uint32_t size = t->size > 8 || t->size == 0 ? 8 : t->size;

	if (m && m->bit_width)	/* the bit-field's storage unit */
		size = (uint32_t)((m->bit_off + m->bit_width + 7) / 8);
	if (g->alloca_top && !in_user_memory(n))
		cg_alloca_load_check(g, n, slot, size);
	cg_load_slot(g, R3, slot);
	if (in_user_memory(n))
		cg_uread(g, slot, (int)size, 0);
	else
		cg_kread(g, slot, (int)size, 0);	/* r0 = the bytes, zero-extended */
	if (m && m->bit_width) {
		/* shift the field to the top, then back down with its sign */
		int top = 64 - m->bit_off - m->bit_width;

		emit_alu_imm(&g->e, BPF_LSH, R0, top);
		emit_alu_imm(&g->e, t->is_signed ? BPF_ARSH : BPF_RSH, R0,
			     64 - m->bit_width);
	} else {
		cg_normalize(g, R0, t);
	}
	cg_store_slot(g, slot, R0);
	return cg_int_val(slot);
}

/* stringof(p): the NUL-terminated bytes at p, at most the type's bound */
struct val cg_stringof(struct cg *g, struct node *n)
{
	struct val p = cg_expr(g, n->a);

	return p.str ? p : read_string(g, n, p.slot,
				       n->a->type.kind == T_PTR && n->a->type.user);
}

/* ---- dscope's kernel subroutines (sema_kernel_subr) ---- */

/* byte offset of a member path (ktypes.h), or a compile error */
static int32_t member_off(struct cg *g, const struct node *n, const char *path)
{
	struct ktype_field f;

	if (ktype_field(path, &f) < 0 || f.nhops != 1)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "%s( ): the kernel's BTF lacks %s", n->str, path);
	return (int32_t)f.off[0];
}

/* slot = *(u64 *)(slot_from + off), through bpf_probe_read_kernel */
static void read_ptr(struct cg *g, int16_t dst, int16_t from, int32_t off)
{
	cg_load_slot(g, R3, from);
	cg_kread(g, dst, 8, off);
}

#define DPATH_BUF 768		/* components are written backwards from 511 */
#define DPATH_DEPTH 32		/* path components and mount crossings */

/* d_path's result: "/" for the root itself, else the string written
 * backwards into buf, copied out from buf + pos */
static void dpath_result(struct cg *g, struct node *n, struct val r,
			 uint32_t buf, int16_t pos)
{
	int copy = emit_new_label(&g->e);

	cg_load_slot(g, R2, pos);
	emit_jmp_imm(&g->e, BPF_JNE, R2, 511, copy);
	emit_store_imm(&g->e, 1, R9, (int16_t)(buf + 510), '/');
	emit_store_imm(&g->e, 8, R10, pos, 510);
	emit_label(&g->e, copy);
	cg_zero_words(g, R9, r.off, r.size);
	cg_scratch_ptr(g, R1, r.off);
	emit_mov_imm(&g->e, R2, (int32_t)n->type.size);
	cg_load_slot(g, R4, pos);
	emit_alu_imm(&g->e, BPF_AND, R4, 511);
	cg_scratch_ptr(g, R3, buf);
	emit_alu_reg(&g->e, BPF_ADD, R3, R4);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
}

/*
 * d_path(struct path *p): walk from p->dentry up through d_parent,
 * writing "/name" components backwards into a buffer, crossing to the
 * parent mount at each mount root, until the root of the root mount.
 * The position is masked to [0, 511] and a name to 255 bytes, so every
 * store is provably inside the 768-byte buffer.
 * __mountpoint(struct vfsmount *m) is the same walk from m's root: where
 * m is mounted.
 */
static struct val d_path(struct cg *g, struct node *n, bool mountpoint)
{
	struct val r = { .str = true, .size = cg_round8(n->type.size) };
	uint32_t buf = cg_temp_new(g, n, DPATH_BUF);
	int16_t dent = cg_slot_new(g, n), mnt = cg_slot_new(g, n);
	int16_t pos = cg_slot_new(g, n), depth = cg_slot_new(g, n);
	int16_t parent = cg_slot_new(g, n), tmp = cg_slot_new(g, n);
	int16_t len = cg_slot_new(g, n), name = cg_slot_new(g, n);
	int loop = emit_new_label(&g->e), root = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);
	int has_name = emit_new_label(&g->e);
	int32_t d_parent = member_off(g, n, "dentry.d_parent");
	int32_t d_len = member_off(g, n, "dentry.d_name.len");
	int32_t d_nm = member_off(g, n, "dentry.d_name.name");
	int32_t mnt_root = member_off(g, n, "vfsmount.mnt_root");
	int32_t m_mnt = member_off(g, n, "mount.mnt");
	int32_t m_parent = member_off(g, n, "mount.mnt_parent");
	int32_t m_point = member_off(g, n, "mount.mnt_mountpoint");
	struct val p = cg_expr(g, n->args.v[0]);

	r.off = cg_temp_new(g, n, r.size);
	if (mountpoint) {
		read_ptr(g, dent, p.slot, mnt_root);
		cg_load_slot(g, R1, p.slot);
		cg_store_slot(g, mnt, R1);
	} else {
		read_ptr(g, dent, p.slot, member_off(g, n, "path.dentry"));
		read_ptr(g, mnt, p.slot, member_off(g, n, "path.mnt"));
	}
	emit_store_imm(&g->e, 8, R10, pos, 511);
	emit_store_imm(&g->e, 1, R9, (int16_t)(buf + 511), 0);
	emit_store_imm(&g->e, 8, R10, depth, 0);

	emit_label(&g->e, loop);
	cg_load_slot(g, R1, depth);
	emit_jmp_imm(&g->e, BPF_JGE, R1, DPATH_DEPTH, done);
	emit_alu_imm(&g->e, BPF_ADD, R1, 1);
	cg_store_slot(g, depth, R1);
	read_ptr(g, parent, dent, d_parent);
	read_ptr(g, tmp, mnt, mnt_root);
	cg_load_slot(g, R1, dent);
	emit_jmp_reg(&g->e, BPF_JEQ, R1, R0, root);	/* the mount's root */
	cg_load_slot(g, R2, parent);
	emit_jmp_reg(&g->e, BPF_JEQ, R1, R2, root);	/* its own parent */

	/* pos -= len; buf[pos..] = name; buf[--pos] = '/' */
	cg_load_slot(g, R3, dent);
	cg_kread(g, len, 4, d_len);
	read_ptr(g, name, dent, d_nm);
	cg_load_slot(g, R1, len);
	emit_jmp_imm(&g->e, BPF_JLE, R1, 255, has_name);
	emit_mov_imm(&g->e, R1, 255);
	emit_label(&g->e, has_name);
	cg_store_slot(g, len, R1);
	cg_load_slot(g, R2, pos);
	emit_jmp_reg(&g->e, BPF_JLE, R2, R1, done);	/* no room: truncate */
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	emit_alu_imm(&g->e, BPF_AND, R2, 511);
	cg_store_slot(g, pos, R2);
	cg_scratch_ptr(g, R1, buf);
	emit_alu_reg(&g->e, BPF_ADD, R1, R2);
	cg_load_slot(g, R2, len);
	emit_alu_imm(&g->e, BPF_AND, R2, 255);
	cg_load_slot(g, R3, name);
	emit_mov_reg(&g->e, R8, R3);
	cg_call_or_fault(g, BPF_FUNC_probe_read_kernel, 0);
	cg_load_slot(g, R2, pos);
	emit_alu_imm(&g->e, BPF_SUB, R2, 1);
	emit_alu_imm(&g->e, BPF_AND, R2, 511);
	cg_store_slot(g, pos, R2);
	cg_scratch_ptr(g, R1, buf);
	emit_alu_reg(&g->e, BPF_ADD, R1, R2);
	emit_store_imm(&g->e, 1, R1, 0, '/');
	cg_load_slot(g, R1, parent);
	cg_store_slot(g, dent, R1);
	emit_ja(&g->e, loop);

	/* at a mount's root: continue at its mount point in the parent */
	emit_label(&g->e, root);
	cg_load_slot(g, R3, mnt);
	emit_alu_imm(&g->e, BPF_SUB, R3, m_mnt);		/* container_of */
	cg_store_slot(g, tmp, R3);
	cg_kread(g, parent, 8, m_parent);
	cg_load_slot(g, R1, tmp);
	emit_jmp_reg(&g->e, BPF_JEQ, R0, R1, done);	/* the root mount */
	read_ptr(g, dent, tmp, m_point);
	cg_load_slot(g, R1, parent);
	emit_alu_imm(&g->e, BPF_ADD, R1, m_mnt);
	cg_store_slot(g, mnt, R1);
	emit_ja(&g->e, loop);

	emit_label(&g->e, done);
	dpath_result(g, n, r, buf, pos);
	return r;
}

/*
 * __psargs(struct task_struct *t): t->mm's argument area, up to the
 * string's bound, with the NULs between arguments made spaces -- what
 * ps(1) shows.  Only the running process's memory can be read here: a
 * task of another (sched:::on-cpu's incoming one) gives "", as does an
 * area that cannot be read (paged out).
 * __execargs(t), the execargs variable, is dtrace-utils' definition
 * (bpf/bvar_execargs.S): the same bytes, "" for an area under two bytes,
 * and a read that faults is an error ("invalid address", at arg_start)
 * that abandons the clause.
 *	mm = t->mm; if (!mm || mm != current->mm) goto empty
 *	start = mm->arg_start; len = mm->arg_end - start
 *	if (len < (faults ? 2 : 1)) goto empty
 *	len = min(len, size - 1)
 *	if (bpf_probe_read_user(s, len, start)) fault or goto empty
 *	for (i = 0; i < len - 1; i++) if (!s[i]) s[i] = ' '
 */
static struct val psargs(struct cg *g, struct node *n, bool faults)
{
	struct val r = { .str = true, .size = cg_round8(n->type.size) };
	int16_t mm = cg_slot_new(g, n), start = cg_slot_new(g, n);
	int16_t len = cg_slot_new(g, n);
	int empty = emit_new_label(&g->e), fits = emit_new_label(&g->e);
	int loop = emit_new_label(&g->e), next = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);
	int32_t max = (int32_t)n->type.size - 1;
	int32_t mm_off = member_off(g, n, "task_struct.mm");
	struct val t = cg_expr(g, n->args.v[0]);

	r.off = cg_temp_new(g, n, r.size);
	cg_zero_words(g, R9, r.off, r.size);
	emit_call(&g->e, BPF_FUNC_get_current_task);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, start, 8, mm_off);			/* current->mm */
	read_ptr(g, mm, t.slot, mm_off);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, empty);	/* a kernel thread */
	cg_load_slot(g, R1, start);
	emit_jmp_reg(&g->e, BPF_JNE, R0, R1, empty);	/* another process */
	read_ptr(g, start, mm, member_off(g, n, "mm_struct.arg_start"));
	read_ptr(g, len, mm, member_off(g, n, "mm_struct.arg_end"));
	cg_load_slot(g, R1, start);
	emit_alu_reg(&g->e, BPF_SUB, R0, R1);		/* end - start */
	emit_jmp_imm(&g->e, BPF_JSLT, R0, faults ? 2 : 1, empty);
	emit_jmp_imm(&g->e, BPF_JLE, R0, max, fits);
	emit_mov_imm(&g->e, R0, max);
	emit_label(&g->e, fits);
	cg_store_slot(g, len, R0);
	cg_scratch_ptr(g, R1, r.off);
	emit_mov_reg(&g->e, R2, R0);
	cg_load_slot(g, R3, start);
	if (faults) {
		cg_call_or_fault(g, BPF_FUNC_probe_read_user, start);
	} else {
		emit_call(&g->e, BPF_FUNC_probe_read_user);
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, empty);
	}

	/* for (i = 0; i < len - 1; i++) if (!s[i]) s[i] = ' '; */
	cg_load_slot(g, R4, len);
	emit_alu_imm(&g->e, BPF_SUB, R4, 1);
	emit_mov_imm(&g->e, R5, 0);
	emit_label(&g->e, loop);
	emit_jmp_reg(&g->e, BPF_JGE, R5, R4, done);
	emit_jmp_imm(&g->e, BPF_JGE, R5, max, done);
	cg_scratch_ptr(g, R1, r.off);
	emit_alu_reg(&g->e, BPF_ADD, R1, R5);
	emit_load(&g->e, 1, R2, R1, 0);
	emit_jmp_imm(&g->e, BPF_JNE, R2, 0, next);
	emit_store_imm(&g->e, 1, R1, 0, ' ');
	emit_label(&g->e, next);
	emit_alu_imm(&g->e, BPF_ADD, R5, 1);
	emit_ja(&g->e, loop);

	emit_label(&g->e, empty);
	cg_zero_words(g, R9, r.off, r.size);
	emit_label(&g->e, done);
	return r;
}

/*
 * __cpu_chip(c), __cpu_lgrp(c): CPU c's package and NUMA node, from the
 * table the runtime fills from sysfs (spec.h, struct cpu_topology; the
 * kernel's own per-CPU copies need data symbols in kallsyms, which most
 * kernels leave out); -1 for a CPU out of range.  __cpu_pinfo(c): the
 * address of its processor_info, read as memory is; 0 out of range.
 *	t = bpf_map_lookup_elem(&cpuinfo, &c)
 *	v = t ? t->chip (or t->lgrp, or &t->pinfo as a number) : -1 (or 0)
 */
enum cpu_field { CPU_CHIP, CPU_LGRP, CPU_PINFO };

static struct val cpu_topology(struct cg *g, struct node *n,
			       enum cpu_field field)
{
	struct spec *sp = g->spec;
	int none = emit_new_label(&g->e);
	struct val c = cg_expr(g, n->args.v[0]);
	int16_t slot = cg_slot_new(g, n);

	if (sp->cpuinfo_map < 0) {
		sp->cpuinfo_map = sp->nmaps;
		*ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap) =
			(struct spec_map){ "dscope_cpuinfo", BPF_MAP_TYPE_ARRAY, 4,
					   sizeof(struct cpu_topology),
					   (uint32_t)libbpf_num_possible_cpus(),
					   BPF_F_RDONLY_PROG, -1 };
	}
	cg_load_slot(g, R0, c.slot);
	emit_store(&g->e, 4, R10, slot, R0);		/* the key */
	cg_ld_map(g, R1, sp->cpuinfo_map);
	cg_fp_ptr(g, R2, slot);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_store_imm(&g->e, 8, R10, slot, field == CPU_PINFO ? 0 : -1);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, none);
	if (field == CPU_PINFO) {
		/* the map value's address, copied out as a plain number
		 * (as cg_scratch_addr does), for reads to go through */
		int16_t tmp = cg_slot_new(g, n);

		emit_alu_imm(&g->e, BPF_ADD, R0,
			     offsetof(struct cpu_topology, pinfo));
		cg_store_slot(g, tmp, R0);
		cg_fp_ptr(g, R1, slot);
		emit_mov_imm(&g->e, R2, 8);
		cg_fp_ptr(g, R3, tmp);
		emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	} else {
		emit_load(&g->e, 4, R1, R0, field == CPU_CHIP
			  ? offsetof(struct cpu_topology, chip)
			  : offsetof(struct cpu_topology, lgrp));
		emit_alu_imm(&g->e, BPF_LSH, R1, 32);	/* int32 to int64 */
		emit_alu_imm(&g->e, BPF_ARSH, R1, 32);
		cg_store_slot(g, slot, R1);
	}
	emit_label(&g->e, none);
	return cg_int_val(slot);
}

/*
 * Members whose place differs between kernels, read from whichever of
 * their names BTF shows, as a CO-RE relocation would choose, so one D
 * library serves every kernel.  Each is a list of member paths
 * (ktype_field's: '->' is one more read); the first whose struct is the
 * argument's pointee (when the argument's type names one) and that BTF
 * has is read, each pointer on the way checked: a NULL one gives 0.
 *   __task_state(struct task_struct *t): t's TASK_* state word, __state
 *	(an unsigned int) since 5.14, state (a long) before, whose low 32
 *	bits hold every bit;
 *   __bd_partno(p), __bd_devt(p): the partition number and dev_t of a
 *	block_device, or of 5.10's hd_struct (what request.part was before
 *	5.11); the number was a member of its own, bd_partno, until the
 *	kernel folded it into the low byte of __bd_flags;
 *   __bio_disk(struct bio *), __bio_partno(struct bio *): the disk and
 *	partition a bio is for: its bi_bdev's (5.12+), or its own bi_disk
 *	and bi_partno before;
 *   __rq_disk(struct request *): its queue's disk (5.15+), or its own
 *	rq_disk before.
 *	r = p; for each hop: r = r == 0 ? 0 : *(size *)(r + off)
 */
struct kpaths {
	enum dfunc subr;
	int size;		/* bytes of the last read (little-endian: the low ones) */
	const char *paths[4];
};

static const struct kpaths kpaths[] = {
	{ DF_TASK_STATE, 4, { "task_struct.__state", "task_struct.state" } },
	{ DF_BD_PARTNO, 1, { "block_device.bd_partno", "block_device.__bd_flags",
			      "hd_struct.partno" } },
	{ DF_BD_DEVT, 4, { "block_device.bd_dev", "hd_struct.__dev.devt" } },
	{ DF_BIO_DISK, 8, { "bio.bi_bdev->bd_disk", "bio.bi_disk" } },
	{ DF_BIO_PARTNO, 1, { "bio.bi_bdev->bd_partno", "bio.bi_bdev->__bd_flags",
			       "bio.bi_partno" } },
	{ DF_RQ_DISK, 8, { "request.q->disk", "request.rq_disk" } },
};

/* The struct tag a pointer-typed node points to, or NULL. */
static const char *pointee_tag(const struct node *n)
{
	const struct ctype *pt = n->type.kind == T_PTR ? n->type.ct : NULL;

	return pt && pt->kind == CT_PTR && pt->elem.ct && pt->elem.ct->tag &&
	       *pt->elem.ct->tag ? pt->elem.ct->tag : NULL;
}

/* Does path (its struct's name before the first '.') describe tag? */
static bool path_of(const char *path, const char *tag)
{
	size_t len = strcspn(path, ".");

	return !tag || (strlen(tag) == len && strncmp(path, tag, len) == 0);
}

/* slot = the member f at hops from the pointer in slot, 0 past a NULL */
static void read_hops(struct cg *g, int16_t slot, const struct ktype_field *f,
		      int size)
{
	int done = emit_new_label(&g->e);

	for (int h = 0; h < f->nhops; h++) {
		cg_load_slot(g, R3, slot);
		emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, done);
		cg_kread(g, slot, h == f->nhops - 1 ? size : 8, (int32_t)f->off[h]);
	}
	emit_label(&g->e, done);
}

static struct val member_by_btf(struct cg *g, struct node *n,
				const struct kpaths *k)
{
	const char *tag = pointee_tag(n->args.v[0]);
	struct val p = cg_expr(g, n->args.v[0]);
	struct val r = { .slot = cg_slot_new(g, n) };
	struct ktype_field f;
	int i = 0;

	while (i < 4 && k->paths[i] &&
	       (!path_of(k->paths[i], tag) || ktype_field(k->paths[i], &f) < 0))
		i++;
	if (i == 4 || !k->paths[i])
		diag_fail(g->d, n->line, n->col, "D_KTYPE", "%s( ): the kernel's "
			  "BTF has none of %s%s%s%s%s", n->str, k->paths[0],
			  k->paths[1] ? ", " : "", k->paths[1] ? k->paths[1] : "",
			  k->paths[2] ? ", " : "", k->paths[2] ? k->paths[2] : "");
	cg_load_slot(g, R0, p.slot);
	cg_store_slot(g, r.slot, R0);
	read_hops(g, r.slot, &f, k->size);
	return r;
}

/*
 * __bio_devt(struct bio *b): the dev_t of the partition b is for: its
 * bi_bdev's bd_dev (5.12+); before, bi_disk's partition table entry
 * bi_partno (part_tbl->part[bi_partno], an hd_struct), whose device
 * holds the number -- the extended numbers (NVMe partitions) included,
 * which major and first_minor + partno would get wrong.
 *	r = b->bi_disk ? b->bi_disk->part_tbl : 0
 *	r = r ? r->part[b->bi_partno] : 0
 *	r = r ? r->__dev.devt : 0
 */
static struct val bio_devt(struct cg *g, struct node *n)
{
	struct val p = cg_expr(g, n->args.v[0]);
	struct val r = { .slot = cg_slot_new(g, n) };
	int16_t partno = cg_slot_new(g, n);
	struct ktype_field f, tbl, part, no, devt;
	int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);

	cg_load_slot(g, R0, p.slot);
	cg_store_slot(g, r.slot, R0);
	if (ktype_field("bio.bi_bdev->bd_dev", &f) == 0) {
		read_hops(g, r.slot, &f, 4);
		return r;
	}
	if (ktype_field("bio.bi_disk->part_tbl", &tbl) < 0 ||
	    ktype_field("disk_part_tbl.part", &part) < 0 ||
	    ktype_field("bio.bi_partno", &no) < 0 ||
	    ktype_field("hd_struct.__dev.devt", &devt) < 0)
		diag_fail(g->d, n->line, n->col, "D_KTYPE", "%s( ): the kernel's "
			  "BTF has neither bio.bi_bdev nor bio.bi_disk's partition "
			  "table", n->str);
	cg_load_slot(g, R3, p.slot);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, zero);
	cg_kread(g, partno, 1, (int32_t)no.off[0]);
	read_hops(g, r.slot, &tbl, 8);
	cg_load_slot(g, R3, r.slot);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, zero);
	cg_load_slot(g, R0, partno);
	emit_alu_imm(&g->e, BPF_LSH, R0, 3);
	emit_alu_reg(&g->e, BPF_ADD, R3, R0);
	cg_kread(g, r.slot, 8, (int32_t)part.off[0]);
	read_hops(g, r.slot, &devt, 4);
	emit_ja(&g->e, done);
	emit_label(&g->e, zero);
	emit_store_imm(&g->e, 8, R10, r.slot, 0);
	emit_label(&g->e, done);
	return r;
}

bool cg_kernel_subr(struct cg *g, struct node *n, struct val *out)
{
	size_t k = 0, nk = sizeof(kpaths) / sizeof(kpaths[0]);

	switch (n->fn) {
	case DF_D_PATH:
		*out = d_path(g, n, false);
		return true;
	case DF_MOUNTPOINT:
		*out = d_path(g, n, true);
		return true;
	case DF_PSARGS:
	case DF_EXECARGS:
		*out = psargs(g, n, n->fn == DF_EXECARGS);
		return true;
	case DF_CPU_CHIP:
		*out = cpu_topology(g, n, CPU_CHIP);
		return true;
	case DF_CPU_LGRP:
		*out = cpu_topology(g, n, CPU_LGRP);
		return true;
	case DF_CPU_PINFO:
		*out = cpu_topology(g, n, CPU_PINFO);
		return true;
	case DF_BIO_DEVT:
		*out = bio_devt(g, n);
		return true;
	default:
		while (k < nk && n->fn != kpaths[k].subr)
			k++;
		if (k == nk)
			return false;
		*out = member_by_btf(g, n, &kpaths[k]);
		return true;
	}
}
