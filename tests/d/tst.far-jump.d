/*
 * A clause longer than a BPF jump reaches (16 bits of offset, less the
 * verifier's own growth): its jumps to its end go through trampolines
 * (cg/emit.c, emit_relax).  4096 additions in one clause, each counted.
 * @@args: -q -C
 */
#define A4(x)	x x x x
#define A16(x)	A4(A4(x))
#define A256(x)	A16(A16(x))
#define A4096(x)	A16(A256(x))

BEGIN
/pid != 0/
{
	this->n = 0;
	A4096(this->n = this->n + (pid != 0);)
	printf("%d\n", this->n);
	exit(0);
}
