#!/usr/bin/env -S dscope -qs
/*
 * Where does this program spend its CPU time?  profile-997 samples its
 * threads 997 times a second on each CPU; each sample counts its user
 * stack and the kernel stack on top of it (both, when it was in a system
 * call).  Written as a flame graph, widths in samples: click a frame to
 * zoom, Ctrl-F to search.  997, not 1000, so the samples do not march in
 * step with the program's own timers.
 *   dscope -qs cpu-flamegraph.d -o cpu.svg -c CMD   (or -p PID)
 * With -x oformat=folded instead, the same stacks as folded lines for
 * other flame graph tools.
 */
#pragma D option oformat=svg

profile-997
/pid == $target/
{
	@[stack(), ustack()] = count();
}
