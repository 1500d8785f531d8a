/* printa() takes at least one argument, by its prototype void(@, ...). */
BEGIN
{
	printa();
}
