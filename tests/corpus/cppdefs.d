#!/usr/sbin/dtrace -Cs
/*
 * cppdefs.d -- a script run through the C preprocessor (-C): its
 * limits are macros.
 *
 * USAGE: dtrace -C -s cppdefs.d -c command
 */
#pragma D option quiet

#define	SMALL	64
#define	IS_SMALL(n)	((n) < SMALL)

pid$target::malloc:entry
{
	@[IS_SMALL(arg0) ? "small" : "large"] = count();
}

dtrace:::END
{
	printa("%-5s %@d\n", @);
}
