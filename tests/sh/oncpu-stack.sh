# The seed's question, "why am I going off CPU": at sched:::on-cpu,
# stack() is the incoming thread's, where it blocked.  The sleeper sleeps
# 20 ms ten times: one stack through do_nanosleep, ten intervals in the
# 16-33 ms bucket.
. tests/sh/lib.sh
out=$($D -q -n 'sched:::off-cpu /pid == $target/ { self->ts = timestamp; }
	sched:::on-cpu /self->ts/ { @[stack()] = quantize(timestamp - self->ts); self->ts = 0; }' \
	-c "$B/targets/sleeper" 2>&1) || fail "exit $?: $out"
echo "$out" | grep -q 'vmlinux`do_nanosleep+0x' || fail "no nanosleep stack: $out"
echo "$out" | grep -Eq '^ +16777216 \|@+ +10 *$' || fail "not ten 16-33 ms sleeps: $out"
exit 0
