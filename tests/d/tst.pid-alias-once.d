/*
 * A function known by several names is one probe, named as a stack
 * names it (the global name with the fewest leading underscores), and
 * fires once per call: DTrace's pid provider makes one probe per
 * function address.
 * @@args: -q -c "$B/targets/aliases 7"
 */
pid$target:a.out:*work*:entry
{
	@[probefunc] = count();
}

pid$target:a.out:__work*:entry,
pid$target:a.out:work_*:entry
{
	@named[probefunc] = count();
}
