# curcpu's cpu_chip and cpu_lgrp are the CPU's package and NUMA node as
# sysfs gives them (topology/physical_package_id, the cpuN/nodeM link),
# on every CPU a profile tick lands on, and the D library's chip, lgrp
# and pset say the same (sched.d); a CPU number past the last names no
# CPU (-1).
. tests/sh/lib.sh
out=$($D -q -n 'profile-997hz /n++ < 40/ {
	@[cpu, curcpu->cpu_chip, curcpu->cpu_lgrp] = count();
	@inl[chip == curcpu->cpu_chip && lgrp == curcpu->cpu_lgrp &&
	    pset == -1] = count(); }
	profile-997hz /n > 40/ { exit(0); }
	END { printa("%d %d %d\n", @); printa("inlines %d\n", @inl);
	    printf("none %d %d\n", xlate <cpuinfo_t *>(1 << 20)->cpu_chip,
	    xlate <cpuinfo_t *>(1 << 20)->cpu_lgrp); }') || fail "exit $?"
body=$(echo "$out" | grep -v '^none\|^inlines\|^$')
[ -n "$body" ] || fail "no ticks: $out"
echo "$out" | grep -qx 'inlines 1' || fail "chip, lgrp, pset: $out"
echo "$out" | grep -qx 'none -1 -1' || fail "CPU 1<<20: $out"
echo "$body" | while read -r c chip lgrp; do
	sys=/sys/devices/system/cpu/cpu$c
	want_chip=$(cat "$sys/topology/physical_package_id")
	want_lgrp=$(ls -d "$sys"/node[0-9]* 2>/dev/null | sed 's/.*node//')
	[ "$chip $lgrp" = "$want_chip ${want_lgrp:--1}" ] ||
		fail "cpu $c: chip $chip lgrp $lgrp, sysfs says $want_chip ${want_lgrp:--1}"
done || exit 1
exit 0
