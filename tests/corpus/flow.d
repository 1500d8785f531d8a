#!/usr/sbin/dtrace -s
/*
 * flow.d -- the call flow below one function, indented by depth.
 *
 * USAGE: flow.d -c command
 */
#pragma D option quiet

/* read before it is first incremented: DTrace wants it declared
 * (dt_cook_var's "has not yet been declared or assigned") */
self int depth;

pid$target:a.out:chore:entry
{
	self->trace = 1;
}

pid$target:a.out:chore:entry,
pid$target:a.out:pause_ms:entry
/self->trace/
{
	printf("%*s-> %s(%d)\n", self->depth * 2, "", probefunc, arg0);
	self->depth++;
}

pid$target:a.out:chore:return,
pid$target:a.out:pause_ms:return
/self->trace/
{
	self->depth--;
	printf("%*s<- %s = %d\n", self->depth * 2, "", probefunc, (int)arg1);
}

pid$target:a.out:chore:return
{
	self->trace = 0;
}
