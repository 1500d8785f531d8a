/*
 * sleeper -- sleeps 20 ms ten times, then exits: exactly ten voluntary
 * off-CPU intervals of at least 20 ms, each through nanosleep.
 */
#include <time.h>

int main(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 10; i++)
		nanosleep(&ts, NULL);
	return 0;
}
