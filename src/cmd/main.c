/*
 * main.c -- dscope(1): dtrace(1)'s command line over libdscope.
 *
 * Options are read as dtrace reads them: getopt runs until an operand, the
 * operand becomes the next macro argument ($1, $2, ...), and getopt starts
 * again after it, so options may follow a script (dscope -s x.d -q).
 * Exit status: 0 success (or the status given to exit()), 1 an error, 2
 * a usage error -- as dtrace(1).
 *
 * -c runs the command in a child that waits on a pipe until tracing is
 * attached, so the traced program is caught from its first instruction;
 * its pid is $target.  dscope ends when it exits.
 *
 * -h and -G trace nothing: they write a header or an object for a build
 * (libdscope's dscope__header and dscope__link); -G's operands are the
 * build's objects, not macro arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <unistd.h>
#include <wordexp.h>

#include "dscope.h"

/* "3:6:" are -32 and -64, as dtrace reads them */
#define OPTSTR "+3:6:aAb:c:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z"

static const char *progname = "dscope";
static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t snapshot;	/* SIGUSR1: dscope__snapshot */

enum src_kind { SRC_N, SRC_S, SRC_P, SRC_M, SRC_F, SRC_I };

struct source {
	enum src_kind kind;
	const char *arg;
};

struct cli {
	struct source *src;
	int nsrc;
	char **macro;		/* $0, $1, ... */
	int nmacro;
	const char *cmd;	/* -c */
	long pid;		/* -p */
	const char *outfile;	/* -o */
	bool list, verbose_list, version, compile_only, cpp, quiet, destructive, zdefs;
	char stdc;		/* -X mode: a and s change cpp's language */
	char **cpp_args;	/* -D, -U, -I as cpp takes them */
	int ncpp;
	struct { const char *name, *value; } *x;
	int nx;
	int gen;		/* 'h' or 'G': write a header or object */
	int bits;		/* -32, -64: the -G object's class */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-32|-64] [-CeFGhHlqSvVwZ] [-b bufsz] [-c cmd]\n"
		"\t[-D name[=def]] [-I path] [-L path] [-o output] [-p pid]\n"
		"\t[-s script] [-U name] [-x opt[=val]] [-X a|c|s|t]\n\n"
		"\t[-P provider [[ predicate ] action ]]\n"
		"\t[-m [ provider: ] module [[ predicate ] action ]]\n"
		"\t[-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
		"\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
		"\t[-i probe-id [[ predicate ] action ]] [ args ... ]\n\n"
		"\t-c  run specified command and exit upon its completion\n"
		"\t-C  run cpp(1) preprocessor on script files\n"
		"\t-D  define symbol when invoking preprocessor\n"
		"\t-e  exit after compiling request but prior to enabling probes\n"
		"\t-F  enable flow indentation\n"
		"\t-G  write an object defining the USDT probes' semaphores\n"
		"\t-h  write a <sys/sdt.h> header for the USDT probes declared\n"
		"\t-H  print included files when invoking preprocessor\n"
		"\t-I  add include directory to preprocessor search path\n"
		"\t-l  list probes matching specified criteria\n"
		"\t-n  enable or list probes matching the specified probe name\n"
		"\t-o  set output file\n"
		"\t-p  grab specified process-ID and cache its symbol tables\n"
		"\t-q  set quiet mode (only output explicitly traced data)\n"
		"\t-s  enable or list probes according to the specified D script\n"
		"\t-S  print the BPF programs compiled\n"
		"\t-U  undefine symbol when invoking preprocessor\n"
		"\t-v  set verbose mode (report stability attributes, arguments)\n"
		"\t-V  report DTrace API version\n"
		"\t-w  permit destructive actions\n"
		"\t-X  cpp mode: a, c, s or t (all run cpp alike)\n"
		"\t-x  enable or modify compiler and tracing options\n"
		"\t-Z  permit probe descriptions that match zero probes\n",
		progname);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", progname);
		exit(1);
	}
	return p;
}

static void add_source(struct cli *c, enum src_kind k, const char *arg)
{
	c->src = xrealloc(c->src, sizeof(*c->src) * (size_t)(c->nsrc + 1));
	c->src[c->nsrc].kind = k;
	c->src[c->nsrc].arg = arg;
	c->nsrc++;
}

static void add_cpp(struct cli *c, const char *flag, const char *arg)
{
	size_t n = strlen(flag) + strlen(arg) + 1;
	char *s = xrealloc(NULL, n);

	snprintf(s, n, "%s%s", flag, arg);
	c->cpp_args = xrealloc(c->cpp_args, sizeof(char *) * (size_t)(c->ncpp + 1));
	c->cpp_args[c->ncpp++] = s;
}

static void add_opt(struct cli *c, const char *name, const char *value);

static void add_x(struct cli *c, char *arg)
{
	char *eq = strchr(arg, '=');

	/* the preprocessor's options are the -C -D -U -I -H flags by name;
	 * cppargs is cpp's own arguments, split at white space */
	if (strcmp(arg, "cpp") == 0) {
		c->cpp = true;
		return;
	}
	if (strcmp(arg, "cpphdrs") == 0) {
		add_cpp(c, "-H", "");
		return;
	}
	if (strncmp(arg, "cppargs=", 8) == 0) {
		char *save = NULL;

		for (char *w = strtok_r(eq + 1, " \t\n", &save); w;
		     w = strtok_r(NULL, " \t\n", &save))
			add_cpp(c, w, "");
		return;
	}
	static const struct { const char *name, *flag; } cpp_opts[] = {
		{ "define=", "-D" }, { "undef=", "-U" }, { "incdir=", "-I" },
	};

	for (size_t i = 0; i < sizeof(cpp_opts) / sizeof(cpp_opts[0]); i++)
		if (strncmp(arg, cpp_opts[i].name, strlen(cpp_opts[i].name)) == 0) {
			add_cpp(c, cpp_opts[i].flag, eq + 1);
			return;
		}
	if (eq)
		*eq = '\0';
	if (strcmp(arg, "stdc") == 0 && eq)
		c->stdc = eq[1];
	add_opt(c, arg, eq ? eq + 1 : NULL);
}

static void add_opt(struct cli *c, const char *name, const char *value)
{
	c->x = xrealloc(c->x, sizeof(*c->x) * (size_t)(c->nx + 1));
	c->x[c->nx].name = name;
	c->x[c->nx++].value = value;
}

static void add_macro(struct cli *c, char *arg)
{
	c->macro = xrealloc(c->macro, sizeof(char *) * (size_t)(c->nmacro + 2));
	c->macro[c->nmacro++] = arg;
	c->macro[c->nmacro] = NULL;
}

/* Returns 0, or the exit status for a usage error / -V / -h. */
static int parse_args(struct cli *c, int argc, char **argv)
{
	add_macro(c, argv[0]);
	for (optind = 1; optind < argc; optind++) {
		int ch;

		while ((ch = getopt(argc, argv, OPTSTR)) != -1) {
			switch (ch) {
			case 'n': add_source(c, SRC_N, optarg); break;
			case 's': add_source(c, SRC_S, optarg); break;
			case 'P': add_source(c, SRC_P, optarg); break;
			case 'm': add_source(c, SRC_M, optarg); break;
			case 'f': add_source(c, SRC_F, optarg); break;
			case 'i': add_source(c, SRC_I, optarg); break;
			case 'q': c->quiet = true; break;
			case 'w': c->destructive = true; break;
			case 'Z': c->zdefs = true; break;
			case 'l': c->list = true; break;
			case 'v': c->verbose_list = true; break;
			case 'e': c->compile_only = true; break;
			case 'C': c->cpp = true; break;
			case 'D': add_cpp(c, "-D", optarg); break;
			case 'U': add_cpp(c, "-U", optarg); break;
			case 'I': add_cpp(c, "-I", optarg); break;
			case 'o': c->outfile = optarg; break;
			case 'c': c->cmd = optarg; break;
			case 'p': {
				char *end;

				c->pid = strtol(optarg, &end, 10);
				if (*end || c->pid <= 0) {
					fprintf(stderr, "%s: invalid process ID: %s\n",
						progname, optarg);
					return 2;
				}
				break;
			}
			/* flags that are options by another name, as dtrace's */
			case 'b': add_opt(c, "bufsize", optarg); break;
			case 'F': add_opt(c, "flowindent", NULL); break;
			case 'S': add_opt(c, "verbose", NULL); break;
			case 'L': add_opt(c, "libdir", optarg); break;
			case 'X':
				c->stdc = optarg[0];
				add_opt(c, "stdc", optarg);
				break;
			case 'a': add_opt(c, "grabanon", NULL); break;
			case 'H': add_cpp(c, "-H", ""); break;	/* cpp lists headers */
			case 'A':
				fprintf(stderr, "%s: -A: anonymous tracing is not "
						"supported\n", progname);
				return 1;
			case 'x': add_x(c, optarg); break;
			case 'V': c->version = true; break;
			case 'h':
			case 'G':
				c->gen = ch;
				break;
			case '3':
			case '6':
				if (strcmp(optarg, ch == '3' ? "2" : "4") != 0) {
					usage(stderr);
					return 2;
				}
				c->bits = ch == '3' ? 32 : 64;
				break;
			default:
				usage(stderr);
				return 2;
			}
		}
		if (optind < argc)
			add_macro(c, argv[optind]);
	}
	if (c->version) {
		printf("%s: Sun D 1.13 (dscope %s)\n", progname, DSCOPE_VERSION);
		if (c->verbose_list)	/* -vV, as bpftrace's --info */
			dscope__print_caps(stdout);
		return -1;
	}
	return 0;
}

static char *read_file(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		size_t n = fread(buf + len, 1, 4096, f);

		len += n;
		if (n == 0)
			break;
	}
	buf[len] = '\0';
	if (f != stdin)
		fclose(f);
	return buf;
}

/* In preprocess()'s child: become cpp, reading in[0], writing out[1],
 * with DTrace's predefined macros and the user's -D/-U/-I */
static void exec_cpp(const struct cli *c, const int in[2], const int out[2])
{
	const char *extra = getenv("DTRACE_OPT_CPPARGS");
	char **argv = calloc((size_t)c->ncpp + 64, sizeof(char *));
	int n = 0;

	argv[n++] = "cpp";
	argv[n++] = "-D__linux";
	argv[n++] = "-D__x86_64";
	argv[n++] = "-D__SUNW_D=1";
	argv[n++] = "-D__dscope";
	if (extra) {
		char *copy = strdup(extra), *save = NULL;

		for (char *t = strtok_r(copy, " ", &save); t && n < 56;
		     t = strtok_r(NULL, " ", &save))
			argv[n++] = t;
	}
	for (int i = 0; i < c->ncpp; i++)
		argv[n++] = c->cpp_args[i];
	/* -Xa is ISO C with its extensions, -Xs K&R C: no __STDC__
	 * (dt_cc.c's dt_preproc) */
	if (c->stdc == 'a')
		argv[n++] = "-std=c99";
	else if (c->stdc == 's')
		argv[n++] = "-traditional-cpp";
	argv[n++] = "/dev/stdin";	/* names the input in messages */
	argv[n] = NULL;
	dup2(in[0], 0);
	dup2(out[1], 1);
	close(in[1]);
	close(out[0]);
	execvp("cpp", argv);
	fprintf(stderr, "%s: failed to run cpp: %s (install the cpp package)\n",
		progname, strerror(errno));
	_exit(127);
}

/* Run cpp over text: DTrace's -C.  cpp's own messages go to stderr. */
static char *preprocess(const struct cli *c, const char *text)
{
	int in[2], out[2];
	pid_t pid;

	/* an interpreter file's "#!" line would choke cpp: start it at
	 * that line's newline, so later lines keep their numbers (dt_cc.c) */
	if (strncmp(text, "#!", 2) == 0)
		text = strchr(text, '\n') ? strchr(text, '\n') : "";

	if (pipe(in) < 0 || pipe(out) < 0)
		return NULL;
	pid = fork();
	if (pid == 0)
		exec_cpp(c, in, out);
	close(in[0]);
	close(out[1]);
	if (pid < 0)
		return NULL;
	/* small scripts fit the pipe; write then read would deadlock only for
	 * scripts over 64 KiB, so write from a child for those */
	if (fork() == 0) {
		close(out[0]);
		ssize_t left = (ssize_t)strlen(text);

		while (left > 0) {
			ssize_t w = write(in[1], text, (size_t)left);

			if (w <= 0)
				break;
			text += w;
			left -= w;
		}
		_exit(0);
	}
	close(in[1]);
	/* read(), retried on EINTR: SIGCHLD from the writer interrupts it */
	char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		if (len + 4097 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		ssize_t n = read(out[0], buf + len, 4096);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(out[0]);
	int status;

	bool failed = false;

	for (;;) {
		pid_t w = wait(&status);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		failed |= w == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	if (failed) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* -P/-m/-f/-i arguments as the -n text they stand for */
static char *desc_text(const struct source *s)
{
	const char *fmt = s->kind == SRC_P ? "%s:::" : s->kind == SRC_M ? "%s::"
			  : s->kind == SRC_F ? "%s:" : "%s";
	size_t n = strlen(s->arg) + 4;
	char *t = xrealloc(NULL, n);

	snprintf(t, n, fmt, s->arg);
	return t;
}

static int add_sources(struct dscope *ds, struct cli *c)
{
	for (int i = 0; i < c->nsrc; i++) {
		const struct source *s = &c->src[i];

		if (s->kind != SRC_S) {
			char *t = s->kind == SRC_N ? strdup(s->arg) : desc_text(s);

			dscope__add_program(ds, t, NULL);
			free(t);
			continue;
		}
		char *text = read_file(s->arg);

		if (!text) {
			fprintf(stderr, "%s: failed to open %s: %s\n", progname,
				s->arg, strerror(errno));
			return -1;
		}
		if (c->cpp) {
			char *pp = preprocess(c, text);

			free(text);
			if (!pp) {
				fprintf(stderr, "%s: failed to compile script %s: "
						"Preprocessor failed to process input "
						"program\n", progname, s->arg);
				return -1;
			}
			text = pp;
		}
		c->macro[0] = (char *)s->arg;
		dscope__add_program(ds, text, s->arg);
		free(text);
	}
	return 0;
}

/* Is there an executable for argv0, directly or along $PATH? */
static bool executable(const char *argv0)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(argv0, '/'))
		return access(argv0, X_OK) == 0;
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, argv0);
		if (access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/*
 * A dscope given capabilities by its file (setcap) or by set-user-ID is
 * not dumpable, nor is its forked child, and a process that is not
 * dumpable cannot be ptrace-seized without CAP_SYS_PTRACE.  The child
 * gives up every capability first -- the command's exec would drop them
 * anyway, as they came from dscope's file, and the command must not run
 * with them even for an instant -- and then makes itself dumpable, as
 * the exec would make it.  False (with errno) if the kernel refused.
 */
static bool drop_capabilities(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2] = { { 0 } };

	return syscall(SYS_capset, &h, none) == 0 &&
	       prctl(PR_SET_DUMPABLE, 1) == 0;
}

/*
 * PTRACE_SEIZE of the -c child; where it drops its capabilities first
 * (drop_capabilities), once it has: until then the kernel refuses with
 * EPERM, for a moment only, as the child does nothing else before it
 * waits on the pipe.  A child that exited (the drop refused) is an
 * error.
 */
static bool seize_when_dumpable(pid_t pid, bool drop)
{
	while (ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEEXEC) < 0) {
		if (!drop || errno != EPERM || waitpid(pid, NULL, WNOHANG) != 0)
			return false;
		usleep(1000);
	}
	return true;
}

/*
 * The -c command, created as DTrace's Pcreate creates it: the child is
 * ptrace-seized, execs the command, and stays stopped at the end of that
 * exec -- before its first instruction -- until the probes are attached
 * (release_command).  So, as in DTrace, the tracing sees the command from
 * its first instruction but not its exec, nor anything the child did
 * before the exec (dscope's own code in the forked copy).  The words are
 * split as a shell would split them, without running any of it, and the
 * command itself (not a shell) is exec'd: it must be $target, and a shell
 * would make system calls of its own first.  Returns the stopped child;
 * <0 if it could not be run (said).
 */
static pid_t spawn_stopped(const char *cmd)
{
	wordexp_t w;
	int p[2], status;

	if (wordexp(cmd, &w, WRDE_NOCMD) != 0 || w.we_wordc == 0) {
		fprintf(stderr, "%s: failed to execute %s: invalid command line\n",
			progname, cmd);
		return -1;
	}
	if (!executable(w.we_wordv[0])) {
		fprintf(stderr, "%s: failed to execute %s: %s\n", progname,
			w.we_wordv[0], strerror(errno));
		wordfree(&w);
		return -1;
	}
	if (pipe(p) < 0)
		return -1;
	bool drop = prctl(PR_GET_DUMPABLE) != 1;
	pid_t pid = fork();

	if (pid == 0) {
		char b;

		close(p[1]);
		if (drop && !drop_capabilities())
			_exit(127);
		if (read(p[0], &b, 1) != 1)
			_exit(127);	/* dscope gave up: never run the command */
		close(p[0]);
		execvp(w.we_wordv[0], w.we_wordv);
		fprintf(stderr, "%s: failed to execute %s: %s\n", progname,
			w.we_wordv[0], strerror(errno));
		_exit(127);
	}
	wordfree(&w);
	close(p[0]);
	if (pid < 0 || !seize_when_dumpable(pid, drop)) {
		fprintf(stderr, "%s: failed to control the -c command: %s\n",
			progname, strerror(errno));
		close(p[1]);	/* the child exits without running it */
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return -1;
	}
	if (write(p[1], "g", 1) != 1)
		kill(pid, SIGKILL);
	close(p[1]);
	/* the exec's stop; any other stop (a signal) is passed on */
	while (waitpid(pid, &status, 0) == pid) {
		if (!WIFSTOPPED(status))
			return -1;	/* exec failed: the child said why */
		if (status >> 16 == PTRACE_EVENT_EXEC)
			return pid;
		ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(status));
	}
	return -1;
}

/*
 * End the -c command: never run, when tracing could not start (it is
 * stopped before its first instruction), or outliving the trace (exit(),
 * ^C, an error): DTrace kills what it created when it lets go (Pcreate's
 * kill-on-last-close, dt_proc_destroy), so a command under test never
 * runs on unwatched once dscope has gone.
 */
static void discard_command(pid_t child)
{
	kill(child, SIGKILL);
	while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
}

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void on_snapshot(int sig)
{
	(void)sig;
	snapshot = 1;
}

/* SIGCHLD only has to interrupt the poll; target_gone() looks */
static void on_child(int sig)
{
	(void)sig;
}

static void handle_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction child = { .sa_handler = on_child };
	struct sigaction snap = { .sa_handler = on_snapshot };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&snap.sa_mask);
	sigaction(SIGUSR1, &snap, NULL);
	sigemptyset(&child.sa_mask);
	sigaction(SIGCHLD, &child, NULL);	/* wakes the poll when -c's child ends */
	signal(SIGPIPE, SIG_IGN);
}

/*
 * Let the -c command run, the probes attached.  ustack() names frames
 * from the process's maps, which vanish when it exits -- and the command
 * may live a millisecond.  So when the script takes user stacks, dscope
 * stays its tracer with PTRACE_O_TRACEEXIT: it stops once more, on its
 * way out with its memory still mapped, its maps are read, and it goes
 * on.  Any other stop passes its signal on (or waits out a group stop),
 * as if nothing watched.  Otherwise dscope lets go of it at once.
 */
static void release_command(struct dscope *ds, pid_t child)
{
	if (dscope__user_stacks(ds)) {
		ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACEEXIT);
		ptrace(PTRACE_CONT, child, 0, 0);
	} else {
		ptrace(PTRACE_DETACH, child, 0, 0);
	}
}

static bool resume_stopped(struct dscope *ds, pid_t child, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;

	if (!WIFSTOPPED(status))
		return false;
	if (event == PTRACE_EVENT_EXIT)
		dscope__note_process(ds, child);
	if (event == PTRACE_EVENT_STOP)
		ptrace(PTRACE_LISTEN, child, 0, 0);
	else
		ptrace(PTRACE_CONT, child, 0, event ? 0 : sig);
	return true;
}

/* Has the traced process ended?  -c: reap it; -p: is it gone? */
static bool target_gone(struct dscope *ds, pid_t child, long pid, bool quiet)
{
	if (child > 0) {
		int status;

		while (waitpid(child, &status, WNOHANG) == child) {
			if (resume_stopped(ds, child, status))
				continue;
			if (!quiet)
				fprintf(stderr, "%s: pid %d has exited\n", progname,
					(int)child);
			return true;
		}
		return false;
	}
	if (pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
		if (!quiet)
			fprintf(stderr, "%s: pid %ld has exited\n", progname, pid);
		return true;
	}
	return false;
}

static int trace(struct dscope *ds, const struct cli *c, pid_t child)
{
	/* -x evaltime: the command runs untraced up to where it says */
	bool died = child > 0 && dscope__advance_command(ds, child) < 0;
	int rc = dscope__go(ds), done = 0;
	bool gone = false;

	if (rc < 0) {
		if (child > 0 && !died)
			discard_command(child);	/* untraced, it never runs */
		return 1;
	}
	if (died) {	/* reaped on its way to evaltime's place */
		if (!dscope__quiet(ds))
			fprintf(stderr, "%s: pid %d has exited\n", progname,
				(int)child);
		child = -1;
		gone = true;
	}
	/* -p: "grab the process and cache its symbol tables", so its stacks
	 * keep their names if it exits first (-c's are read at its exit) */
	if (c->pid > 0 && dscope__user_stacks(ds))
		dscope__note_process(ds, c->pid);
	if (child > 0)
		release_command(ds, child);
	while (!gone && !interrupted && done == 0) {
		done = dscope__poll(ds, 100);
		if (done < 0)
			break;
		if (snapshot) {
			snapshot = 0;
			if (dscope__snapshot(ds) < 0)
				break;
		}
		if ((gone = target_gone(ds, child, c->pid, dscope__quiet(ds))))
			break;
	}
	/* after the probes are detached and the final output printed, so
	 * that neither sees it die; reaped if gone, its pid maybe reused */
	rc = dscope__stop(ds);
	if (child > 0 && !gone)
		discard_command(child);
	if (rc < 0)
		return 1;
	return done < 0 ? 1 : dscope__status(ds);
}

static int run(struct cli *c)
{
	FILE *out = stdout;
	pid_t child = -1;
	bool released = false;
	int rc = 1;

	if (c->outfile && !(out = fopen(c->outfile, "a"))) {
		fprintf(stderr, "%s: failed to open output file '%s': %s\n",
			progname, c->outfile, strerror(errno));
		return 1;
	}
	struct dscope_config cfg = { .progname = progname, .out = out,
				     .err = stderr };
	struct dscope *ds = dscope__new(&cfg);

	if (!ds)
		goto out;
	if (c->pid > 0 && kill((pid_t)c->pid, 0) < 0 && errno == ESRCH) {
		fprintf(stderr, "%s: failed to grab pid %ld: No such process\n",
			progname, c->pid);
		goto out;
	}
	if (c->quiet && dscope__setopt(ds, "quiet", NULL) < 0)
		goto out;
	if (c->destructive && dscope__setopt(ds, "destructive", NULL) < 0)
		goto out;
	if (c->zdefs && dscope__setopt(ds, "zdefs", NULL) < 0)
		goto out;
	for (int i = 0; i < c->nx; i++)
		if (dscope__setopt(ds, c->x[i].name, c->x[i].value) < 0)
			goto out;
	if (add_sources(ds, c) < 0)
		goto out;
	if (c->cmd) {
		child = spawn_stopped(c->cmd);
		if (child < 0)
			goto out;
	}
	dscope__set_args(ds, c->nmacro, c->macro);
	dscope__set_target(ds, child > 0 ? child : c->pid);
	if (child > 0)
		dscope__set_target_command(ds, c->cmd);
	if (c->list) {
		rc = dscope__list(ds, c->verbose_list) < 0 ? 1 : 0;
		goto out;
	}
	if (c->nsrc == 0) {
		usage(stderr);
		rc = 2;
		goto out;
	}
	if (dscope__compile(ds) < 0)
		goto out;
	released = !c->compile_only;	/* trace() lets it run, or ends it */
	rc = c->compile_only ? 0 : trace(ds, c, child);
out:
	if (child > 0 && !released)
		discard_command(child);
	dscope__free(ds);
	/* what stdio still held for the file: a full disk found only now
	 * is a failure too (the session said so if it saw it first) */
	if (out != stdout && fclose(out) != 0 && rc == 0) {
		fprintf(stderr, "%s: failed to write output file '%s': %s\n",
			progname, c->outfile, strerror(errno));
		rc = 1;
	}
	return rc;
}

/* DTrace's default for -h and -G: x.d's base name, x.h or x.o, here.
 * NULL, with dtrace's message, when there is no one x.d to name it. */
static char *default_output(const struct cli *c)
{
	const char *script = c->src[0].arg, *slash = strrchr(script, '/');
	const char *base = slash ? slash + 1 : script;
	size_t n = strlen(base);

	if (c->nsrc > 1 || c->src[0].kind != SRC_S || n < 3 ||
	    strcmp(base + n - 2, ".d") != 0) {
		fprintf(stderr, "%s: -%c requires an output file if %s\n", progname,
			c->gen, c->nsrc > 1 ? "multiple scripts are specified"
					    : "no scripts are specified");
		return NULL;
	}
	char *out = xrealloc(NULL, n + 1);

	snprintf(out, n + 1, "%.*s.%c", (int)n - 2, base,
		 c->gen == 'h' ? 'h' : 'o');
	return out;
}

/* -h, -G: a failed step leaves no file a make rule would take as made */
static int generate(struct cli *c)
{
	char *path = c->outfile ? strdup(c->outfile) : default_output(c);
	struct dscope_config cfg = { .progname = progname, .err = stderr };
	struct dscope *ds = NULL;
	FILE *out;
	int rc = -1;

	if (!path)
		return 2;
	ds = dscope__new(&cfg);
	if (!ds || add_sources(ds, c) < 0)
		goto out;
	dscope__set_args(ds, c->gen == 'G' ? 1 : c->nmacro, c->macro);
	if (c->gen == 'G') {
		rc = dscope__link(ds, path, c->bits, c->nmacro - 1, c->macro + 1);
	} else if (!(out = fopen(path, "w"))) {
		fprintf(stderr, "%s: failed to open header file '%s': %s\n",
			progname, path, strerror(errno));
	} else {
		rc = dscope__header(ds, out, path);
		if (fclose(out) != 0 && rc == 0)
			rc = -1;
		if (rc < 0)
			unlink(path);
	}
out:
	dscope__free(ds);
	free(path);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	const char *slash = strrchr(argv[0], '/');
	int rc;

	progname = slash ? slash + 1 : argv[0];
	/* The tool is named after its argv[0], in messages and as a process:
	 * run as dtrace (a link), its own probes' execname is "dtrace", as
	 * scripts written for DTrace expect. */
	prctl(PR_SET_NAME, progname, 0, 0, 0);
	rc = parse_args(&c, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (c.nsrc == 0 && !c.list) {
		usage(stderr);
		return 2;
	}
	if (c.gen)
		return generate(&c);
	handle_signals();
	return run(&c);
}
