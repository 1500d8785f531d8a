# Aggregation order among equal values, for every aggsort option, as
# libdtrace compares (dt_aggregate.c): by value, ties by the keys from
# aggsortkeypos on (integers unsigned at their width, so -1 comes last;
# strings bytewise); aggsortkey puts the keys first; aggsortrev reverses
# every comparison, ties included; a joined printa compares the
# aggregations' values from aggsortpos on, then the keys.
. tests/sh/lib.sh
one='BEGIN {
	@["b", 1] = sum(5); @["a", 2] = sum(5); @["a", 1] = sum(5);
	@["c", 3] = sum(2); @["b", -1] = sum(2); @["a", 9] = sum(7);
	exit(0);
}
END { printa("%s %d %@d;", @); }'
joined='BEGIN {
	@x["a"] = sum(1); @y["a"] = sum(3);
	@x["b"] = sum(1); @y["b"] = sum(2);
	@x["c"] = sum(2); @y["c"] = sum(2);
	@x["d"] = sum(1); @y["d"] = sum(2);
	exit(0);
}
END { printa("%s %@d %@d;", @x, @y); }'
check() {
	local script=$1 want=$2 got
	shift 2
	got=$($D -q -n "$script" "$@" | tr -d '\n') || fail "$*: exit $?"
	[ "$got" = "$want" ] || fail "${*:-default}: got '$got', want '$want'"
}
check "$one" 'b -1 2;c 3 2;a 1 5;a 2 5;b 1 5;a 9 7;'
check "$one" 'a 9 7;b 1 5;a 2 5;a 1 5;c 3 2;b -1 2;' -x aggsortrev
check "$one" 'a 1 5;a 2 5;a 9 7;b 1 5;b -1 2;c 3 2;' -x aggsortkey
check "$one" 'c 3 2;b -1 2;a 1 5;b 1 5;a 2 5;a 9 7;' -x aggsortkeypos=1
check "$one" 'a 1 5;b 1 5;a 2 5;c 3 2;a 9 7;b -1 2;' -x aggsortkey -x aggsortkeypos=1
check "$one" 'c 3 2;b -1 2;b 1 5;a 9 7;a 2 5;a 1 5;' -x aggsortkey -x aggsortrev
check "$one" 'a 9 7;a 2 5;b 1 5;a 1 5;b -1 2;c 3 2;' -x aggsortkeypos=1 -x aggsortrev
check "$one" 'b -1 2;c 3 2;a 1 5;a 2 5;b 1 5;a 9 7;' -x aggsortkeypos=2
check "$joined" 'b 1 2;d 1 2;a 1 3;c 2 2;'
check "$joined" 'b 1 2;d 1 2;c 2 2;a 1 3;' -x aggsortpos=1
check "$joined" 'a 1 3;c 2 2;d 1 2;b 1 2;' -x aggsortpos=1 -x aggsortrev
check "$joined" 'a 1 3;b 1 2;c 2 2;d 1 2;' -x aggsortkey -x aggsortpos=1
exit 0
