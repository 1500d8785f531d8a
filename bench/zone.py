#!/usr/bin/env python3
"""zone.py -- what option zone costs a probe whose thread it turns away.

    bench/zone.py --dscope build/dscope --loop build/bench/loop [--runs 5]
                  [--calls 2000000]

syscall:::entry { @ = count(); } fires for every system call of the
machine.  Traced for one container, every firing outside it is one the
filter must turn away, so that is the firing that matters: its in-kernel
cost (kernel.bpf_stats_enabled: run_time_ns / run_cnt of the tracer's
own programs, found by pid in bpftool's listing) is measured, while a
loop makes CALLS getppid() calls, for

  dscope, no filter        every firing counted
  dscope -x zone=ID        ID an empty cgroup v2 group: no firing matches
  bpftrace /cgroup == ID/  the same predicate as bpftrace writes it, on
                           raw_syscalls:sys_enter (dscope's attachment)
  bpftrace, no filter

alternating the four run by run on this noisy shared machine, and prints
the medians and the ratios.  Needs root, bpftool, bpftrace and a cgroup
v2 mount.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            if " - cgroup2 " in line:
                return line.split()[4]
    sys.exit("zone.py: no cgroup v2 hierarchy is mounted")


def held_prog_ids(pid):
    """The ids of the BPF programs pid holds an fd of (or of a link to)."""
    ids = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fdinfo")
    except OSError:
        return ids
    for fd in fds:
        try:
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                for line in f:
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
        except OSError:
            pass
    return ids


def tracer_progs(pid):
    """{prog id: (run_time_ns, run_cnt)} of pid's tracepoint programs."""
    ids = held_prog_ids(pid)
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True,
                         text=True, check=True).stdout
    return {p["id"]: (p.get("run_time_ns", 0), p.get("run_cnt", 0))
            for p in json.loads(out)
            if p["id"] in ids and p.get("type") in ("raw_tracepoint", "tracepoint")}


def measure(argv, loop, calls):
    """ns per firing of argv's programs over a loop of calls getppid()s."""
    t = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):		# until its programs are loaded
            before = tracer_progs(t.pid)
            if before:
                break
            time.sleep(0.1)
        else:
            return None
        time.sleep(0.5)			# attached after loading
        before = tracer_progs(t.pid)
        subprocess.run([loop, "run", "sys", str(calls)], check=True)
        after = tracer_progs(t.pid)
    finally:
        t.terminate()
        t.wait()
    ns = sum(after[i][0] - before[i][0] for i in after if i in before)
    cnt = sum(after[i][1] - before[i][1] for i in after if i in before)
    return ns / cnt if cnt else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dscope", default="build/dscope")
    ap.add_argument("--loop", default="build/bench/loop")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--calls", type=int, default=2000000)
    a = ap.parse_args()
    group = tempfile.mkdtemp(prefix="dscope-bench-", dir=cgroup2_mount())
    gid = os.stat(group).st_ino
    rows = [
        ("dscope, no filter",
         [a.dscope, "-q", "-n", "syscall:::entry { @ = count(); }"]),
        ("dscope -x zone=ID (no match)",
         [a.dscope, "-q", "-x", f"zone={gid}", "-n", "syscall:::entry { @ = count(); }"]),
        ("bpftrace /cgroup == ID/ (no match)",
         ["bpftrace", "-e",
          f"tracepoint:raw_syscalls:sys_enter /cgroup == {gid}/ {{ @ = count(); }}"]),
        ("bpftrace, no filter",
         ["bpftrace", "-e", "tracepoint:raw_syscalls:sys_enter { @ = count(); }"]),
    ]
    old = open("/proc/sys/kernel/bpf_stats_enabled").read().strip()
    subprocess.run(["sysctl", "-qw", "kernel.bpf_stats_enabled=1"], check=True)
    res = {name: [] for name, _ in rows}
    try:
        for _ in range(a.runs):
            for name, argv in rows:
                res[name].append(measure(argv, a.loop, a.calls))
    finally:
        subprocess.run(["sysctl", "-qw", f"kernel.bpf_stats_enabled={old}"])
        os.rmdir(group)
    med = {n: statistics.median([x for x in v if x is not None] or [float("nan")])
           for n, v in res.items()}
    print(f"in-kernel ns per firing of syscall:::entry, median of {a.runs} runs "
          f"of {a.calls} getppid() calls")
    print(f"| {'tracer':36} | ns/firing | runs |")
    print(f"|{'-' * 38}|-----------|------|")
    for n, v in res.items():
        print(f"| {n:36} | {med[n]:9.1f} | {' '.join(f'{x:.0f}' for x in v if x)} |")
    nf, zf = med["dscope, no filter"], med["dscope -x zone=ID (no match)"]
    bf = med["bpftrace /cgroup == ID/ (no match)"]
    print(f"\nfilter that does not match / no filter (dscope): {zf / nf:.2f}")
    print(f"dscope's filter / bpftrace's /cgroup == ID/:     {zf / bf:.2f}")


if __name__ == "__main__":
    main()
