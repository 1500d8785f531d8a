/*
 * The scratchsize option bounds alloca(): a constant size over it is a
 * compile error.
 */
#pragma D option scratchsize=32

BEGIN
{
	p = alloca(33);
}
