# -x record and -x replay: one script run live while recording, then
# again over the trace, prints the same answer -- exact counts of a
# known workload: loop N calls getppid N times, `counted ignored N`
# sends itself N SIGUSR2s with kill() (who killed this process),
# `counted sleep N` sleeps N times (off-CPU time by process, through
# self-> variables), and every system call of theirs by process.  babeltrace2, a reader that
# is not dscope's, reads the trace: one line per event dscope says it
# recorded.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the workload under names of its own: other tests may run loop meanwhile
l=rl$$ k=rk$$
cp "$B/targets/loop" "$dir/$l"
cp "$B/targets/counted" "$dir/$k"
cat > "$dir/who.d" <<'D'
syscall::getppid:entry /execname == $$1/ { @calls[execname, probefunc] = count(); }
syscall::getppid:return /execname == $$1 && errno == 0/ { @ok[execname] = count(); }
syscall::kill:entry /execname == $$2/ { @kills[execname, arg1] = count(); }
syscall:::entry /execname == $$1 || execname == $$2/ { @sys[execname, probefunc] = count(); }
syscall::clock_nanosleep:entry, syscall::nanosleep:entry /execname == $$2/ { @sleeps[execname] = count(); }
sched:::off-cpu /execname == $$2/ { self->ts = timestamp; }
sched:::on-cpu /self->ts/ { @offs[execname] = count(); @offns[execname] = sum(timestamp - self->ts); self->ts = 0; }
END {
	printa("%s %s %@d\n", @calls); printa("%s %@d\n", @ok); printa("%s kill %d %@d\n", @kills);
	printa("%s sleeps %@d\n", @sleeps); printa("%s off-cpu %@d times %@d ns\n", @offs, @offns);
}
D
live=$($D -q -x record="$dir/t" -s "$dir/who.d" \
	-c "sh -c '$dir/$l 700; $dir/$k ignored 40; $dir/$k sleep 50'" $l $k 2>"$dir/err") ||
	fail "recording exit $?: $(cat "$dir/err")"
n=$(recorded_count "$dir/err") || exit 1
echo "$live" | grep -qx "$l getppid 700" || fail "live: want $l getppid 700: $live"
echo "$live" | grep -qx "$l 700" || fail "live: want 700 returns without errno: $live"
echo "$live" | grep -qx "$k kill 12 40" || fail "live: want 40 kills with SIGUSR2: $live"
echo "$live" | grep -qx "$k sleeps 50" || fail "live: want 50 sleeps: $live"
echo "$live" | grep -q "^$k off-cpu [1-9][0-9]* times [1-9][0-9]* ns$" || fail "live: no off-CPU time: $live"
[ -f "$dir/t/.dscope-complete" ] || fail "a finished recording is not marked complete"

# the same script over the trace: the same output, to the byte
replayed=$($D -q -x replay="$dir/t" -s "$dir/who.d" $l $k 2>"$dir/err2") ||
	fail "replay exit $?: $(cat "$dir/err2")"
same_as_live "$live" "$replayed"
[ -s "$dir/err2" ] && fail "replay of a complete trace said: $(cat "$dir/err2")"

# exit() stops the replay where it stops a live run: no firing after it
out=$($D -q -x replay="$dir/t" -n "syscall::getppid:entry /execname == \"$l\"/ { @ = count(); }
	syscall::getppid:entry /execname == \"$l\" && ++n == 100/ { exit(0); }" 2>&1) ||
	fail "replay with exit(): $out"
echo "$out" | grep -Eqx ' +100' || fail "replay went on after exit(): $out"

# a reader that is not dscope's reads every event
bt=$(babeltrace2 "$dir/t" 2>"$dir/bterr" | wc -l) || fail "babeltrace2: $(cat "$dir/bterr")"
[ "$bt" = "$n" ] || fail "babeltrace2 read $bt events, dscope recorded $n"
babeltrace2 "$dir/t" | grep -q "syscall:vmlinux:kill:entry: .*execname = \"$k\" }, { arg0 = [0-9]*, arg1 = 12 }$" ||
	fail "babeltrace2 shows no kill(pid, SIGUSR2) by $k"
echo "live = replay: $l getppid 700, $k kill 12 x40, $k sleeps 50, $(echo "$live" | grep off-cpu); babeltrace2 read $bt of $n events"
exit 0
