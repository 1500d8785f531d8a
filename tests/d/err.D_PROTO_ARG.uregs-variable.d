/* uregs[]'s index is an integer constant, an R_* name (dt_idcook_regs) */
BEGIN
{
	i = R_SP;
	trace(uregs[i]);
}
