/*
 * USDT operands as gcc -O2 writes them (DESIGN.md 3.11): build/targets/
 * usdtopt 100 passes opt:sib seven arguments whose operands are
 * -8@(%rdi,%rax,8) and -4@8(%r8,%rcx,4) (scaled index, with and without
 * a displacement), -8@8(%rdx), -4@counter(%rip) and -8@8+pair(%rip)
 * (rip-relative symbols: their run-time address is regs->ip - pc + sym)
 * and a register.  The target prints the sums of what it passed; the
 * trace must print the same line.
 * @@args: -q -c "$B/targets/usdtopt 100"
 */
opt$target:::sib
{
	@s0 = sum(arg0);
	@s1 = sum(arg1);
	@s2 = sum(arg2);
	@s3 = sum(arg3);
	@s4 = sum(arg4);
	@s5 = sum(arg5);
	@s6 = sum(arg6);
}

END
{
	printa("sums %@d", @s0);
	printa(" %@d", @s1);
	printa(" %@d", @s2);
	printa(" %@d", @s3);
	printa(" %@d", @s4);
	printa(" %@d", @s5);
	printa(" %@d\n", @s6);
}
