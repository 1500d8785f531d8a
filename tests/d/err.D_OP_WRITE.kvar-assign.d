/* A kernel variable is not writable (dt_cook_op2: D_OP_WRITE), whether
 * or not this kernel lists it. */
BEGIN
{
	`max_pfn = 1;
	exit(0);
}
