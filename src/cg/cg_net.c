/*
 * cg_net.c -- addresses as text: inet_ntoa, inet_ntoa6, inet_ntop and
 * link_ntop, printed as DTrace prints them; and the guards of the tcp,
 * udp and ip providers (at the end).
 *
 * Each reads the address bytes into a scratch temp (a bad address is a
 * fault), writes the text into a zeroed work temp, and copies that to the
 * result, whose bound (sema's: at most strsize) truncates it.  Nothing
 * loops: an address is at most 20 bytes, so the code is unrolled.  Where
 * the text of one piece starts depends on the pieces before it, the
 * position lives in a scratch cell (which the verifier does not follow,
 * so the paths of earlier pieces join) and is clamped before each store.
 */
#include "cg/cg_impl.h"

#include <errno.h>

#include "kern/ktypes.h"
#include "prov/net.h"

#define AF_INET 2
#define AF_INET6 10
#define ARPHRD_ETHER 1
#define ARPHRD_INFINIBAND 32
#define WORK_SIZE 64	/* the longest text: 20 bytes of link_ntop's, 59 */

struct text {
	uint32_t bytes;	/* the address, read */
	uint32_t work;	/* the text being written, NUL-padded */
	uint32_t pos;	/* cell: where the next character goes */
};

static struct text text_new(struct cg *g, const struct node *n)
{
	struct text t = { .bytes = cg_temp_new(g, n, 24),
			  .work = cg_temp_new(g, n, WORK_SIZE),
			  .pos = cg_temp_new(g, n, 8) };

	cg_zero_words(g, R9, t.work, WORK_SIZE);
	emit_store_imm(&g->e, 8, R9, (int16_t)t.pos, 0);
	return t;
}

/* t.bytes = size bytes at the address in slot, or a fault */
static void read_addr(struct cg *g, struct text t, int16_t slot, int size)
{
	cg_scratch_ptr(g, R1, t.bytes);
	emit_mov_imm(&g->e, R2, size);
	cg_load_slot(g, R3, slot);
	cg_call_or_fault(g, BPF_FUNC_probe_read_kernel, slot);
}

/*
 * work[pos++] = reg (or imm when reg < 0); clobbers r4, r5
 *
 *	r4 = pos; if (r4 >= WORK_SIZE) skip; *(u8 *)(r9 + work + r4) = v
 */
static void put(struct cg *g, struct text t, int reg, int32_t imm)
{
	int skip = emit_new_label(&g->e);

	emit_load(&g->e, 8, R4, R9, (int16_t)t.pos);
	emit_jmp_imm(&g->e, BPF_JGE, R4, WORK_SIZE - 1, skip);	/* NUL stays */
	emit_mov_reg(&g->e, R5, R4);
	emit_alu_reg(&g->e, BPF_ADD, R5, R9);
	if (reg >= 0)
		emit_store(&g->e, 1, R5, (int16_t)t.work, reg);
	else
		emit_store_imm(&g->e, 1, R5, (int16_t)t.work, imm);
	emit_alu_imm(&g->e, BPF_ADD, R4, 1);
	emit_store(&g->e, 8, R9, (int16_t)t.pos, R4);
	emit_label(&g->e, skip);
}

/* r0 = the hex digit of the nibble in reg (0..15), without a branch:
 *	r0 = nib + '0' + ((9 - nib) >> 63) * ('a' - '0' - 10) */
static void hex_digit(struct cg *g, int reg)
{
	emit_mov_imm(&g->e, R0, 9);
	emit_alu_reg(&g->e, BPF_SUB, R0, reg);
	emit_alu_imm(&g->e, BPF_RSH, R0, 63);
	emit_alu_imm(&g->e, BPF_MUL, R0, 'a' - '0' - 10);
	emit_alu_imm(&g->e, BPF_ADD, R0, '0');
	emit_alu_reg(&g->e, BPF_ADD, R0, reg);
}

/* The 16-bit value in r3 in hex, no leading zeros ("0" for 0); r2 says
 * whether a digit was written.  Clobbers r0-r5. */
static void put_hex16(struct cg *g, struct text t)
{
	emit_mov_imm(&g->e, R2, 0);
	for (int k = 3; k >= 0; k--) {
		int skip = emit_new_label(&g->e);

		emit_mov_reg(&g->e, R1, R3);
		emit_alu_imm(&g->e, BPF_RSH, R1, 4 * k);
		emit_alu_imm(&g->e, BPF_AND, R1, 0xf);
		if (k) {	/* leading zero: if (!nib && !r2) skip */
			emit_mov_reg(&g->e, R0, R1);
			emit_alu_reg(&g->e, BPF_OR, R0, R2);
			emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, skip);
		}
		hex_digit(g, R1);
		put(g, t, R0, 0);
		emit_mov_imm(&g->e, R2, 1);
		emit_label(&g->e, skip);
	}
}

/* The octet at t.bytes + at in decimal, no leading zeros:
 *	if (v >= 100) put(v / 100 + '0'); if (v >= 10) put(v / 10 % 10 + '0');
 *	put(v % 10 + '0') */
static void put_octet(struct cg *g, struct text t, uint32_t at)
{
	static const int32_t from[] = { 100, 10, 0 }, div[] = { 100, 10, 1 };

	for (int i = 0; i < 3; i++) {
		int skip = emit_new_label(&g->e);

		emit_load(&g->e, 1, R3, R9, (int16_t)(t.bytes + at));
		if (from[i])
			emit_jmp_imm(&g->e, BPF_JLT, R3, from[i], skip);
		emit_alu_imm(&g->e, BPF_DIV, R3, div[i]);
		emit_alu_imm(&g->e, BPF_MOD, R3, 10);
		emit_alu_imm(&g->e, BPF_ADD, R3, '0');
		put(g, t, R3, 0);
		emit_label(&g->e, skip);
	}
}

/* "a.b.c.d" from the four bytes at t.bytes + at */
static void put_ipv4(struct cg *g, struct text t, uint32_t at)
{
	for (uint32_t i = 0; i < 4; i++) {
		if (i)
			put(g, t, -1, '.');
		put_octet(g, t, at + i);
	}
}

/* r3 = 16-bit word i of the address, in network order */
static void load_word(struct cg *g, struct text t, int i)
{
	emit_load(&g->e, 2, R3, R9, (int16_t)(t.bytes + 2 * i));
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R3, .imm = 16 });
}

/*
 * Is the IPv6 address an IPv4 one embedded (mapped or compatible)?  As
 * DTrace decides (legacy: six zero words are enough, whatever follows,
 * except the unspecified and loopback addresses):
 *
 *	w0..w4 == 0 && (w5 == 0xffff || (w5 == 0 && (w6 || w7 > 1)))
 *
 * Jumps to yes, or falls through.
 */
static void ipv4_embedded(struct cg *g, struct text t, int yes)
{
	int no = emit_new_label(&g->e), compat = emit_new_label(&g->e);

	for (int i = 0; i < 5; i++) {
		load_word(g, t, i);
		emit_jmp_imm(&g->e, BPF_JNE, R3, 0, no);
	}
	load_word(g, t, 5);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0xffff, yes);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, compat);
	emit_ja(&g->e, no);
	emit_label(&g->e, compat);
	load_word(g, t, 6);
	emit_jmp_imm(&g->e, BPF_JNE, R3, 0, yes);
	load_word(g, t, 7);
	emit_jmp_imm(&g->e, BPF_JGT, R3, 1, yes);
	emit_label(&g->e, no);
}

/*
 * The longest run of zero words (the first of equals), into cells
 * run (start) and run + 8 (length); a run shorter than two words is not
 * shortened, so its length is made 0:
 *
 *	for i in 0..7:
 *		if (w[i]) { cur = 0; continue }
 *		if (!cur++) start = i
 *		if (cur > len) { run = start; len = cur }
 *
 * cells: run, len, cur, start
 */
static void zero_run(struct cg *g, struct text t, uint32_t c)
{
	int keep = emit_new_label(&g->e);

	for (int i = 0; i < 4; i++)
		emit_store_imm(&g->e, 8, R9, (int16_t)(c + 8 * i), i ? 0 : -1);
	for (int i = 0; i < 8; i++) {
		int zero = emit_new_label(&g->e), next = emit_new_label(&g->e);
		int started = emit_new_label(&g->e);

		load_word(g, t, i);
		emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, zero);
		emit_store_imm(&g->e, 8, R9, (int16_t)(c + 16), 0);
		emit_ja(&g->e, next);
		emit_label(&g->e, zero);
		emit_load(&g->e, 8, R1, R9, (int16_t)(c + 16));
		emit_jmp_imm(&g->e, BPF_JNE, R1, 0, started);
		emit_store_imm(&g->e, 8, R9, (int16_t)(c + 24), i);
		emit_label(&g->e, started);
		emit_alu_imm(&g->e, BPF_ADD, R1, 1);
		emit_store(&g->e, 8, R9, (int16_t)(c + 16), R1);
		emit_load(&g->e, 8, R2, R9, (int16_t)(c + 8));
		emit_jmp_reg(&g->e, BPF_JLE, R1, R2, next);
		emit_store(&g->e, 8, R9, (int16_t)(c + 8), R1);
		emit_load(&g->e, 8, R1, R9, (int16_t)(c + 24));
		emit_store(&g->e, 8, R9, (int16_t)c, R1);
		emit_label(&g->e, next);
	}
	emit_load(&g->e, 8, R1, R9, (int16_t)(c + 8));
	emit_jmp_imm(&g->e, BPF_JGE, R1, 2, keep);
	emit_store_imm(&g->e, 8, R9, (int16_t)(c + 8), 0);
	emit_label(&g->e, keep);
}

/* An embedded IPv4 address is words 6 and 7, whatever their zeros:
 *	if (v4 && run + len > 6) len = 6 - run */
static void run_before_ipv4(struct cg *g, uint32_t c, int16_t v4)
{
	int keep = emit_new_label(&g->e);

	emit_load(&g->e, 8, R1, R10, v4);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, keep);
	emit_load(&g->e, 8, R1, R9, (int16_t)c);
	emit_load(&g->e, 8, R2, R9, (int16_t)(c + 8));
	emit_alu_reg(&g->e, BPF_ADD, R2, R1);
	emit_jmp_imm(&g->e, BPF_JSLE, R2, 6, keep);
	emit_mov_imm(&g->e, R2, 6);
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	emit_store(&g->e, 8, R9, (int16_t)(c + 8), R2);
	emit_label(&g->e, keep);
}

/*
 * IPv6 text, RFC 5952's way (lower-case hex, no leading zeros, the
 * longest run of two or more zero words as "::"); when the stack slot v4
 * is set, the address ends in an embedded IPv4 address's dotted form:
 * "::ffff:127.0.0.1".
 *
 *	for i in 0..7:
 *		if (run <= i && i < run + len) { if (i == run) put(':'); continue }
 *		if (i) put(':')
 *		if (i == 6 && v4) { put_ipv4(12); break }
 *		put_hex16(w[i])
 *	if (len && run + len == 8) put(':')
 */
static void put_ipv6(struct cg *g, const struct node *n, struct text t,
		     int16_t v4)
{
	uint32_t c = cg_temp_new(g, n, 32);
	int done = emit_new_label(&g->e), end = emit_new_label(&g->e);

	zero_run(g, t, c);
	run_before_ipv4(g, c, v4);
	for (int i = 0; i < 8; i++) {
		int out = emit_new_label(&g->e), next = emit_new_label(&g->e);

		emit_load(&g->e, 8, R1, R9, (int16_t)c);
		emit_load(&g->e, 8, R2, R9, (int16_t)(c + 8));
		emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, out);
		emit_jmp_imm(&g->e, BPF_JSGT, R1, i, out);
		emit_alu_reg(&g->e, BPF_ADD, R2, R1);
		emit_jmp_imm(&g->e, BPF_JSLE, R2, i, out);
		emit_jmp_imm(&g->e, BPF_JNE, R1, i, next);
		put(g, t, -1, ':');
		emit_ja(&g->e, next);
		emit_label(&g->e, out);
		if (i)
			put(g, t, -1, ':');
		if (i == 6) {
			int hex = emit_new_label(&g->e);

			emit_load(&g->e, 8, R1, R10, (int16_t)v4);
			emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, hex);
			put_ipv4(g, t, 12);
			emit_ja(&g->e, done);
			emit_label(&g->e, hex);
		}
		load_word(g, t, i);
		put_hex16(g, t);
		emit_label(&g->e, next);
	}
	emit_load(&g->e, 8, R1, R9, (int16_t)c);
	emit_load(&g->e, 8, R2, R9, (int16_t)(c + 8));
	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, end);
	emit_alu_reg(&g->e, BPF_ADD, R2, R1);
	emit_jmp_imm(&g->e, BPF_JNE, R2, 8, end);
	put(g, t, -1, ':');
	emit_label(&g->e, end);
	emit_label(&g->e, done);
}

/* The result: the text copied into a zeroed string of the node's bound,
 * which truncates it */
static struct val text_result(struct cg *g, const struct node *n, struct text t)
{
	struct val d = { .str = true, .size = cg_round8(n->type.size) };

	d.off = cg_temp_new(g, n, d.size);
	cg_zero_words(g, R9, d.off, d.size);
	cg_scratch_ptr(g, R1, d.off);
	emit_mov_imm(&g->e, R2, (int32_t)n->type.size);
	cg_scratch_ptr(g, R3, t.work);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	return d;
}

/* inet_ntoa(ipaddr_t *) */
struct val cg_inet_ntoa(struct cg *g, struct node *n)
{
	struct val p = cg_expr(g, n->args.v[0]);
	struct text t = text_new(g, n);

	read_addr(g, t, p.slot, 4);
	put_ipv4(g, t, 0);
	return text_result(g, n, t);
}

/* slot = is the IPv6 address in t an IPv4 one embedded? */
static void set_embedded(struct cg *g, struct text t, int16_t slot)
{
	int yes = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, slot, 0);
	ipv4_embedded(g, t, yes);
	emit_ja(&g->e, done);
	emit_label(&g->e, yes);
	emit_store_imm(&g->e, 8, R10, slot, 1);
	emit_label(&g->e, done);
}

/*
 * inet_ntoa6(struct in6_addr * [, strict]): an embedded IPv4 address as
 * IPv4 alone, unless strict is non-zero: then as inet_ntop writes it.
 *
 *	if (embedded && !strict) ipv4(12) else ipv6(embedded)
 */
struct val cg_inet_ntoa6(struct cg *g, struct node *n)
{
	struct val p = cg_expr(g, n->args.v[0]);
	struct val strict = n->args.n > 1 ? cg_expr(g, n->args.v[1]) : p;
	struct text t = text_new(g, n);
	int16_t v4 = cg_slot_new(g, n);
	int six = emit_new_label(&g->e), done = emit_new_label(&g->e);

	read_addr(g, t, p.slot, 16);
	set_embedded(g, t, v4);
	emit_load(&g->e, 8, R1, R10, v4);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, six);
	if (n->args.n > 1) {
		cg_load_slot(g, R1, strict.slot);
		emit_jmp_imm(&g->e, BPF_JNE, R1, 0, six);
	}
	put_ipv4(g, t, 12);
	emit_ja(&g->e, done);
	emit_label(&g->e, six);
	put_ipv6(g, n, t, v4);
	emit_label(&g->e, done);
	return text_result(g, n, t);
}

/*
 * inet_ntop(af, addr): AF_INET or AF_INET6; any other family is an
 * illegal operation, as in DTrace.
 *
 *	if (af == AF_INET) ipv4 else if (af == AF_INET6) ipv6 else fault
 */
struct val cg_inet_ntop(struct cg *g, struct node *n)
{
	struct val af = cg_expr(g, n->args.v[0]);
	struct val p = cg_expr_addr(g, n->args.v[1]);
	struct text t = text_new(g, n);
	int16_t v4 = cg_slot_new(g, n);
	int is6 = emit_new_label(&g->e), bad = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	cg_load_slot(g, R1, af.slot);
	emit_jmp_imm(&g->e, BPF_JNE, R1, AF_INET, is6);
	read_addr(g, t, p.slot, 4);
	put_ipv4(g, t, 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, is6);
	cg_load_slot(g, R1, af.slot);
	emit_jmp_imm(&g->e, BPF_JNE, R1, AF_INET6, bad);
	read_addr(g, t, p.slot, 16);
	set_embedded(g, t, v4);
	put_ipv6(g, n, t, v4);
	emit_ja(&g->e, done);
	emit_label(&g->e, bad);
	cg_fault(g, FLT_ILLOP, -1);
	emit_label(&g->e, done);
	return text_result(g, n, t);
}

/* "xx:xx:...": count bytes, each two hex digits at a fixed place */
static void put_hwaddr(struct cg *g, struct text t, int count)
{
	for (int i = 0; i < count; i++) {
		emit_load(&g->e, 1, R3, R9, (int16_t)(t.bytes + i));
		emit_mov_reg(&g->e, R1, R3);
		emit_alu_imm(&g->e, BPF_RSH, R1, 4);
		hex_digit(g, R1);
		emit_store(&g->e, 1, R9, (int16_t)(t.work + 3 * i), R0);
		emit_alu_imm(&g->e, BPF_AND, R3, 0xf);
		hex_digit(g, R3);
		emit_store(&g->e, 1, R9, (int16_t)(t.work + 3 * i + 1), R0);
		if (i + 1 < count)
			emit_store_imm(&g->e, 1, R9,
				       (int16_t)(t.work + 3 * i + 2), ':');
	}
}

/*
 * link_ntop(type, addr): an Ethernet (6 bytes) or InfiniBand (20 bytes)
 * hardware address; any other type is an illegal operation.
 */
struct val cg_link_ntop(struct cg *g, struct node *n)
{
	struct val type = cg_expr(g, n->args.v[0]);
	struct val p = cg_expr_addr(g, n->args.v[1]);
	struct text t = text_new(g, n);
	int ib = emit_new_label(&g->e), bad = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	cg_load_slot(g, R1, type.slot);
	emit_jmp_imm(&g->e, BPF_JNE, R1, ARPHRD_ETHER, ib);
	read_addr(g, t, p.slot, 6);
	put_hwaddr(g, t, 6);
	emit_ja(&g->e, done);
	emit_label(&g->e, ib);
	cg_load_slot(g, R1, type.slot);
	emit_jmp_imm(&g->e, BPF_JNE, R1, ARPHRD_INFINIBAND, bad);
	read_addr(g, t, p.slot, 20);
	put_hwaddr(g, t, 20);
	emit_ja(&g->e, done);
	emit_label(&g->e, bad);
	cg_fault(g, FLT_ILLOP, -1);
	emit_label(&g->e, done);
	return text_result(g, n, t);
}

/* ---- the tcp, udp and ip providers' guards (prov/net.c) ---- */

static uint32_t field_off(struct cg *g, const char *path, int size)
{
	struct ktype_field f;

	if (ktype_field(path, &f) < 0 || f.nhops != 1 || f.size != (uint32_t)size)
		diag_fail(g->d, 0, 0, "D_KTYPE", "%s:::%s needs %s (%d bytes) "
			  "in the kernel's BTF type information", g->probe->prov,
			  g->probe->name, path, size);
	return f.off[0];
}

/* r0 = the byte at r7 + off */
static void iph_byte(struct cg *g, int32_t off)
{
	emit_mov_reg(&g->e, R3, R7);
	cg_kread(g, SLOT_FIRST, 1, off);
}

/*
 * The packet probes' skb (ctx->args[0]) holds IPv4 or IPv6, and for tcp
 * and udp that protocol (IPv6 extension headers are not followed):
 *
 *	ver = skb->protocol == htons(ETH_P_IP) ? 4 :
 *	      skb->protocol == htons(ETH_P_IPV6) ? 6 : goto out
 *	r7 = inbound ? skb->data : skb->head + skb->network_header
 *	if ((ver == 4 ? r7[9] : r7[6]) != proto) goto out
 *	SYN:  r7 += ver == 4 ? (r7[0] & 0xf) << 2 : 40
 *	      if ((r7[13] & (SYN | ACK)) != SYN) goto out
 */
static void guard_packet(struct cg *g, int proto, bool syn)
{
	int v6 = emit_new_label(&g->e), l4 = emit_new_label(&g->e);
	int16_t ver = SLOT_FIRST - 8;

	emit_load(&g->e, 8, R3, R6, 0);
	cg_kread(g, SLOT_FIRST, 2, (int32_t)field_off(g, "sk_buff.protocol", 2));
	emit_store_imm(&g->e, 8, R10, ver, 6);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0xdd86, v6);	/* big-endian 0x86dd */
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0x0008, g->out);
	emit_store_imm(&g->e, 8, R10, ver, 4);
	emit_label(&g->e, v6);
	if (!proto)
		return;
	emit_load(&g->e, 8, R3, R6, 0);
	if (net_inbound(g->probe)) {
		cg_kread(g, SLOT_FIRST, 8, (int32_t)field_off(g, "sk_buff.data", 8));
		emit_mov_reg(&g->e, R7, R0);
	} else {
		cg_kread(g, SLOT_FIRST, 8, (int32_t)field_off(g, "sk_buff.head", 8));
		emit_mov_reg(&g->e, R7, R0);
		emit_load(&g->e, 8, R3, R6, 0);
		cg_kread(g, SLOT_FIRST, 2,
			 (int32_t)field_off(g, "sk_buff.network_header", 2));
		emit_alu_reg(&g->e, BPF_ADD, R7, R0);
	}
	int is6 = emit_new_label(&g->e);

	cg_load_slot(g, R0, ver);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 6, is6);
	iph_byte(g, 9);
	emit_jmp_imm(&g->e, BPF_JNE, R0, proto, g->out);
	if (syn) {
		iph_byte(g, 0);
		emit_alu_imm(&g->e, BPF_AND, R0, 0xf);
		emit_alu_imm(&g->e, BPF_LSH, R0, 2);
		emit_alu_reg(&g->e, BPF_ADD, R7, R0);
	}
	emit_ja(&g->e, l4);
	emit_label(&g->e, is6);
	iph_byte(g, 6);
	emit_jmp_imm(&g->e, BPF_JNE, R0, proto, g->out);
	emit_alu_imm(&g->e, BPF_ADD, R7, 40);
	emit_label(&g->e, l4);
	if (!syn)
		return;
	iph_byte(g, 13);
	emit_alu_imm(&g->e, BPF_AND, R0, 0x12);		/* TH_SYN | TH_ACK */
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0x02, g->out);
}

/*
 * The connection probes' socket (ctx->args[0]) is TCP's, and for these
 * its transition (inet_sock_set_state(sk, old, new)) or state:
 *
 *	if (sk->sk_protocol != IPPROTO_TCP) goto out
 *	CONNECTED: if (old != SYN_SENT || new != ESTABLISHED) goto out
 *	ACCEPTED:  if (old != SYN_RECV || new != ESTABLISHED) goto out
 *	REFUSED:   if (old != SYN_SENT || new != CLOSE ||
 *	               sk->sk_err != ECONNREFUSED) goto out
 */
static void guard_tcp_sock(struct cg *g, int kind)
{
	enum { ESTABLISHED = 1, SYN_SENT = 2, SYN_RECV = 3, CLOSE = 7 };

	emit_load(&g->e, 8, R3, R6, 0);
	cg_kread(g, SLOT_FIRST, 2, (int32_t)field_off(g, "sock.sk_protocol", 2));
	emit_jmp_imm(&g->e, BPF_JNE, R0, 6, g->out);	/* IPPROTO_TCP */
	if (kind == GUARD_TCP_SOCK)
		return;
	emit_load(&g->e, 4, R0, R6, 8);
	emit_jmp_imm(&g->e, BPF_JNE, R0,
		     kind == GUARD_TCP_ACCEPTED ? SYN_RECV : SYN_SENT, g->out);
	emit_load(&g->e, 4, R0, R6, 16);
	emit_jmp_imm(&g->e, BPF_JNE, R0,
		     kind == GUARD_TCP_REFUSED ? CLOSE : ESTABLISHED, g->out);
	if (kind != GUARD_TCP_REFUSED)
		return;
	emit_load(&g->e, 8, R3, R6, 0);
	cg_kread(g, SLOT_FIRST, 4, (int32_t)field_off(g, "sock.sk_err", 4));
	emit_jmp_imm(&g->e, BPF_JNE, R0, ECONNREFUSED, g->out);
}

bool cg_net_guard(struct cg *g)
{
	switch (g->probe->guard) {
	case GUARD_NET_IP:
		guard_packet(g, 0, false);
		return true;
	case GUARD_NET_TCP:
		guard_packet(g, 6, false);
		return true;
	case GUARD_NET_UDP:
		guard_packet(g, 17, false);
		return true;
	case GUARD_NET_SYN:
		guard_packet(g, 6, true);
		return true;
	case GUARD_TCP_SOCK:
	case GUARD_TCP_CONNECTED:
	case GUARD_TCP_ACCEPTED:
	case GUARD_TCP_REFUSED:
		guard_tcp_sock(g, g->probe->guard);
		return true;
	default:
		return false;
	}
}
