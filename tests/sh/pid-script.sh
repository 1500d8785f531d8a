# pid$target with -c of a "#!" script: the process is the interpreter the
# kernel runs for it, so its probes are the interpreter's and its
# libraries', as DTrace traces them (the script itself has no symbols).
# A Python script calls os.getppid() 1234 times: libc's getppid() is
# entered exactly that often.
. tests/sh/lib.sh
py=/usr/bin/python3
[ -x $py ] || { echo "SKIP: no $py"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!%s\nimport os\nfor i in range(1234):\n    os.getppid()\n' $py >"$tmp/calls.py"
chmod +x "$tmp/calls.py"
count='pid$target:libc.so.6:getppid:entry { @ = count(); } END { printa("%@d\n", @); }'
got=$($D -q -n "$count" -c "$tmp/calls.py" 2>&1) || fail "exit $?: $got"
[ "$got" = 1234 ] || fail "getppid() through the interpreter: $got, want 1234"
exit 0
