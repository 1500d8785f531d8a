#!/usr/bin/env python3
"""bench/uprobe-detach.py [N-PROBES-DESC] -- what attaching and detaching
N pid probes costs by each mechanism: one uprobe_multi link per file, or
one uprobe PMU perf event per probe (forced with DSCOPE_CAPS_DISABLE, as
a kernel without uprobe_multi has it).  Measured from dscope's own
system calls (strace -ttt -T: the times include strace's overhead):

  attach   first to last attaching call (perf_event_open, BPF_LINK_CREATE)
  detach   dscope's first close of an attachment to its exit: what the
           user waits for once tracing stops
  release  the same to the exit of the last dscope process (dscope-detach
           releases the perf events in the background)

Root; about a minute.  Not part of make check (timing)."""
import os
import re
import subprocess
import sys
import tempfile

B = os.environ.get("B", "build")
DESC = sys.argv[1] if len(sys.argv) > 1 else "pid$target:libc.so.6:s*:entry"
LINE = re.compile(r"^(\d+) +(\d+\.\d+) (.*?)(?: <(\d+\.\d+)>)?$")


def measure(disable):
    log = tempfile.mktemp()
    env = dict(os.environ, DSCOPE_CAPS_DISABLE=disable)
    subprocess.run(["strace", "-f", "-ttt", "-T", "-o", log, "-e",
                    "trace=perf_event_open,bpf,close,exit_group",
                    f"{B}/dscope", "-q", "-n", DESC + " {}", "-c",
                    f"{B}/targets/mallocs"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    # dscope-detach outlives strace's wait only if strace stops first:
    # strace -f follows it, so the log is complete when run() returns
    main, fds, pfds, att, first_close, end, last = None, set(), set(), [], None, None, 0.0
    with open(log) as f:
        for line in f:
            m = LINE.match(line.rstrip())
            if not m:
                continue
            pid, t, call, dur = int(m[1]), float(m[2]), m[3], float(m[4] or 0)
            main = main or pid
            last = max(last, t + dur)
            r = re.search(r"= (\d+)$", call)
            tfd = re.search(r"target_fd=(\d+)", call)
            pmu = "perf_event_open(" in call and "PERF_TYPE_SOFTWARE" not in call
            link = "BPF_LINK_CREATE" in call and (
                "attach_type=0x30" in call or (tfd and int(tfd[1]) in pfds))
            if (pmu or link) and r and pid == main:
                (pfds if pmu else fds).add(int(r[1]))
                att.append((t, t + dur))
            c = re.match(r"close\((\d+)\)", call)
            if c and pid == main and int(c[1]) in fds | pfds and first_close is None:
                first_close = t
            if call.startswith("exit_group") and pid == main:
                end = t
    os.unlink(log)
    return (len(att), att[-1][1] - att[0][0], end - first_close, last - first_close)


for name, disable in (("uprobe_multi link", ""), ("uprobe perf events", "uprobe_multi")):
    n, a, d, r = measure(disable)
    print(f"{name:20s} {n:4d} attaching calls  attach {a * 1e3:8.1f} ms  "
          f"detach {d * 1e3:8.1f} ms  release {r * 1e3:8.1f} ms")
