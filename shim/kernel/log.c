// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/log.c - kernel messages from C++.
 *
 * Messages carry the module prefix.  The rate-limited form shares one
 * limit per level, as a peer that floods us with bad traffic must not
 * flood the log.
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include "../internal.h"

static DEFINE_RATELIMIT_STATE(rpcrdmax_log_rs, 5 * HZ, 10);

static void rpcrdmax_vlog(int level, struct va_format *vaf)
{
	/* printk takes its level from the format string, not an argument. */
	switch (level) {
	case 0 ... 3:
		pr_err(KBUILD_MODNAME ": %pV\n", vaf);
		break;
	case 4:
		pr_warn(KBUILD_MODNAME ": %pV\n", vaf);
		break;
	case 5:
		pr_notice(KBUILD_MODNAME ": %pV\n", vaf);
		break;
	case 6:
		pr_info(KBUILD_MODNAME ": %pV\n", vaf);
		break;
	default:
		pr_debug(KBUILD_MODNAME ": %pV\n", vaf);
		break;
	}
}

/**
 * rpcrdmax_log - print a kernel message
 * @level: printk level, 0 (emergency) to 7 (debug)
 * @fmt: printf format; a newline is added
 */
void rpcrdmax_log(int level, const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list ap;

	va_start(ap, fmt);
	vaf.va = &ap;
	rpcrdmax_vlog(level, &vaf);
	va_end(ap);
}

/**
 * rpcrdmax_log_ratelimited - print a kernel message unless rate limited
 * @level: printk level, 0 (emergency) to 7 (debug)
 * @fmt: printf format; a newline is added
 *
 * At most 10 such messages every 5 seconds get through, whatever their level.
 */
void rpcrdmax_log_ratelimited(int level, const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list ap;

	if (!__ratelimit(&rpcrdmax_log_rs))
		return;
	va_start(ap, fmt);
	vaf.va = &ap;
	rpcrdmax_vlog(level, &vaf);
	va_end(ap);
}

/**
 * rpcrdmax_warn_once - report a broken invariant once, with a backtrace
 * @file: source file of the check
 * @line: source line of the check
 * @what: the condition that failed
 */
void rpcrdmax_warn_once(const char *file, int line, const char *what)
{
	WARN_ONCE(1, KBUILD_MODNAME ": %s:%d: %s\n", file, line, what);
}

/**
 * rpcrdmax_bug - stop on a state that cannot be continued from
 * @file: source file of the check
 * @line: source line of the check
 * @what: what went wrong
 */
void rpcrdmax_bug(const char *file, int line, const char *what)
{
	pr_emerg(KBUILD_MODNAME ": %s:%d: %s\n", file, line, what);
	BUG();
}
