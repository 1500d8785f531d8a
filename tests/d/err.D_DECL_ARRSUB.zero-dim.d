/* An array dimension must be a positive constant. */
long slots[4 - 4];

BEGIN { exit(0); }
