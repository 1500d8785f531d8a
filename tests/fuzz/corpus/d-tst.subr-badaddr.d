/*
 * A string read from a bad address is a fault, not an empty string:
 * copyinstr(), strlen() of a char * and inet_ntoa() abandon their clause
 * and dtrace:::ERROR fires with the address (arg5) and DTRACEFLT_BADADDR
 * (1) as arg4.
 */
#pragma D option quiet

BEGIN { printf("%s\n", copyinstr(16)); }
BEGIN { printf("%d\n", strlen((char *)32)); }
BEGIN { printf("%s\n", inet_ntoa((void *)48)); }
BEGIN { printf("still here\n"); }
ERROR { printf("ERROR: fault %d addr %d\n", arg4, arg5); }
BEGIN { exit(0); }
