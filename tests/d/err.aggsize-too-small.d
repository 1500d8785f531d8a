/* aggsize too small for one entry: tracing cannot start (@@stage: enable) */
#pragma D option quiet
#pragma D option aggsize=8

BEGIN
{
	@ = count();
}
