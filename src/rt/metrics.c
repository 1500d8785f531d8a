/*
 * metrics.c -- serve the aggregations to Prometheus.  See metrics.h.
 *
 * libmicrohttpd is not linked: it is opened (dlopen) the first time a run
 * asks for -x metrics, and libcrypt only when a web configuration has
 * basic_auth_users.  Linked, libmicrohttpd brought GnuTLS and eight more
 * libraries into every run, metrics or not: mapped, relocated and
 * initialised (GnuTLS reads its system configuration at load) before
 * main.  The header is still included, for the types, the constants and
 * each entry point's prototype (the table below takes its type from
 * it), so a call through the table is checked as a direct call would be.
 */
#include "rt/metrics.h"

#include <arpa/inet.h>
#include <crypt.h>
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rt/promtext.h"
#include "rt/webconfig.h"

/* ---- the libraries, opened on first use ------------------------------- */

/* Each library by its Debian package, for the sentence when it is
 * missing. */
#define MHD_SONAME "libmicrohttpd.so.12"
#define MHD_PACKAGE "libmicrohttpd12"
#define CRYPT_SONAME "libcrypt.so.1"
#define CRYPT_PACKAGE "libcrypt1"

#define MHD_CALLS(X) X(MHD_start_daemon) X(MHD_stop_daemon) \
	X(MHD_create_response_from_buffer) X(MHD_add_response_header) \
	X(MHD_queue_response) X(MHD_destroy_response) \
	X(MHD_basic_auth_get_username_password) \
	X(MHD_queue_basic_auth_fail_response) X(MHD_free) \
	X(MHD_is_feature_supported)

/* Written once, on the main thread, before the HTTP thread starts. */
static struct {
#define MHD_SLOT(f) __typeof__(f) *f;
	MHD_CALLS(MHD_SLOT)
#undef MHD_SLOT
	__typeof__(crypt_rn) *crypt_rn;
} lib;

static void *open_lib(const char *soname, const char *package, FILE *err,
		      const char *progname, const char *why)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		fprintf(err, "%s: %s needs %s, which could not be loaded (%s): "
			"install the %s package\n", progname, why, soname,
			dlerror(), package);
	return h;
}

/* Opened for the life of the process (a second run in it reuses them):
 * 0, or -ENOENT with the sentence. */
static int open_mhd(FILE *err, const char *progname)
{
	void *h;

	if (lib.MHD_start_daemon)
		return 0;
	if (!(h = open_lib(MHD_SONAME, MHD_PACKAGE, err, progname,
			   "-x metrics")))
		return -ENOENT;
#define MHD_LOOKUP(f) \
	if (!(*(void **)&lib.f = dlsym(h, #f))) \
		goto missing;
	MHD_CALLS(MHD_LOOKUP)
#undef MHD_LOOKUP
	return 0;
missing:
	fprintf(err, "%s: -x metrics needs %s, but the one installed lacks "
		"what dscope calls (%s): install the %s package\n", progname,
		MHD_SONAME, dlerror(), MHD_PACKAGE);
	memset(&lib, 0, sizeof(lib));
	return -ENOENT;
}

static int open_crypt(FILE *err, const char *progname)
{
	void *h;

	if (lib.crypt_rn)
		return 0;
	if (!(h = open_lib(CRYPT_SONAME, CRYPT_PACKAGE, err, progname,
			   "basic_auth_users")))
		return -ENOENT;
	if (!(*(void **)&lib.crypt_rn = dlsym(h, "crypt_rn"))) {
		fprintf(err, "%s: basic_auth_users needs crypt_rn in %s: install "
			"the %s package\n", progname, CRYPT_SONAME, CRYPT_PACKAGE);
		return -ENOENT;
	}
	return 0;
}

/* What one scrape may cost is bounded by the connections served at once:
 * past CONNECTIONS, libmicrohttpd stops accepting and new scrapers wait
 * in the kernel's queue of LISTEN_BACKLOG (a refused connection would
 * be a failed scrape), so memory is at most CONNECTIONS responses of
 * metrics_maxsize however many scrapers come. */
#define CONNECTIONS 64
#define LISTEN_BACKLOG 512

struct metrics {
	int fd;				/* the listening socket */
	int family;			/* AF_INET or AF_INET6 */
	char where[80];			/* ADDR:PORT as bound, for messages */
	struct MHD_Daemon *daemon;
	pthread_mutex_t *lock;		/* the session's; see metrics.h */
	struct agg_state *aggs;		/* the consumer's, once serving */
	struct agg_state descs;		/* descriptions for the families */
	struct prom_family *fams;	/* one per aggregation */
	int nfams;
	struct arena reset_arena;	/* the snapshot before a reset */
	struct agg_data before;
	size_t maxsize;			/* metrics_maxsize */
	struct webconfig wc;		/* metrics_webconfig, or empty */
	char **verified;		/* per user: the password last verified */
	struct crypt_data *crypt;	/* the HTTP thread's; one at a time */
	FILE *err;
	const char *progname;
	bool said_full;			/* the maxsize warning is given */
};

/* ---- the address ------------------------------------------------------ */

static int bad_address(struct metrics *m, const char *spec)
{
	fprintf(m->err, "%s: invalid metrics address '%s': expected "
		"[ADDR:]PORT, such as 127.0.0.1:9100 or [::1]:9100\n",
		m->progname, spec);
	return -EINVAL;
}

/* 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104: reachable from this host
 * only.  0.0.0.0 and :: are every address, the network's included. */
static bool is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr)
			>> 24) == 127;
	const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;

	return IN6_IS_ADDR_LOOPBACK(a) ||
	       (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

/* [ADDR:]PORT, ADDR numeric (IPv6 in brackets) or localhost; no ADDR
 * means loopback.  The socket is made here so that the sentence can
 * name what went wrong (libmicrohttpd would only fail). */
static int bind_address(struct metrics *m, const char *spec, bool insecure)
{
	char host[64] = "127.0.0.1", port[8];
	const char *colon = strrchr(spec, ':'), *p = colon ? colon + 1 : spec;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai;
	size_t hlen = colon ? (size_t)(colon - spec) : 0;

	if (!*p || strlen(p) > 5 || strspn(p, "0123456789") != strlen(p) ||
	    atoi(p) > 65535 || hlen >= sizeof(host))
		return bad_address(m, spec);
	strcpy(port, p);
	if (hlen > 2 && spec[0] == '[' && spec[hlen - 1] == ']') {
		memcpy(host, spec + 1, hlen - 2);
		host[hlen - 2] = '\0';
	} else if (hlen > 0 && strncmp(spec, "localhost", hlen) != 0) {
		memcpy(host, spec, hlen);
		host[hlen] = '\0';
	}
	if (strchr(host, '[') || getaddrinfo(host, port, &hints, &ai) != 0)
		return bad_address(m, spec);
	if (!is_loopback(ai->ai_addr) && !insecure &&
	    !(m->wc.tls && m->wc.nusers)) {
		fprintf(m->err, "%s: refusing to serve metrics on %s, which is not "
			"a loopback address, without TLS and basic authentication "
			"(anyone who reaches it would read this host's live trace): "
			"give -x metrics_webconfig=FILE with tls_server_config and "
			"basic_auth_users, or -x metrics_insecure\n", m->progname,
			spec);
		freeaddrinfo(ai);
		return -EACCES;
	}
	m->family = ai->ai_family;
	m->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1, rc = 0;

	if (m->fd >= 0)
		setsockopt(m->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (m->fd < 0 || bind(m->fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    listen(m->fd, LISTEN_BACKLOG) < 0) {
		rc = -errno;
		fprintf(m->err, "%s: could not serve metrics on %s: %s\n",
			m->progname, spec, strerror(errno));
	}
	freeaddrinfo(ai);
	if (rc < 0)
		return rc;
	/* the port as bound: PORT 0 lets the kernel choose */
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char addr[INET6_ADDRSTRLEN] = "?";
	uint16_t bound = 0;

	if (getsockname(m->fd, (struct sockaddr *)&ss, &len) == 0) {
		void *in = m->family == AF_INET6
			? (void *)&((struct sockaddr_in6 *)&ss)->sin6_addr
			: (void *)&((struct sockaddr_in *)&ss)->sin_addr;

		inet_ntop(m->family, in, addr, sizeof(addr));
		bound = ntohs(m->family == AF_INET6
			      ? ((struct sockaddr_in6 *)&ss)->sin6_port
			      : ((struct sockaddr_in *)&ss)->sin_port);
	}
	snprintf(m->where, sizeof(m->where), m->family == AF_INET6 ? "[%s]:%u"
		 : "%s:%u", addr, bound);
	return 0;
}

/* ---- the families ----------------------------------------------------- */

/* metrics_labels' entry for aggregation name ("@name:l1,l2"), or NULL. */
static const char *labels_for(const char *opt, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = opt; *p; p += strcspn(p, " "), p += *p == ' ')
		if (p[0] == '@' && strncmp(p + 1, name, n) == 0 && p[n + 1] == ':')
			return p + n + 2;
	return NULL;
}

/* Every entry must name an aggregation of the program. */
static int check_label_entries(struct metrics *m, const char *opt,
			       const struct spec *sp)
{
	for (const char *p = opt; *p; p += strcspn(p, " "), p += *p == ' ') {
		size_t len = strcspn(p, " "), n = strcspn(p, ": ");
		bool found = false;

		for (int i = 0; p[0] == '@' && p[n] == ':' && i < sp->naggs; i++)
			found |= strlen(sp->aggs[i].name) == n - 1 &&
				 strncmp(sp->aggs[i].name, p + 1, n - 1) == 0;
		if (found)
			continue;
		fprintf(m->err, "%s: invalid metrics_labels entry '%.*s': "
			"expected @AGGREGATION:LABEL,... naming an aggregation "
			"of the program\n", m->progname, (int)len, p);
		return -EINVAL;
	}
	return 0;
}

/* Two families writing one sample name would make the text invalid. */
static int check_collisions(struct metrics *m)
{
	char a[3][160], b[3][160];

	for (int i = 0; i < m->nfams; i++) {
		int na = prom_family_samples(&m->fams[i], a);

		for (int j = 0; j < i; j++) {
			int nb = prom_family_samples(&m->fams[j], b);

			for (int x = 0; x < na; x++)
				for (int y = 0; y < nb; y++)
					if (strcmp(a[x], b[y]) == 0)
						goto clash;
			continue;
clash:
			fprintf(m->err, "%s: could not serve metrics: @%s and @%s "
				"would both be %s; rename one\n", m->progname,
				m->fams[j].desc->name, m->fams[i].desc->name, a[0]);
			return -EINVAL;
		}
	}
	return 0;
}

static int make_families(struct metrics *m, const struct options *o,
			 const struct spec *sp)
{
	char err[256];
	int rc = check_label_entries(m, o->metrics_labels, sp);

	if (rc < 0 || (rc = agg_state_init(&m->descs, sp)) < 0)
		return rc;
	m->fams = calloc((size_t)sp->naggs + 1, sizeof(*m->fams));
	if (!m->fams)
		return -ENOMEM;
	for (int i = 0; i < sp->naggs; i++) {
		char *names = NULL;
		const char *l = labels_for(o->metrics_labels, sp->aggs[i].name);

		if (l && !(names = strndup(l, strcspn(l, " "))))
			return -ENOMEM;
		rc = prom_family_init(&m->fams[i], &m->descs.descs[i],
				      sp->aggs[i].keys, names, o->metrics_stacks,
				      NULL, err, sizeof(err));
		free(names);
		if (rc < 0) {
			fprintf(m->err, "%s: invalid metrics_labels: %s\n",
				m->progname, err);
			return -EINVAL;
		}
		m->nfams++;
	}
	return check_collisions(m);
}

/* ---- the web configuration -------------------------------------------- */

/* libmicrohttpd's options for wc: TLS from its certificate, key and
 * versions.  ops holds at least 4. */
static int tls_options(const struct webconfig *wc, struct MHD_OptionItem *ops)
{
	int n = 0;

	if (wc->tls) {
		ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0,
						    wc->key_pem };
		ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0,
						    wc->cert_pem };
		ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0,
						    (void *)wc->priorities };
	}
	ops[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	return n;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **state);

/* Read metrics_webconfig, and try its certificate and key now, with a
 * daemon that listens on nothing (and so never answers): a key that does not match its
 * certificate fails here, before anything is loaded, not when serving
 * starts. */
static int load_webconfig(struct metrics *m, const char *path)
{
	char err[512];
	struct MHD_OptionItem ops[4];

	if (webconfig_load(path, &m->wc, err, sizeof(err)) < 0) {
		fprintf(m->err, "%s: invalid metrics_webconfig: %s\n", m->progname,
			err);
		return -EINVAL;
	}
	if (m->wc.nusers &&
	    (open_crypt(m->err, m->progname) < 0 ||
	     !(m->verified = calloc((size_t)m->wc.nusers, sizeof(char *))) ||
	     !(m->crypt = calloc(1, sizeof(*m->crypt)))))
		return lib.crypt_rn ? -ENOMEM : -ENOENT;
	if (!m->wc.tls)
		return 0;
	if (lib.MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		fprintf(m->err, "%s: metrics_webconfig asks for TLS, but this "
			"%s was built without it\n", m->progname, MHD_SONAME);
		return -ENOTSUP;
	}
	tls_options(&m->wc, ops);
	struct MHD_Daemon *d = lib.MHD_start_daemon(MHD_USE_TLS |
		MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL, answer, m,
		MHD_OPTION_ARRAY, ops, MHD_OPTION_END);

	if (!d) {
		fprintf(m->err, "%s: invalid metrics_webconfig: %s: GnuTLS refused "
			"its certificate and key (not PEM, or the key is not the "
			"certificate's)\n", m->progname, path);
		return -EINVAL;
	}
	lib.MHD_stop_daemon(d);
	return 0;
}

int metrics__new(const struct options *o, const struct spec *sp, FILE *err,
		 const char *progname, struct metrics **out)
{
	struct metrics *m;
	int rc;

	*out = NULL;
	if (!o->metrics[0]) {
		const char *stray = o->metrics_labels[0] ? "metrics_labels"
				    : o->metrics_webconfig[0] ? "metrics_webconfig"
				    : NULL;

		if (!stray)
			return 0;
		fprintf(err, "%s: %s is set but metrics is not: "
			"add -x metrics=[ADDR:]PORT\n", progname, stray);
		return -EINVAL;
	}
	if ((rc = open_mhd(err, progname)) < 0)
		return rc;
	if (!(m = calloc(1, sizeof(*m))))
		return -ENOMEM;
	m->fd = -1;
	m->err = err;
	m->progname = progname;
	m->maxsize = o->metrics_maxsize;
	if ((rc = make_families(m, o, sp)) < 0 ||
	    (o->metrics_webconfig[0] &&
	     (rc = load_webconfig(m, o->metrics_webconfig)) < 0) ||
	    (rc = bind_address(m, o->metrics, o->metrics_insecure)) < 0) {
		metrics__free(m);
		return rc;
	}
	*out = m;
	return 0;
}

/* ---- basic authentication --------------------------------------------- */

/* Equal in time whatever the first difference: a password's prefix must
 * not be learnt from how long a refusal takes. */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

/* bcrypt takes some 70 ms at cost 10, by design; a scraper sends the same
 * password every time, so the one last verified for each user is kept
 * and compared first (as the exporter toolkit caches it).  A user who is
 * not there costs a bcrypt all the same, against the first user's hash,
 * so that a name's existence does not show in the time either. */
static bool authorised(struct metrics *m, const char *user, const char *pass)
{
	int u = 0;

	while (u < m->wc.nusers && strcmp(m->wc.users[u].name, user))
		u++;
	if (u < m->wc.nusers && m->verified[u] && same(m->verified[u], pass))
		return true;
	const char *hash = m->wc.users[u < m->wc.nusers ? u : 0].hash;
	const char *got = lib.crypt_rn(pass, hash, m->crypt, sizeof(*m->crypt));

	if (u == m->wc.nusers || !got || !same(got, hash))
		return false;
	free(m->verified[u]);
	m->verified[u] = strdup(pass);
	return true;
}

/* The credentials of c, when the web configuration asks for them. */
static bool credentials_ok(struct metrics *m, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	if (!m->wc.nusers)
		return true;
	user = lib.MHD_basic_auth_get_username_password(c, &pass);
	ok = user && pass && authorised(m, user, pass);
	lib.MHD_free(user);
	lib.MHD_free(pass);
	return ok;
}

/* ---- serving ---------------------------------------------------------- */

static char *render(struct metrics *m, size_t *len)
{
	struct prom_text t = { .max = m->maxsize };

	pthread_mutex_lock(m->lock);
	for (int i = 0; i < m->nfams; i++) {
		struct arena a = { 0 };
		struct agg_data d;

		agg_snapshot(m->aggs, i, &a, &d);
		prom_render(&t, &m->fams[i], &d);
		arena_free(&a);
	}
	if (t.left_out) {
		prom_text_printf(&t, "# dscope: %d rows left out: the response "
				 "reached metrics_maxsize (%zu bytes)\n",
				 t.left_out, m->maxsize);
		if (!m->said_full)
			fprintf(m->err, "%s: metrics: %d rows left out of a "
				"response: it reached metrics_maxsize (%zu bytes)\n",
				m->progname, t.left_out, m->maxsize);
		m->said_full = true;
	}
	pthread_mutex_unlock(m->lock);
	if (!t.buf)
		prom_text_put(&t, "", 0);
	*len = t.len;
	return t.buf;
}

/* Queue r with a content type and the configuration's headers, and let
 * go of it.  A 401 carries the challenge that names the realm. */
static enum MHD_Result queue(struct metrics *m, struct MHD_Connection *c,
			     unsigned status, struct MHD_Response *r,
			     const char *type)
{
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	lib.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	for (int i = 0; i < m->wc.nheaders; i++)
		lib.MHD_add_response_header(r, m->wc.headers[i].name,
					    m->wc.headers[i].value);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		lib.MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = status == MHD_HTTP_UNAUTHORIZED
		? lib.MHD_queue_basic_auth_fail_response(c, "dscope", r)
		: lib.MHD_queue_response(c, status, r);
	lib.MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result refuse(struct metrics *m, struct MHD_Connection *c,
			      unsigned status, const char *why)
{
	return queue(m, c, status, lib.MHD_create_response_from_buffer(
		     strlen(why), (void *)why, MHD_RESPMEM_PERSISTENT),
		     "text/plain; charset=utf-8");
}

/* Read-only: GET (and HEAD) of /metrics and nothing else; with
 * basic_auth_users, nothing at all before the credentials. */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct metrics *m = cls;
	size_t len;

	if (!credentials_ok(m, c))
		return refuse(m, c, MHD_HTTP_UNAUTHORIZED, "Unauthorized\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return refuse(m, c, MHD_HTTP_METHOD_NOT_ALLOWED,
			      "dscope serves GET /metrics only\n");
	if (strcmp(url, "/metrics") != 0)
		return refuse(m, c, MHD_HTTP_NOT_FOUND,
			      "dscope serves /metrics only\n");
	char *text = render(m, &len);

	return queue(m, c, MHD_HTTP_OK, lib.MHD_create_response_from_buffer(
		     len, text, MHD_RESPMEM_MUST_FREE),
		     "text/plain; version=0.0.4; charset=utf-8");
}

int metrics__start(struct metrics *m, struct agg_state *aggs,
		   pthread_mutex_t *lock, bool quiet)
{
	sigset_t all, old;
	struct MHD_OptionItem ops[4];

	m->aggs = aggs;
	m->lock = lock;
	for (int i = 0; i < m->nfams; i++)
		m->fams[i].syms = aggs->syms;
	tls_options(&m->wc, ops);
	/* the thread takes no signals: SIGINT and SIGCHLD are the
	 * consumer's, to wake its wait */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	m->daemon = lib.MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			(m->family == AF_INET6 ? MHD_USE_IPv6 : 0) |
			(m->wc.tls ? MHD_USE_TLS : 0),
		0, NULL, NULL, answer, m,
		MHD_OPTION_LISTEN_SOCKET, m->fd,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTIONS,
		MHD_OPTION_CONNECTION_TIMEOUT, 10u,
		MHD_OPTION_ARRAY, ops,
		MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!m->daemon) {
		fprintf(m->err, "%s: could not serve metrics on %s: libmicrohttpd "
			"did not start\n", m->progname, m->where);
		return -EIO;
	}
	if (!quiet)
		fprintf(m->err, "%s: metrics at http%s://%s/metrics\n", m->progname,
			m->wc.tls ? "s" : "", m->where);
	return 0;
}

void metrics__free(struct metrics *m)
{
	if (!m)
		return;
	if (m->daemon)
		lib.MHD_stop_daemon(m->daemon);	/* the socket is still ours */
	if (m->fd >= 0)
		close(m->fd);
	for (int i = 0; i < m->nfams; i++)
		prom_family_fini(&m->fams[i]);
	free(m->fams);
	agg_state_fini(&m->descs);
	arena_free(&m->reset_arena);
	for (int i = 0; m->verified && i < m->wc.nusers; i++)
		free(m->verified[i]);
	free(m->verified);
	free(m->crypt);
	webconfig_fini(&m->wc);
	free(m);
}

void metrics_reset_begin(struct metrics *m, int ai)
{
	if (!m || !m->aggs)
		return;
	arena_free(&m->reset_arena);
	agg_snapshot(m->aggs, ai, &m->reset_arena, &m->before);
}

void metrics_reset_end(struct metrics *m, int ai)
{
	struct arena a = { 0 };
	struct agg_data after;

	if (!m || !m->aggs)
		return;
	agg_snapshot(m->aggs, ai, &a, &after);
	prom_note_reset(&m->fams[ai], &m->before, &after);
	arena_free(&a);
	arena_free(&m->reset_arena);
}
