#!/usr/bin/env python3
"""bench.py -- dscope and bpftrace side by side, on the same work, in one run.

    make bench                       builds the helpers, then runs this
    bench/bench.py --dscope build/dscope --bin build/bench [--runs 5]
                   [--only floor,startup,kernel,budget,hand,probe-off,printf,attach,
                           attach-libc,fbt-vfs,fbt-vfs-kfunc,fbt-tcp,fbt-all]
                   [--rows WORD,...]
                   [--quick] [--budget on|off]

The machines are shared and noisy, so every measurement alternates the two
tools run by run and reports medians and the ratio dscope/bpftrace.
bench/RESULTS.md explains each number and holds the last results.

Phases:
  floor    start-up at its floor: exec to exit, peak RSS, and the bpf() and
           read() calls (strace -c) of BEGIN { exit } and of a one-liner
           that needs the kernel's types, and whether each reads the
           kernel's BTF
  startup  exec to first event, exec to exit, peak RSS (time(1)'s %M)
  kernel   in-kernel ns per firing (kernel.bpf_stats_enabled, bpftool) and
           wall-clock ns added per call, on a tight getppid() loop, against
           the floors: empty programs on the same attachments
  budget   the overhead budget's own cost: the five syscall clauses with
           dscope's budget on and off, side by side (not run by default)
  hand     in-kernel ns per firing of dscope's code against the same
           clauses written by hand in C (bench/hand/hand.bpf.c, clang
           -target bpf), on the same attachment
  probe-off the probe effect when off: loop with its USDT probes against
           loop-nosdt, built without them, untraced
  printf   the highest printf record rate sustained with nothing lost
  attach   attach + detach of every syscall entry probe (slow for bpftrace)
  attach-libc attach + detach of a pid probe on every libc str* function
  fbt-vfs, fbt-vfs-kfunc, fbt-tcp, fbt-all  attach + detach of fbt probes
           (kernels with kprobes only; not run by default)
  (make bench-vm runs the attach phases in the Debian 12 6.1 guest)

Each workload is a row of WORKLOADS, PRINTF or the startup/attach tables;
a probe dscope cannot compile yet has None for its D and reads "n/a (not
yet implemented)": fill in the D when the feature lands.

Needs root, bpftool, /usr/bin/time, strace, and bpftrace (the Debian packages
time and bpftrace are installed with apt-get when missing).
Writes raw results to BIN/results.json and the tables to BIN/results.md.
"""

import argparse
import json
import os
import pty
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

NA = "n/a (not yet implemented)"

# ---------------------------------------------------------------- workloads
#
# In-kernel cost and wall-clock cost per call.  "mode" is what one
# iteration of bench/loop.c does (sys, func or usdt); LOOP is replaced by
# the loop binary's path; "calls" scales --calls for slow probes.  dscope
# puts every syscall probe in one raw tracepoint program on sys_enter (it
# fires for all syscalls and dispatches on the number); bpftrace attaches a
# BPF program to the perf tracepoint syscalls:sys_enter_getppid.  Their
# floors differ, and both are measured.

WORKLOADS = [
    {
        "name": "@ = count()",
        "mode": "sys",
        "dscope": "syscall::getppid:entry { @ = count(); }",
        "bpftrace": "tracepoint:syscalls:sys_enter_getppid { @ = count(); }",
    },
    {
        "name": "@[execname] = count()",
        "mode": "sys",
        "dscope": "syscall::getppid:entry { @[execname] = count(); }",
        "bpftrace": "tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }",
    },
    {
        "name": "@ = quantize(pid)",
        "mode": "sys",
        "dscope": "syscall::getppid:entry { @ = quantize(pid); }",
        "bpftrace": "tracepoint:syscalls:sys_enter_getppid { @ = hist(pid); }",
    },
    {
        "name": "false predicate /pid == 1/",
        "mode": "sys",
        "dscope": "syscall::getppid:entry /pid == 1/ { @ = count(); }",
        "bpftrace": "tracepoint:syscalls:sys_enter_getppid /pid == 1/ { @ = count(); }",
    },
    {
        "name": "@[ustack()] = count()",
        "mode": "sys",
        "dscope": "syscall::getppid:entry { @[ustack()] = count(); }",
        "bpftrace": "tracepoint:syscalls:sys_enter_getppid { @[ustack] = count(); }",
    },
    {
        "name": "pid provider: function entry, count()",
        "mode": "func",
        "calls": 0.1,  # a uprobe costs microseconds: a tenth of the calls
        "dscope": "pid$target::bench_getppid:entry { @ = count(); }",
        "bpftrace": "uprobe:LOOP:bench_getppid { @ = count(); }",
    },
    {
        "name": "usdt provider: bench:tick, count()",
        "mode": "usdt",
        "dscope": "bench$target:::tick { @ = count(); }",
        "bpftrace": "usdt:LOOP:bench:tick { @ = count(); }",
    },
]

# The container filter (issue 30): what syscall:::entry costs a process
# outside the container being traced.  CGID is a cgroup v2 group of the
# benchmark's own with no process in it, so the filter never matches the
# loop: dscope's -x zone (as a pragma: an option in the script) tests the
# thread's cgroup id before the clause runs; bpftrace's is a predicate.
# Both on every syscall's entry (raw_syscalls:sys_enter for bpftrace).
ZONE = [
    {
        "name": "no filter",
        "mode": "sys",
        "dscope": "syscall:::entry { @ = count(); }",
        "bpftrace": "tracepoint:raw_syscalls:sys_enter { @ = count(); }",
    },
    {
        "name": "zone filter, not matching",
        "mode": "sys",
        "dscope": "#pragma D option zone=CGID\nsyscall:::entry { @ = count(); }",
        "bpftrace": "tracepoint:raw_syscalls:sys_enter /cgroup == CGID/ { @ = count(); }",
    },
    {
        "name": "predicate /cgroup == ID/, not matching",
        "mode": "sys",
        "dscope": "syscall:::entry /cgroup == CGID/ { @ = count(); }",
        "bpftrace": "tracepoint:raw_syscalls:sys_enter /cgroup == CGID/ { @ = count(); }",
    },
]

# The probe effect when off: bench/loop (USDT probes) against loop-nosdt
# (the same source with the probes compiled out), untraced.  "scale"
# multiplies --calls: the loops without a syscall take about a
# nanosecond an iteration and need many more to be timed well.
PROBE_OFF = [
    {"mode": "usdt", "name": "bench:tick, then getppid()", "scale": 1},
    {"mode": "gated", "name": "if (bench_tock_semaphore) bench:tock, then getppid()",
     "scale": 1},
    {"mode": "tick", "name": "bench:tick alone", "scale": 100},
    {"mode": "tock", "name": "if (bench_tock_semaphore) bench:tock alone", "scale": 100},
]

# Start-up: "first" is the time from exec to the line "ready" on the
# tool's terminal (the first event's output), "total" from exec to exit.
STARTUP = [
    {
        "name": "BEGIN { printf; exit }",
        "dscope": 'BEGIN { printf("ready\\n"); exit(0); }',
        "bpftrace": 'BEGIN { printf("ready\\n"); exit(); }',
    },
    {
        "name": "syscall:::entry { printf; exit }",
        "dscope": 'syscall:::entry { printf("ready\\n"); exit(0); }',
        "bpftrace": 'tracepoint:raw_syscalls:sys_enter { printf("ready\\n"); exit(); }',
    },
    {
        "name": "syscall:::entry { @[execname] = count() } for 1 s",
        "dscope": "syscall:::entry { @[execname] = count(); } tick-1s { exit(0); }",
        "bpftrace": "tracepoint:raw_syscalls:sys_enter { @[comm] = count(); } "
                    "interval:s:1 { exit(); }",
    },
]

# Start-up at its floor: the least a script can ask, and a one-liner that
# needs the kernel's types (from BTF, for both tools).  The targets are
# bench/RESULTS.md's: BEGIN at most 0.05x bpftrace's wall time, 5 MiB and
# no read of the kernel's BTF; kernel types at most 0.1x.
FLOOR = [
    {
        "name": "BEGIN { exit }",
        "dscope": "BEGIN { exit(0); }",
        "bpftrace": "BEGIN { exit(); }",
        "target": 0.05,
    },
    {
        "name": "BEGIN { curthread->real_parent->pid; exit }",
        "dscope": 'BEGIN { printf("%d\\n", curthread->real_parent->pid); exit(0); }',
        "bpftrace": 'BEGIN { printf("%d\\n", curtask->real_parent->pid); exit(); }',
        "target": 0.1,
    },
]

# dscope's code against hand-written C for the same clauses (hand.bpf.c
# names them); "hand" lists the programs handload attaches.
HAND = [
    {"name": "@ = count()", "hand": ["count"],
     "dscope": "syscall::getppid:entry { @ = count(); }"},
    {"name": "@[execname] = count()", "hand": ["execname"],
     "dscope": "syscall::getppid:entry { @[execname] = count(); }"},
    {"name": "false predicate /pid == 1/", "hand": ["falsepred"],
     "dscope": "syscall::getppid:entry /pid == 1/ { @ = count(); }"},
    {"name": "@[ustack()] = count()", "hand": ["ustack"],
     "dscope": "syscall::getppid:entry { @[ustack()] = count(); }"},
    {"name": "quantize() of entry-to-return latency", "hand": ["lat_entry", "lat_return"],
     "dscope": "syscall::getppid:entry { self->ts = timestamp; } "
               "syscall::getppid:return /self->ts/ { "
               "@ = quantize(timestamp - self->ts); self->ts = 0; }"},
]

# Attach and detach every syscall entry probe, exiting at the first event.
# dscope: still one raw tracepoint; bpftrace: one perf event per syscall.
ATTACH = {
    "name": "all syscall entries, exit at first event",
    "dscope": 'syscall:::entry { printf("ready\\n"); exit(0); }',
    "bpftrace": 'tracepoint:syscalls:sys_enter_* { printf("ready\\n"); exit(); }',
}

# Attach and detach of many uprobes: every libc function named str*, for
# a command that calls some at once (echo's setlocale).  Both tools start
# the command only once their probes are in.  On a kernel without
# uprobe_multi (6.1), both make one perf event per probe.
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
ATTACH_LIBC = {
    "name": "libc str* entries, exit at first event",
    "dscope": 'pid$target:libc.so.6:str*:entry { printf("ready\\n"); exit(0); }',
    "bpftrace": f'uprobe:{LIBC}:str* {{ printf("ready\\n"); exit(); }}',
    "command": "/bin/echo hi",
}

# fbt (kernels with kprobes: the 6.1 guest).  Every vfs_* function: the
# first event comes at once (the tool's own reads).  bpftrace twice, with
# kprobes and with kfuncs (fentry).  tcp_*: the command connects to a
# closed loopback port, so tcp_v4_connect and its kin run.  fbt:::entry,
# every traceable function, is dscope's alone: bpftrace refuses a probe
# count that large, and the point is that it attaches, fires and cleans up.
ATTACH_FBT_VFS = {
    "name": "fbt vfs_* entries (bpftrace kprobe), exit at first event",
    "dscope": 'fbt::vfs_*:entry { printf("ready\\n"); exit(0); }',
    "bpftrace": 'kprobe:vfs_* { printf("ready\\n"); exit(); }',
}
ATTACH_FBT_VFS_KFUNC = {
    "name": "fbt vfs_* entries (bpftrace kfunc), exit at first event",
    "dscope": ATTACH_FBT_VFS["dscope"],
    "bpftrace": 'kfunc:vfs_* { printf("ready\\n"); exit(); }',
}
ATTACH_FBT_TCP = {
    "name": "fbt tcp_* entries, a loopback connect, exit at first event",
    "dscope": 'fbt::tcp_*:entry { printf("ready\\n"); exit(0); }',
    "bpftrace": 'kprobe:tcp_* { printf("ready\\n"); exit(); }',
    "command": "TCPCONNECT",
}
ATTACH_FBT_ALL = {
    "name": "fbt:::entry, every traceable kernel function, exit at first event",
    "dscope": 'fbt:::entry { printf("ready\\n"); exit(0); }',
    # where the kernel has kprobe_multi (6.12), bpftrace attaches its
    # wildcard in one link too; without, one kprobe at a time
    "bpftrace": 'kprobe:* { printf("ready\\n"); exit(); }',
}
ATTACH_PHASES = {
    "attach": ATTACH, "attach-libc": ATTACH_LIBC, "fbt-vfs": ATTACH_FBT_VFS,
    "fbt-vfs-kfunc": ATTACH_FBT_VFS_KFUNC, "fbt-tcp": ATTACH_FBT_TCP,
    "fbt-all": ATTACH_FBT_ALL,
}

# printf throughput: one record per getppid() of the -c command.
PRINTF = {
    "dscope": 'syscall::getppid:entry /pid == $target/ { printf("getppid %d\\n", tid); }',
    "bpftrace": 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ '
                '{ printf("getppid %d\\n", tid); }',
}
PRINTF_RATES = [10_000, 30_000, 100_000, 300_000, 1_000_000, 2_000_000, 0]  # 0: unpaced

DROP_PATTERNS = {
    "dscope": re.compile(rb"(\d+) drops? on CPU"),
    "bpftrace": re.compile(rb"Lost (\d+) events"),
}

TOOLS = ("dscope", "bpftrace")


# ------------------------------------------------------------------- setup

class Env:
    """Paths to the binaries under test, copied to a private directory so
    that a rebuild of build/dscope during a run changes nothing."""

    def __init__(self, args):
        self.dir = tempfile.mkdtemp(prefix="dscope-bench.")
        self.dscope = os.path.join(self.dir, "dscope")
        self.loop = os.path.join(self.dir, "loop")
        self.floor = os.path.join(self.dir, "floor")
        self.loop_nosdt = os.path.join(self.dir, "loop-nosdt")
        shutil.copy2(args.dscope, self.dscope)
        shutil.copy2(os.path.join(args.bin, "loop"), self.loop)
        shutil.copy2(os.path.join(args.bin, "loop-nosdt"), self.loop_nosdt)
        shutil.copy2(os.path.join(args.bin, "floor"), self.floor)
        self.handload = os.path.join(self.dir, "handload")
        self.hand_obj = os.path.join(self.dir, "hand.bpf.o")
        shutil.copy2(os.path.join(args.bin, "handload"), self.handload)
        shutil.copy2(os.path.join(args.bin, "hand.bpf.o"), self.hand_obj)
        self.usdt = b"stapsdt" in open(self.loop, "rb").read()
        # a connect to the discard port of loopback, refused: TCP code runs
        self.tcpconnect = os.path.join(self.dir, "tcpconnect")
        with open(self.tcpconnect, "w") as f:
            f.write("#!/bin/bash\n(echo > /dev/tcp/127.0.0.1/9) 2>/dev/null\nexit 0\n")
        os.chmod(self.tcpconnect, 0o755)
        self.cgroup = None
        self.budget_off = args.budget == "off"

    def cgroup_id(self):
        """The id of an empty cgroup v2 group of the benchmark's own (the
        inode number of its directory, as the kernel defines a cgroup id),
        made at the first call."""
        if not self.cgroup:
            root = "/sys/fs/cgroup"
            if not os.path.exists(os.path.join(root, "cgroup.controllers")):
                root = "/sys/fs/cgroup/unified"  # a hybrid mount
            self.cgroup = os.path.join(root, f"dscope-bench-{os.getpid()}")
            os.mkdir(self.cgroup)
        return os.stat(self.cgroup).st_ino

    def argv(self, tool, prog, command=None):
        """The command line running PROG with TOOL (and -c COMMAND)."""
        prog = prog.replace("LOOP", self.loop)
        if "CGID" in prog:
            prog = prog.replace("CGID", str(self.cgroup_id()))
        if tool == "dscope":
            argv = [self.dscope, "-q", "-n", prog]
            if self.budget_off:
                argv[1:1] = ["-x", "budget=off"]
        else:
            argv = ["bpftrace", "-e", prog]
        if command:
            argv += ["-c", command.replace("TCPCONNECT", self.tcpconnect)]
        return argv

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.cgroup:
            os.rmdir(self.cgroup)


def ensure_installed(path, package):
    if os.path.exists(path):
        return
    print(f"bench: {path} is missing; installing the Debian package {package}",
          file=sys.stderr, flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq", package]
    if subprocess.run(cmd, env=env).returncode:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
        subprocess.run(cmd, env=env, check=True)


def version(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    return (r.stdout or r.stderr).strip().splitlines()[0]


def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "kernel": os.uname().release,
        "nproc": os.cpu_count(),
        "cpu": model,
        "bpftrace": version(["bpftrace", "--version"]),
        "bpftool": version(["bpftool", "version"]),
    }


# ------------------------------------------------------- one-shot processes

def run_oneshot(argv, marker=b"ready", timeout=60.0, rss=False):
    """Run ARGV on a pseudo-terminal, as a user at a shell would.  Returns
    the seconds from exec to the first MARKER in its output ("first", None
    when it never appears), from exec to exit ("total", None on timeout,
    when the process is killed) and its output.

    With RSS, ARGV runs under /usr/bin/time and "rss_kb" is its peak RSS.
    Not wait4()'s ru_maxrss of our own child: exec records the peak RSS of
    the image it replaces, and a child forked from this Python process
    starts with Python's ~17 MiB.  time(1) is small, and what it forks
    starts with almost nothing.  Its own start-up would blur the times, so
    timings come from runs without it."""
    rss_file = None
    if rss:
        rss_file = tempfile.NamedTemporaryFile(prefix="rss.")
        argv = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + argv
    master, slave = pty.openpty()
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    pidfd = os.pidfd_open(p.pid)
    out, first, total, killed = b"", None, None, False
    deadline = t0 + timeout
    while True:
        left = None if killed else deadline - time.perf_counter()
        if left is not None and left <= 0:
            p.kill()  # and wait for it: its exit is what takes long
            killed = True
            continue
        ready, _, _ = select.select([master, pidfd], [], [], left)
        now = time.perf_counter()
        if master in ready:
            try:
                out += os.read(master, 1 << 16)
            except OSError:  # EIO: the terminal's last writer is gone
                pass
            if first is None and marker and marker in out:
                first = now - t0
        if pidfd in ready:
            _, status, _ = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            if not killed:
                total = now - t0
            break
    while True:  # what is left on the terminal
        r, _, _ = select.select([master], [], [], 0)
        if not r:
            break
        try:
            data = os.read(master, 1 << 16)
        except OSError:
            break
        if not data:
            break
        out += data
    os.close(master)
    os.close(pidfd)
    peak = None
    if rss_file:
        lines = open(rss_file.name).read().split()
        peak = int(lines[-1]) if lines and lines[-1].isdigit() else None
        rss_file.close()
    return {"first": first, "total": total, "rss_kb": peak,
            "rc": p.returncode, "out": out.decode(errors="replace")}


# --------------------------------------------------- the loop under a tool

class Session:
    """bench/loop in serve mode, run by a tool with -c (or alone when TOOL is
    None).  -c starts the command only once the tool has attached, so the
    loop's "ready" means tracing is on.  loop() then runs one timed loop."""

    def __init__(self, env, tool, prog, timeout=60.0):
        self.fifo_dir = tempfile.mkdtemp(prefix="fifo.", dir=env.dir)
        cmd = os.path.join(self.fifo_dir, "cmd")
        resp = os.path.join(self.fifo_dir, "resp")
        os.mkfifo(cmd)
        os.mkfifo(resp)
        # O_RDWR: opening never blocks, whatever the tool does
        self.cmd = os.open(cmd, os.O_RDWR)
        self.resp = os.open(resp, os.O_RDWR)
        self.buf = b""
        self.log = tempfile.TemporaryFile(dir=env.dir)
        command = f"{env.loop} serve {cmd} {resp}"
        argv = env.argv(tool, prog, command) if tool else command.split()
        self.p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                  stdout=self.log, stderr=self.log)
        if self._line(timeout) != "ready":
            raise RuntimeError(f"{argv}: did not start:\n{self.output()}")

    def _line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or self.p.poll() is not None:
                return None
            r, _, _ = select.select([self.resp], [], [], min(left, 0.1))
            if r:
                self.buf += os.read(self.resp, 4096)
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def loop(self, mode, n):
        """Seconds the loop took for N calls."""
        os.write(self.cmd, f"{mode} {n}\n".encode())
        line = self._line(600)
        if line is None:
            raise RuntimeError(f"loop {mode} {n} failed:\n{self.output()}")
        calls, ns = map(int, line.split())
        if ns < 0:
            raise RuntimeError(f"loop: mode {mode} is not available")
        return ns / 1e9

    def prog_ids(self):
        """The BPF programs the tool holds open (from /proc/PID/fdinfo)."""
        ids = set()
        fdinfo = f"/proc/{self.p.pid}/fdinfo"
        for fd in os.listdir(fdinfo):
            try:
                text = open(os.path.join(fdinfo, fd)).read()
            except OSError:
                continue
            if "prog_type:" in text and "link_type:" not in text:
                ids.add(int(re.search(r"prog_id:\s*(\d+)", text).group(1)))
        return ids

    def output(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def close(self, timeout=90.0):
        os.write(self.cmd, b"quit\n")
        try:
            self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        os.close(self.cmd)
        os.close(self.resp)
        shutil.rmtree(self.fifo_dir, ignore_errors=True)


class Floor:
    """bench/floor: empty programs on sys_enter (raw) and/or
    sys_enter_getppid (tp), attached until close()."""

    def __init__(self, env, which):
        self.p = subprocess.Popen([env.floor, which], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.ids = {}
        for line in self.p.stdout:
            word, *rest = line.split()
            if word == "ready":
                break
            self.ids[word] = int(rest[0])
        else:
            raise RuntimeError(f"floor {which} failed")

    def close(self):
        self.p.stdin.close()
        self.p.wait()


class Hand:
    """bench/hand: the hand-written programs NAMES, attached until close()."""

    def __init__(self, env, names):
        self.p = subprocess.Popen([env.handload, env.hand_obj] + names,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        self.ids = {}
        for line in self.p.stdout:
            word, *rest = line.split()
            if word == "ready":
                break
            self.ids[word] = int(rest[0])
        else:
            raise RuntimeError(f"handload {names} failed")

    def close(self):
        self.p.stdin.close()
        self.p.wait()


# ------------------------------------------------------------- BPF stats

class BpfStats:
    """kernel.bpf_stats_enabled on for the duration of a with-block; the
    previous value (normally 0) is put back even on an exception."""

    PATH = "/proc/sys/kernel/bpf_stats_enabled"

    def __enter__(self):
        self.old = open(self.PATH).read().strip()
        with open(self.PATH, "w") as f:
            f.write("1")
        return self

    def __exit__(self, *exc):
        with open(self.PATH, "w") as f:
            f.write(self.old)


def prog_stats():
    """{prog id: (run_time_ns, run_cnt)} for every program, from bpftool."""
    r = subprocess.run(["bpftool", "prog", "show", "-j"],
                       capture_output=True, text=True, check=True)
    return {p["id"]: (p.get("run_time_ns", 0), p.get("run_cnt", 0))
            for p in json.loads(r.stdout)}


def per_firing(before, after, ids, calls):
    """ns per firing over the programs among IDS that ran for the loop (at
    least 90% of CALLS firings), and the firings that were not the loop's
    (other processes' syscalls for a program on sys_enter)."""
    ns = cnt = 0
    for i in ids:
        if i in before and i in after:
            dns = after[i][0] - before[i][0]
            dcnt = after[i][1] - before[i][1]
            if dcnt >= 0.9 * calls:
                ns, cnt = ns + dns, cnt + dcnt
    if cnt == 0:
        return None, None
    return ns / cnt, cnt - calls


# ------------------------------------------------------------ the phases

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def phase_startup(env, runs, log):
    """Each run of each tool twice: once timed, once under time(1) for RSS.
    The peak RSS of /bin/true measured the same way is the method's floor."""
    floor = med(run_oneshot(["/bin/true"], marker=None, rss=True)["rss_kb"]
                for _ in range(3))
    rows = []
    for w in STARTUP:
        res = {t: [] for t in TOOLS}
        for i in range(runs):
            for tool in TOOLS:
                r = run_oneshot(env.argv(tool, w[tool]))
                r["rss_kb"] = run_oneshot(env.argv(tool, w[tool]), rss=True)["rss_kb"]
                if r["rc"] != 0:
                    log(f"  {tool} rc={r['rc']}: {r['out'][-300:]}")
                res[tool].append(r)
        rows.append({"name": w["name"], "d": w["dscope"], "bt": w["bpftrace"],
                     **{t: summarize_oneshot(res[t]) for t in TOOLS}})
        log(f"  {w['name']}: " + "  ".join(
            f"{t} first {fmt_s(rows[-1][t]['first'])} total "
            f"{fmt_s(rows[-1][t]['total'])} rss {rows[-1][t]['rss_kb']} KiB"
            for t in TOOLS))
    return {"rss_floor_kb": floor, "rows": rows}


def syscall_counts(argv):
    """bpf() and read() calls of ARGV (strace -f), and whether it opened the
    kernel's BTF."""
    log = tempfile.NamedTemporaryFile(prefix="strace.")
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=bpf,read,open,openat",
                    "-o", log.name] + argv, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = open(log.name, errors="replace").read()
    log.close()
    return {"bpf": len(re.findall(r"^\d+\s+bpf\(", text, re.M)),
            "read": len(re.findall(r"^\d+\s+read\(", text, re.M)),
            "btf": '"/sys/kernel/btf/vmlinux"' in text}


def phase_floor(env, runs, log):
    """Each tool in turn, run by run: a timed run, a run under time(1) for
    the peak RSS, and (once) a run under strace for the counts."""
    rows = []
    for w in FLOOR:
        res = {t: [] for t in TOOLS}
        for i in range(runs):
            for tool in TOOLS:
                r = run_oneshot(env.argv(tool, w[tool]), marker=None)
                r["rss_kb"] = run_oneshot(env.argv(tool, w[tool]), marker=None,
                                          rss=True)["rss_kb"]
                if r["rc"] != 0:
                    log(f"  {tool} rc={r['rc']}: {r['out'][-300:]}")
                res[tool].append(r)
        row = {"name": w["name"], "d": w["dscope"], "bt": w["bpftrace"],
               "target": w["target"]}
        for t in TOOLS:
            row[t] = summarize_oneshot(res[t])
            row[t].update(syscall_counts(env.argv(t, w[t])))
        rows.append(row)
        log(f"  {w['name']}: " + "  ".join(
            f"{t} total {fmt_s(row[t]['total'])} rss {row[t]['rss_kb']} KiB "
            f"bpf {row[t]['bpf']} read {row[t]['read']} btf {row[t]['btf']}"
            for t in TOOLS))
    return rows


def phase_hand(env, runs, n, log):
    """dscope's program and the hand-written one in turn, run by run, each
    on a fresh serve loop: in-kernel ns per firing from bpf_stats."""
    rows = []
    for w in HAND:
        res = {"dscope": [], "hand": []}
        for i in range(runs):
            for who in ("dscope", "hand"):
                if who == "dscope":
                    sess = Session(env, "dscope", w["dscope"])
                    try:
                        ids = sess.prog_ids()
                        with BpfStats():
                            before = prog_stats()
                            sess.loop("sys", n)
                            after = prog_stats()
                    finally:
                        sess.close()
                else:
                    sess = Session(env, None, None)
                    hand = Hand(env, w["hand"])
                    try:
                        ids = set(hand.ids.values())
                        with BpfStats():
                            before = prog_stats()
                            sess.loop("sys", n)
                            after = prog_stats()
                    finally:
                        hand.close()
                        sess.close()
                ns, _ = per_firing(before, after, ids, n)
                res[who].append(ns)
                log(f"    {w['name']:<40} {who:<7} {fmt_ns(ns)}/firing")
        rows.append({"name": w["name"], "d": w["dscope"], "hand": w["hand"],
                     "dscope": med(res["dscope"]), "handns": med(res["hand"]),
                     "all": res})
    return rows


def summarize_oneshot(rs):
    return {
        "first": med(r["first"] for r in rs),
        "total": med(r["total"] for r in rs),
        "rss_kb": med(r["rss_kb"] for r in rs),
        "timeouts": sum(r["total"] is None for r in rs),
        "runs": len(rs),
        "all_first": [r["first"] for r in rs],
        "all_total": [r["total"] for r in rs],
    }


def released(timeout):
    """Seconds until no dscope-detach process is left: dscope hands the
    release of uprobe perf events (the kernel takes ~0.1 s each) to a
    detached child, so its exit is not when the kernel is done."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if subprocess.run(["pgrep", "-x", "dscope-detach"],
                          capture_output=True).returncode != 0:
            return time.perf_counter() - t0
        time.sleep(0.05)
    return None


def phase_attach(env, runs, timeout, log, work=ATTACH):
    res = {t: [] for t in TOOLS}
    for i in range(runs):
        for tool in TOOLS:
            if work[tool] is None:
                continue
            r = run_oneshot(env.argv(tool, work[tool], work.get("command")),
                            timeout=timeout)
            rel = released(timeout) if tool == "dscope" else 0.0
            r["released"] = r["total"] + rel if r["total"] and rel is not None else None
            res[tool].append(r)
            log(f"  {tool} run {i + 1}: first {fmt_s(r['first'])} "
                f"total {fmt_s(r['total'])} released {fmt_s(r['released'])} "
                f"(cap {timeout:.0f} s)")
    out = {"name": work["name"], "d": work["dscope"], "bt": work["bpftrace"],
           "timeout": timeout,
           **{t: summarize_oneshot(res[t]) for t in TOOLS}}
    for t in TOOLS:
        out[t]["released"] = med(r["released"] for r in res[t])
        out[t]["n/a"] = work[t] is None
    return out


def measure_kernel(env, sess, mode, n):
    """One timed loop for the wall clock (no stats, no floors), then one
    with both floors attached and bpf stats on, for the in-kernel costs of
    the tool's programs and of the floors in the same window."""
    wall = sess.loop(mode, n)
    floor = Floor(env, "both")
    try:
        ids = sess.prog_ids() if sess.p else set()
        with BpfStats():
            before = prog_stats()
            sess.loop(mode, n)
            after = prog_stats()
    finally:
        floor.close()
    tool_ns, extra = per_firing(before, after, ids, n)
    raw_ns, raw_extra = per_firing(before, after, {floor.ids["raw"]}, n)
    tp_ns, _ = per_firing(before, after, {floor.ids["tp"]}, n)
    return {"wall": wall / n * 1e9, "kernel": tool_ns, "other_firings": extra,
            "floor_raw": raw_ns, "floor_tp": tp_ns, "floor_raw_other": raw_extra}


def phase_kernel(env, runs, n, log, workloads=WORKLOADS):
    """Returns the baselines (untraced loop, floors alone) and the rows."""
    modes = sorted({w["mode"] for w in workloads if w["mode"] != "usdt" or env.usdt}
                   | {"sys"})
    base = {m: [] for m in modes}
    floor_wall = {"raw": [], "tp": []}
    rows = [{"name": w["name"], "mode": w["mode"], "d": w["dscope"],
             "bt": w["bpftrace"], "dscope": [], "bpftrace": []} for w in workloads]
    for i in range(runs):
        log(f"  run {i + 1}/{runs}")
        # the loop alone, then with each floor alone: the wall-clock baselines
        sess = Session(env, None, None)
        try:
            for m in modes:
                base[m].append(sess.loop(m, n) / n * 1e9)
            for which in ("raw", "tp"):
                fl = Floor(env, which)
                try:
                    floor_wall[which].append(sess.loop("sys", n) / n * 1e9)
                finally:
                    fl.close()
        finally:
            sess.close()
        for w, row in zip(workloads, rows):
            if w["mode"] == "usdt" and not env.usdt:
                continue
            calls = int(n * w.get("calls", 1))
            for tool in TOOLS:
                if w[tool] is None:
                    continue
                sess = Session(env, tool, w[tool])
                try:
                    row[tool].append(measure_kernel(env, sess, w["mode"], calls))
                finally:
                    sess.close()
                r = row[tool][-1]
                log(f"    {w['name']:<40} {tool:<8} kernel {fmt_ns(r['kernel'])} "
                    f"(floors raw {fmt_ns(r['floor_raw'])} tp {fmt_ns(r['floor_tp'])}, "
                    f"other firings {r['other_firings']}) wall {fmt_ns(r['wall'])}/call")
    baseline = {
        "loop": {m: med(base[m]) for m in modes},
        "floor_wall_added": {k: med(v) - med(base["sys"]) for k, v in floor_wall.items()},
        "all": {"loop": base, "floor_wall": floor_wall},
    }
    for row in rows:
        for tool in TOOLS:
            rs = row[tool]
            if not rs:
                row[tool] = None
                continue
            loop = baseline["loop"].get(row["mode"])
            row[tool] = {
                "kernel": med(r["kernel"] for r in rs),
                "floor_raw": med(r["floor_raw"] for r in rs),
                "floor_tp": med(r["floor_tp"] for r in rs),
                "wall_added": med(r["wall"] for r in rs) - loop if loop else None,
                "other_firings": med(r["other_firings"] for r in rs),
                "runs": rs,
            }
    return baseline, rows


def phase_budget(env, runs, n, log):
    """The overhead budget's own cost: the five syscall clauses of
    WORKLOADS with dscope's budget on (its default) and off (-x
    budget=off), alternating run by run and row by row, so the noise of a
    shared machine falls on both alike.  The wall clock's loop runs
    without the kernel's stats, so it holds what the budget's sampled
    BPF_ENABLE_STATS and its reading cost; the in-kernel ns is measured
    with stats on throughout (as the kernel phase does), the same for
    both settings."""
    clauses = [w for w in WORKLOADS if w["mode"] == "sys"][:5]
    rows = [{"name": w["name"], "d": w["dscope"], "on": [], "off": []} for w in clauses]
    base = []
    keep = env.budget_off
    try:
        for i in range(runs):
            log(f"  run {i + 1}/{runs}")
            sess = Session(env, None, None)
            try:
                base.append(sess.loop("sys", n) / n * 1e9)
            finally:
                sess.close()
            for w, row in zip(clauses, rows):
                order = ("on", "off") if i % 2 == 0 else ("off", "on")
                for setting in order:
                    env.budget_off = setting == "off"
                    sess = Session(env, "dscope", w["dscope"])
                    try:
                        row[setting].append(measure_kernel(env, sess, "sys", n))
                    finally:
                        sess.close()
                    r = row[setting][-1]
                    log(f"    {w['name']:<32} budget {setting:<3} kernel "
                        f"{fmt_ns(r['kernel'])} wall {fmt_ns(r['wall'])}/call")
    finally:
        env.budget_off = keep
    loop = med(base)
    for row in rows:
        for setting in ("on", "off"):
            rs = row[setting]
            walls = [r["wall"] - loop for r in rs]
            row[setting] = {"kernel": med(r["kernel"] for r in rs),
                            "kernel_range": (min(r["kernel"] for r in rs),
                                             max(r["kernel"] for r in rs)),
                            "wall_added": med(walls),
                            "wall_added_range": (min(walls), max(walls)), "runs": rs}
    return {"loop": loop, "all_loop": base}, rows


def report_budget(budget, w):
    base, rows = budget
    w("### The overhead budget's own cost: budget on (default) and off, side by side")
    w("")
    w(f"Untraced loop: {fmt_ns(base['loop'])}/call.  Medians, with the range of "
      "the runs in brackets; on and off alternate run by run.")
    w("")
    w("| clause | kernel ns/firing, on | off | wall ns added/call, on | off |")
    w("|---|---|---|---|---|")
    for r in rows:
        on, off = r["on"], r["off"]

        def rng(x, k):
            lo, hi = x[k + "_range"]
            return f"{fmt_ns(x[k])} ({lo:.0f}-{hi:.0f})"
        w(f"| `{r['d']}` | {rng(on, 'kernel')} | {rng(off, 'kernel')} "
          f"| {rng(on, 'wall_added')} | {rng(off, 'wall_added')} |")
    w("")


def run_loop(path, mode, n):
    """ns per iteration of one `loop run MODE N`, untraced."""
    r = subprocess.run([path, "run", mode, str(n)], capture_output=True,
                       text=True, check=True)
    calls, ns = map(int, r.stdout.split())
    return ns / calls


def quartiles(xs):
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


def phase_probe_off(env, pairs, n, log):
    """Each mode in pairs of runs, one of each build, the order alternating
    pair by pair.  The per-pair ratio cancels most of the machine's drift;
    a difference counts as measurable when the middle half of the per-pair
    ratios lies wholly on one side of 1.  The same test of the build
    without probes against itself (its even runs against its odd ones,
    which the alternation puts first and second in their pairs) shows what
    the method reads when there is nothing to find."""
    rows = []
    if not env.usdt:
        log("  loop has no USDT probes (no <sys/sdt.h>): skipped")
        return rows
    for w in PROBE_OFF:
        calls = n * w["scale"]
        on, off, pair = [], [], []
        for i in range(pairs):
            order = [(env.loop, on), (env.loop_nosdt, off)]
            for path, xs in order if i % 2 == 0 else order[::-1]:
                xs.append(run_loop(path, w["mode"], calls))
            pair.append(on[-1] / off[-1])
        q1, q3 = quartiles(pair)
        aa = [a / b for a, b in zip(off[0::2], off[1::2])]
        aq1, aq3 = quartiles(aa) if len(aa) >= 2 else (None, None)
        rows.append({"mode": w["mode"], "name": w["name"], "calls": calls,
                     "probes": med(on), "noprobes": med(off),
                     "ratio": med(pair), "q1": q1, "q3": q3,
                     "measurable": q1 > 1 or q3 < 1,
                     "aa_q1": aq1, "aa_q3": aq3, "all": {"probes": on, "noprobes": off}})
        r = rows[-1]
        log(f"  {w['mode']:<6} probes {r['probes']:.2f} ns/iter  without {r['noprobes']:.2f}"
            f"  ratio {r['ratio']:.3f} (pairs p25-p75 {q1:.3f}-{q3:.3f})")
    return rows


def printf_once(env, tool, rate, seconds):
    """Run the printf workload on `loop paced RATE SECONDS`; count what
    arrives.  Clean means every call printed a line and no drops."""
    argv = env.argv(tool, PRINTF[tool], f"{env.loop} paced {rate} {seconds}")
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    lines, tail, err = 0, b"", b""
    streams = {p.stdout.fileno(): "out", p.stderr.fileno(): "err"}
    deadline = time.monotonic() + seconds + 60
    while streams and time.monotonic() < deadline:
        r, _, _ = select.select(list(streams), [], [], 1)
        for fd in r:
            data = os.read(fd, 1 << 20)
            if not data:
                del streams[fd]
            elif streams[fd] == "err":
                err += data
            else:
                chunk = tail + data
                cut = chunk.rfind(b"\n") + 1
                whole, tail = chunk[:cut], chunk[cut:]
                lines += whole.count(b"getppid ")
    if streams:
        p.kill()
    p.wait()
    loop_line = re.search(rb"^(\d+) (\d+)$", err, re.M)
    drops = sum(int(x) for x in DROP_PATTERNS[tool].findall(err))
    calls = int(loop_line.group(1)) if loop_line else None
    secs = int(loop_line.group(2)) / 1e9 if loop_line else None
    return {"rate": rate, "calls": calls, "lines": lines, "drops": drops,
            "achieved": calls / secs if calls and secs else None,
            "clean": calls is not None and lines == calls and drops == 0,
            "stderr": err.decode(errors="replace")[-300:]}


def phase_printf(env, runs, seconds, log):
    res = {t: [] for t in TOOLS}
    for rate in PRINTF_RATES:
        for tool in TOOLS:
            rs = [printf_once(env, tool, rate, seconds) for _ in range(runs)]
            res[tool].append({
                "rate": rate,
                "clean": all(r["clean"] for r in rs),
                "achieved": med(r["achieved"] for r in rs),
                "lost": max((r["calls"] or 0) - r["lines"] for r in rs),
                "drops": max(r["drops"] for r in rs),
                "runs": rs,
            })
            x = res[tool][-1]
            log(f"  rate {rate or 'max':>9} {tool:<8} achieved {fmt_rate(x['achieved'])} "
                f"lost {x['lost']} drops {x['drops']} {'clean' if x['clean'] else 'LOSS'}")
    best = {}
    for tool in TOOLS:
        clean = [x["achieved"] for x in res[tool] if x["clean"] and x["achieved"]]
        best[tool] = max(clean) if clean else None
    return {"steps": res, "best": best, "seconds": seconds,
            "d": PRINTF["dscope"], "bt": PRINTF["bpftrace"]}


# ------------------------------------------------------------- reporting

def fmt_s(s):
    return "-" if s is None else f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"


def fmt_ns(ns):
    return "-" if ns is None else f"{ns:.0f} ns"


def fmt_rate(r):
    return "-" if r is None else f"{r / 1000:.0f} k/s"


def above(ns, floor):
    """NS, and in brackets how far above the floor it is."""
    if ns is None or floor is None:
        return fmt_ns(ns)
    return f"{ns:.0f} ns (+{ns - floor:.0f})"


def ratio(d, b):
    if d is None or b is None or b == 0:
        return "-"
    return f"{d / b:.2f}x"


def report(m, startup, kernel, printf, attach, args, probe_off=None, floor=None,
           hand=None, zone=None):
    out = []
    w = out.append
    w(f"Measured {m['date']} on Linux {m['kernel']}, {m['nproc']} CPUs ({m['cpu']}); "
      f"{m['bpftrace']}; {m['bpftool']}.")
    w(f"Medians of {args.runs} runs (attach: {args.attach_runs}), tools alternating run by run.")
    w("")
    if floor:
        w("### Start-up at its floor")
        w("")
        w("| one-liner | dscope exec to exit | bpftrace | ratio | target | dscope peak RSS "
          "| bpftrace peak RSS | dscope bpf() | bpftrace bpf() | dscope read() "
          "| bpftrace read() | reads kernel BTF (dscope, bpftrace) |")
        w("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in floor:
            d, b = r["dscope"], r["bpftrace"]
            w(f"| `{r['d']}` | {fmt_s(d['total'])} | {fmt_s(b['total'])} | "
              f"{ratio(d['total'], b['total'])} | <= {r['target']}x | "
              f"{d['rss_kb'] / 1024:.1f} MiB | {b['rss_kb'] / 1024:.1f} MiB | "
              f"{d['bpf']} | {b['bpf']} | {d['read']} | {b['read']} | "
              f"{'yes' if d['btf'] else 'no'}, {'yes' if b['btf'] else 'no'} |")
        w("")
    if hand:
        w("### dscope's code against hand-written BPF (in-kernel ns per firing)")
        w("")
        w("Both on the raw tracepoints sys_enter/sys_exit, testing the syscall "
          "number first; bench/hand/hand.bpf.c is the hand-written side.")
        w("")
        w("| clause | dscope | hand-written | dscope/hand |")
        w("|---|---|---|---|")
        for r in hand:
            w(f"| `{r['d']}` | {fmt_ns(r['dscope'])} | {fmt_ns(r['handns'])} | "
              f"{ratio(r['dscope'], r['handns'])} |")
        w("")
    if startup:
        w("### Start-up and memory")
        w("")
        w("| one-liner | dscope first event | bpftrace first event | ratio "
          "| dscope total | bpftrace total | ratio | dscope peak RSS | bpftrace peak RSS | ratio |")
        w("|---|---|---|---|---|---|---|---|---|---|")
        for r in startup["rows"]:
            d, b = r["dscope"], r["bpftrace"]
            w(f"| `{r['name']}` | {fmt_s(d['first'])} | {fmt_s(b['first'])} | "
              f"{ratio(d['first'], b['first'])} | {fmt_s(d['total'])} | {fmt_s(b['total'])} | "
              f"{ratio(d['total'], b['total'])} | {d['rss_kb'] / 1024:.1f} MiB | "
              f"{b['rss_kb'] / 1024:.1f} MiB | {ratio(d['rss_kb'], b['rss_kb'])} |")
        w("")
        w(f"Peak RSS is time(1)'s %M; /bin/true measures "
          f"{startup['rss_floor_kb'] / 1024:.1f} MiB the same way.")
        w("")
    for a in attach or []:
        d, b = a["dscope"], a["bpftrace"]
        w(f"### Attach and detach: {a['name']}")
        w("")
        w(f"| | dscope `{a['d']}` | bpftrace `{a['bt']}` | ratio |")
        w("|---|---|---|---|")
        det = {t: (x["total"] - x["first"]) if x["total"] and x["first"] else None
               for t, x in (("d", d), ("b", b))}
        w(f"| exec to first event (start-up + attach) | {fmt_s(d['first'])} | "
          f"{fmt_s(b['first'])} | {ratio(d['first'], b['first'])} |")
        w(f"| first event to exit (detach + exit) | {fmt_s(det['d'])} | {fmt_s(det['b'])} | "
          f"{ratio(det['d'], det['b'])} |")
        tb = fmt_s(b["total"]) if b["total"] else f"> {a['timeout']:.0f} s"
        if b.get("n/a"):
            tb = "n/a"
        elif b["timeouts"]:
            tb += (f" ({b['timeouts']} of {b['runs']} runs hit the "
                   f"{a['timeout']:.0f} s cap)")
        w(f"| exec to exit | {fmt_s(d['total'])} | {tb} | {ratio(d['total'], b['total'])} |")
        w(f"| exec to the kernel releasing every probe | {fmt_s(d['released'])} | {tb} | "
          f"{ratio(d['released'], b['total'])} |")
        w("")
    if kernel:
        base, rows = kernel
        w("### In-kernel cost per firing and wall-clock cost per call (getppid loop)")
        w("")
        w(f"Untraced loop: {fmt_ns(base['loop'].get('sys'))} per getppid() call. "
          f"Wall clock added by an empty program alone: "
          f"raw tracepoint sys_enter {fmt_ns(base['floor_wall_added']['raw'])}, "
          f"tracepoint sys_enter_getppid {fmt_ns(base['floor_wall_added']['tp'])}.")
        w("")
        w("Median firings of dscope's program that were other processes' syscalls: "
          + ", ".join(f"{r['name']} {r['dscope']['other_firings']:.0f}"
                      for r in rows if r["dscope"])
          + f" (of {args.calls} loop calls).")
        w("")
        w("| workload | dscope ns/firing (+ above floor) | raw_tp floor | x floor "
          "| bpftrace ns/firing (+ above floor) | tp floor | x floor | dscope/bpftrace "
          "| dscope ns added/call | bpftrace ns added/call | ratio |")
        w("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            d, b = r["dscope"], r["bpftrace"]
            dk = above(d["kernel"], d["floor_raw"]) if d else NA
            df = fmt_ns(d["floor_raw"]) if d else "-"
            bk = (above(b["kernel"], b["floor_tp"]) if r["mode"] == "sys"
                  else fmt_ns(b["kernel"])) if b else "n/a"
            bf = fmt_ns(b["floor_tp"]) if b and r["mode"] == "sys" else "-"
            dx = ratio(d["kernel"], d["floor_raw"]) if d else "-"
            bx = ratio(b["kernel"], b["floor_tp"]) if b and r["mode"] == "sys" else "-"
            dw = fmt_ns(d["wall_added"]) if d else NA
            bw = fmt_ns(b["wall_added"]) if b else "n/a"
            w(f"| `{r['name']}` | {dk} | {df} | {dx} | {bk} | {bf} | {bx} | "
              f"{ratio(d and d['kernel'], b and b['kernel'])} | {dw} | {bw} | "
              f"{ratio(d and d['wall_added'], b and b['wall_added'])} |")
        w("")
    if zone:
        _, rows = zone
        w("### The container filter: syscall:::entry for a process outside the container")
        w("")
        w("In-kernel ns per firing, every syscall of the getppid loop and of the "
          "rest of the machine; the filter and the predicate never match.")
        w("")
        w("| workload | dscope | bpftrace | dscope/bpftrace | dscope / dscope unfiltered |")
        w("|---|---|---|---|---|")
        bare = rows[0]["dscope"] and rows[0]["dscope"]["kernel"]
        for r in rows:
            d, b = r["dscope"], r["bpftrace"]
            w(f"| {r['name']} | {fmt_ns(d and d['kernel'])} | {fmt_ns(b and b['kernel'])} | "
              f"{ratio(d and d['kernel'], b and b['kernel'])} | "
              f"{ratio(d and d['kernel'], bare)} |")
        w("")
    if probe_off:
        w("### The probe effect when off (untraced, USDT build against the build without probes)")
        w("")
        w(f"{args.probe_off_pairs} pairs of runs per mode, the order alternating; "
          "ns per iteration, medians; p25-p75 of the per-pair ratios; "
          "A/A: the build without probes against itself the same way.")
        w("")
        w("| loop body | iterations | with probes | without | ratio | pairs p25-p75 "
          "| A/A p25-p75 | measurable? |")
        w("|---|---|---|---|---|---|---|---|")
        for r in probe_off:
            aa = (f"{r['aa_q1']:.3f}-{r['aa_q3']:.3f}" if r["aa_q1"] is not None else "-")
            w(f"| `{r['name']}` | {r['calls']:,} | {r['probes']:.2f} ns | "
              f"{r['noprobes']:.2f} ns | {r['ratio']:.3f}x | {r['q1']:.3f}-{r['q3']:.3f} | "
              f"{aa} | {'yes' if r['measurable'] else 'no'} |")
        w("")
    if printf:
        w("### printf records per second without loss")
        w("")
        w(f"Each step runs `loop paced RATE {printf['seconds']}` under -c "
          "(RATE 0: as fast as it goes); clean = every call printed and no drop reported.")
        w("")
        w("| requested rate | dscope achieved | dscope lost | bpftrace achieved | bpftrace lost |")
        w("|---|---|---|---|---|")
        for d, b in zip(printf["steps"]["dscope"], printf["steps"]["bpftrace"]):
            def cell(x):
                return "clean" if x["clean"] else f"{x['lost']} lost, {x['drops']} drops reported"
            w(f"| {fmt_rate(d['rate']) if d['rate'] else 'unpaced'} | {fmt_rate(d['achieved'])} | "
              f"{cell(d)} | {fmt_rate(b['achieved'])} | {cell(b)} |")
        bd, bb = printf["best"]["dscope"], printf["best"]["bpftrace"]
        w(f"| **highest clean** | **{fmt_rate(bd)}** | | **{fmt_rate(bb)}** | "
          f"ratio {ratio(bd, bb)} |")
        w("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dscope", default="build/dscope")
    ap.add_argument("--bin", default="build/bench", help="where loop and floor are")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--attach-runs", type=int, default=3)
    ap.add_argument("--attach-timeout", type=float, default=60.0)
    ap.add_argument("--calls", type=int, default=1_000_000, help="getppid calls per loop")
    ap.add_argument("--printf-seconds", type=int, default=2)
    ap.add_argument("--printf-runs", type=int, default=2)
    ap.add_argument("--probe-off-pairs", type=int, default=15)
    ap.add_argument("--only",
                    default="floor,startup,kernel,hand,probe-off,printf,attach,attach-libc")
    ap.add_argument("--rows", default="",
                    help="kernel phase: only the workloads whose name contains "
                         "one of these comma-separated words")
    ap.add_argument("--quick", action="store_true", help="3 runs, fewer calls: a smoke test")
    ap.add_argument("--budget", choices=("on", "off"), default="on",
                    help="dscope's overhead budget: on (its default) or off "
                         "(-x budget=off), to measure what the budget costs")
    args = ap.parse_args()
    if args.quick:
        args.runs, args.attach_runs, args.calls, args.printf_runs = 3, 1, 200_000, 1
        args.probe_off_pairs = 5
    if os.geteuid() != 0:
        sys.exit("bench: needs root (BPF, bpf_stats_enabled)")
    for tool in ("bpftool", "strace"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is missing: run scripts/install-deps.sh")
    ensure_installed(shutil.which("bpftrace") or "/usr/bin/bpftrace", "bpftrace")
    ensure_installed("/usr/bin/time", "time")
    # SIGTERM unwinds like Ctrl-C, so bpf_stats_enabled is put back
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    env = Env(args)
    only = set(args.only.split(","))

    def log(s):
        print(s, file=sys.stderr, flush=True)

    m = machine()
    log(f"bench: {m}")
    startup = kernel = printf = attach = probe_off = floor = hand = zone = budget = None
    try:
        if "floor" in only:
            log("floor")
            floor = phase_floor(env, args.runs, log)
        if "startup" in only:
            log("startup")
            startup = phase_startup(env, args.runs, log)
        if "kernel" in only:
            log("kernel")
            words = [x for x in args.rows.split(",") if x]
            kernel = phase_kernel(env, args.runs, args.calls, log,
                                  [w for w in WORKLOADS
                                   if not words or any(x in w["name"] for x in words)])
        if "zone" in only:
            log("zone")
            zone = phase_kernel(env, args.runs, args.calls, log, ZONE)
        if "budget" in only:
            log("budget")
            budget = phase_budget(env, args.runs, args.calls, log)
        if "hand" in only:
            log("hand")
            hand = phase_hand(env, args.runs, args.calls, log)
        if "probe-off" in only:
            log("probe-off")
            probe_off = phase_probe_off(env, args.probe_off_pairs, args.calls, log)
        if "printf" in only:
            log("printf")
            printf = phase_printf(env, args.printf_runs, args.printf_seconds, log)
        attach = []
        for name, work in ATTACH_PHASES.items():
            if name in only:
                log(name)
                attach.append(phase_attach(env, args.attach_runs, args.attach_timeout,
                                           log, work))
    finally:
        env.cleanup()
    text = report(m, startup, kernel, printf, attach, args, probe_off, floor, hand, zone)
    if budget:
        lines = []
        report_budget(budget, lines.append)
        text += "\n" + "\n".join(lines)
    print(text)
    os.makedirs(args.bin, exist_ok=True)
    with open(os.path.join(args.bin, "results.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(args.bin, "results.json"), "w") as f:
        json.dump({"machine": m, "args": vars(args), "floor": floor, "hand": hand,
                   "zone": zone, "budget": budget,
                   "startup": startup,
                   "kernel": kernel, "probe_off": probe_off, "printf": printf,
                   "attach": attach},
                  f, indent=1, default=str)


if __name__ == "__main__":
    main()
