# -S prints each BPF program the compile made to stderr, headed by the
# probe it serves, one instruction a line (PC, the 8 bytes, the verifier
# log's notation), then traces as usual.  -x verbose is the same.
. tests/sh/lib.sh

err=$($D -S -e -x cpu=1 -n 'syscall::getppid:entry { @ = count(); }' 2>&1 >/dev/null) ||
	fail "dscope -S -e failed: $err"
echo "$err" | grep -q '^BPF program dscope_sys_ent, for syscall:vmlinux:getppid:entry, [0-9]* instructions:$' ||
	fail "no heading naming the probe: $err"
n=$(echo "$err" | sed -n 's/.*, \([0-9]*\) instructions:$/\1/p')
# the last instruction is exit; its PC is the count less one (ld_imm64,
# two slots, prints one line: the PCs skip)
last=$(echo "$err" | grep "^[0-9]" | tail -1)
case $last in
"$(printf '%04d' $((n - 1)))  95 00 00 00 00 00 00 00  exit") ;;
*) fail "last line is not exit at pc $((n - 1)): $last" ;;
esac
echo "$err" | grep -q '  call map_lookup_elem#1$' || fail "no map lookup: $err"
# cpu=1 is the prologue's test of the CPU
echo "$err" | grep -A1 'call get_smp_processor_id#8$' | grep -q 'if r0 != 1 goto' ||
	fail "no cpu=1 test: $err"

# it runs after printing, and verbose is -S
out=$($D -q -x verbose -n 'BEGIN { printf("ran\n"); exit(0); }' 2>/tmp/disasm.$$) ||
	fail "dscope -x verbose failed"
[ "$out" = ran ] || fail "did not run: $out"
grep -q '^BPF program dscope_begin, for dtrace:::BEGIN' /tmp/disasm.$$ ||
	fail "no BEGIN program: $(cat /tmp/disasm.$$)"
rm -f /tmp/disasm.$$
exit 0
