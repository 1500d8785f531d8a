/*
 * Boolean options take DTrace's words (dt_opt_runtime): yes/no, on/off,
 * true/false, enable(d)/disable(d), set/unset, a number, or nothing;
 * anything else is an invalid value, reported, and tracing goes on.
 * Options fixed once tracing has started (bufsize, strsize, nspec ...)
 * cannot be set by setopt(), as dtrace_setopt refuses them (EDT_ACTIVE).
 */
#pragma D option quiet

BEGIN
{
	setopt("quiet", "um, no");
	setopt("bufsize", "1m");
	setopt("strsize", "64");
	setopt("aggsortrev", "off");
	@[1] = sum(1);
	@[2] = sum(2);
	@[3] = sum(3);
	printa("%d %@d\n", @);
	setopt("aggsortrev", "YES");
	printa("%d %@d\n", @);
	setopt("aggsortrev", "false");
	printa("%d %@d\n", @);
	exit(0);
}
