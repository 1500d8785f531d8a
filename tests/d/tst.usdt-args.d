/*
 * Ground truth (DESIGN.md 3.11): build/targets/usdtprog 100 fires its
 * <sys/sdt.h> probes for i = 0..99 with arguments whose sums are known
 * (see its opening comment); at -O0 they sit in registers of every width
 * (%esi, %rcx, %dil, %r8w, %r9d), in stack slots (-8(%rbp)) and are
 * immediates ($5, $-1).  Signed narrow arguments must come out
 * sign-extended, unsigned ones zero-extended.  neg__arg is named with
 * the note's spelling and shows as neg-arg; twice has two sites with
 * different operands; gated fires only through its is-enabled branch,
 * which the target counts: tracing it, the target prints "gated 100".
 * @@args: -q -c "$B/targets/usdtprog 100"
 */
usdtprog$target:usdtprog:fire:fire
{
	@n[probemod, probefunc, probename] = count();
	@s[0] = sum(arg0);
	@s[1] = sum(arg1);
	@s[2] = sum(arg2);
	@s[3] = sum(arg3);
	@s[4] = sum(arg4);
	@s[5] = sum(arg5);
	@typed = sum(args[3] + args[2]);
}

usdtprog$target:::neg__arg
{
	@n[probemod, probefunc, probename] = count();
	@s[6] = sum(arg0);
	@s[7] = sum(arg1);
}

usdtprog$target::main:twice
{
	@n[probemod, probefunc, probename] = count();
	@s[8] = sum(arg0);
}

usdtprog$target:::gated
{
	@n[probemod, probefunc, probename] = count();
	@s[9] = sum(args[0]);
}

END
{
	printa("%s %s %s %@d\n", @n);
	printa("sum %d %@d\n", @s);
	printa("typed %@d\n", @typed);
}
