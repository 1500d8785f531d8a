/*
 * The string subroutines on constants and builtins, with DTrace's rules
 * for negative positions, empty strings and truncation.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", strlen(""), strlen("a"), strlen("0123456789abcdef"));
	printf("[%s] [%s] [%s]\n", strjoin("foo", "bar"), strjoin("", "x"),
	    strjoin(probeprov, strjoin(":", probename)));
	printf("[%s] [%s] [%s] [%s] [%s]\n", substr("abcdefgh", 3),
	    substr("abcdefgh", -3), substr("abcdefgh", 2, 3),
	    substr("abcdefgh", 1, -2), substr("abcdefgh", -20, 15));
	printf("%d %d %d %d %d\n", index("foobarfoo", "foo"),
	    index("foobarfoo", "foo", 1), index("foobarfoo", "baz"),
	    index("abc", ""), index("abc", "", 7));
	printf("%d %d %d %d\n", rindex("foobarfoo", "foo"),
	    rindex("foobarfoo", "foo", 5), rindex("abc", ""),
	    rindex("abc", "x", -1));
	printf("[%s] [%s] [%s] %d\n", strstr("foobarbaz", "bar"),
	    strchr("a/b/c", '/'), strrchr("a/b/c", '/'),
	    strchr("abc", 'z') == NULL);
	printf("[%s] [%s]\n", toupper("Hello, World 09@[`{"),
	    tolower("Hello, World 09@[`{"));
	printf("[%s] [%s] [%s]\n", lltostr(0), lltostr(-42),
	    lltostr(-9223372036854775807 - 1));
	printf("[%s] [%s] [%s] [%s]\n", basename("/usr/lib/"),
	    dirname("/usr/lib/"), basename("//"), dirname("file"));
	exit(0);
}
