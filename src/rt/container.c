/*
 * container.c -- which container a cgroup v2 group belongs to, asked of
 * the container runtimes' own state.
 *
 * Linux has no container object.  What a runtime makes is a set of
 * namespaces and a cgroup, and the cgroup is the part every thread
 * carries where a probe can read it in one helper call: the kernel's id
 * of a cgroup v2 group is the inode number of its directory under the
 * cgroup2 mount.  So the probe records that id (cg_zone.c), and this
 * module, in the consumer, turns it into a name:
 *
 *   id -> path    by walking the cgroup2 mount once and again when an id
 *                 is not known (a group made since);
 *   path -> name  by reading the path from its last component up: the
 *                 nearest component that names a container a runtime
 *                 knows is the thread's container, and a path with none
 *                 is the host's, "global" as DTrace's global zone.
 *
 * A component names a container id in the layouts the runtimes
 * document: "libpod-ID.scope" (podman under systemd) or "libpod-ID"
 * (podman's cgroupfs manager), "docker-ID.scope" or "/docker/ID"
 * (docker), "cri-containerd-ID.scope" and "crio-ID.scope" (Kubernetes
 * under systemd), and the bare id (crun and runc given a cgroupsPath
 * ending in the id, and the kubelet's cgroupfs layout
 * kubepods/QOS/podUID/ID).  The id becomes a name by the first runtime
 * whose state knows it, in this order:
 *
 *   podman, cri-o  containers/storage's containers.json: "names"[0]
 *   docker         /var/lib/docker/containers/ID/config.v2.json: "Name"
 *   Kubernetes     the kubelet's /var/log/containers/POD_NS_CTR-ID.log
 *                  links: "NS/POD/CTR"
 *   crun, runc     their state directories /run/crun/ID, /run/runc/ID:
 *                  the id given to `crun run` is the name
 *
 * "libpod-conmon-ID" is podman's monitor process, on the host's side:
 * it is not the container.  A name once found is kept (an id is never
 * reused while the kernel runs); "global" is asked again after a second,
 * since a runtime writes its state around the time it makes the group.
 *
 * Everything here is file reads in the consumer: none of it runs in a
 * probe, and a runtime that is not installed costs a failed open.
 */
#define _XOPEN_SOURCE 700	/* nftw() */
#include "rt/container.h"

#include <errno.h>
#include <dirent.h>
#include <fnmatch.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <bpf/bpf.h>

#define RECHECK_NS 1000000000ull	/* "global" is asked again after this */

struct group {
	uint64_t id;		/* inode number of the directory */
	char *path;		/* under the mount, "/" for its root */
	char *name;		/* its container's, or "global"; NULL: not asked */
	uint64_t asked_ns;	/* when name was found "global" */
};

static struct {
	char mount[PATH_MAX];	/* the cgroup2 mount point; "" if none */
	bool mount_known;
	struct group *v;
	size_t n, cap;
} groups;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The first cgroup2 mount in /proc/self/mountinfo: "... MOUNT ... - cgroup2" */
static const char *cgroup2_mount(void)
{
	char line[4096], mnt[PATH_MAX];
	FILE *f;

	if (groups.mount_known)
		return groups.mount;
	groups.mount_known = true;
	if (!(f = fopen("/proc/self/mountinfo", "r")))
		return groups.mount;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep, " - cgroup2 ", 11) != 0 ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		snprintf(groups.mount, sizeof(groups.mount), "%s", mnt);
		break;
	}
	fclose(f);
	return groups.mount;
}

static struct group *find(uint64_t id)
{
	for (size_t i = 0; i < groups.n; i++)
		if (groups.v[i].id == id)
			return &groups.v[i];
	return NULL;
}

static int add_group(const char *fpath, const struct stat *st, int type,
		     struct FTW *ftw)
{
	const char *rel = fpath + strlen(groups.mount);

	if (type != FTW_D || find(st->st_ino))
		return 0;
	if (groups.n == groups.cap) {
		size_t cap = groups.cap ? groups.cap * 2 : 256;
		struct group *v = realloc(groups.v, cap * sizeof(*v));

		if (!v)
			return -1;
		groups.v = v;
		groups.cap = cap;
	}
	groups.v[groups.n++] = (struct group){
		.id = st->st_ino, .path = strdup(*rel ? rel : "/"),
	};
	return 0;
}

/* Learn the groups made since the last walk; gone ones are kept, so a
 * container that has exited is still named in the output. */
static int walk(void)
{
	const char *m = cgroup2_mount();

	if (!*m)
		return -ENOENT;
	return nftw(m, add_group, 16, FTW_PHYS) < 0 ? -errno : 0;
}

static struct group *lookup(uint64_t id)
{
	struct group *g = find(id);

	if (!g && walk() == 0)
		g = find(id);
	return g && g->path ? g : NULL;
}

/* Read a whole small file; NULL if it cannot be. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	FILE *mem = open_memstream(&buf, &len);
	char chunk[8192];
	size_t n;

	while (mem && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, mem);
	fclose(f);
	if (mem)
		fclose(mem);
	return buf;
}

/* The JSON string after key (`"key":"`) at p, up to its closing quote. */
static bool json_string_at(const char *p, const char *key, char *out,
			   size_t len)
{
	const char *s = strstr(p, key), *e;

	if (!s)
		return false;
	s += strlen(key);
	if (!(e = strchr(s, '"')) || e == s || (size_t)(e - s) >= len)
		return false;
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return true;
}

/* podman and cri-o: containers/storage's containers.json, compact JSON
 * of {"id":"ID","names":["NAME"],...} objects */
static bool storage_name(const char *id, char *out, size_t len)
{
	static const char *const files[] = {
		"/var/lib/containers/storage/overlay-containers/containers.json",
		"/var/lib/containers/storage/vfs-containers/containers.json",
		"/var/lib/containers/storage/btrfs-containers/containers.json",
	};
	char key[160];
	bool ok = false;

	snprintf(key, sizeof(key), "\"id\":\"%s\"", id);
	for (size_t i = 0; !ok && i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = slurp(files[i]), *obj, *next;

		if (!text)
			continue;
		if ((obj = strstr(text, key))) {
			next = strstr(obj + 1, "\"id\":\"");
			if (next)
				*next = '\0';	/* this object's names only */
			ok = json_string_at(obj, "\"names\":[\"", out, len);
		}
		free(text);
	}
	return ok;
}

/* docker: its config.v2.json's "Name":"/NAME" */
static bool docker_name(const char *id, char *out, size_t len)
{
	char path[PATH_MAX];
	char *text;
	bool ok;

	snprintf(path, sizeof(path), "/var/lib/docker/containers/%s/config.v2.json",
		 id);
	if (!(text = slurp(path)))
		return false;
	ok = json_string_at(text, "\"Name\":\"/", out, len);
	free(text);
	return ok;
}

/* Kubernetes: the kubelet links /var/log/containers/POD_NS_CTR-ID.log
 * for every container it runs; pod, namespace and container names are
 * DNS labels, with no '_' of their own */
static bool kube_name(const char *id, char *out, size_t len)
{
	DIR *d = opendir("/var/log/containers");
	struct dirent *e;
	char tail[160];
	bool ok = false;

	if (!d)
		return false;
	snprintf(tail, sizeof(tail), "-%s.log", id);
	while (!ok && (e = readdir(d))) {
		size_t n = strlen(e->d_name), t = strlen(tail);
		char pod[256], ns[256], ctr[256];

		if (n <= t || strcmp(e->d_name + n - t, tail) != 0 || n - t >= 256)
			continue;
		char base[256];

		memcpy(base, e->d_name, n - t);
		base[n - t] = '\0';
		if (sscanf(base, "%255[^_]_%255[^_]_%255s", pod, ns, ctr) == 3)
			ok = snprintf(out, len, "%s/%s/%s", ns, pod, ctr) < (int)len;
	}
	closedir(d);
	return ok;
}

/* crun and runc: a state directory named by the container id */
static bool oci_name(const char *id, char *out, size_t len)
{
	static const char *const roots[] = { "/run/crun", "/run/runc" };
	char path[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", roots[i], id);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(out, len, "%s", id);
			return true;
		}
	}
	return false;
}

/* The container id a path component names, or false: the runtimes'
 * prefixes and ".scope" taken off, and only a name that can be a file
 * name in their state directories kept. */
static bool component_id(const char *c, size_t n, char *id, size_t len)
{
	static const char *const prefixes[] = {
		"libpod-", "docker-", "cri-containerd-", "crio-", "crun-", "runc-",
	};

	if (n >= 6 && strncmp(c + n - 6, ".scope", 6) == 0)
		n -= 6;
	if (n >= 14 && strncmp(c, "libpod-conmon-", 14) == 0)
		return false;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t p = strlen(prefixes[i]);

		if (n > p && strncmp(c, prefixes[i], p) == 0) {
			c += p;
			n -= p;
			break;
		}
	}
	if (n == 0 || n >= len || c[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.-", c[i]))
			return false;
	memcpy(id, c, n);
	id[n] = '\0';
	return true;
}

/* The container that owns path, the nearest first; false: the host's */
static bool path_zone(const char *path, char *out, size_t len)
{
	const char *end = path + strlen(path);

	while (end > path) {
		const char *start = end;
		char id[128];

		while (start > path && start[-1] != '/')
			start--;
		if (component_id(start, (size_t)(end - start), id, sizeof(id)) &&
		    (storage_name(id, out, len) || docker_name(id, out, len) ||
		     kube_name(id, out, len) || oci_name(id, out, len)))
			return true;
		end = start > path ? start - 1 : path;
	}
	return false;
}

/* g's container's name, asked again once a "global" is a second old */
static const char *group_zone(struct group *g)
{
	char name[256];

	if (g->name && (strcmp(g->name, "global") != 0 ||
			now_ns() - g->asked_ns < RECHECK_NS))
		return g->name;
	free(g->name);
	g->name = strdup(path_zone(g->path, name, sizeof(name)) ? name : "global");
	g->asked_ns = now_ns();
	return g->name ? g->name : "global";
}

void container_zone_name(uint64_t id, char *buf, size_t len)
{
	struct group *g = lookup(id);

	snprintf(buf, len, "%s", g ? group_zone(g) : "global");
}

void container_cgroup_path(uint64_t id, char *buf, size_t len)
{
	struct group *g = lookup(id);

	if (g)
		snprintf(buf, len, "%s", g->path);
	else
		snprintf(buf, len, "%" PRIu64, id);
}

void container_fmt_name(uint64_t id, bool path, char *buf, size_t len)
{
	if (path)
		container_cgroup_path(id, buf, len);
	else
		container_zone_name(id, buf, len);
}

/* Is path at or below the group of id? */
static bool below(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strcmp(top, "/") == 0)
		return true;
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The group whose container's name or id pattern matches, or the
 * group below one that does, is admitted. */
static bool admitted(struct group *g, const char *pattern, const char *top)
{
	if (top)
		return below(g->path, top);
	return fnmatch(pattern, group_zone(g), 0) == 0;
}

int container_zone_fill(const char *pattern, int map_fd)
{
	char *end;
	unsigned long long num = strtoull(pattern, &end, 10);
	const char *top = NULL;
	int rc, matched = 0;
	uint8_t one = 1;

	if ((rc = walk()) < 0)
		return rc;
	if (*pattern && !*end) {	/* a number: a cgroup id */
		struct group *g = find(num);

		if (!g)
			return 0;
		top = g->path;
	}
	for (size_t i = 0; i < groups.n; i++) {
		struct group *g = &groups.v[i];

		if (!g->path || !admitted(g, pattern, top))
			continue;
		if (bpf_map_update_elem(map_fd, &g->id, &one, BPF_ANY) < 0)
			return -errno;
		matched++;
	}
	return matched;
}
