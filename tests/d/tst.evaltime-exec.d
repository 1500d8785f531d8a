/*
 * evaltime (dt_opt_evaltime, a compile-time option, so a pragma may set
 * it as dtruss does with -x): exec is when -c enables the probes here;
 * every one of the command's 1234 getppid calls is counted.
 * @@args: -c "$B/targets/loop 1234"
 */
#pragma D option evaltime=exec
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	@ = count();
}

END
{
	printa("%@d\n", @);
}
