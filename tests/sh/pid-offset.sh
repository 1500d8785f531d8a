# pid offset probes (pid$target:mod:func:OFFSET) on build/targets/mallocs,
# whose count_me() is called 42 times and has no branches: the truth for
# its instruction offsets is objdump's.
#  - -l lists exactly objdump's offsets (besides entry and return);
#  - count_me:* fires entry, return and every offset 42 times each;
#  - one offset fires 42 times, with probefunc and probename;
#  - an offset inside an instruction is refused with one sentence, exit 1,
#    and the -c command never runs (here touch, whose file must not appear);
#  - an offset past the function's end, and 0x1f, say why they match nothing;
#  - a function's entry and offset probes go in one uprobe_multi link.
. tests/sh/lib.sh
command -v objdump >/dev/null || { echo "objdump is not installed"; exit 77; }
T=$B/targets/mallocs
tmp=$(mktemp -d)
trap 'rm -rf $tmp' EXIT

# objdump's instruction offsets in FUNC of FILE, in hex as DTrace names them
offsets() {
	local start="" a
	for a in $(objdump -d --no-show-raw-insn "$1" | sed -n "/<$2>:\$/,/^\$/p" |
		   sed -n 's/^ *\([0-9a-f]*\):.*/\1/p'); do
		[ -n "$start" ] || start=$a
		printf '%x\n' $((0x$a - 0x$start))
	done
}
offsets $T count_me | sort >$tmp/want
[ "$(wc -l <$tmp/want)" -ge 5 ] || fail "objdump shows no count_me: $(cat $tmp/want)"

$D -l -c $T -n 'pid$target::count_me:' >$tmp/list || fail "-l count_me"
awk 'NR > 1 && $5 != "entry" && $5 != "return" { print $5 }' $tmp/list | sort >$tmp/got
diff -u $tmp/want $tmp/got || fail "-l offsets differ from objdump's"

$D -q -c $T -n 'pid$target::count_me:* { @[probename] = count(); }
	END { printa("%s %@d\n", @); }' >$tmp/out || fail "count_me:* run"
{ sed 's/$/ 42/' $tmp/want; echo "entry 42"; echo "return 42"; } | sort >$tmp/want42
grep . $tmp/out | sort | diff -u $tmp/want42 - || fail "count_me:* counts"

third=$(sed -n 3p $tmp/want)
out=$($D -q -c $T -n "pid\$target:a.out:count_me:$third { @[probefunc, probename] = count(); }
	END { printa(\"%s %s %@d\n\", @); }") || fail "count_me:$third run"
[ "$(echo "$out" | grep .)" = "count_me $third 42" ] || fail "count_me:$third: $out"

# an offset inside an instruction: libc's exit, whose first instruction
# (endbr64, or a push with REX) is longer than one byte, at offset 1
libc=/lib/x86_64-linux-gnu/libc.so.6
first=$(offsets $libc 'exit@@GLIBC_2.2.5' | sed -n 2p)
if [ $((0x${first:-1})) -gt 1 ]; then
	err=$($D -q -c "/usr/bin/touch $tmp/ran" \
		-n 'pid$target:libc.so.6:exit:1 { exit(0); }' 2>&1 >/dev/null)
	rc=$?
	[ $rc = 1 ] || fail "exit:1 exit $rc: $err"
	echo "$err" | grep -q "^dscope: .*probe description pid[0-9]*:libc.so.6:exit:1 does not match any probes: offset 0x1 is inside an instruction of exit$" ||
		fail "exit:1 message: $err"
	[ ! -e $tmp/ran ] || fail "the -c command ran with a bad probe"
fi

err=$($D -q -c $T -n 'pid$target::count_me:10000 {}' 2>&1)
[ $? = 1 ] || fail "count_me:10000 accepted"
echo "$err" | grep -q 'offset 0x10000 is outside count_me' || fail "10000: $err"
err=$($D -q -c $T -n "pid\$target::count_me:0x$third {}" 2>&1)
[ $? = 1 ] || fail "count_me:0x$third accepted"
echo "$err" | grep -q "lowercase hex without 0x or leading zeros: $third\$" ||
	fail "0x$third: $err"

# a function's entry and offset probes in one uprobe_multi link: the
# link's count (its fdinfo, while tracing) is what -l lists.  A kernel
# without uprobe_multi (dscope -vV) has a perf-event link for each probe
# instead (a perf event without a link before 5.15), and one for the
# return probe.
sleep 1000 &	# killed below; long enough for any load
sp=$!
# until the dynamic linker has mapped libc into it, the process has no
# libc probes: wait for the mapping, not for a time (tests/run.sh bounds
# the test)
while kill -0 $sp 2>/dev/null; do
	grep -q 'libc\.so\.6' /proc/$sp/maps 2>/dev/null && break
	sleep 0.05
done
desc='pid$target:libc.so.6:clock_nanosleep:'
want=$($D -l -p $sp -n "$desc" | awk 'NR > 1 && $5 != "return"' | wc -l)
[ "$want" -gt 20 ] || fail "clock_nanosleep has $want probes"
if $D -vV | grep -q '^  uprobe_multi  *yes'; then
	# a link's fdinfo shows its count on newer kernels only (not 6.12's)
	count() { for f in /proc/$dp/fdinfo/*; do
		grep -q 'link_type:.*uprobe_multi' $f 2>/dev/null &&
			{ grep uprobe_cnt $f || echo "no count shown"; }; done; }
	want="uprobe_cnt:[[:space:]]*$want"
elif ! $D -vV | grep -q '^  perf_link  *yes'; then
	# programs set on perf events by ioctl (before 5.15): nothing tells
	# a probe's perf event from dscope's others, so the probes' count is
	# the difference of the perf events dscope holds once it traces
	# (its first tick) for all of clock_nanosleep's probes and for its
	# entry alone: every other probe, the return's included
	traced() {
		rm -f $tmp/t
		$D -q -p $sp -n "$1 { @ = count(); }
			tick-1s /!s/ { s = 1; printf(\"tracing\\n\"); }" >$tmp/t 2>$tmp/err &
		dp=$!
		until grep -q tracing $tmp/t || ! kill -0 $dp 2>/dev/null; do sleep 0.05; done
		ls -l /proc/$dp/fd/ 2>/dev/null | grep -c 'anon_inode:\[perf_event\]'
		kill -INT $dp
		wait $dp || fail "dscope -p $1: $(cat $tmp/err)"
	}
	one=$(traced "${desc}entry") && all=$(traced "$desc") ||
		fail "tracing clock_nanosleep: $one $all"
	kill $sp
	[ $((all - one)) = "$want" ] ||
		fail "want $want probes' perf events, have $all - $one"
	exit 0
else
	count() { n=$(cat /proc/$dp/fdinfo/* 2>/dev/null | grep -c 'link_type:.perf$')
		[ "$n" -gt 0 ] && echo "perf links: $n"; }
	want="perf links: $((want + 1))"
fi
$D -q -p $sp -n "$desc { @ = count(); }" >/dev/null 2>$tmp/err &
dp=$!
# until dscope has attached, or has given up (then its message says
# why): as long as it runs, whatever the machine's load
while :; do
	links=$(count)	# perf links come one by one: wait for them all
	echo "$links" | grep -q "$want\$" && break
	[ "$links" = "no count shown" ] && break
	kill -0 $dp 2>/dev/null || break
	sleep 0.05
done
kill $sp
wait $dp || fail "dscope -p: $(cat $tmp/err)"
if [ "$links" = "no count shown" ]; then
	echo "this kernel's fdinfo does not show a uprobe_multi link's count: the link's size not checked"
	exit 77
fi
echo "$links" | grep -q "$want\$" || fail "want $want, have: $links"
exit 0
