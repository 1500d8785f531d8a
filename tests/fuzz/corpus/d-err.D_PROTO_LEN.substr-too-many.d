/* substr( ) takes two or three arguments: "at most 3 expected" */
BEGIN
{
	trace(substr("abc", 1, 2, 3));
}
