/*
 * Ground truth: build/targets/openmany opens 100 files, 3 of which do not
 * exist.  Every open is traced speculatively; only the failed ones are
 * committed, so exactly those 3 paths are printed, in order.  nspec=1 is
 * enough: a speculation's ID is free again as soon as it is discarded.
 * The target stays on one CPU: committed data prints per CPU buffer, so
 * opens committed on two CPUs could print in either order, as in DTrace.
 * @@args: -q -c "taskset -c 0 $B/targets/openmany"
 * @@needs: $B/dscope -e -n 'BEGIN { speculation(); }'
 */
syscall::openat:entry
/pid == $target && index(copyinstr(arg1), "/dev/") == 0/
{
	self->spec = speculation();
	speculate(self->spec);
	printf("%s\n", copyinstr(arg1));
}

syscall::openat:return
/self->spec && errno != 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::openat:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
