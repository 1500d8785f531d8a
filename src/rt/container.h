/*
 * container.h -- cgroup v2 ids named by the container runtimes that own
 * them: zonename, cgroup_path() and option zone.  See container.c.
 */
#ifndef DSCOPE_CONTAINER_H
#define DSCOPE_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The container cgroup id belongs to, as its runtime names it, or
 * "global" if none owns it, into buf. */
void container_zone_name(uint64_t id, char *buf, size_t len);

/* The group's path under the cgroup v2 mount ("/" its root); a group
 * gone before it was ever seen prints as its id. */
void container_cgroup_path(uint64_t id, char *buf, size_t len);

/* fmt_sym_ops' zone hook: path picks cgroup_path()'s form */
void container_fmt_name(uint64_t id, bool path, char *buf, size_t len);

/*
 * Option zone: put into map_fd (SPEC_ZONE_MAP) the id of every group in
 * a container whose name matches the glob pattern -- or, for a number,
 * the group of that id -- and every group below one.  Called again as
 * tracing goes on, it adds the groups made since.  Returns how many
 * groups match, or -errno.
 */
int container_zone_fill(const char *pattern, int map_fd);

#endif /* DSCOPE_CONTAINER_H */
