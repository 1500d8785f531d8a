/*
 * An inline may not reuse a built-in name; the message names both
 * identifiers' kinds, as dt_decl_inline's does.
 */
inline int timestamp = 7;

BEGIN
{
	exit(0);
}
