/*
 * Every way of making a string keeps strsize characters, then its NUL
 * (d/types.c: dtype_string_bound(), DTrace's rule): strings of
 * strsize - 1, strsize and strsize + 1 characters, as literals, behind a
 * char * (stringof, a cast, a char [] member), in each kind of variable,
 * from subroutines, traced and as aggregation keys.  The one longer
 * than strsize is cut to the one of strsize, so the keys fall together.
 */
#pragma D option quiet
#pragma D option strsize=12

struct buf {
	char c[14];
};

BEGIN
{
	p11 = (char *)alloca(14);
	p12 = (char *)alloca(14);
	p13 = (char *)alloca(14);
	bcopy("abcdefghijk", p11, 12);
	bcopy("abcdefghijkl", p12, 13);
	bcopy("abcdefghijklm", p13, 14);
	b = (struct buf *)alloca(sizeof(struct buf));
	bcopy("abcdefghijklm", b->c, 14);

	printf("literal  [%s] [%s] [%s]\n", "abcdefghijk", "abcdefghijkl",
	    "abcdefghijklm");
	printf("stringof [%s] [%s] [%s]\n", stringof(p11), stringof(p12),
	    stringof(p13));
	printf("cast     [%s] [%s] [%s]\n", (string)p11, (string)p12,
	    (string)p13);
	printf("char []  [%s] [%s]\n", b->c, stringof(b->c));

	g = stringof(p13);
	this->t = stringof(p13);
	self->s = stringof(p13);
	a[1] = stringof(p13);
	l = "abcdefghijklm";
	printf("vars     [%s] [%s] [%s] [%s] [%s]\n", g, this->t, self->s,
	    a[1], l);

	printf("strjoin  [%s] [%s] [%s]\n", strjoin("abcdef", "ghijk"),
	    strjoin("abcdef", "ghijkl"), strjoin(p12, "m"));
	printf("substr   [%s] [%s] [%s]\n", substr(p13, 0), substr(p13, 1),
	    substr("abcdefghijklm", 0, 13));
	printf("lltostr  [%s] [%s] [%s]\n", lltostr(12345678901),
	    lltostr(123456789012), lltostr(1234567890123));
	printf("strlen   %d %d %d %d\n", strlen(stringof(p11)),
	    strlen(stringof(p12)), strlen(stringof(p13)), strlen(p13));
	printf("compare  %d %d\n", stringof(p13) == "abcdefghijkl",
	    stringof(p13) == stringof(p12));

	trace(stringof(p13));
	trace(b->c);
	printf("\n");

	@k[stringof(p11)] = count();
	@k[stringof(p12)] = count();
	@k[stringof(p13)] = count();
	@k["abcdefghijklm"] = count();
	exit(0);
}

END
{
	printa("key      [%s] %@d\n", @k);
}
