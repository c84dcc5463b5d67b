// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/time.c - clocks and sleeping for C++.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include "../internal.h"

/** rpcrdmax_jiffies - the current jiffies count */
unsigned long rpcrdmax_jiffies(void)
{
	return jiffies;
}

/** rpcrdmax_msecs_to_jiffies - convert @ms to jiffies, rounding up */
unsigned long rpcrdmax_msecs_to_jiffies(unsigned int ms)
{
	return msecs_to_jiffies(ms);
}

/** rpcrdmax_msleep - sleep at least @ms milliseconds (process context) */
void rpcrdmax_msleep(unsigned int ms)
{
	msleep(ms);
}

