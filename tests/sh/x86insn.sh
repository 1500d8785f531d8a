# The x86-64 length decoder (src/obj/x86insn.c) against objdump: every
# instruction of every function of real binaries -- libc, the dynamic
# linker, libm (x87, fwait), libstdc++, libcrypto (AVX-512, SHA, AES; and
# a function with strings among its instructions, which must be
# refused), dscope itself and a -O0 test target -- must begin where
# objdump says it does (build/x86insn-check).  Binaries not installed
# are left out; without objdump the test skips.
. tests/sh/lib.sh

command -v objdump >/dev/null || { echo "objdump is not installed"; exit 77; }
L=/usr/lib/x86_64-linux-gnu
n=0
for f in $L/libc.so.6 /lib64/ld-linux-x86-64.so.2 $L/libm.so.6 $L/libstdc++.so.6 \
	 $L/libcrypto.so.3 $D $B/targets/mallocs; do
	[ -f "$f" ] || continue
	out=$(objdump -d --no-show-raw-insn "$f" | $B/x86insn-check "$f" 2>/dev/null) ||
		fail "x86insn-check $f: $out"
	echo "$out" | grep -q ' 0 differ$' || fail "$out"
	echo "$out" | grep -q ': 0 functions,' && fail "no functions read: $out"
	n=$((n + 1))
done
[ $n -ge 3 ] || fail "only $n binaries compared"
