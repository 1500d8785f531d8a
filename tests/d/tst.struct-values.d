/*
 * A struct held in a D variable is a value: its members can be read
 * wherever it is held (a cast to its own type, an associative array, a
 * translator's input), storing it copies its bytes, storing 0 deletes
 * it, and as a key it is its bytes, so equal structs are one key.
 */
#pragma D option quiet

struct pt {
	int x;
	char tag;
};

struct out {
	int twice;
};

translator struct out < struct pt p > {
	twice = ((struct pt)p).x * 2;
};

struct pt a, b;

BEGIN
{
	a.x = 7;
	a.tag = 'a';
	b.x = 7;
	b.tag = 'a';
	saved[1] = a;
	a.x = 8;
	saved[2] = a;
	printf("%d %c %d\n", ((struct pt)b).x, saved[1].tag, saved[1].x);
	printf("%d\n", saved[2].x);
	saved[1] = 0;
	printf("%d\n", xlate <struct out> (a).twice);
	count[b] = 1;
	count[b]++;
	a.x = 7;
	count[a]++;
	printf("%d\n", count[b]);
}

BEGIN
{
	/* the deleted element reads as nothing: a fault */
	trace(saved[1].x);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("saved[1] is gone\n");
}
