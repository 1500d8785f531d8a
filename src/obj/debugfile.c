/*
 * debugfile.c -- find a separate debug file.  See debugfile.h.
 *
 * Each candidate path is opened and checked in full before it is
 * returned: a missing file, one that is not ELF, one with another
 * build-id, one whose CRC differs from the link's.  Nothing is cached
 * here; usym.c reads each main file once and so looks once.
 */
#include "obj/debugfile.h"

#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "obj/usym.h"

#define BUILD_ID_MAX 64	/* GNU ld writes 20 bytes (sha1); room for more */

static const char default_dirs[] = "/usr/lib/debug";

size_t debugfile_build_id(Elf *e, uint8_t *id, size_t max)
{
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(s, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			const char *name = (const char *)d->d_buf + name_off;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp(name, "GNU", 4) != 0)
				continue;
			if (nh.n_descsz == 0 || nh.n_descsz > max)
				return 0;
			memcpy(id, (const char *)d->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
	}
	return 0;
}

/* The section called name; NULL if e has none. */
static Elf_Scn *section_named(Elf *e, const char *name)
{
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return NULL;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(s, &sh) && (n = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    strcmp(n, name) == 0)
			return s;
	}
	return NULL;
}

/* .gnu_debuglink: the name, NUL, padding to 4 bytes, a 4-byte CRC in the
 * file's byte order. */
bool debugfile_link(Elf *e, char *name, size_t len, uint32_t *crc)
{
	Elf_Scn *s = section_named(e, ".gnu_debuglink");
	Elf_Data *d = s ? elf_getdata(s, NULL) : NULL;
	const unsigned char *b, *ident = (const unsigned char *)elf_getident(e, NULL);
	size_t n, at;

	if (!d || !d->d_buf || !ident)
		return false;
	b = d->d_buf;
	n = strnlen((const char *)b, d->d_size);
	at = (n + 4) & ~(size_t)3;	/* past the NUL, to 4 bytes */
	if (n == 0 || n >= len || at + 4 > d->d_size || memchr(b, '/', n))
		return false;
	memcpy(name, b, n);
	name[n] = '\0';
	if (ident[EI_DATA] == ELFDATA2MSB)
		*crc = (uint32_t)b[at] << 24 | (uint32_t)b[at + 1] << 16 |
		       (uint32_t)b[at + 2] << 8 | b[at + 3];
	else
		*crc = (uint32_t)b[at + 3] << 24 | (uint32_t)b[at + 2] << 16 |
		       (uint32_t)b[at + 1] << 8 | b[at];
	return true;
}

bool debugfile_crc(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	int fd = elf_open(path);
	uLong c = crc32(0, Z_NULL, 0);
	ssize_t n;

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	close(fd);
	*crc = (uint32_t)c;
	return n == 0;
}

/* Does the ELF file at path have this build-id? */
static bool has_build_id(const char *path, const uint8_t *id, size_t n)
{
	uint8_t other[BUILD_ID_MAX];
	int fd = elf_open(path);
	bool same = false;
	Elf *e;

	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		same = debugfile_build_id(e, other, sizeof(other)) == n &&
		       memcmp(other, id, n) == 0;
	if (e)
		elf_end(e);
	close(fd);
	return same;
}

/* The next folder of a colon-separated list into dir; false at the end. */
static bool next_dir(const char **list, char *dir, size_t len)
{
	while (**list == ':')
		(*list)++;
	if (!**list)
		return false;
	size_t n = strcspn(*list, ":");

	snprintf(dir, len, "%.*s", (int)n, *list);
	*list += n;
	return true;
}

static const char *debug_dirs(void)
{
	const char *env = getenv("DSCOPE_DEBUGDIR");

	return env && *env ? env : default_dirs;
}

static bool by_build_id(Elf *e, char *out, size_t len)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1], dir[PATH_MAX];
	size_t n = debugfile_build_id(e, id, sizeof(id));

	if (n < 2)
		return false;
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	for (const char *l = debug_dirs(); next_dir(&l, dir, sizeof(dir));) {
		snprintf(out, len, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
		if (has_build_id(out, id, n))
			return true;
	}
	return false;
}

static bool crc_matches(const char *path, uint32_t want)
{
	uint32_t crc;

	return access(path, R_OK) == 0 && debugfile_crc(path, &crc) && crc == want;
}

static bool by_debuglink(Elf *e, const char *path, char *out, size_t len)
{
	char name[NAME_MAX + 1], real[PATH_MAX], dir[PATH_MAX];
	uint32_t crc;
	char *slash;

	if (!debugfile_link(e, name, sizeof(name), &crc) || !realpath(path, real) ||
	    !(slash = strrchr(real, '/')))
		return false;
	*slash = '\0';		/* real is now the file's folder */
	snprintf(out, len, "%s/%s", real, name);
	if (crc_matches(out, crc))
		return true;
	snprintf(out, len, "%s/.debug/%s", real, name);
	if (crc_matches(out, crc))
		return true;
	for (const char *l = debug_dirs(); next_dir(&l, dir, sizeof(dir));) {
		snprintf(out, len, "%s%s/%s", dir, real, name);
		if (crc_matches(out, crc))
			return true;
	}
	return false;
}

bool debugfile_find(Elf *e, const char *path, char *out, size_t len)
{
	return by_build_id(e, out, len) || by_debuglink(e, path, out, len);
}
