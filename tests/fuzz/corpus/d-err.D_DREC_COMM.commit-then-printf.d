/*
 * Nothing may be recorded after commit() in the same clause.
 */
BEGIN
{
	commit(1);
	printf("too late\n");
}
