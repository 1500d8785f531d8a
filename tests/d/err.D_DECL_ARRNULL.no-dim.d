/* A variable array needs a dimension or a tuple signature. */
char buf[];

BEGIN { exit(0); }
