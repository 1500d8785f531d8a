# fbt.  On a kernel without kprobes (this project's build machines): one
# sentence saying so, exit 1, nothing left loaded.  With kprobes (Debian
# 12's 6.1, tests/vm): dd reads a file of ours exactly 5 times, 100 bytes
# each, so fbt::vfs_read:entry on that file counts 5 and sums args[2] (a
# size_t, typed from BTF) to 500, and :return sums arg1 to 500; a glob's
# entry/return latency pairs up; a module's function is listed and fires;
# with kprobe_multi (Debian's 6.12), fbt:::entry attaches and detaches.
. tests/sh/lib.sh
if ! $D -vV 2>&1 | grep -q '^  kprobe  *yes'; then
	no_progs_left || { echo "another dscope is running"; exit 77; }
	out=$($D -n 'fbt::vfs_read:entry { @ = count(); }' 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "exit $rc: $out"
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
	for want in "fbt::vfs_read:entry does not match any probes" \
		    "fbt needs kprobes, which this kernel does not have" \
		    "dscope -l -P sdt"; do
		case $out in *"$want"*) ;; *) fail "no \"$want\" in: $out" ;; esac
	done
	no_progs_left || fail "programs left loaded"
	exit 0
fi
file=/var/tmp/dscope-fbt.$$
trap 'rm -f "$file"' EXIT
head -c 1000 /dev/zero > "$file"
name=${file##*/}

out=$($D -q -n '
fbt::vfs_read:entry
/pid == $target && stringof(args[0]->f_path.dentry->d_name.name) == "'"$name"'"/
{
	@calls = count();
	@asked = sum(args[2]);
	self->in = 1;
}
fbt::vfs_read:return
/self->in/
{
	@got = sum(arg1);
	self->in = 0;
}
END
{
	printa("calls %@d asked %@d got %@d\n", @calls, @asked, @got);
}' -c "dd if=$file of=/dev/null bs=100 count=5 status=none" 2>&1)
[ "$(echo "$out" | grep -v '^$')" = "calls 5 asked 500 got 500" ] ||
	fail "vfs_read: $out"

# caller and stack() start in the caller, as DTrace's do (dd's read()s
# come through ksys_read), by every mechanism: fentry for one function
# where the kernel has it (-S names the program), else a kprobe_multi
# link where the kernel has those, else a kprobe perf event each.
prog='fbt::vfs_read:entry /pid == $target/ { @c[caller] = count(); @s[stack(2)] = count(); }
fbt::vfs_read:return /pid == $target/ { @r[caller] = count(); }
END { printa("caller %a %@d\n", @c); printa(@s); printa("return to %a %@d\n", @r); }'
for disable in "" fentry fentry,kprobe_multi; do
	out=$(DSCOPE_CAPS_DISABLE=$disable $D -q -n "$prog" \
		-c "dd if=$file of=/dev/null bs=100 count=5 status=none" 2>&1)
	echo "$out" | grep -q '^caller vmlinux`ksys_read+0x[0-9a-f]* [5-9]' ||
		fail "caller (without '$disable'): $out"
	echo "$out" | grep -q '^return to vmlinux`ksys_read+0x[0-9a-f]* [5-9]' ||
		fail "caller at return (without '$disable'): $out"
	echo "$out" | grep -A1 '^ *vmlinux`ksys_read+0x[0-9a-f]*$' | grep -q 'vmlinux`' ||
		fail "stack (without '$disable'): $out"
	echo "$out" | grep -q 'vfs_read' && fail "vfs_read's own frame (without '$disable'): $out"
done
if $D -vV 2>&1 | grep -q '^  fentry  *yes'; then
	# and its return through fexit, with their helpers (fentry_cookie:
	# 6.0+) or without (5.10: a copy per function reads its context);
	# both ends in one script, without them, through kprobes (compile.c)
	S=$($D -S -e -n 'fbt::vfs_read:entry {}' 2>&1)
	echo "$S" | grep -q 'dscope_fentry' || fail "vfs_read is not traced through fentry"
	S=$($D -S -e -n 'fbt::vfs_read:return {}' 2>&1)
	echo "$S" | grep -q 'dscope_fexit' || fail "vfs_read's return is not traced through fexit"
	S=$($D -S -e -n 'fbt::vfs_read:entry, fbt::vfs_read:return {}' 2>&1)
	if $D -vV 2>&1 | grep -q '^  fentry_cookie  *yes'; then
		echo "$S" | grep -q 'dscope_fexit' || fail "both ends: the return is not fexit"
	else
		echo "$S" | grep -q 'dscope_fexit' && fail "both ends: fexit without fentry_cookie"
	fi
	$D -S -e -n 'fbt::vfs_*:entry {}' 2>&1 | grep -q 'dscope_fbt_ent' ||
		fail "a wide glob is not traced through kprobes"
fi

# Everything traceable, where one link can hold it (kprobe_multi; Debian
# 12's 6.12 in the guest): attached and detached in one link each way,
# nothing left.  (BEGIN runs before the probes attach, so none fires:
# with every function traced, an emulated guest slows to a crawl.)  With
# a kprobe each it takes hours under emulation (bench/RESULTS.md).
if $D -vV 2>&1 | grep -q '^  kprobe_multi  *yes'; then
	n=$($D -l -n 'fbt:::entry' | tail -n +2 | wc -l)
	[ "$n" -gt 10000 ] || fail "fbt:::entry lists $n probes"
	out=$($D -q -n 'fbt:::entry { @ = count(); } BEGIN { exit(0); }' 2>&1) ||
		fail "fbt:::entry ($n probes): $out"
	no_progs_left || fail "fbt:::entry: programs left loaded"
fi

# A function named that has no probe: -l says why, in one sentence.
aff=/sys/kernel/tracing/available_filter_functions
if awk '$3 == "ftrace_stub" { f = 1 } END { exit !f }' /proc/kallsyms &&
   ! grep -q '^ftrace_stub\b' $aff 2>/dev/null; then
	out=$($D -l -n 'fbt::ftrace_stub:entry' 2>&1)
	case $out in *"will not let ftrace_stub be traced"*) ;;
	*) fail "notrace ftrace_stub: $out" ;; esac
fi
out=$($D -l -n 'fbt::dscope_no_such_function:entry' 2>&1)
case $out in *"has no function dscope_no_such_function"*) ;;
*) fail "no such function: $out" ;; esac

out=$($D -lv -n 'fbt::vfs_read:entry' 2>&1)
echo "$out" | grep -q 'args\[2\]: size_t' || fail "-lv: $out"
echo "$out" | grep -q '^ *[0-9]* *fbt *vmlinux *vfs_read entry$' || fail "-l: $out"

# entry and return of a glob, paired by function
out=$($D -q -n '
fbt::vfs_*:entry
/pid == $target/
{
	self->ts[probefunc] = timestamp;
}
fbt::vfs_*:return
/self->ts[probefunc]/
{
	@[probefunc] = quantize(timestamp - self->ts[probefunc]);
	@n[probefunc] = count();
	self->ts[probefunc] = 0;
}
END
{
	printa("%s %@d\n", @n);
}' -c "dd if=$file of=/dev/null bs=100 count=5 status=none" 2>&1)
echo "$out" | grep -qE '^vfs_read ([5-9]|[1-9][0-9]+)$' || fail "vfs_* latency: $out"
echo "$out" | grep -q 'value  ------------- Distribution ------------- count' ||
	fail "no quantize: $out"

# a module's function: the guest's root is an overlay, a module there
mod=$(awk '$1 == "overlay" { print $1 }' /proc/modules)
if [ -n "$mod" ]; then
	out=$($D -l -n 'fbt:overlay:ovl_read_iter:entry' 2>&1)
	echo "$out" | grep -q 'fbt *overlay *ovl_read_iter entry' || fail "module -l: $out"
	out=$($D -q -n 'fbt:overlay:ovl_read_iter:entry /pid == $target/ { @ = count(); }
	    END { printa("%@d\n", @); }' -c "dd if=$file of=/dev/null bs=100 count=5 status=none" 2>&1)
	[ "$(echo "$out" | grep -v '^$' | head -1)" -ge 5 ] 2>/dev/null ||
		fail "overlay: $out"
else
	echo "no overlay module here: the module case not run"
fi
no_progs_left || fail "programs left loaded"
exit 0
