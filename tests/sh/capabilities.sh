# Capabilities instead of root: a copy of dscope given the documented
# set with setcap (cap_bpf, cap_perfmon, and cap_dac_read_search for
# tracefs, which is root's alone; cap_sys_resource too before 5.11)
# runs as nobody the one-liners of each common provider -- syscall,
# profile, tick, sched, proc, pid, usdt, sdt -- and prints what root
# prints: the tests/d scripts' own .out files, which tests/run.sh holds
# root to (kernel.perf_event_paranoid at 2 for them: see below).  The
# -c command runs with none of the copy's capabilities.  Without
# cap_dac_read_search an sdt probe is refused naming it, and without
# cap_sys_admin copyout() is.
. tests/sh/lib.sh
command -v runuser >/dev/null && command -v setcap >/dev/null ||
	{ echo "runuser or setcap not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
cp "$D" "$dir/dscope" && cp -r "$B/targets" "$dir/targets" || fail "copy"
chmod -R a+rX "$dir"
caps=cap_bpf,cap_perfmon,cap_dac_read_search memlock=""
setcap "$caps+ep" "$dir/dscope" || { echo "setcap failed here"; exit 77; }
as_nobody() { (cd "$dir" && runuser -u nobody -- ./dscope "$@"); }

# Before 5.11 the kernel charges BPF maps to RLIMIT_MEMLOCK, and only
# CAP_SYS_RESOURCE may raise it past its hard limit (libbpf raises it
# for dscope): said in one sentence; the rest runs with it added
err=$(as_nobody -q -n 'BEGIN { exit(0); }' 2>&1)
case $err in
*RLIMIT_MEMLOCK*)
	echo "$err" | grep -Eq '^dscope: this kernel charges BPF maps to the locked memory limit \(RLIMIT_MEMLOCK, [0-9]+ KiB here\): raise it \(ulimit -l unlimited\) or add the CAP_SYS_RESOURCE capability \(creating BPF map dscope_[a-z_]+: Operation not permitted\)$' ||
		fail "maps charged to RLIMIT_MEMLOCK: $err"
	memlock=,cap_sys_resource
	caps=$caps$memlock
	setcap "$caps+ep" "$dir/dscope" || fail "setcap $caps" ;;
esac

# Debian's kernel.perf_event_paranoid=3 (its default) keeps perf events
# from all but CAP_SYS_ADMIN: said in one sentence; at 2, CAP_PERFMON is
# enough, and the rest runs there
paranoid=/proc/sys/kernel/perf_event_paranoid
was=$(cat $paranoid)
if [ "$was" -gt 2 ]; then
	# (a kernel without Debian's patch takes 3 as 2)
	err=$(as_nobody -q -n 'BEGIN { exit(0); }' 2>&1) ||
	[ "$err" = "dscope: the kernel refuses perf events to this process: kernel.perf_event_paranoid is $was, which allows them to root or CAP_SYS_ADMIN only (at 2, CAP_PERFMON is enough)" ] ||
		fail "at paranoid $was: $err"
	trap 'echo $was >$paranoid; rm -rf "$dir"' EXIT
	echo 2 >$paranoid
fi

# Without uprobe_multi links (before 6.6) pid and usdt probes are uprobe
# perf events, which the kernel gives CAP_SYS_ADMIN only: said in one
# sentence; they run with it added
if ! $D -vV | grep -Eq '^  uprobe_multi +yes'; then
	err=$(as_nobody -q -n 'pid$target::count_me:entry {}' -c targets/mallocs 2>&1) &&
		fail "a pid probe ran without uprobe_multi or cap_sys_admin"
	[ "$err" = "dscope: could not attach pid probes to $dir/targets/mallocs: without uprobe_multi links, this kernel attaches them as uprobe perf events, which need root or the CAP_SYS_ADMIN capability" ] ||
		fail "pid probe without cap_sys_admin: $err"
	caps=$caps,cap_sys_admin
	setcap "$caps+ep" "$dir/dscope" || fail "setcap $caps"
fi

for t in getppid-count pid-count pid-ustack profile-fires tick-count \
	sched-sleep proc-exec-attempts proc-signal usdt-args; do
	cp "tests/d/tst.$t.d" "$dir/" && chmod a+r "$dir/tst.$t.d"
	args=$(sed -n 's/.*@@args: *\(.*\)$/\1/p' "tests/d/tst.$t.d" | head -1)
	out=$(eval as_nobody -s "tst.$t.d" "${args//\$B/$dir}" 2>&1) ||
		fail "$t as nobody: $out"
	[ "$out" = "$(cat "tests/d/tst.$t.out")" ] ||
		fail "$t as nobody: $(diff <(echo "$out") "tests/d/tst.$t.out" | head -5)"
done

# sdt (tracefs) and the command's capabilities: none (CapEff of its
# /proc/PID/status at its exit, where sched_process_exit fires)
exits='sdt:sched::sched_process_exit /pid == $target/ { @ = count(); }
	END { printa("%@d\n", @); }'
n=$(as_nobody -q -n "$exits" -c "targets/loop 3") || fail "sdt as nobody: $n"
[ "$n" = 1 ] || fail "sdt as nobody counted '$n', want 1"
eff=$(cd "$dir" && runuser -u nobody -- ./dscope -q -n 'syscall::exit_group:entry
	/pid == $target/ { exit(0); }' \
	-c "/bin/grep CapEff /proc/self/status" 2>&1)
[ "$eff" = "$(printf 'CapEff:\t0000000000000000')" ] || fail "the command ran with '$eff'"

setcap "cap_bpf,cap_perfmon$memlock+ep" "$dir/dscope"
err=$(as_nobody -q -n "$exits" -c "targets/loop 3" 2>&1) && fail "sdt ran without tracefs: $err"
echo "$err" | grep -q "does not match any probes: the kernel's tracepoints (tracefs) can be read only by root, or with the CAP_DAC_READ_SEARCH capability$" ||
	fail "sdt without cap_dac_read_search: $err"
err=$(as_nobody -w -q -n 'pid$target::fill_me:entry {
	this->p = (int *)alloca(4); copyout(this->p, arg0, 4); }' -c targets/fillme 2>&1) &&
	fail "copyout ran without cap_sys_admin"
echo "$err" | grep -q "which needs root or the CAP_SYS_ADMIN capability$" ||
	echo "$err" | grep -q "(kernel lockdown" || fail "copyout without cap_sys_admin: $err"
exit 0
