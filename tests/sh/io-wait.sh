# io:::wait-start and wait-done: a thread waiting for a bio it submitted
# (submit_bio_wait, served by fbt where the kernel attaches fentry or
# kprobes).  build/targets/counted fsyncs a RAM disk (brd) 20 times: each
# fsync of a block device issues a cache flush and waits for it, so 20
# waits start and end, in the fsyncing thread, for a write on the RAM
# disk, the guest kernel's own brd module (lib.sh's ramdisk).  On the
# host this test checks the refusal.
. tests/sh/lib.sh
T=$B/targets/counted
served_or_refused io:::wait-start submit_bio_wait
ramdisk
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
