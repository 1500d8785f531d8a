/* An inline may not take a D enumerator's name (dt_node_inline). */
enum colors { RED, GREEN };
inline int RED = 3;

BEGIN
{
	exit(0);
}
