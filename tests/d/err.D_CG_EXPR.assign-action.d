/* An action called for its value: "tracing function printf( ) may not be
 * called from a D expression" (dt_cg_call_subr). */
BEGIN
{
	x = printf("a\n");
	exit(0);
}
