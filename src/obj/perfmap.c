/*
 * perfmap.c -- read /tmp/perf-PID.map.  See perfmap.h.
 *
 * The symbols are kept sorted by start address, one per start (the
 * file's last line for it), so a lookup is a binary search.  A lookup
 * between two starts belongs to the lower one only within its size:
 * JIT code has gaps (stubs, data, freed code) no line names.
 */
#include "obj/perfmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "obj/usym.h"

/* A map is read whole, its names kept: past this it is refused, for the
 * file is anyone's to make (a sparse file of a terabyte costs its maker
 * nothing).  The largest JVM maps seen are tens of MiB. */
#define PERFMAP_SIZE_MAX (256ll << 20)

struct line_sym {
	struct perfmap_sym s;
	size_t line;			/* later lines win */
};

static int cmp_line_sym(const void *a, const void *b)
{
	const struct line_sym *x = a, *y = b;

	if (x->s.start != y->s.start)
		return x->s.start < y->s.start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* "START SIZE name": false if the line is not one */
static bool parse_line(char *line, struct perfmap_sym *s)
{
	char *end;

	errno = 0;
	s->start = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || errno)
		return false;
	line = end + 1;
	s->size = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || errno || s->size == 0 ||
	    s->start + s->size < s->start)
		return false;
	line = end + 1;
	line[strcspn(line, "\r\n")] = '\0';
	if (!*line || !(s->name = strdup(line)))
		return false;
	return true;
}

/* Sorted by start; of lines with one start, the last one only. */
static void keep_last_per_start(struct line_sym *v, size_t n, struct perfmap *m)
{
	if (n)		/* qsort's pointer must be valid even for none */
		qsort(v, n, sizeof(*v), cmp_line_sym);
	m->v = malloc(sizeof(*m->v) * (n ? n : 1));
	for (size_t i = 0; i < n; i++) {
		if (!m->v || (i + 1 < n && v[i + 1].s.start == v[i].s.start)) {
			free(v[i].s.name);
			continue;
		}
		m->v[m->n++] = v[i].s;
	}
}

void perfmap_parse(struct perfmap *m, FILE *fp)
{
	struct line_sym *v = NULL, *grown;
	size_t n = 0, cap = 0, lineno = 0;
	char *line = NULL;
	size_t len = 0;

	perfmap_clear(m);
	while (getline(&line, &len, fp) > 0) {
		struct perfmap_sym s;

		lineno++;
		if (!parse_line(line, &s))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			if (!(grown = realloc(v, sizeof(*v) * cap))) {
				free(s.name);
				break;
			}
			v = grown;
		}
		v[n++] = (struct line_sym){ s, lineno };
	}
	free(line);
	keep_last_per_start(v, n, m);
	free(v);
}

/* Whose file may name pid's code: pid's owner, or root.  (uid_t)-1 when
 * the process is gone and its owner cannot be told. */
static uid_t process_owner(uint32_t pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%u", pid);
	return stat(path, &st) == 0 ? st.st_uid : (uid_t)-1;
}

static bool same_file(const struct perfmap *m, const struct stat *st)
{
	return m->dev == st->st_dev && m->ino == st->st_ino && m->size == st->st_size &&
	       m->mtime.tv_sec == st->st_mtim.tv_sec &&
	       m->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

bool perfmap_refresh(struct perfmap *m, uint32_t pid)
{
	char path[64];
	struct stat st;
	uid_t owner = process_owner(pid);
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return m->n > 0;
	if (owner == (uid_t)-1 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_uid != owner && st.st_uid != 0) || same_file(m, &st)) {
		close(fd);
		return m->n > 0;
	}
	if (st.st_size > PERFMAP_SIZE_MAX) {
		usym_warn(path, "it is %lld bytes, more than the %lld a perf map "
			  "may be; its JIT names are not read",
			  (long long)st.st_size, PERFMAP_SIZE_MAX);
		close(fd);
		return m->n > 0;
	}
	if (!(fp = fdopen(fd, "r"))) {
		close(fd);
		return m->n > 0;
	}
	perfmap_parse(m, fp);
	fclose(fp);
	m->dev = st.st_dev;
	m->ino = st.st_ino;
	m->size = st.st_size;
	m->mtime = st.st_mtim;
	return m->n > 0;
}

const struct perfmap_sym *perfmap_find(const struct perfmap *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {	/* the first symbol starting above addr */
		size_t mid = (lo + hi) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - m->v[lo - 1].start >= m->v[lo - 1].size)
		return NULL;
	return &m->v[lo - 1];
}

void perfmap_clear(struct perfmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}
