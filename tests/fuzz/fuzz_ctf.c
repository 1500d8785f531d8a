/*
 * fuzz_ctf.c -- libFuzzer over a CTF trace directory, as -x replay reads
 * it (rt/ctf.h; tests/fuzz/README.md).
 *
 * The input is the directory's two files: the metadata up to the first
 * NUL byte, and stream_0 after it (an input without a NUL is metadata
 * alone).  ctf_trace_read() must refuse what is not a trace dscope wrote
 * in one sentence, and for what it accepts give events in timestamp
 * order, each of a class the metadata declares, each string it holds a
 * NUL-terminated one in the trace's pool, each frame of its stacks
 * named by the replay's lookups: no crash, no leak.
 */
#include "fuzz_file.h"

#include "rt/ctf.h"

static void put_file(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = fuzz_folder();
	const uint8_t *nul = memchr(data, 0, size);
	size_t mlen = nul ? (size_t)(nul - data) : size;
	struct ctf_trace t;
	FILE *err = fopen("/dev/null", "w");
	char stream[128];

	if (!err)
		abort();
	put_file(dir, "metadata", data, mlen);
	snprintf(stream, sizeof(stream), "%s/stream_0", dir);
	if (nul)
		put_file(dir, "stream_0", nul + 1, size - mlen - 1);
	else
		remove(stream);
	if (ctf_trace_read(dir, &t, err, "fuzz") == 0) {
		for (size_t i = 0; i < t.nevents; i++) {
			if (t.events[i].cls >= (uint32_t)t.nprobes)
				abort();
			if (i && t.events[i].rec.timestamp < t.events[i - 1].rec.timestamp)
				abort();
			for (int j = 0; j < RECORD_STRS; j++)
				if (t.events[i].rec.str_ok[j] &&
				    (t.events[i].str_off[j] >= t.pool_len ||
				     !memchr(t.pool + t.events[i].str_off[j], 0,
					     t.pool_len - t.events[i].str_off[j])))
					abort();
		}
		/* every frame of every stack is named by the lookups the
		 * replay's printing uses, as its own frame */
		for (uint32_t i = 0; i < t.nstacks; i++) {
			const struct ctf_stack *st = &t.stacks[i];

			for (uint32_t k = 0; st->f && k < st->n; k++) {
				const char *mod = NULL, *sym = NULL;
				uint64_t at = 0;
				bool named = st->user
					? ctf_trace_usym(&t, st->pid, st->f[k].pc, &mod, &sym, &at)
					: ctf_trace_ksym(&t, st->f[k].pc, &mod, &sym, &at);

				if (named && (!mod || strlen(mod) > 65536))
					abort();
			}
		}
		ctf_trace_free(&t);
	}
	fclose(err);
	return 0;
}
