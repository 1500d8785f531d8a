/* "long" belongs to integers and floating point, not to a union. */
long union pair {
	int a;
	char b;
};

BEGIN { exit(0); }
