/* Clause-local variables cannot be associative arrays. */
this string names[int, int];

BEGIN { exit(0); }
