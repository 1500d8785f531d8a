# plockstat on tests/targets/lockers, which knows its own mutex traffic:
# N*M uncontended acquisitions, then K rounds in which a waiter's
# pthread_mutex_trylock fails and its pthread_mutex_lock surely blocks.
# For the target's mutex, dscope must count exactly N*M + 2K
# mutex-acquire (as many mutex-release), K mutex-block and K
# mutex-blocked (all acquired), arg2 of mutex-acquire summing to K, no
# mutex-error (trylock's EBUSY is none); the block-to-blocked times must
# be positive and no more than the waiters measured in pthread_mutex_lock.
. tests/sh/lib.sh
N=3 M=50 K=4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
$D -q -c "$B/targets/lockers $N $M $K" -n '
plockstat$target:::mutex-acquire { @acq[arg0] = count(); @nblk[arg0] = sum(arg2); }
plockstat$target:::mutex-release { @rel[arg0] = count(); }
plockstat$target:::mutex-block { @blk[arg0] = count(); self->t = timestamp; }
plockstat$target:::mutex-blocked /self->t/ {
	@blkd[arg0, arg1] = count(); @ns[arg0] = sum(timestamp - self->t);
	@min[arg0] = min(timestamp - self->t); self->t = 0; }
plockstat$target:::mutex-error { @err[probefunc, arg1] = count(); }
END {
	printa("acq %x %@d\n", @acq); printa("nblk %x %@d\n", @nblk);
	printa("rel %x %@d\n", @rel); printa("blk %x %@d\n", @blk);
	printa("blkd %x %d %@d\n", @blkd); printa("ns %x %@d\n", @ns);
	printa("min %x %@d\n", @min); printa("err %s %d %@d\n", @err); }' >"$out" 2>&1 ||
	{ grep -q 'could not attach pid probes' "$out" &&	# 6.1: no uprobe_multi
		{ echo "SKIP: plockstat's pid probes: $(grep -m1 'could not' "$out")"; exit 77; }
	  fail "dscope: $(cat "$out")"; }
line=$(grep '^mutex ' "$out") || fail "no line from lockers: $(cat "$out")"
read -r _ addr _ acq _ tryf _ blocks _ waited <<<"$line"
addr=${addr#0x}
[ "$acq" = $((N * M + 2 * K)) ] && [ "$tryf" = $K ] && [ "$blocks" = $K ] ||
	fail "lockers itself: $line"
val() { awk -v k="$1" -v a="$addr" '$1 == k && $2 == a { print $NF }' "$out"; }
[ "$(val acq)" = "$acq" ] || fail "mutex-acquire $(val acq), want $acq: $(cat "$out")"
[ "$(val rel)" = "$acq" ] || fail "mutex-release $(val rel), want $acq"
[ "$(val nblk)" = $K ] || fail "mutex-acquire's arg2 sums to $(val nblk), want $K"
[ "$(val blk)" = $K ] || fail "mutex-block $(val blk), want $K"
[ "$(awk -v a="$addr" '$1 == "blkd" && $2 == a && $3 == 1 { print $4 }' "$out")" = $K ] ||
	fail "mutex-blocked (acquired) not $K: $(grep blkd "$out")"
! grep -q '^err ' "$out" || fail "mutex-error fired: $(grep '^err ' "$out")"
ns=$(val ns) min=$(val min)
[ "$min" -gt 0 ] || fail "a block time of $min ns"
[ "$ns" -le "$waited" ] || fail "blocked $ns ns, more than the $waited ns lockers waited"
exit 0
