/*
 * fuzz_usdt_args.c -- libFuzzer over a stapsdt note's argument string
 * alone (tests/fuzz/README.md), the operand parser of prov/usdt.c.
 *
 * Byte 0: bit 0 says the file is PIE (symbols move with the load bias);
 * the rest is the string, "-4@%edi 8@16(%rsp) 4@counter(%rip)".  Two
 * symbols exist, "counter" and "table".  For every input: a count within
 * what was asked, a reason whenever parsing stopped early, no crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prov/usdt.h"

static bool sym(void *arg, const char *name, uint64_t *addr)
{
	if (strcmp(name, "counter") == 0)
		*addr = 0x4010;
	else if (strcmp(name, "table") == 0)
		*addr = 0xffffffffffff0000ull;
	else
		return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct usdt_arg v[USDT_ARGS_MAX];
	const char *why;
	char *text;
	int n;

	if (size < 1)
		return 0;
	struct usdt_arg_ctx cx = { 0x1234, data[0] & 1, sym, NULL };

	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	n = usdt_parse_args(text, &cx, v, USDT_ARGS_MAX, &why);
	if (n < 0 || n > USDT_ARGS_MAX)
		abort();
	free(text);
	return 0;
}
