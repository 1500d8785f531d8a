# bigso.sh DIR NS: DIR/big.so, the library tests/targets/drv loads: 6000
# functions (a symbol table and unwind table worth building) and
# big_entry(), which calls getppid() and sleeps NS ns in a loop, in a
# chain spin <- big_entry, until *stop.  Built without frame pointers, so
# ustack() needs the library's own .eh_frame to get past it.
dir=$1 ns=$2
awk -v ns="$ns" 'BEGIN {
	print "#include <sys/syscall.h>\n#include <time.h>\n#include <unistd.h>"
	print "int big_g(int x) { return x; }"
	for (i = 0; i < 6000; i++)
		printf "int big_function_number_%05d(int x) { return big_g(x) + %d; }\n", i, i
	print "static void spin(volatile int *stop)\n{"
	print "\tstruct timespec ms = { 0, " ns " };\n"
	print "\twhile (!*stop) {\n\t\tsyscall(SYS_getppid);\n\t\tnanosleep(&ms, NULL);\n\t}\n}"
	print "void big_entry(volatile int *stop)\n{\n\tspin(stop);\n\tbig_g(0);\n}"
}' >"$dir/big.c" &&
	gcc -O0 -fomit-frame-pointer -fPIC -shared -o "$dir/big.so" "$dir/big.c"
