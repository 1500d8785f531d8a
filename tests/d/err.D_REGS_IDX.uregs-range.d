/* uregs[] has the D library's R_* indices, 0 to 25 (regs.d) */
BEGIN
{
	trace(uregs[26]);
}
