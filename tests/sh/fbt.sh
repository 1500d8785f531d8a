# fbt on a kernel without fentry or kprobes (DESIGN.md 1): one sentence
# naming both, exit 1, and nothing left loaded by the trial.  A kernel
# that has either one gets a different sentence: this test then skips.
. tests/sh/lib.sh
# its last check counts every dscope program of the machine
no_progs_left || { echo "another dscope is running"; exit 77; }
out=$($D -n 'fbt::vfs_read:entry { @ = count(); }' 2>&1)
rc=$?
[ $rc = 1 ] || fail "exit $rc: $out"
case $out in
*"fbt probes are not offered by dscope yet"*)
	echo "this kernel has fentry or kprobes: $out"; exit 77 ;;
esac
[ "$(echo "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
for want in "fbt::vfs_read:entry does not match any probes" \
	    "fbt needs fentry, which this kernel refuses" \
	    "or kprobes, which it does not have" "dscope -l -P sdt"; do
	case $out in *"$want"*) ;; *) fail "no \"$want\" in: $out" ;; esac
done
no_progs_left || fail "programs left loaded"
exit 0
