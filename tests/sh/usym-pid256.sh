# A process whose pid is a multiple of 256 (its low byte 0) is named like
# any other: usym()/ufunc()/umod()/uaddr() keys and ustack() keys carry
# the pid first, and a key copy once took that 0 byte for an empty
# string's and zeroed the pid (1 run in 256 printed hex: issue 12).
# ns_last_pid is set so that the -c child lands on a multiple of 256: the
# child is the off-th process forked after it (the shell's and dscope's
# forks; off is learnt from each try), unless something else on the
# machine forks meanwhile: then it tries again.
. tests/sh/lib.sh
last=/proc/sys/kernel/ns_last_pid
[ -w $last ] || { echo "no writable $last (not root in the initial pid namespace)"; exit 77; }
script='pid$target::leaf:entry {
	@f[ufunc(ucaller)] = count(); @m[umod(ucaller)] = count();
	@a[uaddr(ucaller)] = count(); @s[ustack(2)] = count();
}
END { printf("target %d\n", $target); printa("f %A %@d\n", @f);
	printa("m %A %@d\n", @m); printa("a %A %@d\n", @a); printa(@s); }'
off=2
for try in $(seq 20); do
	next=$(( ($(cat $last) / 256 + 2) * 256 ))
	[ $next -lt $(cat /proc/sys/kernel/pid_max) ] || next=512
	set=$((next - off))
	echo $set >$last
	out=$($D -q -n "$script" -c $B/targets/callsites 2>&1) || fail "dscope failed: $out"
	pid=$(echo "$out" | sed -n 's/^target //p')
	[ -n "$pid" ] || fail "no target pid: $out"
	[ $((pid % 256)) = 0 ] || { off=$((pid - set)); continue; }
	want="f callsites\`caller 12
m callsites 12
a callsites\`caller+0x22 5
a callsites\`caller+0x42 7"
	got=$(echo "$out" | grep -E '^(f|m|a) ')
	[ "$got" = "$want" ] || fail "pid $pid: keys not named:
$out"
	# each ustack(2) row: leaf, then the caller, by name
	[ "$(echo "$out" | grep -c '^ *callsites`leaf$')" = 2 ] &&
	[ "$(echo "$out" | grep -c '^ *callsites`caller+0x[0-9a-f]*$')" = 2 ] ||
		fail "pid $pid: ustack() rows not named:
$out"
	exit 0
done
echo "20 tries and no -c command got a pid that is a multiple of 256 (the machine forks too much)"
exit 77
