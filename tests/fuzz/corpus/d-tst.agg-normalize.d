/*
 * normalize() divides what printa shows, denormalize() undoes it, trunc()
 * keeps the largest values, and setopt() changes the sort of the next
 * printa.
 */
#pragma D option quiet

BEGIN
{
	@c["a"] = sum(100);
	@c["b"] = sum(3000);
	@c["c"] = sum(20);
	normalize(@c, 10);
	printa("%s %@d\n", @c);
	denormalize(@c);
	printa("%s %@d\n", @c);
	trunc(@c, 2);
	printa("%s %@d\n", @c);
	setopt("aggsortkey");
	setopt("aggsortrev");
	printa("%s %@d\n", @c);
	exit(0);
}
