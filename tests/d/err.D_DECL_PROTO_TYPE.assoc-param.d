/* A function parameter cannot be an associative array. */
long lookup(string names[string], int n);

BEGIN { exit(0); }
