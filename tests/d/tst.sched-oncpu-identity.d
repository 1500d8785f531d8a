/*
 * At sched:::on-cpu the builtins describe the thread coming onto the CPU,
 * though the program runs in the one leaving: sleep(1), run as nobody
 * (uid and gid 65534) through setpriv, must be seen with its own pid,
 * uid, gid and name every time it comes back onto a CPU.
 * @@needs: command -v setpriv
 * @@args: -q -c "setpriv --reuid=65534 --regid=65534 --clear-groups sleep 0.05"
 */
sched:::on-cpu
/pid == $target && execname == "sleep"/
{
	@[uid, gid, execname, curpsinfo->pr_pid == $target] = count();
}

END
{
	printa("uid %d gid %d execname %s pr_pid is the target %d\n", @);
}
