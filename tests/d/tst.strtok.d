/*
 * strtok(): tokens, and strtok(NULL, d) going on from where the last call
 * stopped -- at the delimiter that ended its token, in its own copy of
 * the string -- with delimiters that may change; NULL at the end.
 * Its eleven calls in one program, each three loops over the string,
 * unrolled as bounded loops pass the verifier's bound of 8192 pending
 * branches: they need bpf_iter_num or bpf_loop.
 * @@needs: $B/dscope -vV | grep -qE '^  (iter_num|bpf_loop)  *yes' || { echo "this kernel has neither bpf_iter_num nor bpf_loop (dscope -vV)" >&2; false; }
 */
#pragma D option quiet

BEGIN
{
	x = "  a,b,,c ";
	printf("[%s]\n", strtok(x, " ,"));
	printf("[%s]\n", strtok(NULL, " ,"));
	printf("[%s]\n", strtok(NULL, ","));
	printf("%d\n", strtok(NULL, ",") == NULL);
	printf("[%s]\n", strtok("path/to/file", "/"));
	x = "changed";
	printf("[%s]\n", strtok(NULL, "/"));
	printf("[%s]\n", strtok(NULL, ""));
	printf("%d\n", strtok(NULL, "") != NULL);
	printf("%d %d\n", strtok("///", "/") == NULL, strtok("", "") == NULL);
	printf("%d\n", strchr("abc", 'z') == NULL);
	printf("%d\n", strchr("abc", 'z') == "");
	exit(0);
}
