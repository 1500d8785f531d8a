#!/bin/sh
# Install what dscope needs to build and test, from Debian's packages.
# Run as root on Debian 12 (bookworm) or later.
set -e
# clang-14 and libclang-rt-14-dev: the libFuzzer build (make fuzz).
# systemtap-sdt-dev: <sys/sdt.h>, which dscope -h's headers include
# (tests/sh/usdt-header.sh, examples/usdt).
# qemu-system-x86, busybox-static: the guest make check-vm boots with
# another kernel (tests/vm/run).
# libc6-dbg: libc's symbol table, so the tests see whole user stacks
# named (tests/d/tst.ustack-libc-debug.d skips without it).
# libmicrohttpd-dev: the -x metrics HTTP server; prometheus (its server
# and promtool), curl and iproute2: tests/sh/metrics*.sh.
# jq, libxml2-utils (xmllint) and chromium: the JSON and flame graph
# tests (tests/sh/oformat-*.sh) read the output as other programs do.
# strace: tests/sh/startup-syscalls.sh counts start-up's system calls.
# openssl (test certificates), libcrypt-dev (crypt.h; libcrypt itself is
# opened only for basic_auth_users) and util-linux (unshare, nsenter):
# tests/sh/metrics-tls.sh, metrics-load.sh, metrics-lazy.sh.
# babeltrace2: tests/sh/record-*.sh read dscope's CTF traces with it, a
# reader that is not dscope's.
# podman and crun: the containers of tests/sh/zone-podman.sh, which runs
# in the guest (it mounts cgroup v2 itself; this host's hybrid mount is
# one crun refuses).
PKGS="gcc make libbpf-dev libelf-dev zlib1g-dev cpp bpftool python3 clang-14
      libclang-rt-14-dev systemtap-sdt-dev libc6-dbg libmicrohttpd-dev
      prometheus curl iproute2 qemu-system-x86 busybox-static jq
      libxml2-utils chromium strace openssl libcrypt-dev util-linux podman crun
      babeltrace2"
missing=""
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
