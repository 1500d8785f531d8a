# dscope -vV lists D's tables after the kernel's capabilities: every
# function DTrace defines (src/d/funcs.c) with its kind, prototype and what
# dscope does with it, and every option (src/spec/options.c).  A function
# dscope refuses says the sentence a script calling it gets.
. tests/sh/lib.sh
out=$($D -vV) || fail "-vV exits $?"
row() { echo "$out" | grep -Eq "$1" || fail "-vV lacks a row like: $1"; }
row '^  strlen +subroutine +size_t\(const char \*\) +yes$'
row '^  printf +action +void\(string, \.\.\.\) +yes$'
row '^  system +destructive action +void\(@, \.\.\.\) +yes$'
row '^  copyout +destructive subroutine '
row '^  llquantize +aggregating +void\(@, int32_t, int32_t, int32_t, int32_t, \.\.\.\) +yes$'
row '^  getmajor +subroutine +dev_t\(dev_t\) +linux: '
row '^  panic +destructive action +void\(\) +no: \[D_UNSUPPORTED\] panic\( \) is not available on Linux'
row '^  msgsize +subroutine .* no: \[D_FUNC_UNDEF\] unimplemented subroutine: msgsize$'
row '^  evaltime +exec\|preinit\|postinit\|main +yes$'
row '^  libdir +no: .*\(command line only\)$'
# the sentence is the one a script gets
$D -n 'BEGIN { trace(msgsize(0)); }' 2>&1 | grep -q 'unimplemented subroutine: msgsize' ||
	fail "msgsize( ) is not refused with its row's sentence"
exit 0
