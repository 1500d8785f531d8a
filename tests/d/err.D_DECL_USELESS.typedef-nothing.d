/* A declaration that declares nothing. */
typedef unsigned long;

BEGIN { exit(0); }
