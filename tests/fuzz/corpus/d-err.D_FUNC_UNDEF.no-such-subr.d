BEGIN
{
	trace(strfrob("abc"));
}
