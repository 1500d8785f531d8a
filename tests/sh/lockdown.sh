# Kernel lockdown and capabilities (kern/lockdown.h).  dscope -vV reports
# the lockdown mode (the bracketed word of /sys/kernel/security/lockdown,
# none without the file) and the effective capabilities (CapEff of
# /proc/self/status, and one line for each capability tracing uses).
# Under a mode, what it forbids is refused before loading, in one
# sentence naming the mode, and the rest runs: with DSCOPE_LOCKDOWN, which
# pretends a mode (a host's lockdown can only be raised until reboot),
# confidentiality refuses kernel memory reads and integrity copyout(),
# while a syscall count runs under either.  (The development host runs
# in integrity: there copyout() is refused by the real mode, and
# tests/sh/copyout.sh skips.)
. tests/sh/lib.sh
out=$($D -vV) || fail "-vV failed"
# securityfs may be unmounted (as on the development host): mounted for
# the look in a mount namespace of its own, as dscope does
line=$(cat /sys/kernel/security/lockdown 2>/dev/null ||
	unshare -m sh -c 'mount -t securityfs none /sys/kernel/security &&
		cat /sys/kernel/security/lockdown' 2>/dev/null)
want=$(echo "$line" | sed -n 's/.*\[\([a-z]*\)\].*/\1/p')
want=${want:-none}
echo "$out" | grep -qx "Kernel lockdown: $want" || fail "no 'Kernel lockdown: $want': $(echo "$out" | grep -i lockdown)"
eff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
echo "$out" | grep -qx "Capabilities (CapEff $eff):" || fail "CapEff $eff not reported: $(echo "$out" | grep -i capab)"
bpf=no
[ $(( 0x$eff >> 39 & 1 )) = 1 ] && bpf=yes
echo "$out" | grep -Eq "^  cap_bpf +$bpf " || fail "cap_bpf not '$bpf': $(echo "$out" | grep cap_bpf)"
DSCOPE_LOCKDOWN=integrity $D -vV | grep -qx "Kernel lockdown: integrity (DSCOPE_LOCKDOWN)" ||
	fail "DSCOPE_LOCKDOWN not reported"

refused() {	# MODE WHAT SCRIPT [ARGS]: refused, exit 1, one sentence
	local mode=$1 what=$2 err
	shift 2
	err=$(DSCOPE_LOCKDOWN=$mode $D -q "$@" 2>&1 >/dev/null) && fail "$mode: ran: $*"
	[ "$err" = "dscope: could not enable tracing: $what, which this kernel does not allow (kernel lockdown=$mode)" ] ||
		fail "$mode: not the sentence wanted: $err"
}
kread='the program reads kernel memory (bpf_probe_read_kernel)'
write='copyout() and copyoutstr() write with bpf_probe_write_user'
refused confidentiality "$kread" -n 'BEGIN { trace(curthread->pid); exit(0); }'
refused integrity "$write" -w -n 'pid$target::fill_me:entry {
	this->p = (int *)alloca(4); *this->p = 0x64636261; copyout(this->p, arg0, 4); }' \
	-c "$B/targets/fillme"
[ "$(DSCOPE_LOCKDOWN=integrity $D -q -n 'BEGIN { trace(curthread->pid > 0); exit(0); }')" = 1 ] ||
	fail "integrity refused a kernel read"
# a system call's arguments and copyinstr() of them need no kernel read
# where the kernel has bpf_task_pt_regs (-vV: task_pt_regs)
if $D -vV | grep -Eq '^  task_pt_regs +yes'; then
	n=$(DSCOPE_LOCKDOWN=confidentiality $D -q -n 'syscall::openat:entry
		/pid == $target && copyinstr(arg1) == "/etc/ld.so.cache"/ { @ = count(); }
		END { printa("%@d\n", @); }' -c "$B/targets/loop 1") ||
		fail "confidentiality: copyinstr() refused"
	[ "$n" = 1 ] || fail "confidentiality: copyinstr() counted '$n', want 1"
fi
for mode in integrity confidentiality; do
	n=$(DSCOPE_LOCKDOWN=$mode $D -q -n 'syscall::getppid:entry /pid == $target/ { @ = count(); }
		END { printa("%@d\n", @); }' -c "$B/targets/loop 321") || fail "$mode: the syscall count failed"
	[ "$n" = 321 ] || fail "$mode: counted '$n', want 321"
done
exit 0
