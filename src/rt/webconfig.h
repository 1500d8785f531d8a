/*
 * webconfig.h -- -x metrics_webconfig=FILE: TLS and basic authentication
 * for the metrics endpoint, in the file format every Prometheus exporter
 * reads (the exporter toolkit's --web.config.file), so that one file
 * serves node_exporter and dscope alike.
 *
 * The file is YAML; this reads the subset such files are written in:
 * block mappings by indentation (spaces), plain, 'single' and "double"
 * quoted scalars, literal blocks (| and |-) for inline PEM, block lists,
 * comments.  Anything else (flow collections, anchors, tags, tabs in the
 * indentation, a key twice, a key the format does not have, a value of
 * the wrong kind) is refused with FILE:LINE and one sentence, as the
 * toolkit refuses what it does not know (its YAML is read strictly).
 *
 * What is honoured: tls_server_config's cert_file/key_file (relative to
 * the file's folder, as the toolkit resolves them) or inline cert/key,
 * client_auth_type NoClientCert, min_version/max_version,
 * prefer_server_cipher_suites; http_server_config's headers (added to
 * every response) and http2 (dscope speaks HTTP/1.1 whatever it says;
 * clients fall back); basic_auth_users with bcrypt hashes ($2a$, $2b$,
 * $2y$).  What the format has and dscope cannot do (client certificates,
 * Go's cipher suite and curve names, rate_limit) is refused by name
 * rather than ignored: a file that asks for client certificates must not
 * be served without them.
 *
 * webconfig_parse reads text only (no files: the fuzz target's entry);
 * webconfig_load reads FILE and then the PEM files it names.
 */
#ifndef DSCOPE_WEBCONFIG_H
#define DSCOPE_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define WEBCONFIG_HEADERS 5

struct webuser {
	char *name;
	char *hash;		/* bcrypt, checked for form when parsed */
};

struct webconfig {
	bool tls;		/* tls_server_config gave a certificate */
	char *cert_file, *key_file;	/* as written; NULL when inline */
	char *cert_pem, *key_pem;	/* inline, or read by webconfig_load */
	char priorities[160];	/* GnuTLS's priority string for the versions */
	struct {
		const char *name;	/* one of the format's five */
		char *value;
	} headers[WEBCONFIG_HEADERS];
	int nheaders;
	struct webuser *users;	/* basic_auth_users; none: no authentication */
	int nusers;
};

/* Parse text (len bytes, NUL-terminated or not) named path in messages.
 * 0, or -1 with "PATH:LINE: sentence" in err; wc is then empty. */
int webconfig_parse(const char *text, size_t len, const char *path,
		    struct webconfig *wc, char *err, size_t errlen);
/* Read path and the certificate and key it names.  0 or -1 as above. */
int webconfig_load(const char *path, struct webconfig *wc, char *err,
		   size_t errlen);
void webconfig_fini(struct webconfig *wc);

#endif /* DSCOPE_WEBCONFIG_H */
