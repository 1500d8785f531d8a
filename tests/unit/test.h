/*
 * test.h -- the unit test harness: no kernel, no framework.
 *
 * A test is `TEST(name) { ... }`; it registers itself at start-up.  CHECK
 * and CHECK_STR record a failure with file:line and carry on, so that one
 * run shows every broken expectation.  SKIP(why) ends a test that cannot
 * run here (tracefs unreadable without root): it is reported, not passed.
 * main() in unit_main.c runs them all and ends with "N passed, N failed,
 * N skipped".
 */
#ifndef DSCOPE_TEST_H
#define DSCOPE_TEST_H

#include <stdio.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
	struct unit_test *next;
};

void unit_register(struct unit_test *t);
extern int unit_failures;	/* failed checks in the running test */
extern const char *unit_skipped;	/* why the running test was skipped, or NULL */

/* The path of a program of tests/targets as `make` builds it ($B/targets/
 * NAME, B=build by default), or NULL, with a failure recorded, when it is
 * not there: a test that reads one fails, rather than crashes, without it. */
const char *unit_target(const char *name);

#define TEST(name)                                                        \
	static void test_##name(void);                                    \
	static struct unit_test unit_##name = { #name, test_##name, 0 };  \
	__attribute__((constructor)) static void reg_##name(void)         \
	{                                                                 \
		unit_register(&unit_##name);                              \
	}                                                                 \
	static void test_##name(void)

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n",      \
				__FILE__, __LINE__, #cond);               \
			unit_failures++;                                  \
		}                                                         \
	} while (0)

#define CHECK_STR(got, want)                                              \
	do {                                                              \
		const char *g_ = (got), *w_ = (want);                     \
		if (!g_ || strcmp(g_, w_) != 0) {                         \
			fprintf(stderr,                                   \
				"%s:%d: got\n[%s]\nwant\n[%s]\n",         \
				__FILE__, __LINE__, g_ ? g_ : "(null)",   \
				w_);                                      \
			unit_failures++;                                  \
		}                                                         \
	} while (0)

#define SKIP(why)                                                         \
	do {                                                              \
		unit_skipped = (why);                                     \
		return;                                                   \
	} while (0)

#endif /* DSCOPE_TEST_H */
