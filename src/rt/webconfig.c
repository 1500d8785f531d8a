/*
 * webconfig.c -- the exporter toolkit's web configuration file.  See
 * webconfig.h for what is read and what is refused.
 *
 * Two passes.  The first turns the YAML subset into a tree of nodes
 * (mappings, lists, scalars, nulls), each with its line, and refuses
 * anything outside the subset where it stands.  The second walks the tree
 * against the format's keys, one table row per key, and fills struct
 * webconfig.  Every refusal is one sentence after PATH:LINE; the first
 * one wins and the walk stops there.  Nothing is kept of the tree: the
 * strings webconfig keeps are copies, and the tree is freed whole.
 */
#include "rt/webconfig.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the YAML subset ---------------------------------------------------- */

enum ykind { Y_NULL, Y_SCALAR, Y_MAP, Y_LIST };

struct ynode {
	enum ykind kind;
	int line;
	char *key;		/* in a mapping: its key */
	char *value;		/* Y_SCALAR */
	struct ynode *child;	/* Y_MAP, Y_LIST: the first entry */
	struct ynode *next;	/* the next entry of the parent */
};

struct yline {
	const char *s;		/* after the indentation */
	int len;		/* without the indentation and the newline */
	int indent;		/* spaces before s */
};

struct yparse {
	struct yline *lines;
	int n;
	int i;			/* the line being read */
	const char *path;
	char *err;
	size_t errlen;
	bool failed;
};

static int yfail(struct yparse *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int yfail(struct yparse *ps, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return -1;
	ps->failed = true;
	n = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->path, line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static void yfree(struct ynode *y)
{
	while (y) {
		struct ynode *next = y->next;

		yfree(y->child);
		free(y->key);
		free(y->value);
		free(y);
		y = next;
	}
}

/* Blank, or only a comment: not part of the structure. */
static bool yblank(const struct yline *l)
{
	return l->len == 0 || l->s[0] == '#';
}

/* The next line that is not blank, from ps->i; n when there is none. */
static int ynext(struct yparse *ps)
{
	int i = ps->i;

	while (i < ps->n && yblank(&ps->lines[i]))
		i++;
	return i;
}

/* Split text into lines, each with its indentation counted.  A tab in the
 * indentation, a NUL or a document marker other than a leading "---" is
 * refused here. */
static int ysplit(struct yparse *ps, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (memchr(text, '\0', len))
		return yfail(ps, 1, "the file is not text (it holds a NUL byte)");
	size_t nlines = 1;

	for (const char *q = text; (q = memchr(q, '\n', (size_t)(end - q))); q++)
		nlines++;
	ps->lines = calloc(nlines, sizeof(*ps->lines));
	if (!ps->lines)
		return yfail(ps, 1, "out of memory");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		struct yline *l = &ps->lines[ps->n++];

		if (e > p && e[-1] == '\r')
			e--;
		for (l->s = p; l->s < e && *l->s == ' '; l->s++)
			;
		l->indent = (int)(l->s - p);
		if (l->s < e && *l->s == '\t')
			return yfail(ps, ps->n, "a tab in the indentation "
				     "(YAML indents with spaces)");
		while (e > l->s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		l->len = (int)(e - l->s);
		if (l->indent == 0 && l->len >= 3 &&
		    (!strncmp(l->s, "---", 3) || !strncmp(l->s, "...", 3)) &&
		    (l->len == 3 || l->s[3] == ' ')) {
			if (ps->n != 1 || l->s[0] == '.')
				return yfail(ps, ps->n, "a second YAML document "
					     "(one file holds one configuration)");
			l->len = 0;	/* a leading "---" starts the one document */
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* Where a plain scalar or key on [s, e) stops: a comment (" #") or e. */
static const char *yplain_end(const char *s, const char *e)
{
	for (const char *q = s; q < e; q++)
		if (*q == '#' && (q == s || q[-1] == ' '))
			e = q;
	while (e > s && e[-1] == ' ')
		e--;
	return e;
}

/* A quoted scalar at *s (the quote) up to e: its value in *out, *s past
 * the closing quote.  Double quotes take the escapes a file name or a
 * password needs; single quotes double themselves. */
static int yquoted(struct yparse *ps, const char **s, const char *e,
		   char **out)
{
	char q = **s, *v = malloc((size_t)(e - *s) + 1), *w = v;
	const char *p = *s + 1;

	if (!v)
		return yfail(ps, ps->i + 1, "out of memory");
	for (; p < e; p++) {
		if (*p == q && q == '\'' && p + 1 < e && p[1] == '\'') {
			*w++ = *p++;
		} else if (*p == q) {
			break;
		} else if (*p == '\\' && q == '"') {
			static const char from[] = "\\\"/nt", to[] = "\\\"/\n\t";
			const char *f = ++p < e ? strchr(from, *p) : NULL;

			if (!f || !*p) {
				free(v);
				return yfail(ps, ps->i + 1, "an escape other than "
					     "\\\\, \\\", \\/, \\n or \\t in a "
					     "double-quoted value");
			}
			*w++ = to[f - from];
		} else {
			*w++ = *p;
		}
	}
	if (p >= e) {
		free(v);
		return yfail(ps, ps->i + 1, "a quoted value that does not end "
			     "on its line");
	}
	*w = '\0';
	*s = p + 1;
	*out = v;
	return 0;
}

/* What may follow a value on its line: spaces and a comment. */
static int yline_end(struct yparse *ps, const char *s, const char *e)
{
	while (s < e && *s == ' ')
		s++;
	if (s < e && (*s != '#' || s[-1] != ' '))
		return yfail(ps, ps->i + 1, "unexpected '%.*s' after the value",
			     (int)(e - s), s);
	return 0;
}

/* A scalar on [s, e) (not a block): into y, plain "null", "~" or nothing
 * as Y_NULL.  Flow collections, anchors, aliases, tags and folded blocks
 * are outside the subset. */
static int yscalar(struct yparse *ps, const char *s, const char *e,
		   struct ynode *y)
{
	y->kind = Y_SCALAR;
	if (s < e && (*s == '"' || *s == '\''))
		return yquoted(ps, &s, e, &y->value) < 0 ? -1 : yline_end(ps, s, e);
	if (s < e && strchr("[{&*!>%@`", *s))
		return yfail(ps, ps->i + 1, "'%c' starts YAML this reader does "
			     "not take (flow collections, anchors, aliases, tags, "
			     "folded blocks); write the value plainly or quoted",
			     *s);
	e = yplain_end(s, e);
	for (const char *q = s; q < e; q++)
		if (*q == ':' && (q + 1 == e || q[1] == ' '))
			return yfail(ps, ps->i + 1, "a ': ' inside a plain value; "
				     "quote the value");
	if (e == s || (e - s == 1 && *s == '~') ||
	    (e - s == 4 && (!strncmp(s, "null", 4) || !strncmp(s, "Null", 4) ||
			    !strncmp(s, "NULL", 4)))) {
		y->kind = Y_NULL;
		return 0;
	}
	if (!(y->value = strndup(s, (size_t)(e - s))))
		return yfail(ps, ps->i + 1, "out of memory");
	return 0;
}

/* A literal block ("|" or "|-", s at the '|') after the key on line
 * ps->i, indented deeper than indent: the lines with the block's own
 * indentation removed, joined by newlines, ending in one ("|") or none
 * ("|-"). */
static int yliteral(struct yparse *ps, const char *s, const char *e,
		    int indent, struct ynode *y)
{
	bool strip = s + 1 < e && s[1] == '-';
	int line = ps->i + 1, bi = -1;
	size_t cap = 1, len = 0;

	if (yline_end(ps, s + 1 + strip, e) < 0)
		return -1;
	for (int j = ps->i + 1; j < ps->n; j++)
		cap += (size_t)ps->lines[j].len + (size_t)ps->lines[j].indent + 1;
	if (!(y->value = malloc(cap)))
		return yfail(ps, line, "out of memory");
	y->kind = Y_SCALAR;
	for (ps->i++; ps->i < ps->n; ps->i++) {
		const struct yline *l = &ps->lines[ps->i];

		if (l->len == 0) {
			y->value[len++] = '\n';
			continue;
		}
		if (l->indent <= indent)
			break;
		if (bi < 0)
			bi = l->indent;
		if (l->indent < bi)
			return yfail(ps, ps->i + 1, "a line of a literal block "
				     "indented less than its first line");
		memset(y->value + len, ' ', (size_t)(l->indent - bi));
		len += (size_t)(l->indent - bi);
		memcpy(y->value + len, l->s, (size_t)l->len);
		len += (size_t)l->len;
		y->value[len++] = '\n';
	}
	while (len > 0 && y->value[len - 1] == '\n')
		len--;
	if (!strip && len > 0)
		y->value[len++] = '\n';
	y->value[len] = '\0';
	if (bi < 0)
		return yfail(ps, line, "an empty literal block");
	return 0;
}

static int yblock(struct yparse *ps, int indent, struct ynode *y);

/* list = ("- " scalar)+ at one indentation: lists of scalars only, as
 * the format's lists are. */
static int ylist(struct yparse *ps, int indent, struct ynode *y)
{
	struct ynode **tail = &y->child;

	y->kind = Y_LIST;
	for (int i; (i = ynext(ps)) < ps->n && ps->lines[i].indent == indent &&
		    ps->lines[i].s[0] == '-';) {
		const struct yline *l = &ps->lines[ps->i = i];
		struct ynode *item = calloc(1, sizeof(*item));

		if (!item)
			return yfail(ps, i + 1, "out of memory");
		*tail = item;
		tail = &item->next;
		item->line = i + 1;
		if (l->len > 1 && l->s[1] != ' ')
			return yfail(ps, i + 1, "expected '- ' before a list item");
		if (yscalar(ps, l->s + 1 + (l->len > 1), l->s + l->len, item) < 0)
			return -1;
		ps->i++;
	}
	return 0;
}

/* The key of a mapping entry on line l: into *key, *rest past the ':'. */
static int ykey(struct yparse *ps, const struct yline *l, char **key,
		const char **rest)
{
	const char *s = l->s, *e = l->s + l->len, *c;

	if (*s == '"' || *s == '\'') {
		if (yquoted(ps, &s, e, key) < 0)
			return -1;
		c = s;
	} else {
		for (c = s; c < e && !(*c == ':' && (c + 1 == e || c[1] == ' ')); c++)
			if (*c == '#' && c > s && c[-1] == ' ')
				c = e - 1;
		if (c < e && !(*key = strndup(s, (size_t)(c - s))))
			return yfail(ps, ps->i + 1, "out of memory");
	}
	if (c >= e || *c != ':') {
		free(*key);
		*key = NULL;
		return yfail(ps, ps->i + 1, "expected 'KEY: VALUE' or 'KEY:', "
			     "found '%.*s'", l->len, l->s);
	}
	*rest = c + 1;
	return 0;
}

/* mapping = (key ":" (scalar | literal | NEWLINE block))+ at one
 * indentation; a key given twice is refused, as the toolkit refuses it. */
static int ymap(struct yparse *ps, int indent, struct ynode *y)
{
	struct ynode **tail = &y->child;

	y->kind = Y_MAP;
	for (int i; (i = ynext(ps)) < ps->n && ps->lines[i].indent >= indent;) {
		const struct yline *l = &ps->lines[ps->i = i];
		const char *rest = NULL;
		struct ynode *e;

		if (l->indent > indent)
			return yfail(ps, i + 1, "unexpected indentation");
		if (l->s[0] == '-')
			return yfail(ps, i + 1, "a list item where a key was "
				     "expected");
		if (!(e = calloc(1, sizeof(*e))))
			return yfail(ps, i + 1, "out of memory");
		*tail = e;
		tail = &e->next;
		e->line = i + 1;
		if (ykey(ps, l, &e->key, &rest) < 0)
			return -1;
		for (struct ynode *o = y->child; o != e; o = o->next)
			if (strcmp(o->key, e->key) == 0)
				return yfail(ps, i + 1, "'%s' is given twice "
					     "(first on line %d)", e->key, o->line);
		while (rest < l->s + l->len && *rest == ' ')
			rest++;
		if (rest < l->s + l->len && *rest == '|') {
			if (yliteral(ps, rest, l->s + l->len, indent, e) < 0)
				return -1;
			continue;
		}
		if (yscalar(ps, rest, l->s + l->len, e) < 0)
			return -1;
		ps->i++;
		if (e->kind != Y_NULL || rest < yplain_end(rest, l->s + l->len))
			continue;
		/* "key:" alone: a block below, deeper or (a list) level */
		int j = ynext(ps);

		if (j < ps->n && (ps->lines[j].indent > indent ||
				  (ps->lines[j].indent == indent &&
				   ps->lines[j].s[0] == '-')))
			if (yblock(ps, ps->lines[j].indent, e) < 0)
				return -1;
	}
	return 0;
}

static int yblock(struct yparse *ps, int indent, struct ynode *y)
{
	int i = ynext(ps);

	return i < ps->n && ps->lines[i].s[0] == '-' ? ylist(ps, indent, y)
						     : ymap(ps, indent, y);
}

/* The whole text as one node: a mapping at column 0, or Y_NULL when the
 * file holds nothing (the toolkit takes an empty file). */
static int yparse_text(struct yparse *ps, const char *text, size_t len,
		       struct ynode **out)
{
	struct ynode *root = calloc(1, sizeof(*root));

	*out = root;
	if (!root)
		return yfail(ps, 1, "out of memory");
	root->line = 1;
	if (ysplit(ps, text, len) < 0)
		return -1;
	int i = ynext(ps);

	if (i >= ps->n)
		return 0;
	if (ps->lines[i].indent > 0 || ps->lines[i].s[0] == '-')
		return yfail(ps, i + 1, "expected a mapping of keys at the "
			     "first column");
	if (ymap(ps, 0, root) < 0)
		return -1;
	if ((i = ynext(ps)) < ps->n)
		return yfail(ps, i + 1, "unexpected indentation");
	return 0;
}

/* ---- the format ------------------------------------------------------- */

struct wctx {
	struct yparse *ps;
	struct webconfig *wc;
	int min_tls, max_tls;	/* 0..3 for TLS 1.0..1.3 */
	bool server_precedence;
	char *cert, *key;	/* inline PEM, before the check of both */
};

/* One key of one mapping: what it must be, and what to do with it. */
struct wkey {
	const char *name;
	int (*take)(struct wctx *c, const struct ynode *y);
	const char *refused;	/* the sentence when dscope does not take it */
};

static int wwalk(struct wctx *c, const struct ynode *map, const char *where,
		 const struct wkey *keys, size_t nkeys);

static int want_scalar(struct wctx *c, const struct ynode *y)
{
	if (y->kind == Y_SCALAR || y->kind == Y_NULL)
		return 0;
	return yfail(c->ps, y->line, "%s wants a single value, not a %s",
		     y->key, y->kind == Y_MAP ? "mapping" : "list");
}

/* A string key into *dst (NULL for an empty or null value). */
static int take_string(struct wctx *c, const struct ynode *y, char **dst)
{
	if (want_scalar(c, y) < 0)
		return -1;
	if (y->kind == Y_NULL || !*y->value)
		return 0;
	if (!(*dst = strdup(y->value)))
		return yfail(c->ps, y->line, "out of memory");
	return 0;
}

static int take_bool(struct wctx *c, const struct ynode *y, bool *dst)
{
	if (want_scalar(c, y) < 0)
		return -1;
	if (y->kind == Y_SCALAR && !strcasecmp(y->value, "true"))
		*dst = true;
	else if (y->kind == Y_SCALAR && !strcasecmp(y->value, "false"))
		*dst = false;
	else
		return yfail(c->ps, y->line, "%s wants true or false",
			     y->key);
	return 0;
}

static int take_cert_file(struct wctx *c, const struct ynode *y)
{
	return take_string(c, y, &c->wc->cert_file);
}

static int take_key_file(struct wctx *c, const struct ynode *y)
{
	return take_string(c, y, &c->wc->key_file);
}

static int take_cert(struct wctx *c, const struct ynode *y)
{
	return take_string(c, y, &c->cert);
}

static int take_key(struct wctx *c, const struct ynode *y)
{
	return take_string(c, y, &c->key);
}

static int take_client_auth(struct wctx *c, const struct ynode *y)
{
	if (want_scalar(c, y) < 0)
		return -1;
	if (y->kind == Y_NULL || !strcmp(y->value, "NoClientCert"))
		return 0;
	return yfail(c->ps, y->line, "client_auth_type %s: dscope neither "
		     "asks for nor verifies client certificates (only "
		     "NoClientCert); use basic_auth_users", y->value);
}

static int take_version(struct wctx *c, const struct ynode *y, int *dst)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };

	if (want_scalar(c, y) < 0)
		return -1;
	for (int v = 0; y->kind == Y_SCALAR && v < 4; v++)
		if (!strcmp(y->value, names[v])) {
			*dst = v;
			return 0;
		}
	return yfail(c->ps, y->line, "%s wants TLS10, TLS11, TLS12 or TLS13",
		     y->key);
}

static int take_min(struct wctx *c, const struct ynode *y)
{
	return take_version(c, y, &c->min_tls);
}

static int take_max(struct wctx *c, const struct ynode *y)
{
	return take_version(c, y, &c->max_tls);
}

static int take_precedence(struct wctx *c, const struct ynode *y)
{
	return take_bool(c, y, &c->server_precedence);
}

static const struct wkey tls_keys[] = {
	{ "cert_file", take_cert_file, NULL },
	{ "key_file", take_key_file, NULL },
	{ "cert", take_cert, NULL },
	{ "key", take_key, NULL },
	{ "client_auth_type", take_client_auth, NULL },
	{ "min_version", take_min, NULL },
	{ "max_version", take_max, NULL },
	{ "prefer_server_cipher_suites", take_precedence, NULL },
	{ "client_ca_file", NULL, "dscope does not verify client "
	  "certificates; use basic_auth_users" },
	{ "client_ca", NULL, "dscope does not verify client certificates; "
	  "use basic_auth_users" },
	{ "client_allowed_sans", NULL, "dscope does not verify client "
	  "certificates; use basic_auth_users" },
	{ "cipher_suites", NULL, "dscope's TLS is GnuTLS, which knows no Go "
	  "cipher suite names; remove it for GnuTLS's defaults" },
	{ "curve_preferences", NULL, "dscope's TLS is GnuTLS, which knows no "
	  "Go curve names; remove it for GnuTLS's defaults" },
};

/* The header names the format allows, and the values it allows where it
 * restricts them (NULL: any). */
static const struct {
	const char *name, *values[3];
} header_rules[WEBCONFIG_HEADERS] = {
	{ "Content-Security-Policy", { NULL } },
	{ "X-Frame-Options", { "deny", "sameorigin", NULL } },
	{ "X-Content-Type-Options", { "nosniff", NULL } },
	{ "X-XSS-Protection", { NULL } },
	{ "Strict-Transport-Security", { NULL } },
};

static int take_headers(struct wctx *c, const struct ynode *y)
{
	if (y->kind == Y_NULL)
		return 0;
	if (y->kind != Y_MAP)
		return yfail(c->ps, y->line, "headers wants a mapping of header "
			     "names to values");
	for (const struct ynode *h = y->child; h; h = h->next) {
		int r = 0;
		char *v = NULL;

		while (r < WEBCONFIG_HEADERS && strcmp(header_rules[r].name, h->key))
			r++;
		if (r == WEBCONFIG_HEADERS)
			return yfail(c->ps, h->line, "unknown header '%s': the "
				     "format sets Content-Security-Policy, "
				     "X-Frame-Options, X-Content-Type-Options, "
				     "X-XSS-Protection and Strict-Transport-"
				     "Security", h->key);
		if (take_string(c, h, &v) < 0)
			return -1;
		if (!v)
			continue;	/* blank: unset, as the toolkit has it */
		bool ok = !header_rules[r].values[0];

		for (int k = 0; !ok && header_rules[r].values[k]; k++)
			ok = !strcasecmp(v, header_rules[r].values[k]);
		if (!ok) {
			free(v);
			return yfail(c->ps, h->line, "%s wants %s%s%s", h->key,
				     header_rules[r].values[0],
				     header_rules[r].values[1] ? " or " : "",
				     header_rules[r].values[1] ?: "");
		}
		c->wc->headers[c->wc->nheaders].name = header_rules[r].name;
		c->wc->headers[c->wc->nheaders++].value = v;
	}
	return 0;
}

static int take_http2(struct wctx *c, const struct ynode *y)
{
	bool ignored;	/* dscope speaks HTTP/1.1; see webconfig.h */

	return take_bool(c, y, &ignored);
}

static const struct wkey http_keys[] = {
	{ "headers", take_headers, NULL },
	{ "http2", take_http2, NULL },
};

/* bcrypt as crypt(3) writes it: $2a$, $2b$ or $2y$, a two-digit cost
 * from 04 to 31, then 22 characters of salt and 31 of hash. */
static bool is_bcrypt(const char *h)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";

	return strlen(h) == 60 && h[0] == '$' && h[1] == '2' &&
	       h[2] && strchr("aby", h[2]) && h[3] == '$' &&
	       h[4] >= '0' && h[4] <= '3' && h[5] >= '0' && h[5] <= '9' &&
	       (h[4] - '0') * 10 + (h[5] - '0') >= 4 &&
	       (h[4] - '0') * 10 + (h[5] - '0') <= 31 && h[6] == '$' &&
	       strspn(h + 7, b64) == 53;
}

static int take_users(struct wctx *c, const struct ynode *y)
{
	int n = 0;

	if (y->kind == Y_NULL)
		return 0;
	if (y->kind != Y_MAP)
		return yfail(c->ps, y->line, "basic_auth_users wants a mapping "
			     "of user names to bcrypt hashes");
	for (const struct ynode *u = y->child; u; u = u->next)
		n++;
	if (!(c->wc->users = calloc((size_t)n, sizeof(*c->wc->users))))
		return yfail(c->ps, y->line, "out of memory");
	for (const struct ynode *u = y->child; u; u = u->next) {
		struct webuser *w = &c->wc->users[c->wc->nusers];

		if (!*u->key || strchr(u->key, ':'))
			return yfail(c->ps, u->line, "user name '%s' cannot be "
				     "sent in basic authentication (empty, or "
				     "holds ':')", u->key);
		if (u->kind != Y_SCALAR || !is_bcrypt(u->value))
			return yfail(c->ps, u->line, "the password of '%s' is not "
				     "a bcrypt hash ($2y$10$ and 53 more "
				     "characters, as htpasswd -nBC 10 writes)",
				     u->key);
		if (!(w->name = strdup(u->key)) || !(w->hash = strdup(u->value))) {
			free(w->name);
			return yfail(c->ps, u->line, "out of memory");
		}
		c->wc->nusers++;
	}
	return 0;
}

static int take_tls(struct wctx *c, const struct ynode *y)
{
	return wwalk(c, y, "tls_server_config", tls_keys,
		     sizeof(tls_keys) / sizeof(tls_keys[0]));
}

static int take_http(struct wctx *c, const struct ynode *y)
{
	return wwalk(c, y, "http_server_config", http_keys,
		     sizeof(http_keys) / sizeof(http_keys[0]));
}

static const struct wkey root_keys[] = {
	{ "tls_server_config", take_tls, NULL },
	{ "http_server_config", take_http, NULL },
	{ "basic_auth_users", take_users, NULL },
	{ "rate_limit", NULL, "dscope does not limit the rate of scrapes" },
};

/* Each entry of map by its row in keys; a key not there is refused,
 * naming the keys that are. */
static int wwalk(struct wctx *c, const struct ynode *map, const char *where,
		 const struct wkey *keys, size_t nkeys)
{
	if (map->kind == Y_NULL)
		return 0;
	if (map->kind != Y_MAP)
		return yfail(c->ps, map->line, "%s wants a mapping of keys",
			     where);
	for (const struct ynode *e = map->child; e; e = e->next) {
		size_t k = 0;
		char known[400] = "";

		while (k < nkeys && strcmp(keys[k].name, e->key))
			k++;
		if (k < nkeys && keys[k].take) {
			if (keys[k].take(c, e) < 0)
				return -1;
			continue;
		}
		if (k < nkeys)
			return yfail(c->ps, e->line, "%s: %s; remove it", e->key,
				     keys[k].refused);
		for (k = 0; k < nkeys; k++)
			if (keys[k].take)
				snprintf(known + strlen(known),
					 sizeof(known) - strlen(known), "%s%s",
					 *known ? ", " : "", keys[k].name);
		return yfail(c->ps, e->line, "unknown key '%s' in %s (it takes "
			     "%s)", e->key, where, known);
	}
	return 0;
}

/* The certificate and key: a file or inline, not both, and both or
 * neither (neither: plain HTTP, as the toolkit serves it). */
static int check_tls(struct wctx *c, const struct ynode *root)
{
	struct webconfig *wc = c->wc;
	static const char *const vers[] = { "1.0", "1.1", "1.2", "1.3" };
	int line = root->line;

	for (const struct ynode *e = root->child; e; e = e->next)
		if (!strcmp(e->key, "tls_server_config"))
			line = e->line;
	if (wc->cert_file && c->cert)
		return yfail(c->ps, line, "both cert and cert_file; give one");
	if (wc->key_file && c->key)
		return yfail(c->ps, line, "both key and key_file; give one");
	bool cert = wc->cert_file || c->cert, key = wc->key_file || c->key;

	if (cert != key)
		return yfail(c->ps, line, "a TLS %s without a %s: give both "
			     "cert_file and key_file", cert ? "certificate" : "key",
			     cert ? "key" : "certificate");
	if (c->min_tls > c->max_tls)
		return yfail(c->ps, line, "min_version is above max_version");
	wc->tls = cert;
	wc->cert_pem = c->cert;
	wc->key_pem = c->key;
	c->cert = c->key = NULL;
	int n = snprintf(wc->priorities, sizeof(wc->priorities),
			 "NORMAL:-VERS-ALL");

	for (int v = c->max_tls; v >= c->min_tls; v--)
		n += snprintf(wc->priorities + n, sizeof(wc->priorities) - n,
			      ":+VERS-TLS%s", vers[v]);
	if (c->server_precedence)
		snprintf(wc->priorities + n, sizeof(wc->priorities) - n,
			 ":%%SERVER_PRECEDENCE");
	return 0;
}

int webconfig_parse(const char *text, size_t len, const char *path,
		    struct webconfig *wc, char *err, size_t errlen)
{
	struct yparse ps = { .path = path, .err = err, .errlen = errlen };
	struct wctx c = { .ps = &ps, .wc = wc, .min_tls = 2, .max_tls = 3,
			  .server_precedence = true };
	struct ynode *root = NULL;
	int rc;

	memset(wc, 0, sizeof(*wc));
	rc = yparse_text(&ps, text, len, &root);
	if (rc == 0)
		rc = wwalk(&c, root, "the file", root_keys,
			   sizeof(root_keys) / sizeof(root_keys[0]));
	if (rc == 0)
		rc = check_tls(&c, root);
	yfree(root);
	free(ps.lines);
	free(c.cert);
	free(c.key);
	if (rc < 0)
		webconfig_fini(wc);
	return rc;
}

/* ---- the files -------------------------------------------------------- */

/* All of path, NUL-terminated, up to 1 MiB (no configuration or PEM
 * chain is larger). */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 1 << 20;
	char *buf = f ? malloc(cap + 1) : NULL;

	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, cap + 1, f);
	if (ferror(f) || *len > cap) {
		errno = ferror(f) ? EIO : EFBIG;
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/* A PEM file named in the configuration, relative to its folder as the
 * toolkit resolves it. */
static int read_pem(const char *conf, const char *what, const char *name,
		    char **out, char *err, size_t errlen)
{
	const char *slash = strrchr(conf, '/');
	char path[4096];
	size_t len;

	if (name[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - conf),
			 conf, name);
	if (!(*out = read_all(path, &len))) {
		snprintf(err, errlen, "%s: could not read %s '%s': %s", conf, what,
			 path, strerror(errno));
		return -1;
	}
	return 0;
}

int webconfig_load(const char *path, struct webconfig *wc, char *err,
		   size_t errlen)
{
	size_t len;
	char *text = read_all(path, &len);

	memset(wc, 0, sizeof(*wc));
	if (!text) {
		snprintf(err, errlen, "could not read %s: %s", path,
			 strerror(errno));
		return -1;
	}
	int rc = webconfig_parse(text, len, path, wc, err, errlen);

	free(text);
	if (rc == 0 && wc->cert_file)
		rc = read_pem(path, "cert_file", wc->cert_file, &wc->cert_pem,
			      err, errlen);
	if (rc == 0 && wc->key_file)
		rc = read_pem(path, "key_file", wc->key_file, &wc->key_pem, err,
			      errlen);
	if (rc == 0 && wc->tls && (!strstr(wc->cert_pem, "-----BEGIN ") ||
				   !strstr(wc->key_pem, "-----BEGIN "))) {
		snprintf(err, errlen, "%s: the TLS %s is not PEM (no "
			 "-----BEGIN line)", path,
			 strstr(wc->cert_pem, "-----BEGIN ") ? "key" : "certificate");
		rc = -1;
	}
	if (rc < 0)
		webconfig_fini(wc);
	return rc;
}

void webconfig_fini(struct webconfig *wc)
{
	free(wc->cert_file);
	free(wc->key_file);
	free(wc->cert_pem);
	free(wc->key_pem);
	for (int i = 0; i < wc->nheaders; i++)
		free(wc->headers[i].value);
	for (int i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	memset(wc, 0, sizeof(*wc));
}
