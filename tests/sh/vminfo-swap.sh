# vminfo's paging probes, in a guest (it turns swap on): build/targets/
# counted writes 4096 anonymous pages (16 MiB, each its own number) in a
# memory cgroup of 4 MiB, swapping to a RAM disk, and reads them back.
# Ground truth: /proc/vmstat, whose counters grow by what the probes
# count (nothing else here reclaims or swaps): scan by pgscan_anon and
# pgscan_file (at least, under the multi-generational LRU), dfree by pgsteal_anon and pgsteal_file, anonfree and
# fsfree by each; and where the kernel attaches fentry or kprobes, swapin
# and swapout (and their other names, pgswapin, pgswapout, anonpgin,
# anonpgout) by pswpin and pswpout, most of them in the target's thread.
. tests/sh/lib.sh
T=$B/targets/counted
[ -n "$DSCOPE_TEST_VM" ] || { echo "swapon only in a tests/vm guest"; exit 77; }
cg=/sys/fs/cgroup
grep -qw memory $cg/cgroup.controllers 2>/dev/null || { echo "no memory cgroup v2"; exit 77; }
[ -z "$(swapon --show --noheadings 2>/dev/null)" ] || { echo "a swap device is already on"; exit 77; }
grep -q '^Y' /sys/module/zswap/parameters/enabled 2>/dev/null &&
	{ echo "zswap is on: pages it keeps are not swapped"; exit 77; }
swap=""
$D -vV | grep -q "^  vminfo:::swapout  *yes" && swap='
vminfo:::swapin { @si = sum(arg0); }
vminfo:::swapout { @so = sum(arg0); }
vminfo:::pgswapin, vminfo:::anonpgin { @pi[probename] = sum(arg0); }
vminfo:::pgswapout, vminfo:::anonpgout { @po[probename] = sum(arg0); }
vminfo:::swapin /pid == $target/ { @ti = sum(arg0); }
vminfo:::swapout /pid == $target/ { @to = sum(arg0); }
END { printa("swap %@d %@d %@d %@d\n", @si, @so, @ti, @to);
	printa("%s %@d\n", @pi); printa("%s %@d\n", @po); }'
ramdisk 65536
mkswap /dev/ram0 >/dev/null && swapon /dev/ram0 || { echo "swapon /dev/ram0 failed"; exit 77; }
echo +memory >$cg/cgroup.subtree_control
mkdir -p $cg/dscope-swap && echo 4M >$cg/dscope-swap/memory.max
trap 'swapoff /dev/ram0; rmdir $cg/dscope-swap' EXIT
vm() { sed -n "s/^$1 //p" /proc/vmstat; }
snap() { echo $(($(vm pgscan_anon) + $(vm pgscan_file))) \
	$(($(vm pgsteal_anon) + $(vm pgsteal_file))) $(vm pgsteal_anon) \
	$(vm pgsteal_file) $(vm pswpin) $(vm pswpout); }
before=$(snap)
out=$($D -q -n '
vminfo:::scan { @s = sum(arg0); }
vminfo:::dfree { @d = sum(arg0); }
vminfo:::anonfree { @a = sum(arg0); }
vminfo:::fsfree { @f = sum(arg0); }
END { printa("reclaim %@d %@d %@d %@d\n", @s, @d, @a, @f); }'"$swap" \
	-c "sh -c 'echo \$\$ >$cg/dscope-swap/cgroup.procs && exec $T swap 4096'" 2>&1) ||
	fail "exit $?: $out"
after=$(snap)
set -- $before $after
want_reclaim="$(($7 - $1)) $(($8 - $2)) $(($9 - $3)) $((${10} - $4))"
want_swap="$((${11} - $5)) $((${12} - $6))"
got=$(echo "$out" | sed -n 's/^reclaim //p')
# the multi-generational LRU (6.1's lru_gen, on in Debian's 6.12) counts
# as pgscan only the pages it isolates, not every page it examines
if [ $(($(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0) & 1)) = 1 ]; then
	[ "${got#* }" = "${want_reclaim#* }" ] && [ "${got%% *}" -ge "${want_reclaim%% *}" ] ||
		fail "scan, dfree, anonfree, fsfree: $got; /proc/vmstat grew by $want_reclaim (scan at least)"
else
	[ "$got" = "$want_reclaim" ] ||
		fail "scan, dfree, anonfree, fsfree: $got; /proc/vmstat grew by $want_reclaim"
fi
[ -n "$swap" ] || exit 0
set -- $(echo "$out" | sed -n 's/^swap //p')
[ "$1 $2" = "$want_swap" ] ||
	fail "swapin $1, swapout $2 pages; /proc/vmstat's pswpin, pswpout grew by $want_swap"
[ "$3" -ge 1000 ] && [ "$4" -ge 1000 ] || fail "the target's swapin $3, swapout $4: want 1000 or more"
for p in pgswapin anonpgin; do
	echo "$out" | grep -qx "$p $1" || fail "$p is not swapin's $1: $out"
done
for p in pgswapout anonpgout; do
	echo "$out" | grep -qx "$p $2" || fail "$p is not swapout's $2: $out"
done
exit 0
