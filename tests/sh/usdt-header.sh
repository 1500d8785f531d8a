# dscope -h and -G as a build uses them: a header over <sys/sdt.h> and an
# object with the semaphores, compiled and linked into a program whose
# ELF notes, sections and symbols are then read back; the configure-style
# invocation; default output names; bad provider files.
. tests/sh/lib.sh
[ -f /usr/include/x86_64-linux-gnu/sys/sdt.h ] || [ -f /usr/include/sys/sdt.h ] ||
	{ echo "no <sys/sdt.h>: install systemtap-sdt-dev"; exit 77; }
D=$(realpath "$D")
SRC=$PWD
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

cat > p.d <<'EOF'
/* a server's probes, as a project keeps them */
provider myserv {
	probe request__start(int reason, char *);	/* reason, path */
	probe request__done(int, char *, uint64_t) : (int, string, uint64_t);
	probe lock__acquire(void *);
	probe idle();
};
#pragma D attributes Evolving/Evolving/Common provider myserv provider
#pragma D attributes Evolving/Evolving/Common provider myserv args
EOF
cat > a.c <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include "p.h"

static int lock;

int main(void)
{
	MYSERV_REQUEST_START(1, "/index");
	MYSERV_LOCK_ACQUIRE(&lock);
	if (MYSERV_REQUEST_DONE_ENABLED())
		MYSERV_REQUEST_DONE(1, "/index", (uint64_t)200);
	MYSERV_IDLE();
	printf("%d\n", (int)MYSERV_REQUEST_START_ENABLED());
	return 0;
}
EOF

# configure --enable-dtrace's steps, DTRACE being dscope
DTRACE=$D
$DTRACE -h -s p.d -o p.h || fail "-h failed"
gcc -Wall -Wextra -Werror -pedantic -std=c11 -c a.c -o a.o || fail "a.c does not compile with p.h"
$DTRACE -G -s p.d -o p.o a.o || fail "-G failed"
gcc -o a a.o p.o || fail "a.o and p.o do not link"
[ "$(./a)" = 0 ] || fail "an untraced _ENABLED() is not 0: $(./a)"

# the notes: provider, name as declared, and each probe's argument count
notes=$(readelf -n a)
args_of() {	# args_of NAME: the argument count of probe NAME's note
	echo "$notes" | awk -v n="$1" '
		$1 == "Provider:" { prov = $2 }
		$1 == "Name:" { name = $2 }
		$1 == "Arguments:" && prov == "myserv" && name == n { print NF - 1 }'
}
[ "$(args_of request__start)" = 2 ] || fail "request__start: want 2 args: $notes"
[ "$(args_of request__done)" = 3 ] || fail "request__done: want 3 args: $notes"
[ "$(args_of lock__acquire)" = 1 ] || fail "lock__acquire: want 1 arg: $notes"
[ "$(args_of idle)" = 0 ] || fail "idle: want 0 args: $notes"

# the semaphores: in .probes of the object, and what the notes point at
readelf -S p.o | grep -A1 ' \.probes ' | grep -q ' WA ' ||
	fail "p.o has no writable .probes: $(readelf -S p.o)"
for p in request__start request__done lock__acquire idle; do
	nm p.o | grep -q " V myserv_${p}_semaphore\$" ||
		fail "p.o: no weak myserv_${p}_semaphore: $(nm p.o)"
	addr=$(nm a | awk -v s="myserv_${p}_semaphore" '$3 == s { print $1 }')
	echo "$notes" | grep -A2 "Name: $p\$" | grep -q "Semaphore: 0x$addr" ||
		fail "$p's note does not name its semaphore at $addr"
done
probes=$(readelf -SW a | awk '$2 == ".probes" { print $4 }')
[ -n "$probes" ] || fail "a has no .probes section"

# two objects from one provider merge; a shared library keeps its own
gcc -o a2 a.o p.o p.o || fail "two -G objects of one provider do not link"
gcc -fPIC -c a.c -o pic.o && gcc -shared -o liba.so pic.o p.o ||
	fail "a shared library does not link"
nm -D liba.so | grep -q semaphore && fail "liba.so exports its semaphores"

# DTrace's default names: p.d gives p.h and p.o, here
rm -f p.h p.o
$D -h -s p.d && [ -f p.h ] || fail "-h without -o wrote no p.h"
$D -G -s p.d a.o && [ -f p.o ] || fail "-G without -o wrote no p.o"

# -C: the provider file through cpp
printf '#define ARG int\nprovider pp { probe x(ARG, ARG); };\n' > c.d
$D -C -h -s c.d -o c.h && grep -q 'DTRACE_PROBE2(pp, x, arg1, arg2)' c.h ||
	fail "-C -h: $(cat c.h)"

# examples/usdt builds as its Makefile says, and runs
cp -r "$SRC/examples/usdt" ex && make -s -C ex DTRACE="$D" >/dev/null ||
	fail "examples/usdt does not build"
[ "$(ex/server 5)" = "done: 10 requests" ] || fail "examples/usdt/server: $(ex/server 5)"
for p in request__start request__done lock__wait__start lock__wait__done; do
	readelf -n ex/server | grep -q "Name: $p\$" || fail "examples/usdt/server: no $p note"
done

# bad input: DTrace's error, exit 1, and no header left to look made
printf 'provider myserv {\n\tprobe a(int;\n};\n' > bad.d
out=$($D -h -s bad.d -o bad.h 2>&1); rc=$?
[ $rc = 1 ] || fail "syntax error: exit $rc, want 1"
[ "$out" = 'dscope: failed to compile script bad.d: line 2: syntax error near ";"' ] ||
	fail "syntax error: $out"
[ -e bad.h ] && fail "a failed -h left bad.h"
printf 'BEGIN { exit(0); }\n' > none.d
out=$($D -h -s none.d 2>&1); rc=$?
[ $rc = 1 ] || fail "no provider: exit $rc, want 1"
[ "$out" = 'dscope: failed to create header file none.h: none.d defines no provider' ] ||
	fail "no provider: $out"
out=$($D -G -s bad.d -o bad.o 2>&1); rc=$?
[ $rc = 1 ] && [ ! -e bad.o ] || fail "-G of bad.d: exit $rc: $out"
exit 0
