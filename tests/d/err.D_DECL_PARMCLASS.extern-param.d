/* A parameter's only storage class is "register". */
int probe_count(extern long n);

BEGIN { exit(0); }
