# -x record keeps a system call's string arguments, copied at the probe,
# and -x replay gives them back to copyinstr(): "who modified this file"
# (the LTT thread's who-modified.pl) answered live while recording and
# again over the trace, to the byte.  The workload, under names of its
# own (other tests may run sh, mv and rm meanwhile): a shell that opens a
# file of a known name for writing 25 times, mv that renames it, rm that
# unlinks it.  The trace also holds every open, rename and unlink of those
# three, so the replayed predicates reject what they should.  An address
# the probe copied nothing from faults in replay as live: openat's arg0.
# A path saved at the entry and read at the return (opensnoop) is the
# entry's copy.
# babeltrace2 reads every event, strings included.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
s=ws$$ m=wm$$ r=wr$$
cp "$(command -v sh)" "$dir/$s"
cp "$(command -v mv)" "$dir/$m"
cp "$(command -v rm)" "$dir/$r"
cat > "$dir/who.d" <<'D'
syscall::open*:entry, syscall::creat:entry, syscall::rename*:entry, syscall::unlink*:entry
/execname == $$3 || execname == $$4 || execname == $$5/ {}
syscall::open:entry /copyinstr(arg0) == $$1 && (arg1 & 3)/ { @w[execname, pid, "open-write"] = count(); }
syscall::openat:entry /copyinstr(arg1) == $$1 && (arg2 & 3)/ { @w[execname, pid, "open-write"] = count(); }
syscall::creat:entry /copyinstr(arg0) == $$1/ { @w[execname, pid, "creat"] = count(); }
syscall::rename:entry /copyinstr(arg0) == $$1/ { @w[execname, pid, "rename"] = count(); @to[copyinstr(arg1)] = count(); }
syscall::renameat:entry, syscall::renameat2:entry /copyinstr(arg1) == $$1/ { @w[execname, pid, "rename"] = count(); @to[copyinstr(arg3)] = count(); }
syscall::unlink:entry /copyinstr(arg0) == $$2/ { @w[execname, pid, "unlink"] = count(); }
syscall::unlinkat:entry /copyinstr(arg1) == $$2/ { @w[execname, pid, "unlink"] = count(); }
syscall::openat:entry /execname == $$3/ { @pre[copyinstr(arg1, 4)] = count(); }
syscall::openat:entry /execname == $$3/ { self->path = arg1; }
syscall::openat:return /self->path/ { @ret[copyinstr(self->path), (int)arg1 >= 0] = count(); self->path = 0; }
END {
	printa("%s %d %s %@d\n", @w); printa("renamed to %s %@d\n", @to); printa("prefix %s %@d\n", @pre);
	printa("opened %s ok %d %@d\n", @ret);
}
D
live=$($D -q -x record="$dir/t" -s "$dir/who.d" \
	-c "$dir/$s -c 'for i in \$(seq 25); do echo x > $dir/f; done; $dir/$m $dir/f $dir/g; $dir/$r $dir/g'" \
	"$dir/f" "$dir/g" $s $m $r 2>"$dir/err") || fail "recording exit $?: $(cat "$dir/err")"
n=$(recorded_count "$dir/err") || exit 1
echo "$live" | grep -Eqx "$s [0-9]+ open-write 25" || fail "live: want 25 opens for writing by $s: $live"
echo "$live" | grep -Eqx "$m [0-9]+ rename 1" || fail "live: want 1 rename by $m: $live"
echo "$live" | grep -Eqx "$r [0-9]+ unlink 1" || fail "live: want 1 unlink by $r: $live"
echo "$live" | grep -qx "renamed to $dir/g 1" || fail "live: want the rename's new name: $live"
pre=$(echo "$dir" | cut -c1-4)
echo "$live" | grep -qx "prefix $pre 25" || fail "live: want copyinstr(arg1, 4) = $pre 25 times: $live"
# opensnoop's idiom: the path's address saved at the entry, read at the
# return (replay: the entry's copy, replay.h)
echo "$live" | grep -qx "opened $dir/f ok 1 25" || fail "live: want 25 opens of $dir/f read at the return: $live"

replayed=$($D -q -x replay="$dir/t" -s "$dir/who.d" "$dir/f" "$dir/g" $s $m $r 2>"$dir/err2") ||
	fail "replay exit $?: $(cat "$dir/err2")"
same_as_live "$live" "$replayed"
# a string the probe could not copy (a page of the process not yet in
# memory: the dynamic loader's strings in mv and rm) faulted live and
# faults in replay: each fault of the replay is one of the live run's
# (which also saw processes the trace does not keep); the enabled probe
# IDs are the replay's own
faults() { grep -v '^dscope: recorded ' "$1" | sed 's/enabled probe ID [0-9]*/enabled probe ID N/' | sort -u; }
faults "$dir/err" > "$dir/f1"
faults "$dir/err2" > "$dir/f2"
[ -z "$(comm -13 "$dir/f1" "$dir/f2")" ] || fail "replay faulted where live did not:
$(comm -13 "$dir/f1" "$dir/f2")"

# what the probe did not copy is not there: openat's dirfd faults, once
# per firing, as copyinstr() of a bad address does live
out=$($D -q -x replay="$dir/t" -n "syscall::openat:entry /execname == \"$s\"/ { @ = count(); }
	syscall::openat:entry /execname == \"$s\"/ { trace(copyinstr(arg0)); }" 2>&1)
nf=$(echo "$out" | grep -c 'syscall:vmlinux:openat:entry): invalid address (0xffffff9c) in action #1$')
no=$(echo "$out" | sed -n 's/^ *\([0-9][0-9]*\)$/\1/p')
[ "$no" -ge 25 ] && [ "$nf" = "$no" ] || fail "want a fault of copyinstr(arg0) per openat by $s ($no) in replay, got $nf: $out"

# a reader that is not dscope's reads every event, and the strings
bt=$(babeltrace2 "$dir/t" 2>"$dir/bterr" | wc -l) || fail "babeltrace2: $(cat "$dir/bterr")"
[ "$bt" = "$n" ] || fail "babeltrace2 read $bt events, dscope recorded $n"
nw=$(babeltrace2 "$dir/t" | grep -c "syscall:vmlinux:openat:entry: .*execname = \"$s\" }.* arg1_copied = 1, arg1_str = \"$dir/f\" }")
[ "$nw" = 25 ] || fail "babeltrace2 shows $nw openat of $dir/f by $s, want 25"
echo "live = replay: $(echo "$live" | tr '\n' ';'); $nf faults of copyinstr(arg0) in $no firings; babeltrace2 read $bt of $n events"
exit 0
