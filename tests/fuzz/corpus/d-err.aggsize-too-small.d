/* aggsize too small for one entry: tracing cannot start */
#pragma D option quiet
#pragma D option aggsize=8

BEGIN
{
	@ = count();
}
