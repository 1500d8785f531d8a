/* A tuple signature's key cannot be void. */
int counts[string, void];

BEGIN { exit(0); }
