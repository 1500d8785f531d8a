# curcpu's cpu_chip and cpu_lgrp are the CPU's package and NUMA node as
# sysfs gives them (topology/physical_package_id, the cpuN/nodeM link),
# on every CPU a profile tick lands on; a CPU number past the last names
# no CPU (-1).
. tests/sh/lib.sh
out=$($D -q -n 'profile-997hz /n++ < 40/ {
	@[cpu, curcpu->cpu_chip, curcpu->cpu_lgrp] = count(); }
	profile-997hz /n > 40/ { exit(0); }
	END { printa("%d %d %d\n", @);
	    printf("none %d %d\n", xlate <cpuinfo_t *>(1 << 20)->cpu_chip,
	    xlate <cpuinfo_t *>(1 << 20)->cpu_lgrp); }') || fail "exit $?"
[ -n "$(echo "$out" | grep -v '^none\|^$')" ] || fail "no ticks: $out"
echo "$out" | grep -qx 'none -1 -1' || fail "CPU 1<<20: $out"
echo "$out" | grep -v '^none\|^$' | while read -r c chip lgrp; do
	sys=/sys/devices/system/cpu/cpu$c
	want_chip=$(cat "$sys/topology/physical_package_id")
	want_lgrp=$(ls -d "$sys"/node[0-9]* 2>/dev/null | sed 's/.*node//')
	[ "$chip $lgrp" = "$want_chip ${want_lgrp:--1}" ] ||
		fail "cpu $c: chip $chip lgrp $lgrp, sysfs says $want_chip ${want_lgrp:--1}"
done || exit 1
exit 0
