/*
 * %e, %f and %g take float, double and long double (libdtrace's
 * pfcheck_fp), printed by the size of the traced bytes; D has no
 * floating-point arithmetic, so the values come from memory.
 */
#pragma D option quiet

float f;
double zero;
long double ld;
double *pi;

BEGIN
{
	pi = alloca(sizeof(double));
	*(uint64_t *)pi = 0x400921fb54442d18;
	printf("%f %e %g\n", f, zero, ld);
	printf("%f %.2e %G %10.3f|\n", *pi, *pi, *pi, *pi);
	exit(0);
}
