/*
 * replay.c -- running a recorded trace through the script (replay.h).
 */
#include "rt/replay.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prov/catalog.h"

/* Whether the trace's name for a probe ("prov:mod:func:name") is p's. */
static bool names(const char *rec, const struct probe *p)
{
	char full[4 * 130];

	snprintf(full, sizeof(full), "%s:%s:%s:%s", p->prov, p->mod, p->func,
		 p->name);
	return strcmp(rec, full) == 0;
}

int replay_open(struct replay *r, const struct spec *sp, const struct ctf_trace *t)
{
	memset(r, 0, sizeof(*r));
	r->sp = sp;
	r->t = t;
	r->ncpus = libbpf_num_possible_cpus();
	if (!(r->prog_fd = malloc(sizeof(int) * (size_t)(t->nprobes + 1))))
		return -ENOMEM;
	for (int c = 0; c < t->nprobes; c++) {
		r->prog_fd[c] = -1;
		for (int i = 0; i < sp->nprogs; i++)
			if (sp->progs[i].attach == ATTACH_REPLAY &&
			    names(t->probes[c], sp->progs[i].probe))
				r->prog_fd[c] = sp->progs[i].fd;
	}
	return 0;
}

int replay_run(struct replay *r, size_t n, FILE *err, const char *progname)
{
	int map = r->sp->maps[r->sp->replay_map].fd;
	uint32_t zero = 0;
	static struct replay_val v;	/* the map's value, strings NUL-padded */

	for (; n > 0 && r->next < r->t->nevents; r->next++) {
		const struct ctf_replayed *e = &r->t->events[r->next];
		int fd = r->prog_fd[e->cls];
		uint64_t args[12] = { 0 };
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args,
			    .ctx_size_in = sizeof(args));

		if (fd < 0)
			continue;
		if ((int)e->rec.cpu < r->ncpus) {
			opts.flags = BPF_F_TEST_RUN_ON_CPU;
			opts.cpu = e->rec.cpu;
		}
		v.rec = e->rec;
		for (int i = 0; i < RECORD_STRS; i++) {
			memset(v.strs[i], 0, RECORD_STR);
			if (e->rec.str_ok[i])
				strncpy(v.strs[i], r->t->pool + e->str_off[i],
					RECORD_STR - 1);
		}
		if (bpf_map_update_elem(map, &zero, &v, BPF_ANY) < 0 ||
		    (bpf_prog_test_run_opts(fd, &opts) < 0 &&
		     (errno != ENXIO ||	/* that CPU is offline here */
		      (opts.flags = 0, bpf_prog_test_run_opts(fd, &opts) < 0)))) {
			int e2 = errno;

			fprintf(err, "%s: could not replay %s: %s\n", progname,
				r->t->probes[e->cls], strerror(e2));
			return -e2;
		}
		n--;
	}
	return r->next >= r->t->nevents;
}

void replay_close(struct replay *r)
{
	free(r->prog_fd);
	r->prog_fd = NULL;
}
