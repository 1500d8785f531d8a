/* inet_ntoa6()'s second argument chooses the form printed as the program
 * is compiled: it must be an integer constant (dt_cg_subr_inet_ntoa6). */
BEGIN
{
	form = 1;
	trace(inet_ntoa6((struct in6_addr *)alloca(16), form));
	exit(0);
}
