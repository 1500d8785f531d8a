/*
 * A program's own inline comes before a kernel enumerator of the same
 * name, as DTrace looks inlines up first (dt_node_ident): TASK_COMM_LEN
 * and PIDTYPE_PGID are enumerators in the kernel's BTF.
 */
#pragma D option quiet

inline string TASK_COMM_LEN = "mine";
inline int PIDTYPE_PGID = 77;

BEGIN
{
	printf("%s %d %d\n", TASK_COMM_LEN, PIDTYPE_PGID, PIDTYPE_SID);
	exit(0);
}
