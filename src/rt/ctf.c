/*
 * ctf.c -- the CTF trace writer and its reader (ctf.h).
 *
 * Layout, little-endian and byte-aligned throughout (align = 8 bits), so
 * that writer and reader agree without padding rules:
 *
 *	packet header   u32 magic 0xc1fc1fc1, u8 uuid[16], u32 stream_id
 *	packet context  u64 timestamp_begin, timestamp_end, content_size,
 *	                packet_size (both in bits), packet_seq_num,
 *	                events_discarded; u32 cpu_id
 *	event header    u32 id, u64 timestamp
 *	event context   s32 pid, tid; u32 uid, gid; string execname
 *	event payload   s64 arg0 .. argN-1 (N by class), then per string
 *	                argument K: u8 argK_copied, string argK_str (a
 *	                return's: entry_argK_copied, entry_argK_str)
 *
 * The reader reads what this writer writes and nothing else: metadata
 * that is not in this writer's words is a foreign trace, refused in one
 * sentence, and every length in a stream is checked against the file
 * before it is believed.  tests/fuzz feeds it damaged traces.
 */
#define _GNU_SOURCE
#include "rt/ctf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CTF_MAGIC 0xc1fc1fc1u
#define PACKET_HDR 76		/* header 24 + context 52 bytes */
#define PACKET_FLUSH (256 * 1024)	/* a CPU's pending bytes written at once */
#define COMPLETE_MARK ".dscope-complete"

struct ctf_stream {
	unsigned char *buf;	/* pending events */
	size_t len, cap;
	uint64_t ts_begin, ts_end;
	uint64_t seq;		/* packets written */
	uint64_t discarded;	/* as of the last packet */
	int fd;			/* -1 until its first event */
};

struct ctf_writer {
	char *dir;
	FILE *meta;
	unsigned char uuid[16];
	int ncpus;
	struct ctf_stream *streams;
	struct ctf_class {	/* by probe id */
		uint32_t id;		/* class id + 1; 0: none yet */
		uint8_t nargs;		/* the arguments it holds */
		uint8_t nstrs;		/* and strings, of these arguments */
		uint8_t strs[RECORD_STRS];
		uint8_t stacks;		/* CTF_KSTACK | CTF_USTACK */
	} *classes;
	uint32_t nclass_slots, nclasses;
	int stack_cls;		/* dscope:::stack's class id; -1: not yet */
	struct wstack {		/* the stacks given ids, hashed by words */
		uint64_t *words;	/* NULL: a free slot */
		uint32_t n, id;
		bool user;
	} *stk;
	uint32_t stk_cap, nstk;	/* stk_cap a power of two */
	uint64_t events, stack_events;
	FILE *err;
	const char *progname;
};

/* ---- writing ---- */

static int put(struct ctf_stream *s, const void *p, size_t n)
{
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 64 * 1024;
		unsigned char *b;

		while (cap < s->len + n)
			cap *= 2;
		if (!(b = realloc(s->buf, cap)))
			return -ENOMEM;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

static void uuid_text(const unsigned char *u, char *out)
{
	static const int dash[] = { 4, 6, 8, 10 };
	int k = 0;

	for (int i = 0; i < 16; i++) {
		for (int d = 0; d < 4; d++)
			if (i == dash[d])
				out[k++] = '-';
		k += sprintf(out + k, "%02x", u[i]);
	}
}

static void write_header(struct ctf_writer *w)
{
	struct timespec mono, real;
	char uuid[40], host[256] = "";
	int64_t off;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	off = (real.tv_sec - mono.tv_sec) * 1000000000ll + real.tv_nsec - mono.tv_nsec;
	gethostname(host, sizeof(host) - 1);
	uuid_text(w->uuid, uuid);
	fprintf(w->meta,
		"/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n"
		"\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n\t};\n};\n\n"
		"env {\n\ttracer_name = \"dscope\";\n\ttracer_major = 1;\n"
		"\thostname = \"%s\";\n\tdomain = \"kernel\";\n};\n\n"
		"clock {\n\tname = monotonic;\n\tdescription = \"CLOCK_MONOTONIC\";\n"
		"\tfreq = 1000000000;\n\toffset_s = %lld;\n\toffset = %lld;\n};\n\n"
		"typealias integer { size = 64; align = 8; signed = false; "
		"map = clock.monotonic.value; } := uint64_clock_t;\n\n"
		"stream {\n\tid = 0;\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n\t\tuint64_t events_discarded;\n"
		"\t\tuint32_t cpu_id;\n\t};\n"
		"\tevent.header := struct {\n\t\tuint32_t id;\n"
		"\t\tuint64_clock_t timestamp;\n\t};\n"
		"\tevent.context := struct {\n\t\tint32_t pid;\n\t\tint32_t tid;\n"
		"\t\tuint32_t uid;\n\t\tuint32_t gid;\n\t\tstring execname;\n\t};\n};\n",
		uuid, host, (long long)(off / 1000000000),
		(long long)(off % 1000000000));
}

int ctf_writer__new(const char *dir, int ncpus, const char *const *enabled,
		    int nenabled, FILE *err, const char *progname,
		    struct ctf_writer **out)
{
	struct ctf_writer *w = calloc(1, sizeof(*w));
	char *path = NULL;
	int fd, e;

	if (!w || !(w->streams = calloc((size_t)ncpus, sizeof(*w->streams))) ||
	    !(w->dir = strdup(dir))) {
		e = ENOMEM;
		goto err_out;
	}
	w->ncpus = ncpus;
	w->stack_cls = -1;
	w->err = err;
	w->progname = progname;
	for (int i = 0; i < ncpus; i++)
		w->streams[i].fd = -1;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		e = errno;
		fprintf(err, "%s: cannot record to %s: %s\n", progname, dir, strerror(e));
		goto err_out;
	}
	if (asprintf(&path, "%s/metadata", dir) < 0) {
		e = ENOMEM;
		goto err_out;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	free(path);
	if (fd < 0 || !(w->meta = fdopen(fd, "w"))) {
		e = errno;
		fprintf(err, "%s: cannot record to %s: %s\n", progname, dir,
			e == EEXIST ? "it already holds a trace" : strerror(e));
		if (fd >= 0)
			close(fd);
		goto err_out;
	}
	if (getrandom(w->uuid, sizeof(w->uuid), 0) != sizeof(w->uuid))
		memset(w->uuid, 0x5a, sizeof(w->uuid));
	w->uuid[6] = (w->uuid[6] & 0x0f) | 0x40;	/* version 4, RFC 4122 */
	w->uuid[8] = (w->uuid[8] & 0x3f) | 0x80;
	write_header(w);
	fputc('\n', w->meta);
	for (int i = 0; i < nenabled; i++)
		fprintf(w->meta, "/* enabled %s */\n", enabled[i]);
	if (fflush(w->meta) == EOF) {
		e = errno;
		fprintf(err, "%s: cannot record to %s: %s\n", progname, dir, strerror(e));
		goto err_out;
	}
	*out = w;
	return 0;
err_out:
	if (w && w->meta)
		fclose(w->meta);
	if (w)
		free(w->streams), free(w->dir);
	free(w);
	return -e;
}

/* The class of probe_id, declared in the metadata the first time. */
static int event_class(struct ctf_writer *w, uint32_t probe_id, const char *name,
		       const struct ctf_event *ev)
{
	struct ctf_class *c;
	const char *of = ev->strs_of_entry ? "entry_" : "";

	if (probe_id >= w->nclass_slots) {
		uint32_t n = w->nclass_slots ? w->nclass_slots : 1024;

		while (n <= probe_id)
			n *= 2;
		if (!(c = realloc(w->classes, sizeof(*c) * n)))
			return -ENOMEM;
		memset(c + w->nclass_slots, 0, sizeof(*c) * (n - w->nclass_slots));
		w->classes = c;
		w->nclass_slots = n;
	}
	c = &w->classes[probe_id];
	if (c->id)
		return (int)c->id - 1;
	fprintf(w->meta, "\nevent {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
		"\tfields := struct {\n", name, w->nclasses);
	for (int i = 0; i < ev->nargs; i++)
		fprintf(w->meta, "\t\tint64_t arg%d;\n", i);
	if (ev->stacks & CTF_KSTACK)
		fprintf(w->meta, "\t\tuint32_t stack_id;\n");
	if (ev->stacks & CTF_USTACK)
		fprintf(w->meta, "\t\tuint32_t ustack_id;\n");
	for (int i = 0; i < ev->nstrs; i++) {
		fprintf(w->meta, "\t\tuint8_t %sarg%d_copied;\n\t\tstring %sarg%d_str;\n",
			of, ev->strs[i].arg, of, ev->strs[i].arg);
		c->strs[i] = (uint8_t)ev->strs[i].arg;
	}
	fprintf(w->meta, "\t};\n};\n");
	c->nargs = (uint8_t)ev->nargs;
	c->nstrs = (uint8_t)ev->nstrs;
	c->stacks = ev->stacks;
	c->id = ++w->nclasses;
	return (int)c->id - 1;
}

bool ctf_writer__knows(const struct ctf_writer *w, uint32_t probe_id)
{
	return probe_id < w->nclass_slots && w->classes[probe_id].id;
}

/* ev's string of argument k, or NULL */
static const struct ctf_str *string_of(const struct ctf_event *ev, int k)
{
	for (int i = 0; i < ev->nstrs; i++)
		if (ev->strs[i].arg == k)
			return &ev->strs[i];
	return NULL;
}

/* The header and context of an event of class cls at ev's time. */
static int put_head(struct ctf_stream *s, uint32_t cls, const struct ctf_event *ev)
{
	uint32_t ids[4] = { ev->pid, ev->tid, ev->uid, ev->gid };
	char comm[RECORD_COMM] = "";
	int rc;

	strncpy(comm, ev->execname, RECORD_COMM - 1);
	if (!s->len)
		s->ts_begin = ev->timestamp;
	s->ts_end = ev->timestamp;
	rc = put(s, &cls, 4);
	rc = rc ? rc : put(s, &ev->timestamp, 8);
	rc = rc ? rc : put(s, ids, sizeof(ids));
	return rc ? rc : put(s, comm, strlen(comm) + 1);
}

int ctf_writer__event(struct ctf_writer *w, int cpu, uint32_t probe_id,
		      const char *name, const struct ctf_event *ev)
{
	struct ctf_stream *s;
	int cls = event_class(w, probe_id, name, ev), rc = 0;

	if (cls < 0)
		return cls;
	if (cpu < 0 || cpu >= w->ncpus)
		cpu = 0;
	s = &w->streams[cpu];
	rc = put_head(s, (uint32_t)cls, ev);
	/* the arguments and strings the class declared, its first event's */
	rc = rc ? rc : put(s, ev->args, 8 * (size_t)w->classes[probe_id].nargs);
	if (w->classes[probe_id].stacks & CTF_KSTACK)
		rc = rc ? rc : put(s, &ev->stack_id, 4);
	if (w->classes[probe_id].stacks & CTF_USTACK)
		rc = rc ? rc : put(s, &ev->ustack_id, 4);
	for (int i = 0; i < w->classes[probe_id].nstrs && !rc; i++) {
		const struct ctf_str *cs = string_of(ev, w->classes[probe_id].strs[i]);
		uint8_t ok = cs && cs->copied;
		const char *str = ok ? cs->s : "";

		rc = put(s, &ok, 1);
		rc = rc ? rc : put(s, str, strnlen(str, RECORD_STR - 1));
		rc = rc ? rc : put(s, "", 1);
	}
	if (rc < 0)
		return rc;
	w->events++;
	if (s->len >= PACKET_FLUSH)
		return ctf_writer__flush(w, NULL);
	return 0;
}

/* FNV-1a over a stack's words */
static uint32_t stack_hash(bool user, const uint64_t *words, uint32_t n)
{
	uint64_t h = 14695981039346656037ull ^ user;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ words[i]) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

static struct wstack *stack_slot(struct wstack *tab, uint32_t cap, bool user,
				 const uint64_t *words, uint32_t n)
{
	uint32_t i = stack_hash(user, words, n) & (cap - 1);

	while (tab[i].words && (tab[i].user != user || tab[i].n != n ||
				memcmp(tab[i].words, words, 8 * (size_t)n) != 0))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

uint32_t ctf_writer__stack_id(struct ctf_writer *w, bool user,
			      const uint64_t *words, uint32_t nwords, bool *fresh)
{
	struct wstack *sl;
	uint32_t n = 0;

	*fresh = false;
	while (n < nwords && (words[n] || (user && n == 0)))
		n++;	/* up to the 0 that ends it (a user stack's pid first) */
	if (n <= (user ? 1u : 0u))
		return 0;
	if (2 * (w->nstk + 1) > w->stk_cap) {	/* grow: rehash */
		uint32_t cap = w->stk_cap ? 2 * w->stk_cap : 1024;
		struct wstack *tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return 0;
		for (uint32_t i = 0; i < w->stk_cap; i++)
			if (w->stk[i].words)
				*stack_slot(tab, cap, w->stk[i].user, w->stk[i].words,
					    w->stk[i].n) = w->stk[i];
		free(w->stk);
		w->stk = tab;
		w->stk_cap = cap;
	}
	sl = stack_slot(w->stk, w->stk_cap, user, words, n);
	if (sl->words)
		return sl->id;
	if (!(sl->words = malloc(8 * (size_t)n)))
		return 0;
	memcpy(sl->words, words, 8 * (size_t)n);
	sl->n = n;
	sl->user = user;
	sl->id = ++w->nstk;
	*fresh = true;
	return sl->id;
}

int ctf_writer__stack(struct ctf_writer *w, int cpu, const struct ctf_event *ev,
		      uint32_t id, bool user, const struct ctf_frame *f, uint32_t n)
{
	struct ctf_stream *s;
	uint8_t u = user;
	int rc;

	if (w->stack_cls < 0) {
		fprintf(w->meta, "\nevent {\n\tname = \"dscope:::stack\";\n\tid = %u;\n"
			"\tstream_id = 0;\n\tfields := struct {\n"
			"\t\tuint32_t stack_id;\n\t\tuint8_t user;\n"
			"\t\tuint32_t nframes;\n\t\tuint64_t pc[nframes];\n"
			"\t\tuint64_t symaddr[nframes];\n\t\tstring frames;\n"
			"\t};\n};\n", w->nclasses);
		w->stack_cls = (int)w->nclasses++;
	}
	if (cpu < 0 || cpu >= w->ncpus)
		cpu = 0;
	s = &w->streams[cpu];
	rc = put_head(s, (uint32_t)w->stack_cls, ev);
	rc = rc ? rc : put(s, &id, 4);
	rc = rc ? rc : put(s, &u, 1);
	rc = rc ? rc : put(s, &n, 4);
	for (uint32_t i = 0; i < n && !rc; i++)
		rc = put(s, &f[i].pc, 8);
	for (uint32_t i = 0; i < n && !rc; i++)
		rc = put(s, &f[i].symaddr, 8);
	for (uint32_t i = 0; i < n && !rc; i++) {	/* "mod`sym;mod`sym..." */
		if (i)
			rc = put(s, ";", 1);
		if (f[i].mod)
			rc = rc ? rc : put(s, f[i].mod, strlen(f[i].mod));
		if (f[i].mod && f[i].sym) {
			rc = rc ? rc : put(s, "`", 1);
			rc = rc ? rc : put(s, f[i].sym, strlen(f[i].sym));
		}
	}
	rc = rc ? rc : put(s, "", 1);
	if (rc < 0)
		return rc;
	w->events++;
	w->stack_events++;
	return 0;
}

static int open_stream(struct ctf_writer *w, struct ctf_stream *s, int cpu)
{
	char *path;

	if (s->fd >= 0)
		return 0;
	if (asprintf(&path, "%s/stream_%d", w->dir, cpu) < 0)
		return -ENOMEM;
	s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(path);
	return s->fd < 0 ? -errno : 0;
}

/* One packet of s's pending events, with one write. */
static int write_packet(struct ctf_writer *w, struct ctf_stream *s, int cpu,
			uint64_t discarded)
{
	unsigned char hdr[PACKET_HDR];
	uint32_t magic = CTF_MAGIC, zero = 0, ucpu = (uint32_t)cpu;
	uint64_t bits = 8 * (uint64_t)(PACKET_HDR + s->len);
	uint64_t ctx[6] = { s->ts_begin, s->ts_end, bits, bits, s->seq, discarded };
	int rc;

	if ((rc = open_stream(w, s, cpu)) < 0)
		return rc;
	memcpy(hdr, &magic, 4);
	memcpy(hdr + 4, w->uuid, 16);
	memcpy(hdr + 20, &zero, 4);
	memcpy(hdr + 24, ctx, sizeof(ctx));
	memcpy(hdr + 72, &ucpu, 4);
	/* the header at the front of the events, so one write() is the
	 * whole packet: a recorder killed now leaves whole packets only */
	if ((rc = put(s, hdr, sizeof(hdr))) < 0)
		return rc;
	memmove(s->buf + PACKET_HDR, s->buf, s->len - PACKET_HDR);
	memcpy(s->buf, hdr, PACKET_HDR);
	for (size_t done = 0; done < s->len;) {
		ssize_t n = write(s->fd, s->buf + done, s->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	s->len = 0;
	s->seq++;
	s->discarded = discarded;
	s->ts_begin = s->ts_end;
	return 0;
}

int ctf_writer__flush(struct ctf_writer *w, const uint64_t *discarded)
{
	if (fflush(w->meta) == EOF)
		return -errno;
	for (int cpu = 0; cpu < w->ncpus; cpu++) {
		struct ctf_stream *s = &w->streams[cpu];
		uint64_t lost = discarded ? discarded[cpu] : s->discarded;
		int rc;

		if (!s->len && lost == s->discarded)
			continue;
		if ((rc = write_packet(w, s, cpu, lost)) < 0) {
			fprintf(w->err, "%s: cannot write the trace in %s: %s\n",
				w->progname, w->dir, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

uint64_t ctf_writer__stacks(const struct ctf_writer *w)
{
	return w->stack_events;
}

uint64_t ctf_writer__events(const struct ctf_writer *w)
{
	return w->events;
}

int ctf_writer__free(struct ctf_writer *w, const uint64_t *discarded)
{
	int rc = 0, fd;
	char *path;

	if (!w)
		return 0;
	rc = ctf_writer__flush(w, discarded);
	if (fclose(w->meta) == EOF && rc == 0)
		rc = -errno;
	if (rc == 0 && asprintf(&path, "%s/" COMPLETE_MARK, w->dir) >= 0) {
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			       0644)) >= 0)
			close(fd);
		free(path);
	}
	fprintf(w->err, "%s: recorded %llu event%s to %s", w->progname,
		(unsigned long long)w->events, w->events == 1 ? "" : "s", w->dir);
	if (w->stack_events)	/* babeltrace2 shows them: they are events */
		fprintf(w->err, " (%llu of them stack definitions)",
			(unsigned long long)w->stack_events);
	fputc('\n', w->err);
	for (uint32_t i = 0; i < w->stk_cap; i++)
		free(w->stk[i].words);
	free(w->stk);
	for (int i = 0; i < w->ncpus; i++) {
		if (w->streams[i].fd >= 0)
			close(w->streams[i].fd);
		free(w->streams[i].buf);
	}
	free(w->streams);
	free(w->classes);
	free(w->dir);
	free(w);
	return rc;
}

/* ---- reading ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 65536 + 1 > cap) {
			char *b = realloc(buf, cap = 2 * cap + 65536 + 1);

			if (!b)
				break;
			buf = b;
		}
		if ((n = fread(buf + *len, 1, cap - *len - 1, f)) == 0)
			break;
		*len += n;
	}
	fclose(f);
	if (buf)
		buf[*len] = 0;
	return buf;
}

/* The event classes of this writer's metadata; false: not its words. */
static bool parse_metadata(const char *m, struct ctf_trace *t)
{
	const char *p = m;
	int cap = 0;

	if (strncmp(m, "/* CTF 1.8 */\n", 14) != 0 ||
	    !strstr(m, "\ttracer_name = \"dscope\";\n"))
		return false;
	for (const char *e = m; (e = strstr(e, "\n/* enabled "));) {
		const char *name = e + 12, *end = strchr(name, '\n');
		char **v;

		if (!end || end - name < 3 || memcmp(end - 3, " */", 3) != 0 ||
		    !(v = realloc(t->enabled, sizeof(*v) * (size_t)(t->nenabled + 1))))
			return false;
		t->enabled = v;
		t->enabled[t->nenabled++] = strndup(name, (size_t)(end - 3 - name));
		e = end;
	}
	while ((p = strstr(p, "\nevent {\n\tname = \""))) {
		const char *name = p + 18, *q = strchr(name, '"'), *end;
		unsigned id;
		int nargs = 0;

		if (!q || !(end = strstr(q, "\n};\n")) ||
		    sscanf(q, "\";\n\tid = %u;", &id) != 1 || id != (unsigned)t->nprobes)
			return false;
		int nstrs = 0, k;
		uint8_t strs[RECORD_STRS];

		for (const char *a = q; (a = strstr(a, "\t\tint64_t arg")) && a < end; a++)
			nargs++;
		for (const char *a = q; (a = strstr(a, "\t\tuint8_t arg")) && a < end; a++) {
			if (nstrs == RECORD_STRS || sscanf(a, "\t\tuint8_t arg%d_copied;", &k) != 1 ||
			    k < 0 || k >= nargs)
				return false;
			strs[nstrs++] = (uint8_t)k;
		}
		/* a return's: its entry's arguments (not its own) */
		bool of_entry = false;

		for (const char *a = q; (a = strstr(a, "\t\tuint8_t entry_arg")) && a < end; a++) {
			if (nstrs == RECORD_STRS ||
			    sscanf(a, "\t\tuint8_t entry_arg%d_copied;", &k) != 1 ||
			    k < 0 || k >= RECORD_ARGS || (nstrs && !of_entry))
				return false;
			of_entry = true;
			strs[nstrs++] = (uint8_t)k;
		}
		if (nargs > RECORD_ARGS)
			return false;
		/* the stack ids it holds; the class of the stacks' own
		 * definitions, which declares stack_id too */
		uint8_t stacks = 0;
		bool defs = (size_t)(q - name) == 14 && memcmp(name, "dscope:::stack", 14) == 0;
		const char *sid = strstr(q, "\t\tuint32_t stack_id;\n");
		const char *usid = strstr(q, "\t\tuint32_t ustack_id;\n");

		if (defs) {
			if (t->stack_cls >= 0 || nargs || nstrs ||
			    !strstr(q, "\t\tstring frames;\n\t};\n};\n"))
				return false;
			t->stack_cls = t->nprobes;
		} else {
			stacks = (sid && sid < end ? CTF_KSTACK : 0) |
				 (usid && usid < end ? CTF_USTACK : 0);
		}
		if (t->nprobes == cap) {
			cap = cap ? 2 * cap : 64;
			char **pr = realloc(t->probes, sizeof(*pr) * (size_t)cap);
			int *na = pr ? realloc(t->nargs, sizeof(*na) * (size_t)cap) : NULL;
			int *ns = na ? realloc(t->nstrs, sizeof(*ns) * (size_t)cap) : NULL;
			uint8_t (*sa)[RECORD_STRS] = ns ? realloc(t->strs, sizeof(*sa) * (size_t)cap) : NULL;
			bool *oe = sa ? realloc(t->strs_of_entry, sizeof(*oe) * (size_t)cap) : NULL;
			uint8_t *si = oe ? realloc(t->stack_ids, sizeof(*si) * (size_t)cap) : NULL;

			if (pr)
				t->probes = pr;
			if (na)
				t->nargs = na;
			if (ns)
				t->nstrs = ns;
			if (sa)
				t->strs = sa;
			if (oe)
				t->strs_of_entry = oe;
			if (!si)
				return false;
			t->stack_ids = si;
		}
		t->stack_ids[t->nprobes] = stacks;
		t->strs_of_entry[t->nprobes] = of_entry;
		t->probes[t->nprobes] = strndup(name, (size_t)(q - name));
		memcpy(t->strs[t->nprobes], strs, sizeof(strs));
		t->nstrs[t->nprobes] = nstrs;
		t->nargs[t->nprobes++] = nargs;
		p = end;
	}
	return true;
}

static int add_event(struct ctf_trace *t, size_t *cap, const struct ctf_replayed *e)
{
	if (t->nevents == *cap) {
		size_t n = *cap ? 2 * *cap : 4096;
		struct ctf_replayed *v = realloc(t->events, sizeof(*v) * n);

		if (!v)
			return -1;
		t->events = v;
		*cap = n;
	}
	t->events[t->nevents] = *e;
	t->events[t->nevents].seq = t->nevents;
	t->nevents++;
	return 0;
}

/* A string of an event, in the trace's pool at *at. */
static int pool_add(struct ctf_trace *t, const char *s, size_t n, size_t *at)
{
	if (t->pool_len + n > t->pool_cap) {
		size_t cap = t->pool_cap ? 2 * t->pool_cap : 64 * 1024;
		char *p;

		while (cap < t->pool_len + n)
			cap *= 2;
		if (!(p = realloc(t->pool, cap)))
			return -1;
		t->pool = p;
		t->pool_cap = cap;
	}
	memcpy(t->pool + t->pool_len, s, n);
	*at = t->pool_len;
	t->pool_len += n;
	return 0;
}

/*
 * A stack's definition, the payload at [b, b + n) of an event of pid:
 * appended to t->stacks, its frames and their names in one block (sorted
 * by id once every stream is read: ids are given in the order the
 * consumer saw the firings, not in stream order, and a trace cut short
 * may lack some).  The bytes it took; -1 damaged, -2 out of memory.
 */
static long read_stack(struct ctf_trace *t, const unsigned char *b, size_t n,
		       uint32_t pid)
{
	uint32_t id, nf;
	const unsigned char *nul;
	struct ctf_stack *st;
	size_t len, off = 9;
	char *names, *p;

	if (n < 9)
		return -1;
	memcpy(&id, b, 4);
	memcpy(&nf, b + 5, 4);
	if (b[4] > 1 || !id || nf > RECORD_STACK || n - off < 16 * (size_t)nf ||
	    !(nul = memchr(b + off + 16 * (size_t)nf, 0, n - off - 16 * (size_t)nf)))
		return -1;
	len = (size_t)(nul - (b + off + 16 * (size_t)nf));
	if (t->nstacks == t->stacks_cap) {
		uint32_t cap = t->stacks_cap ? 2 * t->stacks_cap : 64;
		struct ctf_stack *v = realloc(t->stacks, sizeof(*v) * cap);

		if (!v)
			return -2;
		t->stacks = v;
		t->stacks_cap = cap;
	}
	st = &t->stacks[t->nstacks];
	*st = (struct ctf_stack){ .id = id };
	if (!(st->f = calloc(1, sizeof(*st->f) * (nf ? nf : 1) + len + 1)))
		return -2;
	t->nstacks++;
	st->user = b[4];
	st->pid = pid;
	st->n = nf;
	for (uint32_t i = 0; i < nf; i++) {
		memcpy(&st->f[i].pc, b + off + 8 * i, 8);
		memcpy(&st->f[i].symaddr, b + off + 8 * ((size_t)nf + i), 8);
	}
	names = (char *)(st->f + (nf ? nf : 1));
	memcpy(names, b + off + 16 * (size_t)nf, len);
	p = names;
	for (uint32_t i = 0; i < nf; i++) {	/* "mod`sym;mod;;..." */
		char *end = strchr(p, ';'), *tick;

		if (end)
			*end = 0;
		else if (i + 1 < nf)
			return -1;
		if (*p) {
			st->f[i].mod = p;
			if ((tick = strchr(p, '`'))) {
				*tick = 0;
				st->f[i].sym = tick + 1;
			}
		}
		p = end ? end + 1 : p + strlen(p);
	}
	return (long)(off + 16 * (size_t)nf + len + 1);
}

/* The events of one packet, [b, b + n); the offset of a damage, or -1. */
static long read_events(struct ctf_trace *t, size_t *cap, const unsigned char *b,
			size_t n, uint32_t cpu)
{
	size_t off = 0;

	while (off < n) {
		struct ctf_replayed e = { .rec.cpu = cpu };
		uint32_t ids[4];
		const unsigned char *nul;
		size_t len, start = off;

		if (n - off < 28)
			return (long)start;
		memcpy(&e.cls, b + off, 4);
		memcpy(&e.rec.timestamp, b + off + 4, 8);
		memcpy(ids, b + off + 12, 16);
		off += 28;
		if (e.cls >= (uint32_t)t->nprobes ||
		    !(nul = memchr(b + off, 0, n - off)))
			return (long)start;
		len = (size_t)(nul - (b + off));
		memcpy(e.rec.execname, b + off, len < RECORD_COMM ? len : RECORD_COMM - 1);
		off += len + 1;
		if ((int)e.cls == t->stack_cls) {
			long used = read_stack(t, b + off, n - off, ids[0]);

			if (used < 0)
				return used == -2 ? -2 : (long)start;
			off += (size_t)used;
			continue;
		}
		if (n - off < 8 * (size_t)t->nargs[e.cls])
			return (long)start;
		memcpy(e.rec.args, b + off, 8 * (size_t)t->nargs[e.cls]);
		off += 8 * (size_t)t->nargs[e.cls];
		for (int k = 0; k < 2; k++) {
			uint32_t *id = k ? &e.ustack_id : &e.stack_id;

			if (!(t->stack_ids[e.cls] & (k ? CTF_USTACK : CTF_KSTACK)))
				continue;
			if (n - off < 4)
				return (long)start;
			memcpy(id, b + off, 4);
			off += 4;
		}
		for (int i = 0; i < t->nstrs[e.cls]; i++) {
			uint8_t ok;

			if (n - off < 2 || !(nul = memchr(b + off + 1, 0, n - off - 1)))
				return (long)start;
			ok = b[off];
			len = (size_t)(nul - (b + off + 1));
			if (ok > 1 || len >= RECORD_STR)
				return (long)start;
			if (ok) {
				if (pool_add(t, (const char *)b + off + 1, len + 1,
					     &e.str_off[i]) < 0)
					return -2;
				e.rec.str_ok[i] = 1;
				/* a return's: the replay takes the address from
				 * its entry's arguments (replay.c) */
				if (!t->strs_of_entry[e.cls])
					e.rec.str_addr[i] = (uint64_t)e.rec.args[t->strs[e.cls][i]];
			}
			off += len + 2;
		}
		e.rec.pid = ids[0];
		e.rec.tid = ids[1];
		e.rec.uid = ids[2];
		e.rec.gid = ids[3];
		if (add_event(t, cap, &e) < 0)
			return -2;
	}
	return -1;
}

/* One stream file: 0; -1 with the reason said (what, at offset *at). */
static int read_stream(struct ctf_trace *t, size_t *cap, const unsigned char *b,
		       size_t len, const char **what, size_t *at)
{
	size_t off = 0;
	uint64_t lost = 0;	/* events_discarded is cumulative: the last
				 * packet's counts them all */

	while (off < len) {
		uint32_t magic, sid, cpu;
		uint64_t ctx[6];
		long bad;

		*at = off;
		if (len - off < PACKET_HDR) {
			t->complete = false;	/* a packet cut short */
			break;
		}
		memcpy(&magic, b + off, 4);
		memcpy(&sid, b + off + 20, 4);
		memcpy(ctx, b + off + 24, sizeof(ctx));
		memcpy(&cpu, b + off + 72, 4);
		if (magic != CTF_MAGIC || sid != 0) {
			*what = "a packet that is not CTF";
			return -1;
		}
		if (ctx[2] % 8 || ctx[3] % 8 || ctx[2] > ctx[3] ||
		    ctx[2] / 8 < PACKET_HDR) {
			*what = "a packet whose sizes do not add up";
			return -1;
		}
		if (ctx[3] / 8 > len - off) {
			t->complete = false;
			break;
		}
		bad = read_events(t, cap, b + off + PACKET_HDR,
				  (size_t)(ctx[2] / 8) - PACKET_HDR, cpu);
		if (bad == -2) {
			*what = "more events than memory holds";
			return -1;
		}
		if (bad >= 0) {
			*at = off + PACKET_HDR + (size_t)bad;
			*what = "a damaged event";
			return -1;
		}
		lost = ctx[5];
		off += (size_t)(ctx[3] / 8);
	}
	t->discarded += lost;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct ctf_replayed *x = a, *y = b;

	if (x->rec.timestamp != y->rec.timestamp)
		return x->rec.timestamp < y->rec.timestamp ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int index_frames(struct ctf_trace *t);

int ctf_trace_read(const char *dir, struct ctf_trace *t, FILE *err,
		   const char *progname)
{
	char *path = NULL, *meta;
	size_t len, cap = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;

	memset(t, 0, sizeof(*t));
	t->stack_cls = -1;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(err, "%s: cannot replay %s: %s\n", progname, dir,
			stat(dir, &st) < 0 ? strerror(errno) : "not a directory");
		return -1;
	}
	if (asprintf(&path, "%s/metadata", dir) < 0)
		return -1;
	meta = slurp(path, &len);
	free(path);
	if (!meta || strlen(meta) != len || !parse_metadata(meta, t)) {
		fprintf(err, "%s: cannot replay %s: it is not a trace dscope "
			"recorded (%s)\n", progname, dir,
			meta ? "its metadata is not dscope's" : "it has no metadata");
		free(meta);
		ctf_trace_free(t);
		return -1;
	}
	free(meta);
	if (asprintf(&path, "%s/" COMPLETE_MARK, dir) < 0)
		return -1;
	t->complete = access(path, F_OK) == 0;
	free(path);
	if (!(d = opendir(dir))) {
		fprintf(err, "%s: cannot replay %s: %s\n", progname, dir,
			strerror(errno));
		ctf_trace_free(t);
		return -1;
	}
	while ((de = readdir(d))) {
		const char *what = NULL;
		unsigned char *b;
		size_t at = 0;
		int rc;

		if (strncmp(de->d_name, "stream_", 7) != 0)
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			break;
		b = (unsigned char *)slurp(path, &len);
		rc = b ? read_stream(t, &cap, b, len, &what, &at) : -1;
		free(b);
		if (rc < 0) {
			fprintf(err, "%s: cannot replay %s: %s holds %s at byte %zu\n",
				progname, dir, path, what ? what : "nothing readable", at);
			free(path);
			closedir(d);
			ctf_trace_free(t);
			return -1;
		}
		free(path);
	}
	closedir(d);
	if (t->nevents)
		qsort(t->events, t->nevents, sizeof(*t->events), by_time);
	int ix = index_frames(t);

	if (ix < 0) {
		fprintf(err, "%s: cannot replay %s: %s\n", progname, dir,
			ix == -2 ? "a stack is defined twice" : "more stacks than memory holds");
		ctf_trace_free(t);
		return -1;
	}
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct ctf_stack *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

const struct ctf_stack *ctf_trace_stack(const struct ctf_trace *t, uint32_t id)
{
	size_t lo = 0, hi = t->nstacks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->stacks[mid].id == id)
			return &t->stacks[mid];
		if (t->stacks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* (key, pc)'s slot of t->syms */
static struct ctf_symtab *sym_slot(const struct ctf_trace *t, uint64_t key,
				   uint64_t pc)
{
	uint64_t h = (key * 0x9e3779b97f4a7c15ull) ^ (pc * 0xff51afd7ed558ccdull);
	size_t i = (size_t)(h ^ (h >> 29)) & (t->syms_cap - 1);

	while (t->syms[i].f && (t->syms[i].key != key || t->syms[i].pc != pc))
		i = (i + 1) & (t->syms_cap - 1);
	return &t->syms[i];
}

/* t->syms: every frame of every stack, by its process (a user stack's)
 * and pc, for the replay's printing to name it as the recorder did;
 * t->stacks sorted by id.  -1 out of memory, -2 an id defined twice. */
static int index_frames(struct ctf_trace *t)
{
	size_t n = 0;

	if (t->nstacks)
		qsort(t->stacks, t->nstacks, sizeof(*t->stacks), by_id);
	for (uint32_t i = 0; i < t->nstacks; i++)
		n += t->stacks[i].n;
	if (!n)
		return 0;
	for (t->syms_cap = 64; t->syms_cap < 2 * n;)
		t->syms_cap *= 2;
	if (!(t->syms = calloc(t->syms_cap, sizeof(*t->syms))))
		return -1;
	for (uint32_t i = 0; i + 1 < t->nstacks; i++)
		if (t->stacks[i].id == t->stacks[i + 1].id)
			return -2;
	for (uint32_t i = 0; i < t->nstacks; i++) {
		const struct ctf_stack *st = &t->stacks[i];
		uint64_t key = st->user ? (uint64_t)st->pid + 1 : 0;

		for (uint32_t k = 0; k < st->n; k++) {
			struct ctf_symtab *sl = sym_slot(t, key, st->f[k].pc);

			*sl = (struct ctf_symtab){ key, st->f[k].pc, &st->f[k] };
		}
	}
	return 0;
}

/* The name the trace gave the frame at addr (of pid, 0 kernel). */
static bool trace_sym(const struct ctf_trace *t, uint64_t key, uint64_t addr,
		      const char **mod, const char **sym, uint64_t *symaddr)
{
	const struct ctf_symtab *sl;

	if (!t->syms_cap || !(sl = sym_slot(t, key, addr))->f || !sl->f->mod)
		return false;
	*mod = sl->f->mod;
	if (sym)
		*sym = sl->f->sym;
	if (symaddr)
		*symaddr = sl->f->symaddr;
	return true;
}

bool ctf_trace_ksym(void *ctx, uint64_t addr, const char **mod,
		    const char **sym, uint64_t *symaddr)
{
	return trace_sym(ctx, 0, addr, mod, sym, symaddr);
}

bool ctf_trace_usym(void *ctx, uint32_t pid, uint64_t addr, const char **mod,
		    const char **sym, uint64_t *symaddr)
{
	return trace_sym(ctx, (uint64_t)pid + 1, addr, mod, sym, symaddr);
}

void ctf_trace_free(struct ctf_trace *t)
{
	for (int i = 0; i < t->nenabled; i++)
		free(t->enabled[i]);
	free(t->enabled);
	for (int i = 0; i < t->nprobes; i++)
		free(t->probes[i]);
	free(t->probes);
	free(t->nargs);
	free(t->nstrs);
	free(t->strs);
	free(t->strs_of_entry);
	free(t->stack_ids);
	for (uint32_t i = 0; i < t->nstacks; i++)
		free(t->stacks[i].f);
	free(t->stacks);
	free(t->syms);
	free(t->pool);
	free(t->events);
	memset(t, 0, sizeof(*t));
}
