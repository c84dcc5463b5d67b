/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim/compat.h - the kernel interfaces that differ between the kernels
 * rpcrdmax builds for: Debian 12's 6.1, Debian 13's 6.12 and
 * trixie-backports' 7.x.  A change that left a name to test is tested by
 * capability: Kbuild searches the target kernel's header for the name
 * (RPCRDMAX_PROBE_*, 1 or 0); the others name the release that made them
 * (Documentation/kernel-seams.rst lists every seam and its evidence).  Releases between the targets are
 * not targets.  Only C shims include this; the C++ never sees a version.
 */
#ifndef RPCRDMAX_SHIM_COMPAT_H
#define RPCRDMAX_SHIM_COMPAT_H

#include <linux/version.h>

/* 6.10: __assign_str() takes the field only; __string() names the source. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define RPCRDMAX_ASSIGN_STR(field, src) __assign_str(field)
#else
#define RPCRDMAX_ASSIGN_STR(field, src) __assign_str(field, src)
#endif

/* 6.11: a proc_handler's table is const; register_sysctl() sizes the
 * table itself and refuses an empty terminating entry. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define RPCRDMAX_CTL_TABLE const struct ctl_table
#define RPCRDMAX_CTL_TABLE_END
#else
#define RPCRDMAX_CTL_TABLE struct ctl_table
#define RPCRDMAX_CTL_TABLE_END {}
#endif

/* 6.3: svc has no xpo_secure_port; a transport marks RQ_SECURE itself. */
#define RPCRDMAX_HAVE_XPO_SECURE_PORT (LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0))

/* 6.7: the callback service queues backward Calls on an lwq, and its
 * threads are woken through the pool (no sv_cb_lock, sv_cb_waitq). */
#define RPCRDMAX_HAVE_BC_LWQ (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0))

/* 7.x: an svc_rqst's Reply pages are an array of their own (rq_respages
 * no longer points into rq_pages); svc_alloc_arg() refills only the
 * rq_pages_nfree first Call pages and the Reply pages below rq_next_page. */
#define RPCRDMAX_HAVE_SPLIT_RESPAGES RPCRDMAX_PROBE_SPLIT_RESPAGES

/* 7.x: a backward Call is queued through xprt_enqueue_bc_request(), which
 * reads bc_serv under bc_pa_lock, where the callback service's shutdown
 * clears it (xprt_svc_shutdown_bc). */
#define RPCRDMAX_HAVE_BC_ENQUEUE RPCRDMAX_PROBE_BC_ENQUEUE

/* system_wq is being renamed system_percpu_wq (7.x warns once when work
 * is queued on the old name; Debian's 6.12 has both). */
#if RPCRDMAX_PROBE_PERCPU_WQ
#define RPCRDMAX_SYSTEM_WQ system_percpu_wq
#else
#define RPCRDMAX_SYSTEM_WQ system_wq
#endif

/* 7.x: a tracepoint's key is a struct static_key_false (tested with
 * static_branch_unlikely()), holding the static_key whose enabled count
 * rpcrdmax_tp_key publishes (shim/kernel/trace.c). */
#if RPCRDMAX_PROBE_TP_KEY_FALSE
#define RPCRDMAX_TP_STATIC_KEY(tp) (&(tp).key.key)
#else
#define RPCRDMAX_TP_STATIC_KEY(tp) (&(tp).key)
#endif

/* Not a release but a configuration: whether spin_lock_bh() and
 * spin_unlock_bh() are calls of the out-of-line _raw_spin_lock_bh() and
 * _raw_spin_unlock_bh() on the raw lock at the spinlock_t's start (not
 * PREEMPT_RT, where a spinlock_t is an rt_mutex; not inlined by the
 * architecture).  Generated for C++ as RPCRDMAX_SPIN_BH_DIRECT
 * (rpcrdmax/ktl/lock.h calls them itself then). */
#ifdef CONFIG_PREEMPT_RT
#define RPCRDMAX_SPIN_BH_DIRECT_OK 0
#else
#define RPCRDMAX_SPIN_BH_DIRECT_OK (!IS_ENABLED(CONFIG_INLINE_SPIN_LOCK_BH) && \
				    !IS_ENABLED(CONFIG_INLINE_SPIN_UNLOCK_BH) && \
				    offsetof(spinlock_t, rlock) == 0)
#endif

#endif /* RPCRDMAX_SHIM_COMPAT_H */
