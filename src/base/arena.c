/*
 * arena.c -- bump allocation in 64 KiB blocks (bigger requests get a block
 * of their own).  See arena.h for the ownership rule.
 *
 * Under AddressSanitizer (the unit tests, the fuzzers) a block is poisoned
 * but for the objects handed out, each followed by a redzone, and the old
 * copy of an array arena_grow() moved is poisoned again: one bump-allocated
 * block would otherwise hide every overflow from one object into the next,
 * and every use of a stale pointer into a grown array.
 */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define ARENA_REDZONE 16
#else
#define ARENA_REDZONE 0
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	size_t want = n;

	n = (n + ARENA_REDZONE + 15) & ~(size_t)15;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b) {
			fprintf(stderr, "dscope: out of memory\n");
			abort();
		}
		b->used = 0;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
		ASAN_POISON_MEMORY_REGION(b->data, cap);
	}
	void *p = b->data + b->used;
	b->used += n;
	ASAN_UNPOISON_MEMORY_REGION(p, want);
	memset(p, 0, want);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char probe[1];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(probe, sizeof(probe), fmt, ap);
	va_end(ap);
	char *p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		ASAN_UNPOISON_MEMORY_REGION(b->data, b->cap);
		free(b);
		b = next;
	}
	a->head = NULL;
}

void *arena_grow(struct arena *a, void *v, int n, int *cap, size_t elem)
{
	if (n < *cap)
		return v;
	int ncap = *cap ? *cap * 2 : 8;
	void *nv = arena_alloc(a, (size_t)ncap * elem);

	if (n)
		memcpy(nv, v, (size_t)n * elem);
	if (v)
		ASAN_POISON_MEMORY_REGION(v, (size_t)n * elem);
	*cap = ncap;
	return nv;
}
