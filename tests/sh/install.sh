# make install into a DESTDIR, as a packager runs it: the binary, the
# manual page and the examples land under PREFIX, and the installed
# binary runs a clause and compiles an installed example.
. tests/sh/lib.sh
command -v make >/dev/null || { echo "make not installed"; exit 77; }
# the build is what the test installs; it must not start one of its own
make -q B="$B" "$B/dscope" 2>/dev/null || { echo "$D is older than its sources (make)"; exit 77; }
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
out=$(make -s B="$B" install DESTDIR="$dest" PREFIX=/usr 2>&1) || fail "make install: $out"
bin=$dest/usr/bin/dscope
[ -x "$bin" ] || fail "no $bin"
cmp -s "$bin" "$D" || fail "$bin is not $D"
cmp -s "$dest/usr/share/man/man1/dscope.1" docs/dscope.1 || fail "man page not installed"
ls "$dest/usr/share/doc/dscope/examples/"*.d >/dev/null 2>&1 || fail "examples not installed"
out=$("$bin" -q -n 'BEGIN { printf("installed %d\n", 1 + 1); exit(0); }' 2>&1)
[ "$out" = "installed 2" ] || fail "installed binary: $out"
out=$("$bin" -e -s "$dest/usr/share/doc/dscope/examples/syscalls-by-process.d" 2>&1) ||
	fail "installed example: $out"
make -s B="$B" uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 || fail "make uninstall"
left=$(find "$dest" -type f)
[ -z "$left" ] || fail "left after uninstall: $left"
exit 0
