# bufpolicy=ring and fill, on a process numbering its 1000 getppid()
# calls, pinned to one CPU so that one principal buffer sees them all:
#   ring  only the newest records survive: a contiguous run ending at 1000
#         (printed when tracing stops), fewer than 1000 of them;
#   fill  only the first: a contiguous run from 1, fewer than 1000, then
#         END's line (room is kept for it), a notice that the buffer
#         filled, and exit status 0.
# Counts depend only on bufsize and the record sizes, never on timing.
. tests/sh/lib.sh
script='syscall::getppid:entry /pid == $target/ { printf("%d\n", ++i); }'
contiguous() { awk -v first="$1" -v last="$2" '
	NR == 1 && first != "" && $1 != first { exit 1 }
	NR > 1 && $1 != prev + 1 { exit 1 }
	{ prev = $1; n++ }
	END { if (n == 0 || n >= 1000 || (last != "" && prev != last)) exit 1 }'; }

out=$($D -q -x bufpolicy=ring -x bufsize=1k -n "$script" \
	-c "taskset -c 0 $B/targets/loop 1000" 2>/dev/null) || fail "ring: exit $?"
echo "$out" | grep -v '^$' | contiguous "" 1000 ||
	fail "ring: not a contiguous run ending at 1000: $(echo "$out" | head -3)"

err=$(mktemp)
out=$($D -x bufpolicy=fill -x bufsize=1k -n "$script END { printf(\"end\\n\"); }" \
	-c "taskset -c 0 $B/targets/loop 1000" 2>"$err") || fail "fill: exit $?"
body=$(echo "$out" | sed -n 's/^.*getppid:entry \([0-9]*\)$/\1/p')
echo "$body" | contiguous 1 "" || fail "fill: not a contiguous run from 1: $(echo "$body" | tail -3)"
echo "$out" | grep -q ':END end$' || fail "fill: no END output: $(echo "$out" | tail -3)"
grep -q '^dscope: principal buffer filled: tracing stopped (bufpolicy=fill)$' "$err" ||
	fail "fill: not said: $(cat "$err")"
! grep -q 'drop' "$err" || fail "fill: refused records reported as drops: $(cat "$err")"
rm -f "$err"
exit 0
