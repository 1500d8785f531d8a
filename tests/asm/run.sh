#!/bin/bash
# tests/asm/run.sh [--regen] [tests/asm/NAME.d ...] -- golden BPF.
#
# Each tests/asm/NAME.d is compiled only (dscope -e -S: nothing loads, no
# root needed) and what -S prints, the BPF of every clause, must equal
# tests/asm/NAME.S line for line.  A change to code generation shows here
# as a diff of instructions: read it, and when the new code is what was
# meant, regenerate every expectation with one command,
#
#	tests/asm/run.sh --regen
#
# and commit the .S files with the change (a merge regenerates after
# merging the code).  The kernel's capabilities are pinned (DSCOPE_CAPS,
# src/kern/kcaps.h): all present, none tried, so the output is the same
# on any kernel and for any user.  The clauses use no kernel types, whose
# BTF layout differs between kernels.  Prints "N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
B=${B:-build}
DSCOPE_CAPS=uprobe_multi,uprobe_pmu,uprobe_ref_ctr,perf_link,attach_cookie,iter_num
DSCOPE_CAPS+=,bpf_loop,raw_tp,tp_btf,fentry,fentry_cookie,kprobe,kprobe_multi,ringbuf
DSCOPE_CAPS+=,probe_write_user,find_vma,get_task_stack,sleep_uprobe,copy_str
DSCOPE_CAPS+=,atomic_fetch,perf_noprealloc,task_pt_regs,sdiv
export DSCOPE_CAPS
unset DSCOPE_CAPS_DISABLE

regen=
[ "$1" = --regen ] && { regen=1; shift; }
[ $# -gt 0 ] || set -- tests/asm/*.d
pass=0 fail=0
for t in "$@"; do
	want=${t%.d}.S got=$(mktemp)
	"$B/dscope" -e -S -s "$t" >/dev/null 2>"$got"; rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL asm/$(basename "$t") (exit $rc)"; tail -5 "$got"
		fail=$((fail + 1))
	elif [ -n "$regen" ]; then
		cp "$got" "$want"; pass=$((pass + 1))
	elif diff -u "$want" "$got" >/dev/null; then
		pass=$((pass + 1))
	else
		echo "FAIL asm/$(basename "$t") (the BPF differs; tests/asm/run.sh --regen" \
		     "if the change is meant)"
		diff -u "$want" "$got" | head -40
		fail=$((fail + 1))
	fi
	rm -f "$got"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
