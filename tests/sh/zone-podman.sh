# zonename with real containers: podman (runtime crun, cgroupfs manager:
# the guest has no systemd) starts two containers named zone-a and zone-b
# from a root file system built here (busybox-static and a static build
# of the loop target, imported with `podman import`: no registry is
# needed), each calling getppid() 1111 and 2222 times; @[zonename] must
# count exactly those under their names, and the host's own calls under
# "global".  Then -x zone=zone-b, given before the containers start
# (-Z), counts zone-b's loop alone.
# Runs where cgroup v2 is mounted at /sys/fs/cgroup (the guests; this
# host's hybrid mount is one crun refuses).
. tests/sh/lib.sh
for t in podman crun cc; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
[ -f /bin/busybox ] || { echo "SKIP: busybox-static is not installed"; exit 77; }
[ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] ||
	{ echo "SKIP: cgroup v2 is not mounted at /sys/fs/cgroup (hybrid or v1)"; exit 77; }

W=$(mktemp -d)
trap 'podman rm -f zone-a zone-b >/dev/null 2>&1; rm -rf "$W"' EXIT
mkdir -p "$W/root/bin" "$W/root/proc" "$W/root/sys" "$W/root/dev" "$W/root/tmp" "$W/out"
cp /bin/busybox "$W/root/bin/busybox"
ln -s busybox "$W/root/bin/sh"
ln -s busybox "$W/root/bin/sleep"
ln -s busybox "$W/root/bin/touch"
cc -static -O2 -o "$W/root/bin/loop" tests/targets/loop.c || fail "cannot build loop statically"
tar -C "$W/root" -cf "$W/root.tar" . || fail "tar"
P="podman --cgroup-manager cgroupfs --events-backend file --runtime crun --storage-driver vfs"
$P import "$W/root.tar" dscope-zone >/dev/null || fail "podman import failed"

# start NAME N: a container that calls getppid() N times once /out/go
# exists, then waits, alive, so that its group is there when the output
# names it; done NAME...: wait for their calls to be over
start() {
	$P run -d --name "$1" --network none -v "$W/out:/out" dscope-zone \
		/bin/sh -c "until [ -e /out/go ]; do sleep 0.1; done; /bin/loop $2 &&
			    touch /out/$1 && sleep 1000" >/dev/null ||
		fail "podman run $1 failed"
}
# the id of the cgroup container $1 runs in
cgroup_id() {
	pid=$($P inspect -f '{{.State.Pid}}' "$1")
	stat -c %i "/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/$pid/cgroup)"
}
# wait until dscope's option zone admits cgroup id $1 (it looks for new
# containers every 200 ms): a key of its dscope_zones map
admitted() {
	key=$(printf '%016x' "$1" | sed 's/\(..\)/\1\n/g' | tac | tr '\n' ' ')
	until for m in $(bpftool map show | awk -F'[: ]' '/name dscope_zones/ { print $1 }'); do
		bpftool map lookup id $m key hex $key >/dev/null 2>&1 && break
	done; do sleep 0.05; done
}
prog='syscall::getppid:entry { @[zonename] = count(); } END { printa("%s %@d\n", @); }'

start zone-a 1111
start zone-b 2222
out=$($D -q -n "$prog" -c "sh -c 'touch $W/out/go; $PWD/$B/targets/loop 333;
	until [ -e $W/out/zone-a ] && [ -e $W/out/zone-b ]; do sleep 0.1; done'" 2>&1) ||
	fail "exit $?: $out"
echo "$out" | grep -qx "zone-a 1111" || fail "zone-a did not count 1111: $out"
echo "$out" | grep -qx "zone-b 2222" || fail "zone-b did not count 2222: $out"
g=$(echo "$out" | awk '$1 == "global" { print $2 }')
[ -n "$g" ] && [ "$g" -ge 333 ] || fail "the host's 333 calls are not under global: $out"
$P rm -f zone-a zone-b >/dev/null 2>&1
rm -f "$W/out/"*

# execsnoop -Z, as the DTraceToolkit's prints it (tests/corpus/execsnoopz.d
# is the same for a -c command, on the host): every new program on the
# machine with the zone it runs in.  Each container execs its loop once,
# named by the container's name; nothing of theirs is "global".
out=$($D -q -n 'proc:::exec-success {
		printf("%-16s %5d %6d %6d %s\n", zonename, uid, pid, ppid, curpsinfo->pr_psargs);
	}' -c "sh -c 'touch $W/out/go;
	until [ -e $W/out/zone-a ] && [ -e $W/out/zone-b ]; do sleep 0.1; done'" 2>&1 &
	start zone-a 11; start zone-b 22; wait) || fail "exit $?: $out"
n=$(echo "$out" | grep -cE '^zone-a +0 +[0-9]+ +[0-9]+ /bin/loop 11$')
[ "$n" = 1 ] || fail "execsnoop -Z: zone-a's loop seen $n times: $out"
n=$(echo "$out" | grep -cE '^zone-b +0 +[0-9]+ +[0-9]+ /bin/loop 22$')
[ "$n" = 1 ] || fail "execsnoop -Z: zone-b's loop seen $n times: $out"
! echo "$out" | grep -qE '^global .*/bin/loop (11|22)$' ||
	fail "execsnoop -Z: a container's loop under global: $out"
$P rm -f zone-a zone-b >/dev/null 2>&1
rm -f "$W/out/"*

# -x zone=zone-b before the containers start: dscope waits (-Z), admits
# zone-b's group when it comes, and counts nothing else.  The loop's
# calls only: the container's busybox sh calls getppid() as it starts,
# before or after its group is admitted.
export P W
export -f start cgroup_id admitted fail
out=$($D -q -Z -x zone=zone-b -n "${prog/entry/entry \/execname == \"loop\"\/}" -c "bash -c 'start zone-a 1111; start zone-b 2222;
	admitted \$(cgroup_id zone-b); touch $W/out/go;
	until [ -e $W/out/zone-a ] && [ -e $W/out/zone-b ]; do sleep 0.1; done'" 2>&1) ||
	fail "exit $?: $out"
[ "$out" = "zone-b 2222" ] || fail "-x zone=zone-b: not zone-b's 2222 alone: $out"

exit 0
