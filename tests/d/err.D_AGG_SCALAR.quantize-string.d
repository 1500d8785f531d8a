BEGIN
{
	@ = quantize(execname);
}
