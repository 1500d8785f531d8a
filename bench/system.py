#!/usr/bin/env python3
"""system.py -- the whole-system cost of tracing, the seeds' yardstick.

    make bench-system                 builds dscope, then runs this
    bench/system.py --dscope build/dscope [--rounds 3] [--jobs 2]

The work is a clean build of this project (`make -j2 all` in a fresh copy
of the tree), done untraced, traced by dscope and traced by bpftrace, each
tool running one script that counts every system call, every context
switch and every block I/O by process and function, system-wide.  The
LTT paper's figure for tracing every event was 1.4-2.0%; the issue's
target is <= 2% and below bpftrace.

The three conditions alternate round by round (untraced, dscope,
bpftrace, untraced, ...), since the machines are shared and noisy, and
each is reported by its median.  Two costs are reported:
  - wall clock of the build, the figure a user feels;
  - CPU time (user + sys) of the build's processes: BPF programs run in
    the context of the task that fires them, so their cost lands in the
    build's own system time, and this figure moves less with other load.
The tool's own process (its consumer) is measured apart: its CPU seconds
for the round, from /proc/PID/stat, are what it costs beside the build.

Needs root, bpftrace (apt-get installs it when missing) and git.  Writes
the table to stdout; bench/RESULTS.md holds the last results.
"""

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

DSCOPE = r'''
syscall:::entry { @syscalls[execname, probefunc] = count(); }
sched:::off-cpu { @switches[execname] = count(); }
io:::start { @io[execname, probefunc] = count(); }
'''

# What a bpftrace user writes for the same: a probe per system call (its
# wildcard attaches each sys_enter_* tracepoint), and the same two
# tracepoints dscope's sched:::off-cpu and io:::start are built on.
BPFTRACE = r'''
tracepoint:syscalls:sys_enter_* { @syscalls[comm, probe] = count(); }
tracepoint:sched:sched_switch { @switches[comm] = count(); }
tracepoint:block:block_io_start { @io[comm, probe] = count(); }
'''

CONDITIONS = ("untraced", "dscope", "bpftrace")


def cpu_seconds(pid):
    """utime + stime of a live process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_tool(argv, log):
    """Start a tracer and wait until it has attached: both print a line
    from their BEGIN probe once every probe is on."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True)
    for line in p.stdout:	# bpftrace says "Attaching N probes..." first
        if "tracing" in line:
            return p
    p.kill()
    raise RuntimeError(f"{argv[0]} exited before tracing began")


def stop_tool(p):
    """SIGINT, as a user's ^C: the tool prints its aggregations and exits.
    Returns the number of output lines (a check that it counted)."""
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=120)
    return len(out.splitlines())


def build_once(tree, jobs):
    """A clean build in TREE: (wall seconds, CPU seconds of its processes)."""
    subprocess.run(["make", "-s", "clean"], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(["make", "-s", f"-j{jobs}", "all"], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dscope", default="build/dscope")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench/system.py: needs root")
    if not shutil.which("bpftrace"):
        subprocess.run(["apt-get", "install", "-y", "-qq", "bpftrace"], check=True)

    work = tempfile.mkdtemp(prefix="dscope-system.")
    dscope = os.path.join(work, "dscope")
    shutil.copy2(args.dscope, dscope)
    tree = os.path.join(work, "tree")
    # the tree as committed, without this checkout's build/
    os.makedirs(tree)
    subprocess.run(f"git archive HEAD | tar -x -C {tree}", shell=True, check=True)
    argv = {
        "dscope": [dscope, "-q", "-n", DSCOPE + 'BEGIN { printf("tracing\\n"); }'],
        "bpftrace": ["bpftrace", "-e", BPFTRACE + 'BEGIN { printf("tracing\\n"); }'],
    }
    runs = {c: [] for c in CONDITIONS}
    log = open(os.path.join(work, "tools.log"), "w")
    try:
        build_once(tree, args.jobs)  # a first build warms the page cache
        for r in range(args.rounds):
            for c in CONDITIONS:
                p = start_tool(argv[c], log) if c != "untraced" else None
                wall, cpu = build_once(tree, args.jobs)
                tool_cpu = cpu_seconds(p.pid) if p else 0.0
                lines = stop_tool(p) if p else 0
                if p and lines == 0:
                    raise RuntimeError(f"{c} printed no aggregation")
                runs[c].append((wall, cpu, tool_cpu))
                print(f"round {r + 1} {c}: build {wall:.1f} s wall, {cpu:.1f} s CPU;"
                      f" tool {tool_cpu:.2f} s CPU", file=sys.stderr, flush=True)
    finally:
        log.close()
        shutil.rmtree(work, ignore_errors=True)

    def med(c, i):
        return statistics.median(x[i] for x in runs[c])

    base_wall, base_cpu = med("untraced", 0), med("untraced", 1)
    print(f"| condition | build wall | overhead | build CPU | overhead | tool CPU |")
    print(f"|---|---|---|---|---|---|")
    for c in CONDITIONS:
        w, u, t = med(c, 0), med(c, 1), med(c, 2)
        ow = "" if c == "untraced" else f"{100 * (w - base_wall) / base_wall:+.1f}%"
        ou = "" if c == "untraced" else f"{100 * (u - base_cpu) / base_cpu:+.1f}%"
        tt = "" if c == "untraced" else f"{t:.2f} s"
        print(f"| {c} | {w:.1f} s | {ow} | {u:.1f} s | {ou} | {tt} |")
    print(f"\n{args.rounds} rounds, medians; each round's figures are on stderr.")


if __name__ == "__main__":
    main()
