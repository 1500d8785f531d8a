syscall::read:entry, syscall::write:entry
/pid == $target && execname != "x" && arg0 >= 0/
{
	self->ts[probefunc, arg0] = timestamp;
	this->n = arg2;
	@c[execname, probefunc] = count();
	@q = quantize(this->n);
	@l = lquantize(this->n, 0, 100, 10);
	@ll = llquantize(this->n, 10, 0, 6, 20);
	@s = sum(1); @a = avg(1); @m = min(1); @M = max(1); @d = stddev(1);
}
syscall::read:return /self->ts[probefunc, arg0]/ { self->ts[probefunc, arg0] = 0; }
END { printa("%s %s %@d\n", @c); normalize(@s, 2); trunc(@c, 3); clear(@q); printa(@q); }
