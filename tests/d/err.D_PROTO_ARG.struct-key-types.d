/*
 * A struct key takes only its own type: two struct types of one shape
 * are not argument-compatible (dt_node_is_argcompat).
 */
struct a { int v; } x;
struct b { int v; } y;

BEGIN
{
	arr[x] = 1;
	arr[y] = 2;
}
