/*
 * fuzz_webconfig.c -- libFuzzer over a metrics_webconfig file
 * (tests/fuzz/README.md): the exporter toolkit's YAML as
 * webconfig_parse() (rt/webconfig.c) reads it, before any file it names
 * is opened.  For every input: no crash, no leak; a refusal is one line
 * that starts with the file's name; an acceptance has a certificate and
 * a key together or neither, bcrypt-shaped hashes, and at most the
 * format's five headers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt/webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct webconfig wc;
	char err[512] = "";

	if (webconfig_parse((const char *)data, size, "web.yml", &wc, err,
			    sizeof(err)) < 0) {
		if (strncmp(err, "web.yml:", 8) != 0 || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (wc.tls != (wc.cert_file || wc.cert_pem) ||
	    wc.tls != (wc.key_file || wc.key_pem) ||
	    wc.nheaders > WEBCONFIG_HEADERS)
		abort();
	for (int i = 0; i < wc.nusers; i++)
		if (strlen(wc.users[i].hash) != 60 || !*wc.users[i].name)
			abort();
	webconfig_fini(&wc);
	return 0;
}
