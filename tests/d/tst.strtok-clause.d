/*
 * strtok()'s saved position belongs to the firing, as DTrace keeps it in
 * the probe's machine state (illumos dtrace_probe clears dtms_strtok once
 * per firing; dtrace-utils' trampoline prologue its DMEM_STRTOK): a later
 * clause of the same firing goes on from it, and another firing (END)
 * starts with nothing to go on from: strtok(NULL, d) there is an invalid
 * address (fault 1).
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strtok("a b c", " "));
}

BEGIN
/strlen(strtok(NULL, " ")) == 1/
{
	printf("the predicate took b\n");
}

BEGIN
{
	printf("%s\n", strtok(NULL, " "));
	exit(0);
}

END
{
	printf("%s\n", strtok(NULL, " "));
}

ERROR
{
	printf("fault %d\n", arg4);
}
