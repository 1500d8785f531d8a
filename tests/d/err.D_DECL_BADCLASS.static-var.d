/* "static" means nothing for a D variable (it does for a function). */
static int hits;

BEGIN { exit(0); }
