/* void takes no attributes. */
unsigned void *where;

BEGIN { exit(0); }
