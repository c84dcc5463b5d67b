/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/selftest.h - C interface to the protocol core's self-tests.
 *
 * The same cases run under GoogleTest on the host and under KUnit in
 * the kernel.  This header is plain C so a KUnit shim can include it:
 *
 *	n = rpcrdmax_core_selftest_count();
 *	for each i < n:
 *		name = rpcrdmax_core_selftest_name(i);
 *		scratch = a zeroable buffer of
 *			  rpcrdmax_core_selftest_scratch_size() octets
 *		failed = rpcrdmax_core_selftest_run(i, report, ctx,
 *						    scratch, size);
 *
 * @report is called once per failed check with a description (the
 * checked expression), the source file and line; it is never called for
 * a passing check.  A case that makes no check at all counts as failed.
 * Nothing here allocates, prints or sleeps; cases keep large objects in
 * @scratch, not on the stack.
 */
#ifndef RPCRDMAX_CORE_SELFTEST_H
#define RPCRDMAX_CORE_SELFTEST_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*rpcrdmax_selftest_report_fn)(void *ctx, const char *what,
					    const char *file, int line);

/**
 * rpcrdmax_core_selftest_count - number of self-test cases
 */
unsigned int rpcrdmax_core_selftest_count(void);

/**
 * rpcrdmax_core_selftest_name - name of case @i ("group.case")
 *
 * Returns NULL when @i is out of range.
 */
const char *rpcrdmax_core_selftest_name(unsigned int i);

/**
 * rpcrdmax_core_selftest_scratch_size - octets of scratch a case may need
 */
unsigned long rpcrdmax_core_selftest_scratch_size(void);

/**
 * rpcrdmax_core_selftest_run - run case @i
 * @report: called for each failed check (may be NULL)
 * @ctx: passed to @report
 * @scratch: working memory, at least rpcrdmax_core_selftest_scratch_size()
 *           octets, suitably aligned for any object (8 octets)
 *
 * Returns the number of failed checks (0: passed), or -22 (-EINVAL)
 * when @i is out of range or @scratch is missing, short or misaligned.
 */
int rpcrdmax_core_selftest_run(unsigned int i, rpcrdmax_selftest_report_fn report,
			       void *ctx, void *scratch, unsigned long scratch_len);

#ifdef __cplusplus
}
#endif

#endif /* RPCRDMAX_CORE_SELFTEST_H */
