/*
 * A char array or char pointer goes where a string does, read as one
 * (dt_node_is_argcompat: both are dt_node_is_strcompat): assigned to a
 * string variable of any kind, and as a key beside string keys, where
 * a[execname] and a[curthread->comm] are one element.  A char array key
 * is its characters (a printed key shows the name, not an address).
 */
#pragma D option quiet

string g;

BEGIN
{
	g = curthread->comm;
	s = "x";
	s = (char *)curthread->comm;
	self->s = "y";
	self->s = curthread->comm;
	this->s = "z";
	this->s = curthread->comm;
	a[1] = "w";
	a[1] = curthread->comm;
	printf("%s %s %s %s %s\n", g, s, self->s, this->s, a[1]);
	k[execname] = 1;
	k[curthread->comm]++;
	self->k[curthread->comm] = 5;
	printf("%d %d\n", k[execname], self->k[execname]);
	@[curthread->comm] = count();
	@[execname] = count();
	exit(0);
}

END
{
	printa("%s %@d\n", @);
}
