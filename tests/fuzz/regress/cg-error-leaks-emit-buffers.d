/* A code generator error (here: the BPF stack) longjmps out of cg_program(); its
 * malloc'd instruction buffers leaked (LeakSanitizer).  Fixed: emit.c grows them in
 * the compile's arena. */
BEGIN { x = 1; y = (x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+(x+x)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))); }
