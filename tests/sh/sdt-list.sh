# The tracepoint providers as -l and -lv show them: sdt:GROUP::EVENT with
# TP_PROTO's argument types from BTF, sched and proc with DTrace's
# translated types; a tracepoint clause leaves no program behind.
. tests/sh/lib.sh

out=$($D -lv -n sdt:sched::sched_switch) || fail "-lv sdt:sched::sched_switch"
echo "$out" | grep -q ' sdt  *sched  *sched_switch$' || fail "sched_switch row: $out"
# prev_state, the fourth, came in 5.18: the kernel's own BTF says whether
# its TP_PROTO has it
args3="args\[3\]: unsigned int"
command -v bpftool >/dev/null &&
	! bpftool btf dump file /sys/kernel/btf/vmlinux format c |
	  grep -q 'btf_trace_sched_switch)(.*, unsigned int);' && args3=
for a in "args\[0\]: bool" "args\[1\]: struct task_struct \*" \
	 "args\[2\]: struct task_struct \*" "$args3"; do
	[ -z "$a" ] || echo "$out" | grep -q "$a" || fail "sched_switch lacks $a"
done
out=$($D -lv -n sched:::off-cpu) || fail "-lv sched:::off-cpu"
echo "$out" | grep -q 'args\[0\]: lwpsinfo_t \*' || fail "off-cpu args[0]: $out"
echo "$out" | grep -q 'args\[1\]: psinfo_t \*' || fail "off-cpu args[1]: $out"
# Each probe of the providers is listed, or, where this kernel lacks its
# tracepoint, refused with the sentence that names it; nothing else.
offered() {	# PROVIDER NAME...: the ones listed, in order
	local prov=$1 p err
	shift
	for p in "$@"; do
		if err=$($D -l -n "$prov:::$p" 2>&1 >/dev/null); then
			echo "$p"
		else
			echo "$err" | grep -qE "$prov:::$p needs (the [a-z_]* tracepoint, which this kernel does not have|fbt on [a-z_]*, and this kernel attaches neither fentry nor kprobes)\$" ||
				fail "$prov:::$p: $err"
		fi
	done
}
want=$(offered proc create exec exec-failure exec-success exit lwp-create \
	lwp-exit lwp-start signal-handle signal-send start \
	fault signal-clear signal-discard)
[ "$($D -l -P proc | awk 'NR > 1 { print $NF }')" = "$want" ] ||
	fail "proc lists $($D -l -P proc), want $want"
# then those served by other events (prov/derived.c), made after
want=$(offered sched off-cpu on-cpu preempt remain-cpu sleep wakeup \
	change-pri dequeue enqueue surrender tick)
[ "$($D -l -P sched | awk 'NR > 1 { print $NF }')" = "$want" ] ||
	fail "sched lists $($D -l -P sched), want $want"
if [ -n "$(offered io start)" ]; then
	out=$($D -lv -n io:::start) || fail "-lv io:::start"
	for a in "args\[0\]: bufinfo_t \*" "args\[1\]: devinfo_t \*" \
		 "args\[2\]: fileinfo_t \*"; do
		echo "$out" | grep -q "$a" || fail "io:::start lacks $a"
	done
fi
# events that are not tracepoints (syscalls:sys_enter_*) are not sdt probes
[ "$($D -l -n 'sdt:syscalls::' 2>/dev/null | grep -c ' sdt ')" = 0 ] ||
	fail "sdt:syscalls:: matched"

if command -v bpftool >/dev/null && [ "$(dscope_progs)" = 0 ]; then
	$D -q -n 'sdt:sched::sched_switch { @ = count(); } tick-50ms { exit(0); }' \
		>/dev/null || fail "sdt clause run"
	no_progs_left || fail "programs left after an sdt clause"
fi
exit 0
