#pragma D option nspec=2
syscall::open*:entry { self->spec = speculation(); speculate(self->spec); printf("%s\n", execname); }
syscall::open*:return /self->spec && errno != 0/ { commit(self->spec); self->spec = 0; }
syscall::open*:return /self->spec/ { discard(self->spec); self->spec = 0; }
