#!/usr/sbin/dtrace -Cqs
/*
 * -C on an interpreter file: the "#!" line is not given to cpp (which
 * would refuse it), and the lines after it keep their numbers (dt_cc.c).
 * @@args: -C
 */
#pragma D option quiet
#define ANSWER (6 * 7)

BEGIN
{
	printf("%d at line %d\n", ANSWER, __LINE__);
	exit(0);
}
