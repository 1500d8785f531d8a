# -F and -x flowindent: entry and return probes drawn as a call tree, as
# dtrace(1) draws it (libdtrace's dt_flowindent): "-> func" on entry,
# "<- func" on return, two spaces deeper per call on each CPU, "=>" and
# "<=" for system calls, "| func:name" for any other probe, and a
# FUNCTION column without the ID.  build/targets/recurse 3 calls down()
# three deep, then leaf(): the tree is known.  The CPU column (the first
# four characters) is cut: which CPU ran the target is not.
. tests/sh/lib.sh

want='FUNCTION
 -> down
   -> down
     -> down
       -> leaf
        | leaf:entry                        leaf
       <- leaf
     <- down
   <- down
 <- down'
for flag in -F "-x flowindent"; do
	out=$($D $flag -s /dev/stdin -c "$B/targets/recurse 3" 2>/dev/null <<'D'
pid$target::down:entry, pid$target::down:return,
pid$target::leaf:entry, pid$target::leaf:return
{
}

pid$target::leaf:entry
{
	trace("leaf");
}
D
) || fail "dscope $flag failed"
	got=$(echo "$out" | cut -c5- | sed 's/ *$//')
	[ "$got" = "$want" ] || fail "$flag: got
$got
want
$want"
done

# system calls: => and <=, one level deep, then back
out=$($D -F -n 'syscall::getppid:entry, syscall::getppid:return /pid == $target/ {}' \
	-c "$B/targets/loop 2" 2>/dev/null) || fail "dscope -F syscall failed"
got=$(echo "$out" | cut -c5- | sed 's/ *$//')
want='FUNCTION
 => getppid
 <= getppid
 => getppid
 <= getppid'
[ "$got" = "$want" ] || fail "syscall: got
$got"
exit 0
