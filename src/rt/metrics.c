/*
 * metrics.c -- serve the aggregations to Prometheus.  See metrics.h.
 */
#include "rt/metrics.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rt/promtext.h"

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

/* [ADDR:]PORT, ADDR numeric (IPv6 in brackets) or localhost; no ADDR
 * means loopback.  The socket is made here so that the sentence can
 * name what went wrong (libmicrohttpd would only fail). */
static int bind_address(struct metrics *m, const char *spec)
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
	m->family = ai->ai_family;
	m->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1, rc = 0;

	if (m->fd >= 0)
		setsockopt(m->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (m->fd < 0 || bind(m->fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    listen(m->fd, 16) < 0) {
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

int metrics__new(const struct options *o, const struct spec *sp, FILE *err,
		 const char *progname, struct metrics **out)
{
	struct metrics *m;
	int rc;

	*out = NULL;
	if (!o->metrics[0]) {
		if (!o->metrics_labels[0])
			return 0;
		fprintf(err, "%s: metrics_labels is set but metrics is not: "
			"add -x metrics=[ADDR:]PORT\n", progname);
		return -EINVAL;
	}
	if (!(m = calloc(1, sizeof(*m))))
		return -ENOMEM;
	m->fd = -1;
	m->err = err;
	m->progname = progname;
	m->maxsize = o->metrics_maxsize;
	if ((rc = make_families(m, o, sp)) < 0 ||
	    (rc = bind_address(m, o->metrics)) < 0) {
		metrics__free(m);
		return rc;
	}
	*out = m;
	return 0;
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

/* Queue r with a content type, and let go of it. */
static enum MHD_Result queue(struct MHD_Connection *c, unsigned status,
			     struct MHD_Response *r, const char *type)
{
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status,
			      const char *why)
{
	return queue(c, status, MHD_create_response_from_buffer(strlen(why),
		     (void *)why, MHD_RESPMEM_PERSISTENT),
		     "text/plain; charset=utf-8");
}

/* Read-only: GET (and HEAD) of /metrics and nothing else. */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct metrics *m = cls;
	size_t len;

	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return refuse(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			      "dscope serves GET /metrics only\n");
	if (strcmp(url, "/metrics") != 0)
		return refuse(c, MHD_HTTP_NOT_FOUND, "dscope serves /metrics only\n");
	char *text = render(m, &len);

	return queue(c, MHD_HTTP_OK, MHD_create_response_from_buffer(len, text,
		     MHD_RESPMEM_MUST_FREE),
		     "text/plain; version=0.0.4; charset=utf-8");
}

int metrics__start(struct metrics *m, struct agg_state *aggs,
		   pthread_mutex_t *lock, bool quiet)
{
	sigset_t all, old;

	m->aggs = aggs;
	m->lock = lock;
	for (int i = 0; i < m->nfams; i++)
		m->fams[i].syms = aggs->syms;
	/* the thread takes no signals: SIGINT and SIGCHLD are the
	 * consumer's, to wake its wait */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	m->daemon = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			(m->family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, NULL, NULL, answer, m,
		MHD_OPTION_LISTEN_SOCKET, m->fd,
		MHD_OPTION_CONNECTION_LIMIT, 16u,
		MHD_OPTION_CONNECTION_TIMEOUT, 10u,
		MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!m->daemon) {
		fprintf(m->err, "%s: could not serve metrics on %s: libmicrohttpd "
			"did not start\n", m->progname, m->where);
		return -EIO;
	}
	if (!quiet)
		fprintf(m->err, "%s: metrics at http://%s/metrics\n", m->progname,
			m->where);
	return 0;
}

void metrics__free(struct metrics *m)
{
	if (!m)
		return;
	if (m->daemon)
		MHD_stop_daemon(m->daemon);	/* the socket is still ours */
	if (m->fd >= 0)
		close(m->fd);
	for (int i = 0; i < m->nfams; i++)
		prom_family_fini(&m->fams[i]);
	free(m->fams);
	agg_state_fini(&m->descs);
	arena_free(&m->reset_arena);
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
