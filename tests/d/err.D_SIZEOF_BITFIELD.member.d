/*
 * sizeof does not apply to a bit-field, whose size is not a number of
 * bytes.
 */
struct flags {
	int a : 3;
} f;

BEGIN
{
	trace(sizeof(f.a));
}
