# Every script under examples/ compiles (with a $target where it takes
# one), so the examples keep up with the language.
. tests/sh/lib.sh
for f in examples/*.d; do
	out=$($D -e -s "$f" -p $$ 2>&1) || fail "$f: $out"
done
exit 0
