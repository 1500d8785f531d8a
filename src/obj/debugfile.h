/*
 * debugfile.h -- a stripped ELF file's separate debug file.
 *
 * Distributions strip their binaries and ship the symbols apart
 * (Debian's *-dbg and *-dbgsym packages); `objcopy --only-keep-debug`
 * makes such a file by hand.  The debug file keeps the main file's
 * section headers and link-time addresses, so its .symtab names
 * addresses of the main file's load layout.  It is found as gdb finds
 * it, by build-id first, then by .gnu_debuglink:
 *
 *	DIR/.build-id/ab/cdef...debug	the build-id's first byte, the rest
 *	FILEDIR/NAME, FILEDIR/.debug/NAME, DIR/FILEDIR/NAME
 *					the debuglink's NAME
 *
 * DIR is each folder of the environment variable DSCOPE_DEBUGDIR
 * (colon-separated, like gdb's debug-file-directory), else
 * /usr/lib/debug.  A candidate is trusted only when it checks out: by
 * build-id, the same build-id; by debuglink, the CRC-32 the link
 * records -- a stale debug file names the wrong functions, which is
 * worse than naming none.
 */
#ifndef DSCOPE_DEBUGFILE_H
#define DSCOPE_DEBUGFILE_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The separate debug file of e, the ELF file read from path: its path
 * into out; false if none checks out. */
bool debugfile_find(Elf *e, const char *path, char *out, size_t len);

/* e's GNU build-id (NT_GNU_BUILD_ID) into id: its length, 0 if none or
 * longer than max. */
size_t debugfile_build_id(Elf *e, uint8_t *id, size_t max);

/* e's .gnu_debuglink: the file name into name, and the CRC-32 of that
 * file; false if e has none. */
bool debugfile_link(Elf *e, char *name, size_t len, uint32_t *crc);

/* The CRC-32 (zlib's, as the debuglink records it) of the file at path. */
bool debugfile_crc(const char *path, uint32_t *crc);

#endif /* DSCOPE_DEBUGFILE_H */
