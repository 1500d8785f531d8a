BEGIN
{
	s = strjoin("a", "b"); n = strlen(s); p = substr(s, 1, 2); i = index(s, "b");
	r = rindex(s, "a"); t = strtok("a,b", ","); q = strchr(s, 'a'); w = strrchr(s, 'b');
	k = strstr(s, "ab"); v = strtoll("123", 10); lo = tolower("AB"); up = toupper(lo);
	b = basename("/a/b"); d = dirname("/a/b"); cp = cleanpath("/a/../b"); ll = lltostr(12, 16);
	h = htonl(1) + htons(1) + htonll(1) + ntohl(1) + ntohs(1) + ntohll(1);
	st = stringof(1); ip = inet_ntoa(&n);
	trace(s); trace(n); printf("%s\n", copyinstr(0)); exit(0);
}
