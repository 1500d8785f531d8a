/*
 * A member of a struct an associative array holds is an lvalue, as in
 * DTrace (dt_cook_op2's "." keeps its operand's DT_NF_LVALUE): ++, = and
 * += write it in place, the element made, zeroed, at the first write.
 * The loop target calls getppid 1234 times.
 * @@args: -c "$B/targets/loop 1234"
 */
#pragma D option quiet

struct stats {
	int calls;
	int other;
	uint64_t total;
};
struct stats i[string];

syscall::getppid:entry
/pid == $target/
{
	i[execname].calls++;
	i[execname].total += 2;
}

END
{
	i["x"].other = 5;
	i["x"].other += 2;
	printf("%d %d %d %d\n", i["loop"].calls, i["loop"].total,
	    i["loop"].other, i["x"].other);
}
