/*
 * arena.h -- the per-compile bump allocator.
 *
 * Everything the front end and the code generator allocate for one compile
 * comes from one arena and goes with arena_free().  Allocation never fails
 * from the caller's point of view: out of memory aborts, as a compiler that
 * cannot allocate a few kilobytes has nothing sensible left to do.
 */
#ifndef DSCOPE_ARENA_H
#define DSCOPE_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;	/* newest block first */
};

void *arena_alloc(struct arena *a, size_t n);	/* zeroed, 16-byte aligned */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void arena_free(struct arena *a);



/* Room for one more element in an arena-backed array of n elements with
 * capacity *cap: returns the (possibly moved) array.  The old copy is left
 * in the arena, which is fine for the small tables a compile builds. */
void *arena_grow(struct arena *a, void *v, int n, int *cap, size_t elem);
#define ARENA_PUSH(a, v, n, cap) \
	((v) = arena_grow((a), (v), (n), &(cap), sizeof(*(v))), &(v)[(n)++])
#endif /* DSCOPE_ARENA_H */
