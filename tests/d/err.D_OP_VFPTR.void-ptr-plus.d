/*
 * A void * has no element size: p += 1 is D_OP_VFPTR.
 */
BEGIN
{
	p = alloca(8);
	p += 1;
}
