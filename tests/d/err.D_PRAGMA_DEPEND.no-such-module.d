/* A kernel module the kernel does not describe (no BTF, as DTrace's
 * module without CTF) is a dependency not met. */
#pragma D depends_on module nosuchmodule

BEGIN
{
	exit(0);
}
