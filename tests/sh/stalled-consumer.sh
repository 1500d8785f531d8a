# A stalled consumer: dscope stopped (SIGSTOP: a debugger, a starved
# container) while the kernel goes on firing.  The -c shell stops its
# parent, dscope, after the first 100000 getppid() calls, makes 200000
# more from two processes at once (one for each CPU) and waits 5 s, all
# while dscope is stopped, then resumes it (SIGCONT) and makes 100000
# more: N = 400000, each printed with its process's own count.  What the
# rings could not hold while dscope slept is lost, but counted: lines
# printed and drops reported add up to N exactly, no line is printed
# twice, and count() -- in the kernel, untouched by the stall -- is N.
# Nothing depends on how long the stop lasts or how fast the consumer
# drains: with no drop at all the sums are the same.
. tests/sh/lib.sh
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
n=400000
$D -q -n '
	syscall::getppid:entry /ppid == $target && execname == "loop"/ {
		printf("%d %d\n", pid, ++self->n);
		@ = count();
	}
	END { printa("count %@d\n", @); }' \
	-c "sh -c '$B/targets/loop 100000
		kill -STOP \$PPID
		$B/targets/loop 100000 & $B/targets/loop 100000; wait
		sleep 5
		kill -CONT \$PPID
		$B/targets/loop 100000'" >"$out" 2>"$err" || fail "exit $?: $(head -3 "$err")"
check_accounting $n "$out" "$err" '^[0-9]* [0-9]*$'
other=$(grep -v -E '^([0-9]+ [0-9]+|count [0-9]+|)$' "$out" | head -3)
[ -z "$other" ] || fail "malformed output: $other"
echo "$accounted"
exit 0
