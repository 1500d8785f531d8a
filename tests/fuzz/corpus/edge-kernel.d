BEGIN
{
	t = curthread; p = curthread->real_parent->pid; c = curthread->comm;
	printf("%s %d %s\n", curpsinfo->pr_fname, curpsinfo->pr_pid, curpsinfo->pr_psargs);
	print(*curthread); st = stack(); us = ustack(5); f = func(caller); sy = sym(caller);
	`max_threads; `jiffies + 1;
	exit(0);
}
