/*
 * -> must be applied to a pointer: on a struct it is D_OP_PTR, checked
 * before the member is looked up (dt_cook_op2).
 */
struct s { int a; } v;

BEGIN
{
	v->a = 1;
}
