/* "#pragma D" names one of DTrace's pragmas: another word is "invalid D
 * pragma" (dt_pragma), where a plain "#pragma" of another compiler's
 * would be ignored. */
#pragma D nosuchpragma

BEGIN
{
	exit(0);
}
