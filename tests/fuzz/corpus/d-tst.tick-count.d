/*
 * tick-N fires on one CPU, every N: ten firings of tick-10ms, counted in
 * a global, end the run.  Clauses run in order within one firing.
 */
#pragma D option quiet

BEGIN { i = 0; }
tick-10ms { i++; }
tick-10ms /i == 10/ { printf("i=%d\n", i); exit(0); }
