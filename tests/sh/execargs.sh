# execargs of a process dscope did not start equals what the kernel
# shows in /proc/PID/cmdline (its NULs as spaces, the last one dropped),
# and is cut at strsize characters, as every D string.
. tests/sh/lib.sh
$B/targets/loop 1000000000 one 'two three' four &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
want=$(tr '\0' ' ' </proc/$pid/cmdline | sed 's/ $//')
[ "$want" = "$B/targets/loop 1000000000 one two three four" ] ||
	fail "cmdline is not what was run: $want"
probe="syscall::getppid:entry /pid == $pid/ { printf(\"[%s]\\n\", execargs); exit(0); }"
out=$($D -q -n "$probe" 2>&1) || fail "dscope failed: $out"
[ "$out" = "[$want]" ] || fail "execargs [$out], /proc/$pid/cmdline [$want]"
out=$($D -q -x strsize=8 -n "$probe" 2>&1) || fail "dscope failed: $out"
[ "$out" = "[${want:0:8}]" ] || fail "strsize=8: [$out], want [${want:0:8}]"
exit 0
