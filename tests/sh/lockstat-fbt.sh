# lockstat's acquire and release probes, which no tracepoint shows: served
# by fbt on the kernel's mutex and rw_semaphore calls (the acquisitions at
# their returns) where the kernel attaches fentry or kprobes, against
# build/targets/counted.
. tests/sh/lib.sh
T=$B/targets/counted
# on every kernel: the probes Linux cannot offer are refused, saying why
err=$($D -n 'lockstat:::spin-acquire {}' 2>&1) && fail "spin-acquire compiled"
echo "$err" | grep -q 'lockstat:::spin-acquire is not offered: fbt on the spinlock calls' ||
	fail "spin-acquire: $err"
served_or_refused lockstat:::adaptive-acquire mutex_lock
# 30 one-byte writes to a pipe, each read back: inside those calls the
# pipe's mutex, and no other, is taken and released 60 times, in the
# calling thread, the lock a struct mutex
out=$($D -q -n '
syscall::read:entry, syscall::write:entry /pid == $target/ { self->in = 1; }
syscall::read:return, syscall::write:return /self->in/ { self->in = 0; }
lockstat:::adaptive-acquire /self->in/ { @a[args[0]] = count(); first = arg0; }
lockstat:::adaptive-release /self->in/ { @r[args[0]] = count(); @same = sum(arg0 == first); }
END { printa("acquire %@d\n", @a); printa("release %@d\n", @r); printa("same %@d\n", @same); }' \
	-c "$T pipe 30" 2>&1) || fail "exit $?: $out"
want="acquire 60
release 60
same 60"
[ "$(echo "$out" | grep -v '^$')" = "$want" ] || fail "adaptive: got
$out
want
$want"
# 25 mprotect() calls (of its page at 0x5ca1ab1e000, not the dynamic
# linker's): the mm's mmap_lock taken for writing and released 25 times,
# args[1] RW_WRITER
out=$($D -q -n '
syscall::mprotect:entry /pid == $target && arg0 == 0x5ca1ab1e000/ { self->in = 1; }
syscall::mprotect:return /self->in/ { self->in = 0; }
lockstat:::rw-acquire, lockstat:::rw-release
/self->in && args[0] == &curthread->mm->mmap_lock/
{ @[probename, args[1] == RW_WRITER ? "writer" : "reader"] = count(); }
END { printa("%s %s %@d\n", @); }' -c "$T mprotect 25" 2>&1) || fail "exit $?: $out"
want="rw-acquire writer 25
rw-release writer 25"
[ "$(echo "$out" | grep -v '^$' | sort)" = "$want" ] || fail "rw: got
$out
want
$want"
exit 0
