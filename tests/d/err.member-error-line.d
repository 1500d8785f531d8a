/*
 * An error in a struct member is reported at that member's line, not at
 * the line where the struct's definition starts: the definition's line
 * breaks must survive until sema reads it again.
 */
struct three_fields {
	int ok : 4;
	long also_ok;
	char wide : 12;
};

BEGIN
{
	exit(0);
}
