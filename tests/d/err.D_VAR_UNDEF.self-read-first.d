/* A thread-local variable read before any clause assigns it, in the
 * program's order: "self->ts has not yet been declared or assigned"
 * (dt_cook_var).  The entry clause must come first. */
syscall::read:return
{
	trace(timestamp - self->ts);
}

syscall::read:entry
{
	self->ts = timestamp;
}
