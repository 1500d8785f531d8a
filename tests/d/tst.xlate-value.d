/*
 * An xlate expression cast to an integer is its input's value, as
 * DTrace's code generator makes it; its members are still the
 * translator's.  (Taken whole otherwise -- kept in a variable, passed,
 * dereferenced -- it is expanded: tst.xlate-whole.d.)
 */
#pragma D option quiet

struct out {
	int twice;
};

translator struct out < int x > {
	twice = x * 2;
};

BEGIN
{
	printf("%d %d\n", (int)xlate <struct out *> (21),
	    xlate <struct out *> (21)->twice);
	exit(0);
}
