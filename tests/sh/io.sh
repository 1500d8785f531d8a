# io:::start and io:::done against build/targets/directio, which reads a
# file 25 times with O_DIRECT, 8 KiB each: inside those preads exactly 25
# 8 KiB read requests start (in the reading thread) and complete, on the
# device /sys says holds the file.
. tests/sh/lib.sh
dir=/var/tmp
file=$dir/dscope-io.$$
dev=$(stat -c '%Hd:%Ld' "$dir")
want=$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/$dev/uevent" 2>/dev/null)
[ -n "$want" ] || { echo "$dir is not on a block device ($dev)"; exit 77; }
# self->in: inside one of the target's preads
in_pread='
syscall::pread64:entry
/pid == $target/
{
	self->in = 1;
}
syscall::pread64:return
/self->in/
{
	self->in = 0;
}
'
out=$($D -q -n "$in_pread"'
io:::start
/self->in && args[0]->b_flags & B_READ/
{
	@starts[args[1]->dev_statname, args[1]->dev_pathname] = count();
	@bytes = sum(args[0]->b_bcount);
	pending[arg0] = 1;
}
io:::done
/pending[arg0]/
{
	@dones = count();
	pending[arg0] = 0;
}
END
{
	printa("start %s %s %@d\n", @starts);
	printa("bytes %@d\n", @bytes);
	printa("done %@d\n", @dones);
}' -c "$B/targets/directio $file 25" 2>&1)
rc=$?
[ $rc = 0 ] || fail "exit $rc: $out"
expect="start $want /dev/$want 25
bytes 204800
done 25"
[ "$(echo "$out" | grep -v '^$')" = "$expect" ] ||
	fail "got:
$out
want:
$expect"

# The latency idiom keys io:::done on what io:::start saw: both must
# describe the same buffer, on the device that holds the file (the
# kernel's dev_t is major << 20 | minor).
major=${dev%:*} minor=${dev#*:}
out=$($D -q -n "$in_pread"'
io:::start
/self->in/
{
	s[args[0]->b_edev, args[0]->b_blkno] = timestamp;
	@dev[getmajor(args[0]->b_edev), getminor(args[0]->b_edev)] = count();
}
io:::done
/s[args[0]->b_edev, args[0]->b_blkno]/
{
	@matched = count();
	@lat = sum(timestamp - s[args[0]->b_edev, args[0]->b_blkno] > 0);
	s[args[0]->b_edev, args[0]->b_blkno] = 0;
}
END
{
	printa("dev %d:%d %@d\n", @dev);
	printa("matched %@d\n", @matched);
	printa("positive %@d\n", @lat);
}' -c "$B/targets/directio $file 25" 2>&1)
rc=$?
[ $rc = 0 ] || fail "exit $rc: $out"
expect="dev $major:$minor 25
matched 25
positive 25"
[ "$(echo "$out" | grep -v '^$')" = "$expect" ] ||
	fail "latency idiom: got:
$out
want:
$expect"
exit 0
