/*
 * lockdown.c -- the kernel's lockdown mode and the process's
 * capabilities.  See lockdown.h.
 */
#define _GNU_SOURCE
#include "kern/lockdown.h"

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOCKDOWN_FILE "/sys/kernel/security/lockdown"

static const char *const names[] = {	/* ORDER: enum lockdown */
	"none", "integrity", "confidentiality",
};

const char *lockdown_name(enum lockdown m)
{
	return names[m];
}

static enum lockdown by_name(const char *w, size_t n)
{
	for (int i = (int)LOCKDOWN_CONFIDENTIALITY; i > 0; i--)
		if (strlen(names[i]) == n && strncmp(w, names[i], n) == 0)
			return (enum lockdown)i;
	return LOCKDOWN_NONE;
}

/*
 * The file's line when securityfs is not mounted (Debian mounts it at
 * boot; a container or a minimal system may not): read by a child in a
 * mount namespace of its own, where it mounts securityfs, so nothing is
 * left mounted.  Needs CAP_SYS_ADMIN; without it, the line stays empty.
 */
static void read_unmounted(char *line, size_t len)
{
	int p[2];
	pid_t pid;
	ssize_t n;

	if (pipe(p) < 0)
		return;
	if ((pid = fork()) == 0) {
		FILE *f;

		close(p[0]);
		if (unshare(CLONE_NEWNS) == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount("securityfs", "/sys/kernel/security", "securityfs", 0,
			  NULL) == 0 && (f = fopen(LOCKDOWN_FILE, "re"))) {
			if (fgets(line, (int)len, f) &&
			    write(p[1], line, strlen(line)) < 0)
				_exit(1);
			fclose(f);
		}
		_exit(0);
	}
	close(p[1]);
	n = pid > 0 ? read(p[0], line, len - 1) : -1;
	line[n > 0 ? n : 0] = '\0';
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* The mode's word: bracketed in "none [integrity] confidentiality". */
static enum lockdown parse_mode(const char *line)
{
	const char *open = strchr(line, '['), *close;

	if (!open || !(close = strchr(open, ']')))
		return LOCKDOWN_NONE;
	return by_name(open + 1, (size_t)(close - open - 1));
}

static bool unread;	/* no file, and no securityfs mount of our own */

enum lockdown lockdown_mode(void)
{
	static int known = -1;	/* the mode once read */
	const char *env = getenv("DSCOPE_LOCKDOWN");
	char line[128] = "";
	FILE *f;

	if (env && *env)
		return by_name(env, strlen(env));
	if (known >= 0)
		return (enum lockdown)known;
	if ((f = fopen(LOCKDOWN_FILE, "re"))) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	} else if (access("/sys/kernel/security", F_OK) == 0) {
		read_unmounted(line, sizeof(line));
		unread = !line[0];
	}
	known = (int)parse_mode(line);
	return (enum lockdown)known;
}

/* the code generator reads kernel memory for kernel pointers and
 * variables, and for some of its own work (strings copied in scratch) */
#define KREAD "the program reads kernel memory (bpf_probe_read_kernel)"

/* The helpers a mode leaves out, and what dscope does with them. */
static const struct {
	int helper;
	enum lockdown from;	/* the first mode that leaves it out */
	const char *what;
} refused[] = {
	{ BPF_FUNC_probe_write_user, LOCKDOWN_INTEGRITY,
	  "copyout() and copyoutstr() write with bpf_probe_write_user" },
	{ BPF_FUNC_probe_read_kernel, LOCKDOWN_CONFIDENTIALITY, KREAD },
	{ BPF_FUNC_probe_read_kernel_str, LOCKDOWN_CONFIDENTIALITY, KREAD },
	{ BPF_FUNC_probe_read, LOCKDOWN_CONFIDENTIALITY, KREAD },
	{ BPF_FUNC_probe_read_str, LOCKDOWN_CONFIDENTIALITY, KREAD },
};

const char *lockdown_refuses(const struct bpf_insn *insns, int n,
			     enum lockdown m)
{
	for (int i = 0; m != LOCKDOWN_NONE && i < n; i++) {
		if (insns[i].code != (BPF_JMP | BPF_CALL) || insns[i].src_reg != 0)
			continue;	/* not a helper: a subprogram or kfunc */
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
			if (refused[k].helper == insns[i].imm && m >= refused[k].from)
				return refused[k].what;
	}
	return NULL;
}

/* The capabilities tracing uses, by bit (linux/capability.h), and what
 * each is for here. */
static const struct {
	int bit;
	const char *name, *for_what;
} caps[] = {
	{ 21, "cap_sys_admin", "copyout(), uprobe perf events; all before 5.8" },
	{ 39, "cap_bpf", "maps and programs" },
	{ 38, "cap_perfmon", "tracing programs, perf events (profile, uprobes)" },
	{ 2, "cap_dac_read_search", "tracefs (sdt), other users' files" },
	{ 19, "cap_sys_ptrace", "other users' /proc/PID files, where asked" },
	{ 40, "cap_syslog", "kernel symbols (stack(), sym())" },
	{ 24, "cap_sys_resource", "RLIMIT_MEMLOCK (kernels before 5.11)" },
};

static uint64_t cap_eff(bool *known)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long v = 0;

	*known = false;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1) {
			*known = true;
			break;
		}
	if (f)
		fclose(f);
	return v;
}

bool lockdown_has_cap(int bit)
{
	bool known;

	return cap_eff(&known) >> bit & 1;
}

void lockdown_print(FILE *out)
{
	bool known;
	uint64_t eff = cap_eff(&known);

	enum lockdown m = lockdown_mode();

	if (getenv("DSCOPE_LOCKDOWN") && *getenv("DSCOPE_LOCKDOWN"))
		fprintf(out, "Kernel lockdown: %s (DSCOPE_LOCKDOWN)\n", names[m]);
	else if (unread)	/* a mode the kernel enforces all the same */
		fprintf(out, "Kernel lockdown: unknown (securityfs is not mounted, "
			     "and mounting it needs CAP_SYS_ADMIN)\n");
	else
		fprintf(out, "Kernel lockdown: %s\n", names[m]);
	if (!known) {
		fprintf(out, "Capabilities: unknown (no CapEff in /proc/self/status)\n");
		return;
	}
	fprintf(out, "Capabilities (CapEff %016llx):\n", (unsigned long long)eff);
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		fprintf(out, "  %-19s %-3s  %s\n", caps[i].name,
			eff >> caps[i].bit & 1 ? "yes" : "no", caps[i].for_what);
}
