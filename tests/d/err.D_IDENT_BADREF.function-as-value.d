/* A subroutine's name read as a value is DTrace's D_IDENT_BADREF
 * ("function 'strlen' may not be referenced as scalar"). */
BEGIN
{
	trace(strlen);
	exit(0);
}
