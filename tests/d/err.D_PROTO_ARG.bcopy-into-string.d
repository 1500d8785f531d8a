/*
 * A string may be bcopy()'s source but not its destination, which must
 * be alloca() memory.
 */
BEGIN
{
	bcopy("abc", "xyz", 3);
}
