/*
 * A clause-local is never an associative array: this->x[k] is
 * D_ARR_LOCAL (self->x[k] is allowed).
 */
BEGIN
{
	this->x[1, 2] = 3;
}
