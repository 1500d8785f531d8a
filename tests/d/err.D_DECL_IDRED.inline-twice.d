/* An inline may not take a name already defined, another inline's
 * included: "identifier redefined" (dt_node_inline). */
inline int x = 1;
inline int x = 2;

BEGIN
{
	exit(0);
}
