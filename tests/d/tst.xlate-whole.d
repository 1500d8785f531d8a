/*
 * A translated pointer taken whole -- kept in a variable, then read
 * through -- is the translator expanded (DTrace's dt_cg_xlate_expand):
 * each member holds its conversion.  It was the input's value read as
 * if it were the output type: p->pr_pid read 0.
 */
#pragma D option quiet

BEGIN
{
	p = curpsinfo;
	this->l = curlwpsinfo;
	c = curcpu;
	f = fds[0];
	printf("pid %d ppid %d fname %d\n", p->pr_pid == pid,
	    p->pr_ppid == ppid, p->pr_fname == execname);
	printf("lwpid %d\n", this->l->pr_lwpid == tid);
	printf("cpu %d\n", c->cpu_id == cpu);
	printf("fd0 %d\n", f.fi_pathname == fds[0].fi_pathname);
	exit(0);
}
