# copyout() with -w writes into the traced process: fill_me(buf) gets
# "abcd" copied over its zeroed buffer, which the target then prints.
# Kernels in lockdown (integrity or stricter) refuse bpf_probe_write_user
# to every program: dscope must then say so in a sentence, exit 1 and
# leave the target untouched -- and this test can only skip the rest.
. tests/sh/lib.sh
err=$(mktemp)
out=$($D -q -w -n 'pid$target::fill_me:entry {
	this->p = (int *)alloca(4); *this->p = 0x64636261; copyout(this->p, arg0, 4); }' \
	-c "$B/targets/fillme" 2>"$err"); rc=$?
if grep -q 'which this kernel does not allow (kernel lockdown[=a-z]*)$' "$err"; then
	[ $rc = 1 ] || fail "refused with exit $rc"
	! grep -q 'verifier log' "$err" || fail "a verifier log instead of the reason"
	rm -f "$err"
	echo "this kernel refuses bpf_probe_write_user (lockdown): copyout not run"
	exit 77
fi
[ $rc = 0 ] || fail "exit $rc: $(cat "$err")"
[ "$out" = 6162636400000000 ] || fail "the target saw $out, want 6162636400000000"
rm -f "$err"
exit 0
