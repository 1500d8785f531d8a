#!/usr/sbin/dtrace -s
/*
 * tickphase.d - where in each 10 ms the clock tick and the run queue
 * arrivals fall: tick-driven accounting shows as a spike.
 */
sched:::tick,
sched:::enqueue
{
	@phase[probename] = lquantize((timestamp / 1000000) % 10, 0, 10);
}
