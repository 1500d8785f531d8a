# tcp, udp and ip providers against build/targets/netpair: a loopback
# client and server in one process, over 127.0.0.1 and ::1, exchanging
# K messages of 100*i bytes, each answered by 10*i bytes (TCP_NODELAY,
# one at a time: each is one segment), then closing both ends in order.
# Exact: data segments, payload bytes, SYNs and FINs per probe and
# direction, the 4-tuple, each side's state changes in order, and
# ip:::send/receive seeing the same packets as tcp:::send/receive.  Pure
# ACKs are left out of the exact counts (delayed ACKs depend on timing)
# but must agree between the providers.  connect-request, -established,
# accept-established once each, with their ends (also from one clause
# naming the three); connect-refused once for each of K connects to a
# closed port, its args[4] the RST to the connecting port; and
# accept-refused once for each of those RSTs, answering its SYN.
. tests/sh/lib.sh
K=5
c2s=$((100 * K * (K + 1) / 2)) s2c=$((10 * K * (K + 1) / 2))

# run the script in tests/sh/net/$1 on netpair $2; a probe this kernel
# cannot offer skips, naming the tracepoint it lacks
trace() {
	out=$($D -q -s "tests/sh/net/$1" -c "$B/targets/netpair $2 $K" 2>&1)
	rc=$?
	why=$(echo "$out" | grep -o '[a-z]*:::[a-z-]* needs the [a-z_:]* tracepoint.*' | head -1)
	[ -n "$why" ] && { echo "$why"; exit 77; }
	[ $rc = 0 ] || fail "$2: exit $rc: $out"
	port=$(echo "$out" | sed -n 's/^port //p')
	[ -n "$port" ] || fail "$2: no port in: $out"
}
has() {
	echo "$out" | grep -qFx -- "$1" || fail "$what: no line '$1' in:
$out"
}
# the value of "name probe" in the output
val() { echo "$out" | sed -n "s/^$1 \([0-9]*\)$/\1/p"; }

for fam in 4 6; do
	[ $fam = 4 ] && a=127.0.0.1 || a=::1
	what=tcp$fam
	trace tcp.d tcp$fam
	for p in send receive; do
		has "data $p c2s $K"
		has "data $p s2c $K"
		has "bytes $p c2s $c2s"
		has "bytes $p s2c $s2c"
		for f in syn fin; do
			has "$f $p c2s 1"
			has "$f $p s2c 1"
		done
	done
	# the client's port, from what it sent; every packet of the
	# connection carries the same ends
	cport=$(echo "$out" | sed -n "s/^tuple send c2s $a \([0-9]*\) $a $port $a $a [0-9]*$/\1/p")
	[ -n "$cport" ] && [ "$cport" != "$port" ] || fail "$what: no client port: $out"
	tuples=$(echo "$out" | sed -n 's/^\(tuple .*\) [0-9]*$/\1/p' | sort)
	want=$(printf '%s\n' "tuple receive c2s $a $port $a $cport $a $a" \
		"tuple receive s2c $a $cport $a $port $a $a" \
		"tuple send c2s $a $cport $a $port $a $a" \
		"tuple send s2c $a $port $a $cport $a $a")
	[ "$tuples" = "$want" ] || fail "$what: tuples:
$tuples
want:
$want"
	# loopback: what is sent is received; ip sees what tcp sees
	n=$(val "all tcp send")
	[ -n "$n" ] && [ "$n" = "$(val 'all tcp receive')" ] &&
		[ "$n" = "$(val 'all ip send')" ] && [ "$n" = "$(val 'all ip receive')" ] ||
		fail "$what: packet counts differ: $(echo "$out" | grep '^all')"
	# state changes by time, per side (timestamps order events across CPUs)
	states=$(echo "$out" | grep ' state ' | sort -n)
	client=$(echo "$states" | awk '$3 == "client" { printf "%s>%s ", $4, $5 }')
	server=$(echo "$states" | awk '$3 == "server" { printf "%s>%s ", $4, $5 }')
	want="state-closed>state-syn-sent state-syn-sent>state-established \
state-established>state-fin-wait-1 state-fin-wait-1>state-fin-wait-2 \
state-fin-wait-2>state-closed "
	[ "$client" = "$want" ] || fail "$what: client states:
$client
want:
$want"
	want="state-closed>state-listen state-listen>state-syn-received \
state-syn-received>state-established state-listen>state-closed \
state-established>state-close-wait state-close-wait>state-last-ack \
state-last-ack>state-closed "
	[ "$server" = "$want" ] || fail "$what: server states:
$server
want:
$want"

	# one active open, seen as it sends its SYN (by the target, in
	# SYN-SENT) and as its SYN-ACK comes in; one passive, as the ACK does
	has "conn request 1 $a 2 1"
	has "conn established 1 $a 1 1"
	has "conn accepted 1 $a 1 1"
	# the same three in one clause: the SYN going out, the SYN-ACK
	# and the ACK coming in
	has "ends connect-request $a $cport $a $port 1"
	has "ends connect-established $a $port $a $cport 1"
	has "ends accept-established $a $cport $a $port 1"

	what=refused$fam
	trace refused.d refused$fam
	has "refused $a $a state-closed $K"
	has "rst to-syn $K"
	# the RSTs that refused them, each answering its SYN
	what=accept-refused$fam
	trace accept-refused.d refused$fam
	has "accept-refused $a $a $a state-closed to-syn $K"

	what=udp$fam
	trace udp.d udp$fam
	for p in send receive; do
		has "data $p c2s $K"
		has "data $p s2c $K"
		has "bytes $p c2s $c2s"
		has "bytes $p s2c $s2c"
		has "plen $p c2s $c2s"
		has "plen $p s2c $s2c"
	done
	cport=$(echo "$out" | sed -n "s/^tuple send c2s $a \([0-9]*\) $a $port $a $a $K$/\1/p")
	[ -n "$cport" ] || fail "$what: no client port: $out"
	has "tuple receive c2s $a $port $a $cport $a $a $K"
	has "tuple send s2c $a $port $a $cport $a $a $K"
	has "tuple receive s2c $a $cport $a $port $a $a $K"
	has "all ip send $((2 * K))"
	has "all ip receive $((2 * K))"
done
exit 0
