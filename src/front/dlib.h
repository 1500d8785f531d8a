/*
 * dlib.h -- the D library compiled with every program (see dlib.c).
 */
#ifndef DSCOPE_DLIB_H
#define DSCOPE_DLIB_H

extern const char dlib_text[];

/* A named integer of the D library (errno, signal, register, process
 * state names): an int, or a char where DTrace's library says char. */
struct dlib_const {
	const char *name;
	long value;
	int size;		/* bytes: 4 int, 1 char */
};

/* The constant of this name; NULL if the library has none. */
const struct dlib_const *dlib_const_find(const char *name);

#endif /* DSCOPE_DLIB_H */
