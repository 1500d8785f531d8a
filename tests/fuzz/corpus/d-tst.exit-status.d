/* exit(n) is dscope's exit status; END still runs after it.
 * @@status: 3 */
#pragma D option quiet

BEGIN { exit(3); }
END { printf("end ran\n"); }
