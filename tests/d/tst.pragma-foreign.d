/* A #pragma not for D is ignored (K&R A12.8, as dt_pragma does); #ident
 * lines too. */
#pragma GCC poison
#pragma once
#ident "a version"
#pragma D option quiet

BEGIN
{
	printf("ran\n");
	exit(0);
}
