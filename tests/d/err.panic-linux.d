/* panic() cannot exist on Linux: the row's sentence says why */
#pragma D option destructive

BEGIN
{
	panic();
}
