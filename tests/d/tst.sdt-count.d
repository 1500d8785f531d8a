/*
 * sdt: a kernel tracepoint by its tracefs name, attached as a raw
 * tracepoint, args[] typed from BTF's btf_trace_sys_enter (struct pt_regs
 * *regs, long id).  build/targets/loop calls getppid (110) exactly 4321
 * times; sched_process_exec's args[0] is its struct task_struct *.
 * @@args: -q -c "$B/targets/loop 4321"
 */
sdt:raw_syscalls::sys_enter
/pid == $target && args[1] == 110/
{
	@calls = count();
}

sdt:sched::sched_process_exec
/args[0]->tgid == $target/
{
	execs++;
	exec_desc = strjoin(probeprov, strjoin(":", strjoin(probemod,
	    strjoin("::", probename))));
	by_target = args[1] == $target;
}

END
{
	printf("%d %s by the target %d\n", execs, exec_desc, by_target);
	printa("getppid %@d\n", @calls);
}
