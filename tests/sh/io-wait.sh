# io:::wait-start and wait-done: a thread waiting for a bio it submitted
# (submit_bio_wait, served by fbt where the kernel attaches fentry or
# kprobes).  build/targets/counted fsyncs a RAM disk (brd) 20 times: each
# fsync of a block device issues a cache flush and waits for it, so 20
# waits start and end, in the fsyncing thread, for a write on the RAM
# disk.  The RAM disk is the guest kernel's own brd module, loaded here
# when /dev/ram0 is missing: on the host this test checks the refusal.
. tests/sh/lib.sh
T=$B/targets/counted
if ! $D -vV | grep -q '^  io:::wait-start  *yes'; then
	err=$($D -n 'io:::wait-start {}' 2>&1) && fail "wait-start compiled without fbt"
	echo "$err" | grep -q 'io:::wait-start needs fbt on submit_bio_wait' || fail "$err"
	echo "no fentry or kprobes here: $err"; exit 77
fi
if [ ! -b /dev/ram0 ]; then
	ko=$(find build/vm/*/pkg/lib/modules/"$(uname -r)" -name 'brd.ko*' 2>/dev/null | head -1)
	[ -n "$ko" ] || { echo "no /dev/ram0 and no brd module for $(uname -r)"; exit 77; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	case $ko in *.xz) xz -dc "$ko" >"$tmp/brd.ko" ;; *) cp "$ko" "$tmp/brd.ko" ;; esac
	insmod "$tmp/brd.ko" rd_nr=1 rd_size=1024 || { echo "brd would not load"; exit 77; }
	[ -b /dev/ram0 ] || { echo "brd loaded but no /dev/ram0"; exit 77; }
fi
out=$($D -q -n '
syscall::fsync:entry /pid == $target/ { self->in = 1; }
syscall::fsync:return /self->in/ { self->in = 0; }
io:::wait-start /self->in/
{
	@start[args[1]->dev_statname, args[0]->b_flags & B_WRITE ? "write" : "read"] = count();
	waiting[arg0] = 1;
}
io:::wait-done /self->in && waiting[arg0]/
{
	@done[args[1]->dev_pathname] = count();
	waiting[arg0] = 0;
}
END
{
	printa("start %s %s %@d\n", @start);
	printa("done %s %@d\n", @done);
}' -c "$T fsync 20 /dev/ram0" 2>&1) || fail "exit $?: $out"
want="start ram0 write 20
done /dev/ram0 20"
[ "$(echo "$out" | grep -v '^$')" = "$want" ] || fail "got
$out
want
$want"
exit 0
