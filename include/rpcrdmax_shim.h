/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdmax_shim.h - the one boundary between rpcrdmax's C++ and the kernel.
 *
 * Everything that crosses between the C shims (the C files in shim/, the only code that
 * includes Linux headers) and the freestanding C++ is declared here, with
 * plain C types only: integers, bool, and void pointers to storage whose
 * size and alignment come from the generated rpcrdmax_consts.h.  The C++
 * side wraps these in RAII types (include/rpcrdmax/ktl/); it never sees a
 * kernel structure.
 *
 * Conventions: functions returning int return 0 or a negative errno;
 * "storage" arguments point to caller-owned memory of the RPCRDMAX_SIZEOF_*
 * size and RPCRDMAX_ALIGNOF_* alignment for that object.
 */
#ifndef RPCRDMAX_SHIM_H
#define RPCRDMAX_SHIM_H

#ifdef __cplusplus
extern "C" {
#define RPCRDMAX_NOEXCEPT noexcept
#else
#include <linux/types.h>
#define RPCRDMAX_NOEXCEPT
#endif

#define RPCRDMAX_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* ---- memory (shim/mem.c) ---------------------------------------------- */
void *rpcrdmax_kmalloc(unsigned long size, unsigned int gfp) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kfree(const void *p) RPCRDMAX_NOEXCEPT;
void *rpcrdmax_alloc_page(unsigned int gfp) RPCRDMAX_NOEXCEPT;
void rpcrdmax_free_page(void *page) RPCRDMAX_NOEXCEPT;
void *rpcrdmax_page_address(void *page) RPCRDMAX_NOEXCEPT;

/* ---- logging (shim/log.c) --------------------------------------------- */
/* Levels as in printk: 0 = KERN_EMERG ... 7 = KERN_DEBUG. */
enum rpcrdmax_log_level {
	RPCRDMAX_LOG_ERR = 3,
	RPCRDMAX_LOG_WARNING = 4,
	RPCRDMAX_LOG_NOTICE = 5,
	RPCRDMAX_LOG_INFO = 6,
	RPCRDMAX_LOG_DEBUG = 7,
};
void rpcrdmax_log(int level, const char *fmt, ...) RPCRDMAX_NOEXCEPT
	RPCRDMAX_PRINTF(2, 3);
void rpcrdmax_log_ratelimited(int level, const char *fmt, ...) RPCRDMAX_NOEXCEPT
	RPCRDMAX_PRINTF(2, 3);
void rpcrdmax_warn_once(const char *file, int line, const char *what) RPCRDMAX_NOEXCEPT;
/*
 * BUG()s; does not return, but is not declared noreturn because objtool
 * cannot see that across the boundary: callers follow it with a trap.
 */
void rpcrdmax_bug(const char *file, int line, const char *what) RPCRDMAX_NOEXCEPT;

/* ---- locks, refcounts, atomics, completions (shim/sync.c) ------------- */
void rpcrdmax_spin_init(void *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_lock(void *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_unlock(void *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_lock_bh(void *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_unlock_bh(void *lock) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_spin_lock_irqsave(void *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_unlock_irqrestore(void *lock, unsigned long flags) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_spin_is_locked(void *lock) RPCRDMAX_NOEXCEPT;

void rpcrdmax_mutex_init(void *mutex) RPCRDMAX_NOEXCEPT;
void rpcrdmax_mutex_destroy(void *mutex) RPCRDMAX_NOEXCEPT;
void rpcrdmax_mutex_lock(void *mutex) RPCRDMAX_NOEXCEPT;
void rpcrdmax_mutex_unlock(void *mutex) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_mutex_is_locked(void *mutex) RPCRDMAX_NOEXCEPT;

void rpcrdmax_refcount_set(void *ref, unsigned int n) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_refcount_read(const void *ref) RPCRDMAX_NOEXCEPT;
void rpcrdmax_refcount_inc(void *ref) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_refcount_inc_not_zero(void *ref) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_refcount_dec_and_test(void *ref) RPCRDMAX_NOEXCEPT;

void rpcrdmax_atomic_set(void *a, int v) RPCRDMAX_NOEXCEPT;
int rpcrdmax_atomic_read(const void *a) RPCRDMAX_NOEXCEPT;
int rpcrdmax_atomic_add_return(void *a, int v) RPCRDMAX_NOEXCEPT;
int rpcrdmax_atomic_cmpxchg(void *a, int old, int nv) RPCRDMAX_NOEXCEPT;

void rpcrdmax_completion_init(void *c) RPCRDMAX_NOEXCEPT;
void rpcrdmax_complete(void *c) RPCRDMAX_NOEXCEPT;
void rpcrdmax_complete_all(void *c) RPCRDMAX_NOEXCEPT;
/* Returns the milliseconds left (at least 1) or 0 on timeout. */
unsigned long rpcrdmax_wait_for_completion_timeout(void *c, unsigned int ms) RPCRDMAX_NOEXCEPT;

/* ---- deferred work (shim/work.c) -------------------------------------- */
typedef void (*rpcrdmax_work_fn)(void *work);
void rpcrdmax_work_init(void *work, rpcrdmax_work_fn fn) RPCRDMAX_NOEXCEPT;
void *rpcrdmax_wq_alloc(const char *name, bool mem_reclaim) RPCRDMAX_NOEXCEPT;
void rpcrdmax_wq_destroy(void *wq) RPCRDMAX_NOEXCEPT;
/* @wq may be NULL for the system workqueue.  True if newly queued. */
bool rpcrdmax_work_queue(void *wq, void *work) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_work_cancel_sync(void *work) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_work_flush(void *work) RPCRDMAX_NOEXCEPT;

/* ---- time (shim/time.c) ----------------------------------------------- */
unsigned long long rpcrdmax_ktime_get_ns(void) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_jiffies(void) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_msecs_to_jiffies(unsigned int ms) RPCRDMAX_NOEXCEPT;
void rpcrdmax_msleep(unsigned int ms) RPCRDMAX_NOEXCEPT;

/* ---- C++ entry points called from C ----------------------------------- */
/* Module life cycle (lib/module.cpp): called from shim/main.c. */
int rpcrdmax_cxx_init(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cxx_exit(void) RPCRDMAX_NOEXCEPT;

/*
 * The constants C++ was compiled with, for the KUnit cross-check
 * (lib/consts_table.cpp): entry @i's name and value; false past the end.
 */
bool rpcrdmax_cxx_const(unsigned int i, const char **name, long long *value) RPCRDMAX_NOEXCEPT;

/*
 * Test hooks (kunit/): C++ test bodies report through @check, which the
 * KUnit module implements with KUNIT_EXPECT_*; @ctx is the struct kunit.
 */
typedef void (*rpcrdmax_check_fn)(void *ctx, bool ok, const char *what,
				  const char *file, int line);
void rpcrdmax_kunit_cxx_new_delete(void *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_virtual(void *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_lock_guard(void *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_workqueue(void *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_result(void *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;

/*
 * Protocol-core self-tests (core/selftest/): the same cases run under
 * GoogleTest on the host and under KUnit (kunit/kunit.c).  Case @i is
 * named "group.case"; it runs with @scratch (8-octet aligned, at least
 * rpcrdmax_core_selftest_scratch_size() octets) and calls @report once
 * per failed check.  run() returns the number of failed checks (a case
 * that checked nothing counts as failed), or -EINVAL for a bad index or
 * scratch buffer.  Nothing here allocates, prints or sleeps.
 */
typedef void (*rpcrdmax_selftest_report_fn)(void *ctx, const char *what,
					    const char *file, int line);
unsigned int rpcrdmax_core_selftest_count(void) RPCRDMAX_NOEXCEPT;
const char *rpcrdmax_core_selftest_name(unsigned int i) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_core_selftest_scratch_size(void) RPCRDMAX_NOEXCEPT;
int rpcrdmax_core_selftest_run(unsigned int i, rpcrdmax_selftest_report_fn report,
			       void *ctx, void *scratch,
			       unsigned long scratch_len) RPCRDMAX_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* RPCRDMAX_SHIM_H */
