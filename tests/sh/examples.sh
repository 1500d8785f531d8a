# Every script under examples/ compiles (with a $target where it takes
# one), so the examples keep up with the language.  An example whose
# probe needs a tracepoint this kernel lacks is refused with a sentence
# saying so: the test then skips, naming it, once every other example
# has compiled.
. tests/sh/lib.sh
missing=""
for f in examples/*.d; do
	out=$($D -e -s "$f" -p $$ 2>&1) && continue
	case $out in
	*"which this kernel does not have"*)
		why=$(echo "$out" | grep -o '[a-z]*:::[a-z-]* needs the .*have' | head -1)
		missing="$missing${missing:+; }$f: $why" ;;
	*) fail "$f: $out" ;;
	esac
done
[ -z "$missing" ] || { echo "$missing"; exit 77; }
exit 0
