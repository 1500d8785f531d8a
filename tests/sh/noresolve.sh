# noresolve: stacks, usym() and sym()-like output print addresses, not
# names, as DTrace does.  The same ustack() at leaf() of
# build/targets/recurse 2 without it names recurse`leaf and down.
. tests/sh/lib.sh

prog='pid$target::leaf:entry { ustack(3); trace(usym(ucaller)); printf("\n"); }'
named=$($D -q -n "$prog" -c "$B/targets/recurse 2") || fail "dscope failed"
echo "$named" | grep -q '^ *recurse`leaf$' || fail "no recurse\`leaf: $named"
echo "$named" | grep -q '^recurse`down$' || fail "usym is not recurse\`down: $named"
raw=$($D -q -x noresolve -n "$prog" -c "$B/targets/recurse 2") || fail "dscope failed"
[ "$(echo "$raw" | grep -c '^ *0x[0-9a-f]*$')" = 4 ] ||
	fail "not 3 frames and usym() as addresses: $raw"
echo "$raw" | grep -q '`' && fail "a name under noresolve: $raw"

# kernel stacks too
k=$($D -q -x noresolve -n 'sched:::off-cpu
    /pid == $target && curlwpsinfo->pr_sname == '"'S'"'/ { @[stack(3)] = count(); }' \
	-c "$B/targets/sleeper") || fail "dscope failed"
# The sleeper may leave the CPU from more than one kernel path (on 6.1 a
# second stack shows), so each stack must be three kernel addresses and
# nothing may be named.
frames=$(echo "$k" | grep -c '^ *0xffff[0-9a-f]*$')
[ "$frames" -ge 3 ] && [ $((frames % 3)) = 0 ] || fail "kernel stack: $k"
echo "$k" | grep -q '`' && fail "a kernel name under noresolve: $k"
exit 0
