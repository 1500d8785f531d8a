/*
 * Two macro arguments, and the last one ($2) is never referenced: DTrace
 * takes it for a mistake unless argref allows it (tst.argref-pragma).
 * @@args: 7 8
 */
BEGIN
{
	trace($1);
	exit(0);
}
