/*
 * sdt: a kernel tracepoint by its tracefs name, attached as a raw
 * tracepoint, args[] typed from BTF's btf_trace_sys_enter (struct pt_regs
 * *regs, long id).  build/targets/execer runs build/targets/loop, which
 * calls getppid (110) exactly 4321 times; sched_process_exec's args[0] is
 * the exec'ing struct task_struct *, args[1] its pid before the exec.
 * @@args: -q -c "$B/targets/execer $B/targets/loop 4321"
 */
sdt:raw_syscalls::sys_enter
/ppid == $target && args[1] == 110/
{
	@calls = count();
}

sdt:sched::sched_process_exec
/args[0]->real_parent->tgid == $target/
{
	execs++;
	exec_desc = strjoin(probeprov, strjoin(":", strjoin(probemod,
	    strjoin("::", probename))));
	by_child = args[1] == args[0]->tgid;
}

END
{
	printf("%d %s by the child %d\n", execs, exec_desc, by_child);
	printa("getppid %@d\n", @calls);
}
