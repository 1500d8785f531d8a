# Symbols of a stripped executable from its separate debug file
# (obj/debugfile.h), each route alone: by build-id under DSCOPE_DEBUGDIR and
# under the default /usr/lib/debug, by .gnu_debuglink next to the file, in
# its .debug/ folder and under DSCOPE_DEBUGDIR/<its folder>.  Ground truth:
# the stack and the pid probe of the unstripped build/targets/napper.  Not
# trusted: a debug file of another build at the build-id's path, and a
# debuglink target whose CRC differs.
. tests/sh/lib.sh
command -v objcopy >/dev/null && command -v strip >/dev/null ||
	{ echo "objcopy and strip (binutils) are not installed"; exit 77; }
T=$(realpath "$(mktemp -d)")
sysdbg= sysdirs=	# what this test put under /usr/lib/debug, leaf first
remove_sysdbg() {
	[ -z "$sysdbg" ] || rm -f "$sysdbg"
	for d in $sysdirs; do rmdir "$d"; done
	sysdbg= sysdirs=
}
cleanup() { rm -rf "$T"; remove_sysdbg; }
trap cleanup EXIT

# napper 3: wait_for_io is entered 3 times; each sleeps in clock_nanosleep
script='pid$target::wait_for_io:entry { @calls = count(); }
syscall::clock_nanosleep:entry /pid == $target/ { @[ustack(4)] = count(); }'
stack_only='syscall::clock_nanosleep:entry /pid == $target/ { @[ustack(4)] = count(); }'
run() {	# run DEBUGDIR SCRIPT EXE: dscope's output
	DSCOPE_DEBUGDIR=$1 $D -q -n "$2" -c "$3 3" 2>&1
}
want=$(run "$T/none" "$script" "$B/targets/napper")
echo "$want" | grep -q 'napper`wait_for_io+0x' || fail "unstripped: $want"

mkdir -p "$T/buildid" "$T/link/.debug" "$T/dbg" "$T/none"
objcopy --only-keep-debug "$B/targets/napper" "$T/napper.debug"
id=$(readelf -n "$B/targets/napper" 2>/dev/null | sed -n 's/.*Build ID: //p')
[ -n "$id" ] || fail "napper has no build-id"
idpath=.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug

# stripped, no debug file: no names, and no wait_for_io to probe
strip --strip-all -o "$T/buildid/napper" "$B/targets/napper"
got=$(run "$T/none" "$stack_only" "$T/buildid/napper")
echo "$got" | grep -q wait_for_io && fail "stripped, no debug file, named: $got"

# by build-id under DSCOPE_DEBUGDIR (the stripped file has no debuglink)
mkdir -p "$(dirname "$T/dbg/$idpath")"
cp "$T/napper.debug" "$T/dbg/$idpath"
got=$(run "$T/none:$T/dbg" "$script" "$T/buildid/napper")
[ "$got" = "$want" ] || fail "by build-id: got
$got
want
$want"

# another build's debug file at that build-id's path is not trusted
objcopy --only-keep-debug "$B/targets/napper-nofp" "$T/dbg/$idpath"
got=$(run "$T/dbg" "$stack_only" "$T/buildid/napper")
echo "$got" | grep -q wait_for_io && fail "wrong build-id trusted: $got"

# by build-id under the default /usr/lib/debug, when nothing is there yet
if [ ! -e "/usr/lib/debug/$idpath" ] && [ -w /usr/lib ]; then
	sysdbg=/usr/lib/debug/$idpath
	d=$(dirname "$sysdbg")
	while [ ! -d "$d" ]; do sysdirs="$sysdirs $d"; d=$(dirname "$d"); done
	mkdir -p "$(dirname "$sysdbg")"
	cp "$T/napper.debug" "$sysdbg"
	got=$(env -u DSCOPE_DEBUGDIR $D -q -n "$script" -c "$T/buildid/napper 3" 2>&1)
	[ "$got" = "$want" ] || fail "by build-id in /usr/lib/debug: got
$got
want
$want"
	remove_sysdbg
fi

# by debuglink: next to the file, in .debug/, under DEBUGDIR/<folder>;
# DSCOPE_DEBUGDIR has no build-id folder, so the link is the only route
objcopy --add-gnu-debuglink="$T/napper.debug" "$T/buildid/napper" "$T/link/napper"
mkdir -p "$T/dbg2$T/link"
for place in "$T/link" "$T/link/.debug" "$T/dbg2$T/link"; do
	cp "$T/napper.debug" "$place/napper.debug"
	got=$(run "$T/dbg2" "$script" "$T/link/napper")
	[ "$got" = "$want" ] || fail "by debuglink in $place: got
$got
want
$want"
	# a changed debug file no longer matches the link's CRC-32
	echo >>"$place/napper.debug"
	got=$(run "$T/dbg2" "$stack_only" "$T/link/napper")
	echo "$got" | grep -q wait_for_io && fail "wrong CRC trusted in $place: $got"
	rm "$place/napper.debug"
done
exit 0
