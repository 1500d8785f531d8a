# ustack() of processes that are not the target (no -c, no -p), system-
# wide from profile-997: spinsort and spinwalk, built like Debian's libc
# without frame pointers, spin in known chains through libc until killed
# (tests/targets/spin*.c).  Their complete stacks need .eh_frame tables
# built for them while tracing (rt/unwind.c), and profile probes fire in
# interrupt context, where only the tables, not bpf_find_vma, find
# every mapping.  A frame-pointer walk (bpftrace's, or -x ustackrows=0)
# ends in spin_cmp or libc.
#
# The run ends on a count of firings, not a timer: once each process has
# had 200 stacks as deep as its chain (ustackdepth, by the same walk as
# ustack()).  Then each process must have a stack that names, in order,
# its spinning function, libc between it and its own callers, the chain
# down to main, and libc's __libc_start_call_main below main.
. tests/sh/lib.sh
cleanup() { kill $p1 $p2 2>/dev/null; wait $p1 $p2 2>/dev/null; }
trap cleanup EXIT
$B/targets/spinsort & p1=$!
$B/targets/spinwalk & p2=$!
# Without bpf_loop (5.17) or global functions (5.6) ustack() follows
# frame pointers only (cg_ustack.c, unwind_usable): these stacks end in
# libc, and the run would wait for depths it never sees.  What still
# works is checked, system-wide stacks by frame pointers, starting where
# each process was interrupted, before the skip names what is missing.
if ! $D -vV | grep -Eq '^  (bpf_loop|global_func)  *yes'; then
	out=$(timeout 300 $D -q -n "
profile-997 /pid == $p1 || pid == $p2/ { @[pid, ustack()] = count(); n++; }
profile-997 /n >= 100/ { exit(0); }" 2>&1) || fail "dscope failed ($?): $out"
	# (no offset at the loop's first instruction: under qemu's TCG,
	# where interrupts come between translated blocks, always that)
	for f in spinsort\`spin_cmp spinwalk\`spin_cb; do
		echo "$out" | grep -q "^ *$f\(+0x[0-9a-f]*\)\{0,1\}$" ||
			fail "no frame-pointer stack starting in $f: $out"
	done
	echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only (those work)"
	exit 77
fi
out=$(mktemp) err=$(mktemp)
# spinsort's full chain is 10 frames (spin_cmp, msort_with_tmp, qsort_r,
# sort_c, sort_b, sort_a, main, __libc_start_call_main, __libc_start_main,
# _start); spinwalk's 9 (dl_iterate_phdr the one libc frame between)
timeout 600 $D -q -n "
profile-997 /pid == $p1 || pid == $p2/ { @[pid, ustack()] = count(); }
profile-997 /pid == $p1 && ustackdepth >= 10/ { a++; }
profile-997 /pid == $p2 && ustackdepth >= 9/ { b++; }
profile-997 /a >= 200 && b >= 200/ { exit(0); }" >$out 2>$err ||
	fail "dscope failed ($?): $(cat $err)"
# each aggregation entry, a pid, its frames and a count, on one line:
# "pid|frame;frame;...;|count", offsets dropped
flat=$(awk 'NF == 0 { next }
	$1 ~ /^[0-9]+$/ { if (key == "") key = $1 "|"; else { print key "|" $1; key = "" }
			  next }
	{ sub(/\+0x[0-9a-f]+$/, "", $1); key = key $1 ";" }' $out)
chain() {	# pid, program, its spinning function, its chain (callee first)
	local re="^$1\\|$2\`$3;(libc\\.so\\.6\`[^;]+;)+"
	for f in $4; do re="$re$2\`$f;"; done
	re="${re}libc\\.so\\.6\`__libc_start_call_main;"
	echo "$flat" | grep -Eq "$re" ||
		fail "pid $1 ($2): no stack $3 <- libc <- $4 <- __libc_start_call_main:
$(cat $out)"
}
chain $p1 spinsort spin_cmp "sort_c sort_b sort_a main"
chain $p2 spinwalk spin_cb "walk_c walk_b walk_a main"
# what stderr may say: the stacks walked before a table was built
grep -v 'user stacks\? followed frame pointers in part: \(its\|their\) process' $err &&
	fail "unexpected complaint"
exit 0
