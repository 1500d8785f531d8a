/*
 * tracefs.c -- find (or mount) tracefs and read event formats.
 *
 * Where tracefs lives: /sys/kernel/tracing on any kernel since 4.1, and also
 * at /sys/kernel/debug/tracing when debugfs is mounted (an automount of the
 * same filesystem).  An empty /sys/kernel/tracing directory is the usual
 * sight on a machine that booted without mounting it; statfs() tells a
 * mounted tracefs from the bare directory, and we mount it there once, as
 * `mount -t tracefs nodev /sys/kernel/tracing` would.  The mount stays after
 * dscope exits; it is a read-mostly view the kernel offers anyway.
 *
 * Format files (events/G/E/format) list the record's fields one a line:
 *
 *	field:unsigned int fd;	offset:16;	size:8;	signed:0;
 *
 * The declaration before the first ';' is a C declarator whose last
 * identifier is the field's name; an array keeps its bounds on the type
 * ("char comm[16]" is type "char[16]", name "comm").  The four common_*
 * fields head every record and are left out: callers want the event's own.
 * tracefs reports a size of 0 for these files, so they are read to EOF.
 */
#include "tracefs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "kern/lockdown.h"

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static bool is_tracefs(const char *dir)
{
	struct statfs st;

	return statfs(dir, &st) == 0 && st.f_type == TRACEFS_MAGIC;
}

static const char *find_tracefs(void)
{
	for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++)
		if (is_tracefs(tracefs_dirs[i]))
			return tracefs_dirs[i];
	if (mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL) == 0 &&
	    is_tracefs(tracefs_dirs[0]))
		return tracefs_dirs[0];
	return NULL;
}

const char *tracefs_root(void)
{
	static const char *root;
	static int looked, saved_errno;

	if (!looked) {
		root = find_tracefs();
		saved_errno = root ? 0 : errno ? errno : ENOENT;
		looked = 1;
	}
	if (!root)
		errno = saved_errno;
	return root;
}

const char *tracefs_unreadable(void)
{
	const char *root = tracefs_root();
	char path[512];
	DIR *d;

	if (root) {
		snprintf(path, sizeof(path), "%s/events", root);
		if ((d = opendir(path))) {
			closedir(d);
			return NULL;
		}
		if (errno == EACCES)
			return "the kernel's tracepoints (tracefs) can be read "
			       "only by root, or with the CAP_DAC_READ_SEARCH "
			       "capability";
	}
	if (lockdown_mode() == LOCKDOWN_CONFIDENTIALITY)
		return "the kernel's tracepoints (tracefs) cannot be read under "
		       "kernel lockdown=confidentiality";
	return NULL;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_subdir(DIR *d, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	return fstatat(dirfd(d), de->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

int tracefs_group_events(struct arena *a, const char *group, const char ***names)
{
	const char *root = tracefs_root();
	char path[512];
	struct dirent *de;
	const char **v = NULL;
	int n = 0, cap = 0;
	DIR *d;

	if (!root)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s", root, group);
	if (!(d = opendir(path)))
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !is_subdir(d, de))
			continue;
		if (n == cap) {
			const char **nv;

			cap = cap ? 2 * cap : 512;
			nv = arena_alloc(a, cap * sizeof(*nv));
			if (n)
				memcpy(nv, v, n * sizeof(*nv));
			v = nv;
		}
		v[n++] = arena_strdup(a, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return n;
}

/* The whole of a (size-0) tracefs file, NUL-terminated; NULL with errno. */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
		len += r;
		if (cap - len - 1 == 0) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				goto fail;
			buf = nb;
		}
	}
	if (r < 0)
		goto fail;
	close(fd);
	buf[len] = '\0';
	return buf;
fail:
	if (fd >= 0) {
		int e = errno;

		close(fd);
		errno = e;
	}
	free(buf);
	return NULL;
}

/* Copies s[0..n) into the arena with runs of blanks made one space and no
 * blank at either end: "char *  " -> "char *". */
static char *squeeze(struct arena *a, const char *s, size_t n, const char *suffix)
{
	char *out = arena_alloc(a, n + strlen(suffix) + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (!isspace((unsigned char)s[i]))
			*o++ = s[i];
		else if (o > out && o[-1] != ' ')
			*o++ = ' ';
	}
	if (o > out && o[-1] == ' ')
		o--;
	strcpy(o, suffix);
	return out;
}

/* Splits a declaration "const char * filename" or "char comm[16]" into its
 * type and name. */
static int split_decl(struct arena *a, const char *decl, size_t n,
		      struct tracefs_field *f)
{
	const char *bounds = "", *end = decl + n, *name_end, *name;

	while (end > decl && isspace((unsigned char)end[-1]))
		end--;
	name_end = end;
	if (end > decl && end[-1] == ']') {
		const char *lb = end - 1;

		while (lb > decl && *lb != '[')
			lb--;
		if (*lb != '[')
			return -EINVAL;
		bounds = arena_strndup(a, lb, end - lb);
		name_end = lb;
		while (name_end > decl && isspace((unsigned char)name_end[-1]))
			name_end--;
	}
	name = name_end;
	while (name > decl && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	if (name == name_end || name == decl)
		return -EINVAL;
	f->name = arena_strndup(a, name, name_end - name);
	f->type = squeeze(a, decl, name - decl, bounds);
	return 0;
}

int tracefs_parse_field(struct arena *a, const char *line, struct tracefs_field *f)
{
	const char *decl, *semi;
	int is_signed = 0;

	while (isspace((unsigned char)*line))
		line++;
	if (strncmp(line, "field:", 6) != 0)
		return -EINVAL;
	decl = line + 6;
	if (!(semi = strchr(decl, ';')))
		return -EINVAL;
	if (sscanf(semi + 1, " offset:%d; size:%d; signed:%d;", &f->offset,
		   &f->size, &is_signed) < 2)
		return -EINVAL;
	f->is_signed = is_signed != 0;
	return split_decl(a, decl, semi - decl, f);
}

/* At most one field a line: the line count bounds the field array. */
static size_t count_lines(const char *text)
{
	size_t n = 1;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

bool tracefs_event_exists(const char *group, const char *event)
{
	const char *root = tracefs_root();
	char path[512];

	snprintf(path, sizeof(path), "%s/events/%s/%s", root ? root : "", group, event);
	return root && access(path, F_OK) == 0;
}

int tracefs_event_fields(struct arena *a, const char *group, const char *event,
			 struct tracefs_field **fields)
{
	const char *root = tracefs_root();
	struct tracefs_field *v;
	char path[512], *text, *line, *save;
	int n = 0;

	if (!root)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, group, event);
	if (!(text = read_file(path)))
		return -errno;
	v = arena_alloc(a, count_lines(text) * sizeof(*v));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (tracefs_parse_field(a, line, &v[n]) == 0 &&
		    strncmp(v[n].name, "common_", 7) != 0)
			n++;
	}
	free(text);
	*fields = v;
	return n;
}
