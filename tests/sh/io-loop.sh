# io:::start and io:::done on a loop device of the test's own, whose
# backing file lies on a 1 MiB tmpfs: dd writes 4 KiB blocks with
# O_DIRECT until the tmpfs is full.  Each write is one request, so the
# device sees exactly dd's records: those dd counts out (256) complete
# with b_error 0 and b_resid 0, and one fails as dd's write does, with
# b_error dd's errno (ENOSPC; EIO on 6.1, whose loop driver reports any
# failed write so) and all its bytes left (b_resid 4096); at io:::start
# both are 0.  A machine whose own disks are not block devices (CI's
# overlay) still tests the io provider this way.
. tests/sh/lib.sh
command -v losetup >/dev/null || { echo "SKIP: losetup missing (util-linux)"; exit 77; }
dir=$(mktemp -d)
dev=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	umount "$dir" 2>/dev/null; rmdir "$dir"
}
trap cleanup EXIT
mount -t tmpfs -o size=1m tmpfs "$dir" || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
truncate -s 8M "$dir/back"
dev=$(losetup -f --show "$dir/back" 2>&1) ||
	{ echo "SKIP: this kernel gives no loop device: $dev"; dev=; exit 77; }
name=${dev#/dev/}
out=$($D -q -n '
io:::start
/args[1]->dev_statname == $$1/
{
	@s[args[0]->b_flags & B_WRITE ? "W" : "R", args[0]->b_bcount,
	    args[0]->b_error, args[0]->b_resid, args[1]->dev_pathname] = count();
}
io:::done
/args[1]->dev_statname == $$1/
{
	@d[args[0]->b_flags & B_WRITE ? "W" : "R", args[0]->b_bcount,
	    args[0]->b_error, args[0]->b_resid, args[1]->dev_pathname] = count();
}
END
{
	printa("start %s %d %d %d %s %@d\n", @s);
	printa("done %s %d %d %d %s %@d\n", @d);
}' "$name" -c "dd if=/dev/zero of=$dev bs=4096 count=600 oflag=direct" 2>&1)
# the error dd's last write met, as an errno: ENOSPC, or EIO where the
# loop driver reports every failed write so (6.1)
msg=$(echo "$out" | sed -n "s|^dd: error writing '$dev': ||p")
[ -n "$msg" ] || fail "dd did not fill the device: $out"
err=$(python3 -c 'import os, sys
print(next(e for e in range(1, 134) if os.strerror(e) == sys.argv[1]))' "$msg") ||
	fail "no errno says '$msg'"
# dd's own count of the writes that succeeded (256 on a 1 MiB tmpfs)
ok=$(echo "$out" | sed -n 's/^\([0-9]*\)+0 records out$/\1/p')
[ -n "$ok" ] || fail "no dd summary: $out"
rows=$(echo "$out" | grep -E '^(start|done) ' | sort)
want=$(printf '%s\n' "done W 4096 0 0 $dev $ok" "done W 4096 $err 4096 $dev 1" \
	"start W 4096 0 0 $dev $((ok + 1))" | sort)
[ "$rows" = "$want" ] || fail "got:
$out
want:
$want"
exit 0
