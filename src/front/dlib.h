/*
 * dlib.h -- the D library compiled with every program (see dlib.c).
 */
#ifndef DSCOPE_DLIB_H
#define DSCOPE_DLIB_H

extern const char dlib_text[];

#endif /* DSCOPE_DLIB_H */
