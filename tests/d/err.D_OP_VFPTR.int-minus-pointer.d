/*
 * x -= p with x an integer and p a pointer: += and -= on anything but
 * two integers need a pointer of known element size on the left.
 */
BEGIN
{
	x = 1;
	x -= curthread;
}
