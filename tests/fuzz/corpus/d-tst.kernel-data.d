/*
 * Kernel data through BTF types: curthread's members agree with the
 * builtins, a char array prints as a string, and a bad pointer is an
 * error that abandons only its clause.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", curthread->pid == tid, curthread->tgid == pid,
	    curthread->real_parent->tgid == ppid);
	printf("%s %s\n", curthread->comm, stringof(curthread->comm) == execname ?
	    "same" : "differ");
	printf("%d\n", sizeof(struct task_struct) > 1000);
}

BEGIN
{
	trace(*(int *)8);
}

BEGIN
{
	printf("still here\n");
	exit(0);
}
