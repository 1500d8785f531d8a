/* Two parameters of one prototype cannot share a name. */
int span(long from, long from);

BEGIN { exit(0); }
