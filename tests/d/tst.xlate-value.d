/*
 * An xlate expression used as a value rather than through a member is
 * its input's value, as DTrace's code generator makes it; its members
 * are still the translator's.
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
