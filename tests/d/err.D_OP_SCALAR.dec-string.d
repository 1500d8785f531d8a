/* -- wants a scalar variable. */
BEGIN
{
	s = "text";
	s--;
	exit(0);
}
