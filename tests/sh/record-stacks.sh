# Stacks recorded with the firing: a recording clause that asks for
# stack() and ustack() keeps both, and the replay's stack() and ustack()
# give them back, named as the recorder named them while the process
# lived (the process is gone by the replay).  The workload: `counted
# lseek 7 100` calls lseek() 7 times from main, so each aggregation has
# one stack, counted 7, live and replayed alike.  The trace defines each
# stack once (2 definitions: one kernel, one user stack), babeltrace2
# reads it, and its events name the stacks by id.  Then the names: the
# replay takes them from the trace, not from this machine -- a frame
# renamed in the trace is printed renamed.  Last, stack() and ustack()
# as actions at sched:::off-cpu, live and replayed alike.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
c=sk$$		# a name of its own: other tests may run counted meanwhile
cp "$B/targets/counted" "$dir/$c"
cat > "$dir/stacks.d" <<'D'
syscall::lseek:entry /execname == $$1/ { @k[stack()] = count(); @u[ustack()] = count(); }
END { printa(@k); printa(@u); }
D
live=$($D -q -x record="$dir/t" -s "$dir/stacks.d" -c "$dir/$c lseek 7 100" $c 2>"$dir/err") ||
	fail "recording exit $?: $(cat "$dir/err")"
n=$(recorded_count "$dir/err") || exit 1
grep -q "^dscope: recorded $n events to $dir/t (2 of them stack definitions)$" "$dir/err" ||
	fail "want 2 stack definitions said: $(cat "$dir/err")"
# one kernel stack in the syscall's entry path, one user stack from
# main through libc's lseek, each counted 7
echo "$live" | grep -q "^ *vmlinux\`[a-z_0-9]*+0x[0-9a-f]*$" || fail "live: no kernel frame: $live"
# without bpf_loop (before 5.17) ustack() follows frame pointers only
# (cg_ustack.c), and libc's lseek64 keeps none: main is skipped, live
# and replayed alike
if $D -vV | grep -q '^  bpf_loop  *yes'; then
	echo "$live" | grep -q "^ *$c\`main+0x[0-9a-f]*$" || fail "live: no $c\`main frame: $live"
fi
echo "$live" | grep -q "^ *libc[.a-z0-9-]*\`\(__\)\{0,1\}lseek\(64\)\{0,1\}+0x[0-9a-f]*$" ||
	fail "live: no libc lseek frame: $live"
[ "$(echo "$live" | grep -cx ' *7')" = 2 ] || fail "live: want two stacks counted 7: $live"

replayed=$($D -q -x replay="$dir/t" -s "$dir/stacks.d" $c 2>"$dir/err2") ||
	fail "replay exit $?: $(cat "$dir/err2")"
same_as_live "$live" "$replayed"

bt=$(babeltrace2 "$dir/t" 2>"$dir/bterr" | wc -l) || fail "babeltrace2: $(cat "$dir/bterr")"
[ "$bt" = "$n" ] || fail "babeltrace2 read $bt events, dscope recorded $n"
nd=$(babeltrace2 "$dir/t" | grep -c 'dscope:::stack: .* stack_id = [12], user = [01], nframes = [1-9]')
ne=$(babeltrace2 "$dir/t" | grep -c "lseek:entry: .*execname = \"$c\" }, { arg0 = .*, stack_id = 1, ustack_id = 2 }$")
babeltrace2 "$dir/t" | grep 'dscope:::stack: .* user = 1, .*frames = "libc[^;]*`[_a-z0-9]*lseek' >/dev/null ||
	fail "babeltrace2: no user stack definition naming libc's lseek: $(babeltrace2 "$dir/t" | grep dscope:::stack)"
[ "$nd" = 2 ] && [ "$ne" = 7 ] || fail "babeltrace2 shows $nd stack definitions and $ne lseek entries with stack ids 1 and 2, want 2 and 7"

# the names are the trace's: rename libc (same length) in the trace
LC_ALL=C sed -i 's/libc\.so\.6`/libc.so.9`/g' "$dir/t"/stream_*
renamed=$($D -q -x replay="$dir/t" -s "$dir/stacks.d" $c 2>"$dir/err3") ||
	fail "replay of the renamed trace exit $?: $(cat "$dir/err3")"
echo "$renamed" | grep -q 'libc\.so\.9`' || fail "the renamed trace replayed without the new name: $renamed"
same_as_live "$(echo "$live" | sed 's/libc\.so\.6`/libc.so.9`/')" "$renamed"

# stack() and ustack() as actions, in a clause given with -n, at
# sched:::off-cpu (however often counted blocks: each firing's stacks
# printed live, the same replayed); the record keeps the very stacks the
# actions took, not a second walk of its own
live2=$($D -x record="$dir/t2" -n 'sched:::off-cpu /execname == $$1/ { stack(); ustack(); }' \
	-c "$dir/$c sleep 3" $c 2>"$dir/err4") || fail "recording off-cpu exit $?: $(cat "$dir/err4")"
n2=$(recorded_count "$dir/err4") || exit 1
echo "$live2" | grep -q "^ *vmlinux\`__\{0,1\}schedule+0x[0-9a-f]*$" || fail "off-cpu live: no schedule frame: $live2"
echo "$live2" | grep -q "^ *libc[.a-z0-9-]*\`" || fail "off-cpu live: no libc frame: $live2"
echo 'sched:::off-cpu /execname == $$1/ { stack(); ustack(); }' > "$dir/offcpu.d"
replayed2=$($D -x replay="$dir/t2" -s "$dir/offcpu.d" $c 2>"$dir/err5") ||
	fail "off-cpu replay exit $?: $(cat "$dir/err5")"
same_as_live "$live2" "$replayed2"
bt2=$(babeltrace2 "$dir/t2" 2>"$dir/bterr" | wc -l) || fail "babeltrace2: $(cat "$dir/bterr")"
[ "$bt2" = "$n2" ] || fail "babeltrace2 read $bt2 events of the off-cpu trace, dscope recorded $n2"
echo "off-cpu: live = replay ($(echo "$live2" | grep -c ':off-cpu') firings, $(echo "$live2" | grep -c '`') frames); babeltrace2: $bt2 of $n2 events"
echo "live = replay: 2 stacks counted 7 ($(echo "$live" | grep -c '`') frames); babeltrace2: $bt of $n events, $nd stack definitions, $ne events naming them; a frame renamed in the trace replays renamed"
exit 0
