/* "this n;" declares an int: a string cannot be stored in it. */
this n;

BEGIN
{
	this->n = probename;
	exit(0);
}
