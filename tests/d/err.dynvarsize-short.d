/*
 * dynvarsize must hold one entry of the largest tuple (8 bytes a key, and
 * 8 for the thread, 0 for a global array) plus the largest value: here
 * 8 + 8 + 4 (an int) = 20; 19 is refused before anything loads.
 * @@stage: enable
 */
#pragma D option dynvarsize=19

BEGIN
{
	a[1] = 8;
	exit(0);
}
