/* args[ ]'s one parameter is an integer constant (dt_idcook_args): any
 * other index is a prototype mismatch, D_PROTO_ARG. */
syscall::read:entry
{
	trace(args["fd"]);
	exit(0);
}
