#pragma D option quiet
#pragma D option strsize=32
#pragma D option nspec=4
#pragma D option bufsize=8k
#pragma D depends_on library foo.d
#line 40 "other.d"
BEGIN { exit(0); }
