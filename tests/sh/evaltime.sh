# -x evaltime says where the -c command is stopped while the probes are
# enabled (dt_opt_evaltime; dt_proc.c): initcalls calls getppid() once
# in a constructor and twice in main(), after the dynamic linker opened
# libc.  One script, each mode: exec sees all of it, preinit (the entry
# point) the constructor's call but not libc's open, postinit and main
# only main's two calls.
. tests/sh/lib.sh
s='syscall::getppid:entry /pid == $target/ { @calls = count(); }
syscall::openat:entry /pid == $target && basename(copyinstr(arg1)) == "libc.so.6"/ { @libc = count(); }
END { printa("getppid %@d\n", @calls); printa("libc opened %@d\n", @libc); }'
for want in "exec:getppid 3;libc opened 1;" "preinit:getppid 3;" "postinit:getppid 2;" "main:getppid 2;"; do
	mode=${want%%:*}
	out=$($D -q -x evaltime=$mode -n "$s" -c "$B/targets/initcalls" 2>&1) || fail "evaltime=$mode: exit $?: $out"
	got=$(echo "$out" | grep . | tr '\n' ';')
	[ "$got" = "${want#*:}" ] || fail "evaltime=$mode printed '$got', want '${want#*:}'"
done
echo "exec, preinit, postinit, main: as dt_proc.c stops"
