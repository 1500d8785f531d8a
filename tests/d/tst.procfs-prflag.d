/*
 * pr_flag holds procfs' PR_* flags, not the kernel's PF_* word: a user
 * process is not PR_ISSYS, the idle task (init_task, swapper/0) is a
 * system process and PR_IDLE (it is init's parent, reached from the
 * pid namespace's reaper); sched.d's SOBJ_* and net.d's types are there
 * to be named.
 * @@args: -q -c "$B/targets/loop 4"
 */
syscall::getppid:entry
/pid == $target/
{
	@[curpsinfo->pr_flag & PR_ISSYS ? "system" : "user",
	  curlwpsinfo->pr_flag & (PR_IDLE | PR_STOPPED) ? "?" : "running"] =
	    count();
}

END
{
	this->swapper =
	    curthread->nsproxy->pid_ns_for_children->child_reaper->real_parent;
	printf("swapper: %s %s\n",
	    xlate <psinfo_t *> (this->swapper)->pr_flag & PR_ISSYS ?
	    "system" : "user",
	    xlate <lwpsinfo_t *> (this->swapper)->pr_flag & PR_IDLE ?
	    "idle" : "busy");
	printf("SOBJ_CV %d PR_ISSYS %x in6_addr_t %d NET_PROBE_INBOUND %d\n",
	    SOBJ_CV, PR_ISSYS, sizeof (in6_addr_t), NET_PROBE_INBOUND);
}
