/*
 * The DTraceToolkit's optional output: "OPT_x ? printf(...) : 1;" with an
 * inline OPT_x whose value is a constant.  DTrace's parser keeps only the
 * chosen arm (dt_node_op3 on a folded condition), so the statement is the
 * chosen action, or the expression 1; the other arm is never checked.
 * $1 is 5 here (bits 1 and 4), $2 is unset (defaultargs: 0).
 * @@args: 5
 */
#pragma D option quiet
#pragma D option defaultargs

inline int OPT_time = $1 & 1;
inline int OPT_zone = $1 & 2;
inline int OPT_dump = ($1 & 4) != 0;
inline int OPT_count = $2 == 0 && $1 > 4;
inline int OPT_none = $2;

BEGIN
{
	OPT_time ? printf("%-6s ", "time") : 1;
	OPT_zone ? printf("%-6s ", zonename) : 1;
	OPT_dump ? printf("%s\n", "dump") : printf("%5d %s\n", 1, "plain");
	OPT_none ? printf("%d\n", never_defined) : 1;
	!OPT_none ? printf("not none\n") : 1;
	OPT_count ? @c["counted"] = count() : 1;
	OPT_none ? @c["never"] = count() : @c["else"] = count();
	OPT_time ? (OPT_dump ? printf("time+dump\n") : 1) : 0;
	x = OPT_time ? 10 : "unchecked";
	printf("x=%d\n", x);
	exit(0);
}

END
{
	printa("%s %@d\n", @c);
}
