/* void may only stand alone in a parameter list. */
int pick(char c, void);

BEGIN { exit(0); }
