/*
 * test_webconfig.c -- the exporter toolkit's web configuration as
 * webconfig_parse() reads it: what an accepted file gives (inline PEM
 * from literal blocks, the GnuTLS priority string, headers, users), and
 * where a refusal points.
 */
#include "test.h"

#include "rt/webconfig.h"

static int parse(const char *text, struct webconfig *wc, char *err)
{
	return webconfig_parse(text, strlen(text), "w.yml", wc, err, 256);
}

TEST(webconfig_inline_pem_and_versions)
{
	struct webconfig wc;
	char err[256] = "";

	CHECK(parse("---\n"
		    "tls_server_config:   # inline\n"
		    "  cert: |\n"
		    "    -----BEGIN CERTIFICATE-----\n"
		    "      indented\n"
		    "\n"
		    "    -----END CERTIFICATE-----\n"
		    "  key: |-\n"
		    "    -----BEGIN PRIVATE KEY-----\n"
		    "  min_version: TLS11\n"
		    "  max_version: \"TLS12\"\n"
		    "  prefer_server_cipher_suites: false\n", &wc, err) == 0);
	CHECK_STR(err, "");
	CHECK(wc.tls && !wc.cert_file && !wc.key_file);
	CHECK_STR(wc.cert_pem, "-----BEGIN CERTIFICATE-----\n  indented\n\n"
		  "-----END CERTIFICATE-----\n");
	CHECK_STR(wc.key_pem, "-----BEGIN PRIVATE KEY-----");
	CHECK_STR(wc.priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.1");
	webconfig_fini(&wc);
}

TEST(webconfig_files_headers_users)
{
	struct webconfig wc;
	char err[256] = "";

	CHECK(parse("tls_server_config:\n"
		    "  cert_file: 'a b.crt'\n"
		    "  key_file: k.key # a comment\n"
		    "http_server_config:\n"
		    "  http2: true\n"
		    "  headers:\n"
		    "    X-Frame-Options: SameOrigin\n"
		    "    X-XSS-Protection:\n"
		    "basic_auth_users:\n"
		    "  \"al:ice\"x: y\n", &wc, err) < 0);
	CHECK(strstr(err, "w.yml:10: expected 'KEY: VALUE'") == err);
	CHECK(parse("tls_server_config:\n"
		    "  cert_file: 'a b.crt'\n"
		    "  key_file: k.key # a comment\n"
		    "http_server_config:\n"
		    "  http2: true\n"
		    "  headers:\n"
		    "    X-Frame-Options: SameOrigin\n"
		    "    X-XSS-Protection:\n"
		    "basic_auth_users:\n"
		    "  alice: $2y$10$mDwo.lAisC94iLAyP81MCesa29IzH37oigHC/42V2pdJlUprsJPze\n",
		    &wc, err) == 0);
	CHECK_STR(wc.cert_file, "a b.crt");
	CHECK_STR(wc.key_file, "k.key");
	CHECK_STR(wc.priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:"
		  "%SERVER_PRECEDENCE");
	CHECK(wc.nheaders == 1);
	CHECK_STR(wc.headers[0].name, "X-Frame-Options");
	CHECK_STR(wc.headers[0].value, "SameOrigin");
	CHECK(wc.nusers == 1);
	CHECK_STR(wc.users[0].name, "alice");
	webconfig_fini(&wc);
}

TEST(webconfig_empty_and_refusals)
{
	struct webconfig wc;
	char err[256] = "";

	CHECK(parse("# nothing\n\n", &wc, err) == 0 && !wc.tls && !wc.nusers);
	webconfig_fini(&wc);
	CHECK(parse("basic_auth_users:\n  a: 'x\n", &wc, err) < 0);
	CHECK_STR(err, "w.yml:2: a quoted value that does not end on its line");
	CHECK(parse("tls_server_config:\n  cert_file: a\n---\n", &wc, err) < 0);
	CHECK_STR(err, "w.yml:3: a second YAML document (one file holds one "
		  "configuration)");
	CHECK(parse("http_server_config:\n  headers:\n    X-Content-Type-Options: "
		    "sniff\n", &wc, err) < 0);
	CHECK_STR(err, "w.yml:3: X-Content-Type-Options wants nosniff");
	CHECK(parse("a: b: c\n", &wc, err) < 0);
	CHECK_STR(err, "w.yml:1: a ': ' inside a plain value; quote the value");
	CHECK(parse("tls_server_config:\n  cert_file: a\n  key_file: b\n  "
		    "min_version: TLS13\n  max_version: TLS12\n", &wc, err) < 0);
	CHECK_STR(err, "w.yml:1: min_version is above max_version");
}
