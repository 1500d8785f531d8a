/*
 * cleanpath(): empty and "." elements go, "x/.." pairs cancel, ".." stays
 * at the front of a relative path and vanishes at the root.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", cleanpath(""));
	printf("[%s]\n", cleanpath("/"));
	printf("[%s]\n", cleanpath("/usr//local/./bin/"));
	printf("[%s]\n", cleanpath("/usr/local/../lib"));
	printf("[%s]\n", cleanpath("/../x"));
	printf("[%s]\n", cleanpath("x/y/../../.."));
	printf("[%s]\n", cleanpath("../a/./b/../c"));
	printf("[%s]\n", cleanpath("a/b/.."));
	printf("[%s]\n", cleanpath("./."));
	printf("[%s]\n", cleanpath("..."));
	printf("[%s]\n", cleanpath("/a/.b/..c/"));
	exit(0);
}
