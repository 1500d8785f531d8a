# stack() at sched:::off-cpu, symbolized from /proc/kallsyms: the ten
# 20 ms sleeps of build/targets/sleeper leave the CPU through nanosleep,
# with DTrace's frame format (module`function+0xoffset, 14 spaces of
# indent) and without the tracing machinery (the BPF program,
# bpf_trace_run) DTrace would not show.  Only the sleeps inside
# clock_nanosleep count: the program may also block on its files (paging
# in over 9p, in the test guest), in other stacks.
. tests/sh/lib.sh

out=$($D -q -s /dev/stdin -c "$B/targets/sleeper" <<'D'
syscall::clock_nanosleep:entry
/pid == $target/
{
	self->in = 1;
}

syscall::clock_nanosleep:return
/self->in/
{
	self->in = 0;
}

sched:::off-cpu
/self->in && curlwpsinfo->pr_sname == 'S'/
{
	@[stack()] = count();
	@frames[stack(3)] = count();
}

END
{
	trunc(@, 1);
	trunc(@frames, 1);
}
D
) || fail "dscope failed"
echo "$out" | grep -q '^              vmlinux`do_nanosleep+0x[0-9a-f]*$' ||
	fail "no do_nanosleep frame: $out"
echo "$out" | grep -q '^              vmlinux`hrtimer_nanosleep+0x' ||
	fail "no hrtimer_nanosleep frame: $out"
echo "$out" | grep -q 'bpf_trace_run\|bpf`' && fail "tracing frames shown: $out"
[ "$(echo "$out" | grep -c '^ *10$')" = 2 ] || fail "not 10 sleeps twice: $out"
# stack(3): exactly three frames above its count
echo "$out" | tail -5 | head -4 | grep -q '^              vmlinux`__schedule+0x' ||
	fail "stack(3) does not start at __schedule: $out"
exit 0
