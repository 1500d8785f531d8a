/* printf(): a record of the format's id and its three arguments. */
syscall::write:entry
{
	printf("%s[%d] wrote %d bytes\n", execname, pid, arg2);
}
