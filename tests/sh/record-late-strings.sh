# A string the entry could not copy is recorded at the return.  A
# probe may not wait for a page to come in, so a path in a page not yet
# mapped faults at openat's entry; the call itself brings the page in,
# and a live copyinstr() at the return (opensnoop's idiom: the address
# saved at the entry, read at the return) reads it.  The recording
# copies it again at the return, so the replay reads it there too and
# gives the same answer, while the entry's own copyinstr() faults in
# both, once per call.  The workload: `counted mapopen 5 PATH` opens
# PATH five times, each from a page of a memfd mapped just before.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
c=mo$$		# a name of its own: other tests may run counted meanwhile
cp "$B/targets/counted" "$dir/$c"
echo x > "$dir/target"
cat > "$dir/snoop.d" <<'D'
syscall::openat:entry, syscall::openat:return /execname == $$1/ {}
syscall::openat:entry /execname == $$1/ { self->path = arg1; @entry[copyinstr(arg1)] = count(); }
syscall::openat:return /self->path/ { @ret[copyinstr(self->path), (int)arg0 >= 0] = count(); self->path = 0; }
END { printa("entry %s %@d\n", @entry); printa("return %s ok %d %@d\n", @ret); }
D
live=$($D -q -x record="$dir/t" -s "$dir/snoop.d" -c "$dir/$c mapopen 5 $dir/target" $c 2>"$dir/err") ||
	fail "recording exit $?: $(cat "$dir/err")"
n=$(recorded_count "$dir/err") || exit 1
echo "$live" | grep -qx "return $dir/target ok 1 5" || fail "live: want 5 opens of $dir/target read at the return: $live"
echo "$live" | grep -q "^entry $dir/target" && fail "live: the entry copied the path of an unmapped page: $live"
faults() { grep -c 'syscall:vmlinux:openat:entry): invalid address (0x[0-9a-f]*) in action #2$' "$1"; }
[ "$(faults "$dir/err")" = 5 ] || fail "live: want 5 faults of the entry's copyinstr: $(cat "$dir/err")"

replayed=$($D -q -x replay="$dir/t" -s "$dir/snoop.d" $c 2>"$dir/err2") ||
	fail "replay exit $?: $(cat "$dir/err2")"
same_as_live "$live" "$replayed"
[ "$(faults "$dir/err2")" = 5 ] || fail "replay: want the 5 faults of the entry's copyinstr: $(cat "$dir/err2")"

# the trace says it: five entries that could not copy, five returns that did
bt=$(babeltrace2 "$dir/t" 2>"$dir/bterr" | wc -l) || fail "babeltrace2: $(cat "$dir/bterr")"
[ "$bt" = "$n" ] || fail "babeltrace2 read $bt events, dscope recorded $n"
ne=$(babeltrace2 "$dir/t" | grep -c "openat:entry: .*execname = \"$c\" }.* arg1_copied = 0, arg1_str = \"\" }$")
nr=$(babeltrace2 "$dir/t" | grep -c "openat:return: .*execname = \"$c\" }, { arg0 = [0-9]*, entry_arg1_copied = 1, entry_arg1_str = \"$dir/target\" }$")
[ "$ne" -ge 5 ] && [ "$nr" = 5 ] || fail "babeltrace2 shows $ne entries not copied and $nr returns copying $dir/target, want 5 and 5"
echo "live = replay: $(echo "$live" | grep target); 5 entry faults each way; babeltrace2: $nr returns with the path, $bt of $n events"
exit 0
