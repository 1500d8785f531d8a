/* args[ ] takes only a constant index: a variable one is D_PROTO_ARG
 * (dt_idcook_args), whatever its value. */
syscall::read:entry
{
	i = 0;
	trace(args[i]);
	exit(0);
}
