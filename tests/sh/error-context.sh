# dtrace:::ERROR runs in the firing that faulted, as DTrace's does
# (illumos dtrace_probe -> dtrace_probe_error -> dtrace_probe of the
# ERROR probe, in the same context): its pid, tid and execname are the
# faulting thread's, arg1..arg5 the fault's, and its exit() stops the
# probes before the faulting thread fires again.
. tests/sh/lib.sh
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# a syscall probe of the target: 3 faults, each ERROR in the target
out=$($D -q -c "$B/targets/loop 3" -n '
syscall::getppid:entry /pid == $target/ { x = *(int *)0x4000; }
ERROR { printf("%d %d %s %s:::%s %d %d %d %d 0x%x\n", pid == $target,
    tid == $target, execname, probeprov, probename, arg1, arg2, arg3, arg4,
    arg5); }' 2>"$err") || fail "exit $?: $out $(cat "$err")"
want=$(printf '1 1 loop dtrace:::ERROR 2 1 -1 1 0x4000\n%.0s' 1 2 3)
[ "$out" = "$want" ] || fail "syscall: got '$out', want '$want'"
[ "$(grep -c 'error on enabled probe ID 2 (ID [0-9]*: syscall:vmlinux:getppid:entry): invalid address (0x4000) in action #1' "$err")" = 3 ] ||
	fail "syscall: stderr '$(cat "$err")'"

# pid probes in a thread of the target, one of them reading user memory
# (copyinstr: a sleepable program where the kernel has them)
out=$($D -q -c "$B/targets/tinycalls 2 1" -n '
pid$target::tiny_add:entry { x = *(int *)(arg0 + 16); }
pid$target::tiny_xor:entry { trace(copyinstr(arg0 + 32)); }
ERROR { printf("%d %d %s %d %d\n", pid == $target, tid != pid, execname,
    arg4, arg5); }' 2>"$err") || fail "exit $?: $out $(cat "$err")"
want=$(printf '1 1 tinycalls 1 16\n1 1 tinycalls 1 32\n1 1 tinycalls 1 17\n1 1 tinycalls 1 33\n')
[ "$out" = "$want" ] || fail "pid: got '$out', want '$want' ($(cat "$err"))"

# exit() in ERROR: the target's next getppid() fires no probe
out=$($D -q -c "$B/targets/loop 100000" -n '
syscall::getppid:entry /pid == $target/ { @calls = count(); }
syscall::getppid:entry /pid == $target/ { x = *(int *)8; }
ERROR { exit(0); }
END { printa("calls %@d\n", @calls); }' 2>"$err") || fail "exit $?: $out $(cat "$err")"
[ "$(echo "$out" | grep .)" = "calls 1" ] || fail "exit in ERROR: got '$out'"

# an fbt probe (a kprobe or trampoline program), where there is fbt: dd
# reads a file of ours twice
if $D -vV 2>&1 | grep -q '^  kprobe  *yes'; then
	file=/var/tmp/dscope-errctx.$$
	trap 'rm -f "$err" "$file"' EXIT
	head -c 1000 /dev/zero > "$file"
	out=$($D -q -c "dd if=$file of=/dev/null bs=100 count=2 status=none" -n '
	fbt::vfs_read:entry
	/pid == $target && stringof(args[0]->f_path.dentry->d_name.name) == "'"${file##*/}"'"/
	{ x = *(int *)0x40; }
	ERROR { printf("%d %s %d 0x%x\n", pid == $target, execname, arg4, arg5); }' \
		2>"$err") || fail "exit $?: $out $(cat "$err")"
	want=$(printf '1 dd 1 0x40\n%.0s' 1 2)
	[ "$out" = "$want" ] || fail "fbt: got '$out', want '$want' ($(cat "$err"))"
fi

# BEGIN runs in dscope, so does its ERROR; a fault in an ERROR clause
# ends that clause (counted, not reported through ERROR), and the next
# ERROR clause still has the first fault's arguments
out=$(timeout 60 $D -q -n '
BEGIN { me = pid; }
BEGIN { x = *(int *)8; }
ERROR { y = *(int *)16; }
ERROR { printf("%d %s %d %d %d\n", pid == me, execname, arg2, arg4, arg5); }
BEGIN { exit(0); }' 2>"$err") || fail "exit $?: $out $(cat "$err")"
[ "$(echo "$out" | grep .)" = "1 dscope 1 1 8" ] || fail "BEGIN: got '$out'"
want="dscope: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x8) in action #1
dscope: 1 error in ERROR probe enabling"
[ "$(cat "$err")" = "$want" ] || fail "BEGIN: stderr '$(cat "$err")', want '$want'"
exit 0
