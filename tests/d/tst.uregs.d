/*
 * uregs[] reads the thread's user registers by the D library's R_*
 * indices: count_me(i, 1000 + i, "x") is called 42 times, its first two
 * arguments in rdi and rsi (the x86-64 calling convention), so the sums
 * are those of 0..41 and 1000..1041; the thread's fs base (glibc's TLS)
 * is set.  The names alias as regs.d says (R_PC is R_RIP, R_SP R_RSP).
 * @@args: -c "$B/targets/mallocs"
 */
#pragma D option quiet

pid$target::count_me:entry
{
	@rdi = sum(uregs[R_RDI]);
	@rsi = sum(uregs[R_RSI]);
	@match[uregs[R_RDI] == arg0 && uregs[R_RSI] == arg1,
	    uregs[R_PC] == uregs[R_RIP] && uregs[R_SP] == uregs[R_RSP],
	    uregs[R_FS] != 0] = count();
}

END
{
	printa("rdi %@d\n", @rdi);
	printa("rsi %@d\n", @rsi);
	printa("args %d, aliases %d, fs %d: %@d calls\n", @match);
}
