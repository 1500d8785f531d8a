#!/usr/sbin/dtrace -s
/*
 * runqlen.d - the length of each CPU's run queue, sampled as threads
 * join it: a count per queue, kept by enqueue and dequeue.
 */
#pragma D option quiet

sched:::enqueue
{
	this->cpu = args[2]->cpu_id;
	@len[this->cpu] = lquantize(depth[this->cpu]++, 0, 64, 1);
}

sched:::dequeue
/depth[args[2]->cpu_id] > 0/
{
	depth[args[2]->cpu_id]--;
}

END
{
	printf("Run queue length, by CPU:\n");
	printa("CPU %d%@d\n", @len);
}
