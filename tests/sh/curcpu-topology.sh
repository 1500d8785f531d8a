# curcpu's cpu_chip and cpu_lgrp are the CPU's package and NUMA node as
# sysfs gives them (topology/physical_package_id, the cpuN/nodeM link),
# on every CPU a profile tick lands on, and the D library's chip, lgrp
# and pset say the same (sched.d); a CPU number past the last names no
# CPU (-1).  cpu_info is psrinfo's: online (P_ONLINE, 2), the machine
# uname names, "i387 compatible" on x86, and the clock /proc/cpuinfo
# gives in MHz.
. tests/sh/lib.sh
out=$($D -q -n 'profile-997hz /n++ < 40/ {
	@[cpu, curcpu->cpu_chip, curcpu->cpu_lgrp] = count();
	@info[cpu, curcpu->cpu_info.pi_state, curcpu->cpu_info.pi_clock,
	    curcpu->cpu_info.pi_processor_type,
	    curcpu->cpu_info.pi_fputypes] = count();
	@inl[chip == curcpu->cpu_chip && lgrp == curcpu->cpu_lgrp &&
	    pset == -1] = count(); }
	profile-997hz /n > 40/ { exit(0); }
	END { printa("%d %d %d\n", @); printa("inlines %d\n", @inl);
	    printa("info %d %d %d %s %s\n", @info);
	    printf("none %d %d\n", xlate <cpuinfo_t *>(1 << 20)->cpu_chip,
	    xlate <cpuinfo_t *>(1 << 20)->cpu_lgrp); }') || fail "exit $?"
body=$(echo "$out" | grep -v '^none\|^inlines\|^info\|^$')
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
echo "$out" | grep -q '^info ' || fail "no cpu_info: $out"
fpu=; case $(uname -m) in *86*) fpu=' i387 compatible' ;; esac
echo "$out" | sed -n 's/^info //p' | while read -r c state mhz rest; do
	want=$(awk -v c=$c '$1 == "processor" { p = $3 }
		p == c && /^cpu MHz/ { printf "%d", $4 + 0.5; exit }' /proc/cpuinfo)
	[ "$state $mhz $rest" = "2 ${want:-0} $(uname -m)$fpu" ] ||
		fail "cpu $c: cpu_info $state $mhz $rest, want 2 ${want:-0} $(uname -m)$fpu"
done || exit 1
exit 0
