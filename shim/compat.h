/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim/compat.h - the kernel interfaces that differ between the kernels
 * rpcrdmax builds for: Debian 12's 6.1 and Debian 13's 6.12.  Each guard
 * names the release that changed the interface (Documentation/
 * port-6.12-study.md has the evidence); releases between the two are not
 * targets.  Only C shims include this; the C++ never sees a version.
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

#endif /* RPCRDMAX_SHIM_COMPAT_H */
