# Options that change what a probe records.
# - ustackframes: ustack()'s depth when it names none; ustack(n) still
#   wins.  build/targets/recurse 6 calls leaf() under six frames of down(),
#   so the full stack has leaf, 6 x down, main and libc's start frames.
# - stackframes and maxframes: stack()'s depth, and a cap on any stack.
# - cpu=N: probes fire on CPU N only.  The loop target, pinned to one CPU
#   by taskset, makes its 300 getppid() calls there: cpu= that CPU counts
#   300, cpu= another counts 0.
. tests/sh/lib.sh

frames() {	# options... : the frames of the one ustack() printed at leaf()
	$D -q "$@" -c "$B/targets/recurse 6" |
		grep -c '^ *recurse`\|^ *libc' || true
}
full=$($D -q -n 'pid$target::leaf:entry { ustack(); }' -c "$B/targets/recurse 6" |
	grep -c '^ *recurse`down')
[ "$full" = 6 ] || fail "ustack() at leaf() shows $full down() frames, not 6"
n=$(frames -x ustackframes=4 -n 'pid$target::leaf:entry { ustack(); }')
[ "$n" = 4 ] || fail "ustackframes=4 gave $n frames"
n=$(frames -x ustackframes=4 -n 'pid$target::leaf:entry { ustack(2); }')
[ "$n" = 2 ] || fail "ustack(2) under ustackframes=4 gave $n frames"
n=$(frames -x maxframes=3 -n 'pid$target::leaf:entry { ustack(); }')
[ "$n" = 3 ] || fail "maxframes=3 gave $n frames"
n=$(frames -n '#pragma D option ustackframes=5
pid$target::leaf:entry { ustack(); }')
[ "$n" = 5 ] || fail "#pragma D option ustackframes=5 gave $n frames"

# a kernel stack: the sleeper's nanosleep is more than 2 frames deep
kframes() {
	$D -q "$@" -n 'sched:::off-cpu
	    /pid == $target && curlwpsinfo->pr_sname == '"'S'"'/
	    { @[stack()] = count(); }' -c "$B/targets/sleeper" | grep -c '`' || true
}
n=$(kframes -x stackframes=2)
[ "$n" = 2 ] || fail "stackframes=2 gave $n kernel frames"
[ "$(kframes)" -gt 2 ] || fail "stack() without stackframes is not deeper than 2"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || { echo "one CPU: cpu= cannot be told from no option"; exit 77; }
count() {	# cpu-to-trace cpu-to-run-on
	$D -q -x cpu="$1" -n 'syscall::getppid:entry /pid == $target/ { n++; }
	    END { printf("%d\n", n); }' -c "taskset -c $2 $B/targets/loop 300"
}
[ "$(count 1 1)" = 300 ] || fail "cpu=1, run on 1: $(count 1 1)"
[ "$(count 0 1)" = 0 ] || fail "cpu=0, run on 1: $(count 0 1)"
[ "$(count 0 0)" = 300 ] || fail "cpu=0, run on 0: $(count 0 0)"
out=$($D -x cpu="$ncpu" -n BEGIN 2>&1) && fail "cpu=$ncpu accepted"
echo "$out" | grep -q 'cpu' || fail "cpu=$ncpu: $out"
exit 0
