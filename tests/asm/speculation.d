/* A speculation: made and filled on entry, kept or thrown away on return. */
syscall::read:entry
{
	self->spec = speculation();
	speculate(self->spec);
	printf("fd %d\n", arg0);
}

syscall::read:return
/self->spec && (int)arg1 < 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::read:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
