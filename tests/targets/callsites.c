/*
 * callsites.c -- one function calling another from two places: caller()
 * calls leaf() 5 times from its first call site and 7 times from its
 * second.  Aggregations keyed by ufunc(ucaller) at leaf's entry must have
 * one row for caller, 12; by uaddr(ucaller), two rows, 5 and 7.
 */
int leaf(int i)
{
	return i * 2;
}

int caller(void)
{
	int sum = 0;

	for (int i = 0; i < 5; i++)
		sum += leaf(i);
	for (int i = 0; i < 7; i++)
		sum += leaf(i) + 1;
	return sum;
}

int main(void)
{
	return caller() == 62 ? 0 : 1;
}
