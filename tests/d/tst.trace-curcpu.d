/* curcpu is DTrace's own variable of type cpuinfo_t *, not translated
 * data: trace() takes it (the D library here makes it with a translator,
 * which must not make it dynamic).  Its value varies: compiled only.
 * @@args: -e
 */
#pragma D option quiet

BEGIN
{
	trace(curcpu);
	exit(0);
}
