# The seed's question, "why am I going off CPU": at sched:::on-cpu,
# stack() is the incoming thread's, where it blocked.  The sleeper sleeps
# 20 ms ten times: one stack through do_nanosleep, ten intervals of 16 ms
# or more under it (a busy machine may stretch a sleep past its 16-33 ms bucket,
# never shorten it).
. tests/sh/lib.sh
out=$($D -q -n 'sched:::off-cpu /pid == $target/ { self->ts = timestamp; }
	sched:::on-cpu /self->ts/ { @[stack()] = quantize(timestamp - self->ts); self->ts = 0; }' \
	-c "$B/targets/sleeper" 2>&1) || fail "exit $?: $out"
echo "$out" | grep -q 'vmlinux`do_nanosleep+0x' || fail "no nanosleep stack: $out"
long=$(echo "$out" | awk '/`__schedule/ { ns = 0 } /do_nanosleep/ { ns = 1 }
	ns && $2 ~ /^\|/ && $1 >= 16777216 { n += $NF } END { print n + 0 }')
[ "$long" = 10 ] || fail "$long sleeps of 16 ms or more, not ten: $out"
exit 0
