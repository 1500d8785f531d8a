# A traced program whose own ELF file is damaged three ways
# (tests/tools/corrupt_elf.py): its .symtab runs past the end of the
# file, an .eh_frame entry runs past its section, and the stapsdt note of
# neg__arg has unterminated strings.  dscope says each in one sentence,
# once, traces the rest and exits 0.  Ground truth: usdtprog 100 fires
# usdtprog:::fire 100 times, and the stack of one firing reaches main's
# caller in libc (libc's .eh_frame is intact); the intact file draws no
# warning.
. tests/sh/lib.sh
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 tests/tools/corrupt_elf.py "$B/targets/usdtprog" "$T/usdtprog" >/dev/null ||
	fail "could not make the damaged copy"
"$T/usdtprog" 3 >/dev/null || fail "the damaged copy does not run"

script='usdtprog$target:::fire { @fires = count(); }
usdtprog$target:::fire /arg0 == 99/ { @stack[ustack()] = count(); }'
run() {	# run EXE: dscope's stdout and stderr, and its exit status last
	$D -q -n "$script" -c "$1 100" >"$T/out" 2>"$T/err"
	echo "exit $?" >>"$T/out"
}

run "$B/targets/usdtprog"
grep -q 'warning' "$T/err" && fail "intact file warned: $(cat "$T/err")"

run "$T/usdtprog"
out=$(cat "$T/out") err=$(cat "$T/err")
echo "$out" | grep -q '^exit 0$' || fail "exit status: $out; stderr: $err"
echo "$out" | grep -qx ' *100' || fail "fire count is not 100: $out"
echo "$out" | grep -q 'libc.so.6`__libc_start_main+0x' ||
	fail "the stack does not reach libc: $out"
[ "$(grep -c 'warning' "$T/err")" = 3 ] || fail "not three warnings: $err"
for want in \
	"$T/usdtprog: its symbol table (section [0-9]*, [0-9]* bytes at offset [0-9]*) cannot be read (it runs past the end of the file); names come from its debug file or .dynsym instead" \
	"$T/usdtprog: the stapsdt note at offset [0-9]* of section [0-9]* is malformed (its provider, name and arguments are not three terminated strings); its probe site is left out" \
	"$T/usdtprog: its .eh_frame is malformed at offset [0-9]*; stacks through the functions it describes from there on follow frame pointers"; do
	[ "$(grep -c "^dscope: warning: $want\$" "$T/err")" = 1 ] ||
		fail "not said once: $want
stderr: $err"
done
exit 0
