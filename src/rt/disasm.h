/*
 * disasm.h -- print a compiled spec's BPF programs, one instruction a
 * line, each program headed by the probe (or the kind of probes) it
 * serves: dscope -S, DTrace's "print the compiled program".
 */
#ifndef DSCOPE_DISASM_H
#define DSCOPE_DISASM_H

#include <stdio.h>

#include "spec/spec.h"

void disasm_spec(FILE *f, const struct spec *sp);

#endif /* DSCOPE_DISASM_H */
