/*
 * Struct, union, bit-field and array variables of the script's own types:
 * members are read and written in place, whole structs copy, & gives the
 * address of a place.
 */
#pragma D option quiet

struct record {
	int position;
	char content;
	unsigned int bf : 3;
	int neg : 4;
};

struct record r1, r2;
this struct record t;
int arr[5];

BEGIN
{
	r1.position = 1;
	r1.content = 'a';
	r1.bf = 9;		/* 3 bits: 1 */
	r1.neg = -3;
	r2 = r1;
	this->t.position = 7;
	arr[2] = 42;
	printf("%d %c %d %d | %d %c | %d | %d %d | %d\n", r1.position,
	    r1.content, r1.bf, r1.neg, r2.position, r2.content,
	    this->t.position, arr[2], arr[1], *(&r2.position));
	exit(0);
}
