# -x record and -x replay refuse bad input in one sentence, exit 1, and
# never crash: a probe the trace did not record, what a trace cannot
# hold (curthread, stackdepth, memory), a stack the recording did not
# ask for, a missing, foreign or damaged trace
# directory, a directory that already holds a trace, buftime without a
# flight recorder.
. tests/sh/lib.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
$D -q -x record="$dir/t" -n 'syscall::getppid:entry /execname == "loop"/ {}' \
	-c "$B/targets/loop 50" 2>"$dir/err" || fail "recording: $(cat "$dir/err")"
# one line on stderr, exit status 1, and the line says $2
refused() {
	local what=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null); rc=$?
	[ $rc = 1 ] || fail "$what: exit $rc, want 1: $out"
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "$what: more than one line: $out"
	case $out in *"$want"*) ;; *) fail "$what: want '$want' in: $out" ;; esac
	echo "$what: $out"
}
refused "unrecorded probe" "syscall::getpid:entry matches no probe recorded in $dir/t" \
	$D -x replay="$dir/t" -n 'syscall::getpid:entry { @ = count(); }'
refused "curthread" "curthread is not in a recorded trace" \
	$D -x replay="$dir/t" -n 'syscall::getppid:entry { @[curthread] = count(); }'
refused "stack" "the clauses of syscall:vmlinux:getppid:entry use stack(), which the trace did not record with it" \
	$D -q -x replay="$dir/t" -n 'syscall::getppid:entry { @[stack()] = count(); }'
refused "ustack" "the clauses of syscall:vmlinux:getppid:entry use ustack(), which the trace did not record with it" \
	$D -q -x replay="$dir/t" -n 'syscall::getppid:entry { @[ustack()] = count(); }'
refused "stackdepth" "stackdepth is not in a recorded trace" \
	$D -x replay="$dir/t" -n 'syscall::getppid:entry { @[stackdepth] = count(); }'
refused "user memory" "read user memory, which a recorded trace does not hold" \
	$D -x replay="$dir/t" -n 'syscall::getppid:entry { trace(copyin(arg0, 8)); }'
refused "missing directory" "cannot replay $dir/none: No such file or directory" \
	$D -x replay="$dir/none" -n 'syscall::getppid:entry {}'
mkdir "$dir/foreign"
printf '/* CTF 1.8 */\ntrace { major = 1; minor = 8; };\n' > "$dir/foreign/metadata"
refused "foreign trace" "it is not a trace dscope recorded" \
	$D -x replay="$dir/foreign" -n 'syscall::getppid:entry {}'
mkdir "$dir/empty"
refused "no metadata" "it has no metadata" \
	$D -x replay="$dir/empty" -n 'syscall::getppid:entry {}'
cp -r "$dir/t" "$dir/bad"
stream=$(ls "$dir/bad" | grep '^stream_' | head -1)
printf '\377\377\377\377' | dd of="$dir/bad/$stream" bs=1 seek=76 conv=notrunc 2>/dev/null
refused "damaged event" "holds a damaged event at byte 76" \
	$D -x replay="$dir/bad" -n 'syscall::getppid:entry {}'
printf 'XXXX' | dd of="$dir/bad/$stream" bs=1 seek=0 conv=notrunc 2>/dev/null
refused "damaged packet" "holds a packet that is not CTF at byte 0" \
	$D -x replay="$dir/bad" -n 'syscall::getppid:entry {}'
refused "trace kept" "cannot record to $dir/t: it already holds a trace" \
	$D -q -x record="$dir/t" -n 'syscall::getppid:entry {}' -c true
refused "both" "record and replay cannot be used together" \
	$D -x record="$dir/u" -x replay="$dir/t" -n 'syscall::getppid:entry {}'
refused "buftime without a flight recorder" "option buftime bounds a flight recorder: it needs -x record and -x bufpolicy=ring" \
	$D -q -x record="$dir/v" -x buftime=1s -n 'syscall::getppid:entry {}' -c true
refused "buftime without record" "option buftime bounds a flight recorder" \
	$D -q -x bufpolicy=ring -x buftime=1s -n 'syscall::getppid:entry {}' -c true
exit 0
