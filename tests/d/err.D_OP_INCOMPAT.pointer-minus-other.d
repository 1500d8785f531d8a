/* p - q needs pointers to one type, or either to void
 * (dt_node_is_ptrcompat). */
BEGIN
{
	trace((int *)curthread - (char *)curthread);
	exit(0);
}
