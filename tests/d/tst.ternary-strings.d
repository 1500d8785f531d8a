/*
 * ?: with a string arm (dt_cook_op3): a char array beside a string is
 * read as a string, and a null pointer beside one is NULL, which tests
 * equal to NULL (and would fault if printed).
 */
#pragma D option quiet

BEGIN
{
	x = 0;
	printf("[%s]\n", 1 ? curthread->comm : "other");
	printf("%d %d %d\n", (x ? "a" : NULL) == NULL, (1 ? "a" : 0) == NULL,
	    (x ? curthread->comm : "b") == "b");
	exit(0);
}
