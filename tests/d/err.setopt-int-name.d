/*
 * setopt() takes option names and values as strings; its prototype is
 * void(const char *, [const char *]).
 */
BEGIN
{
	setopt(1);
}
