# -x oformat=folded: stack aggregations as "root;...;leaf value" lines.
# 1. mallocs (alloc_small mallocs 300 times, alloc_big 7) under
#    @[ustack()] = count() gives exactly two lines, each ending in
#    main;alloc_X;malloc and its count.
# 2. Other keys lead, and user and kernel frames make one line, user
#    first: loop's 100 getppid() calls keyed by execname, stack() and
#    ustack() (in that order) are one line "loop;...main;...;<kernel
#    frames> 100".
# 3. An aggregation that cannot be stacks is left out and said so; a
#    printf's text goes to stderr, the output stays folded.
. tests/sh/lib.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

$D -q -x oformat=folded -n 'pid$target::malloc:entry { @[ustack()] = count(); }' \
	-c $B/targets/mallocs >"$dir/out" 2>"$dir/err" || fail "exit $?: $(cat "$dir/err")"
[ "$(wc -l <"$dir/out")" = 2 ] || fail "want two lines: $(cat "$dir/out")"
grep -q ';main;alloc_small;malloc 300$' "$dir/out" || fail "no alloc_small line: $(cat "$dir/out")"
grep -q ';main;alloc_big;malloc 7$' "$dir/out" || fail "no alloc_big line: $(cat "$dir/out")"

$D -q -x oformat=folded -n 'syscall::getppid:entry /pid == $target/ {
	@[execname, stack(), ustack()] = count(); @q = quantize(1); printf("firing\n"); }' \
	-c "$B/targets/loop 100" >"$dir/out" 2>"$dir/err" || fail "exit $?: $(cat "$dir/err")"
[ "$(wc -l <"$dir/out")" = 1 ] || fail "want one line: $(cat "$dir/out")"
line=$(cat "$dir/out")
case $line in
loop\;*\;main\;*do_syscall_64*\ 100) ;;
*) fail "want loop;...;main;...;do_syscall_64... 100, got: $line" ;;
esac
[ "$(grep -c '^firing$' "$dir/err")" = 100 ] || fail "printf's text not on stderr: $(head "$dir/err")"
grep -q 'oformat=folded: @q is left out: it is not keyed by stack() or ustack()' "$dir/err" ||
	fail "@q not said to be left out: $(grep -v firing "$dir/err")"
exit 0
