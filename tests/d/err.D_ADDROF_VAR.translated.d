/* Translated data is a dynamic object: & of it is D_ADDROF_VAR ("cannot
 * take address of dynamic object"), not D_ADDROF_LVAL (dt_cook_op1). */
BEGIN
{
	trace(&xlate<psinfo_t>(curthread));
	exit(0);
}
