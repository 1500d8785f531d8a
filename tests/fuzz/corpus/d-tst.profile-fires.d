/*
 * profile-N runs on every CPU: within 0.6 s some CPU has fired it.
 * arg0 / arg1 are the kernel / user pc: never both set in one firing.
 */
#pragma D option quiet

BEGIN { fired = 0; both = 0; n = 0; }
profile-997hz { fired = 1; }
profile-997hz /arg0 != 0 && arg1 != 0/ { both++; }
tick-200ms { n++; }
tick-200ms /n == 3/ { exit(0); }
END { printf("fired=%d both=%d\n", fired, both); }
