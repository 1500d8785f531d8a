# vminfo:::zfod, pgin, pgpgin, pgout and pgpgout, by fbt where the kernel
# attaches fentry or kprobes.  zfod: build/targets/counted touches 50
# fresh anonymous pages (no THP) between its madvise() and its exit: 50
# zeroed pages asked for, each one page.  pgin ...: it reads 64 pages of a
# RAM disk with O_DIRECT, a page a read, and writes them back likewise:
# 64 bios of one page each way.  Ground truth for the whole system:
# /proc/vmstat's pgpgin and pgpgout (KiB) grow by 4 per page the probes
# count (in a guest whose disks are shares, these bios are the only ones).
. tests/sh/lib.sh
T=$B/targets/counted
served_or_refused vminfo:::zfod vma_alloc_folio
out=$($D -q -n '
syscall::madvise:return /pid == $target/ { self->go = 1; }
syscall::exit_group:entry /self->go/ { self->go = 0; }
vminfo:::zfod /self->go/ { @n = sum(arg0); @c = count(); }
END { printa("zfod %@d %@d\n", @n, @c); }' -c "$T touch 50" 2>&1) ||
	fail "exit $?: $out"
[ "$(echo "$out" | grep -v '^$')" = "zfod 50 50" ] || fail "got: $out, want zfod 50 50"

served_or_refused vminfo:::pgpgin submit_bio
ramdisk
vm() { sed -n "s/^$1 //p" /proc/vmstat; }
in0=$(vm pgpgin) out0=$(vm pgpgout)
out=$($D -q -n '
vminfo:::pgin /pid == $target/ { @a = sum(arg0); }
vminfo:::pgpgin /pid == $target/ { @b = sum(arg0); }
vminfo:::pgout /pid == $target/ { @c = sum(arg0); }
vminfo:::pgpgout /pid == $target/ { @d = sum(arg0); }
vminfo:::pgpgin { @e = sum(arg0); }
vminfo:::pgpgout { @f = sum(arg0); }
END { printa("%@d %@d %@d %@d %@d %@d\n", @a, @b, @c, @d, @e, @f); }' \
	-c "$T dio 64 /dev/ram0" 2>&1) || fail "exit $?: $out"
in1=$(vm pgpgin) out1=$(vm pgpgout)
set -- $(echo "$out" | grep -v '^$')
[ "$1 $2 $3 $4" = "64 64 64 64" ] || fail "got: $out, want 64 pgin, pgpgin, pgout, pgpgout"
[ $(($5 * 4)) = $((in1 - in0)) ] && [ $(($6 * 4)) = $((out1 - out0)) ] ||
	fail "pgpgin $5, pgpgout $6 pages; /proc/vmstat's grew by $((in1 - in0)) and $((out1 - out0)) KiB"
exit 0
