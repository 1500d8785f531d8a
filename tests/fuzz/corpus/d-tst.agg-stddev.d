/*
 * stddev in BPF: the sum of squares is 128 bits wide (4e9^2 * 2 does not
 * fit in 64), negative values square to the same, and integer sqrt.
 */
#pragma D option quiet

BEGIN
{
	@small = stddev(1);
	@small = stddev(2);
	@small = stddev(3);
	@small = stddev(4);
	@wide = stddev(4000000000);
	@wide = stddev(-4000000000);
	@one = stddev(-7);
	printa("%@d\n", @small);
	printa("%@d\n", @wide);
	printa("%@d\n", @one);
	exit(0);
}
