/* what an alloca variable may take: 0, and alloca() memory again; a
 * pointer computed from one is alloca too */
#pragma D option quiet

BEGIN
{
	a = (char *) alloca(8);
	a = 0;
	a = (char *) alloca(4);
	this->p = (int *) alloca(8);
	this->q = this->p + 1;
	*this->q = 7;
	printf("%d\n", *(this->p + 1));
	exit(0);
}
