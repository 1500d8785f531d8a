/*
 * x -= n reads x: a global that nothing declared or assigned has no value
 * to read (DTrace's dt_cook_var), where x++ would have created it.
 */
BEGIN
{
	total -= 3;
	exit(0);
}
