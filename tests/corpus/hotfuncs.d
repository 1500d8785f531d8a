#!/usr/sbin/dtrace -s
/*
 * hotfuncs.d -- sample the command's user program counter and count
 * samples by function and by library.
 *
 * USAGE: hotfuncs.d -c command
 */
#pragma D option quiet

profile-997
/pid == $target && arg1/
{
	@func[ufunc(arg1)] = count();
	@mod[umod(arg1)] = count();
}

dtrace:::END
{
	printf("%-32s %s\n", "FUNCTION", "SAMPLES");
	printa("%-32A %@d\n", @func);
	printf("%-32s %s\n", "MODULE", "SAMPLES");
	printa("%-32A %@d\n", @mod);
}
