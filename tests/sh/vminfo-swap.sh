# vminfo:::swapin, swapout, anonpgin and anonpgout, by fbt where the
# kernel attaches fentry or kprobes: build/targets/counted writes 4096
# anonymous pages (16 MiB, each its own number) in a memory cgroup of
# 4 MiB, swapping to a RAM disk, and reads them back.  Ground truth:
# /proc/vmstat's pswpin and pswpout, which grow by the pages swapped
# (nothing else here swaps); and at least a thousand of them are the
# target's own, swapped in and out in its thread.
. tests/sh/lib.sh
T=$B/targets/counted
served_or_refused vminfo:::swapout __swap_writepage
[ -n "$DSCOPE_TEST_VM" ] || { echo "swapon only in a tests/vm guest"; exit 77; }
cg=/sys/fs/cgroup
grep -qw memory $cg/cgroup.controllers 2>/dev/null || { echo "no memory cgroup v2"; exit 77; }
[ -z "$(swapon --show --noheadings 2>/dev/null)" ] || { echo "a swap device is already on"; exit 77; }
grep -q '^Y' /sys/module/zswap/parameters/enabled 2>/dev/null &&
	{ echo "zswap is on: pages it keeps are not swapped"; exit 77; }
ramdisk 65536
mkswap /dev/ram0 >/dev/null && swapon /dev/ram0 || { echo "swapon /dev/ram0 failed"; exit 77; }
echo +memory >$cg/cgroup.subtree_control
mkdir -p $cg/dscope-swap && echo 4M >$cg/dscope-swap/memory.max
trap 'swapoff /dev/ram0; rmdir $cg/dscope-swap' EXIT
vm() { sed -n "s/^$1 //p" /proc/vmstat; }
in0=$(vm pswpin) out0=$(vm pswpout)
out=$($D -q -n '
vminfo:::swapin { @a = sum(arg0); }
vminfo:::swapout { @b = sum(arg0); }
vminfo:::anonpgin { @c = sum(arg0); }
vminfo:::anonpgout { @d = sum(arg0); }
vminfo:::swapin /pid == $target/ { @e = sum(arg0); }
vminfo:::swapout /pid == $target/ { @f = sum(arg0); }
END { printa("%@d %@d %@d %@d %@d %@d\n", @a, @b, @c, @d, @e, @f); }' \
	-c "sh -c 'echo \$\$ >$cg/dscope-swap/cgroup.procs && exec $T swap 4096'" 2>&1) ||
	fail "exit $?: $out"
in1=$(vm pswpin) out1=$(vm pswpout)
set -- $(echo "$out" | grep -v '^$')
[ "$1 $2" = "$((in1 - in0)) $((out1 - out0))" ] ||
	fail "swapin $1, swapout $2 pages; /proc/vmstat's pswpin, pswpout grew by $((in1 - in0)), $((out1 - out0))"
[ "$3 $4" = "$1 $2" ] || fail "anonpgin $3, anonpgout $4; swapin $1, swapout $2"
[ "$5" -ge 1000 ] && [ "$6" -ge 1000 ] || fail "the target's swapin $5, swapout $6: want 1000 or more"
exit 0
