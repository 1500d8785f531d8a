/*
 * Associative arrays keyed by tuples: read, +=, a missing key reads 0 or
 * NULL, assigning 0 deletes; clause-local this-> variables.
 */
#pragma D option quiet

BEGIN
{
	a["x", 1] = 5;
	a["y", 2] = 7;
	a["x", 1] += 10;
	this->q = a["x", 1] + a["y", 2];
	printf("%d %d %d %d\n", a["x", 1], a["y", 2], a["z", 3], this->q);
	a["x", 1] = 0;
	printf("%d\n", a["x", 1]);
	s["k"] = "hello";
	printf("%s|%d|\n", s["k"], s["nope"] == NULL);
	exit(0);
}
