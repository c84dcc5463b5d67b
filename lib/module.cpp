// SPDX-License-Identifier: GPL-2.0
/*
 * lib/module.cpp - rpcrdmax's C++ side coming up and going down.
 *
 * shim/sunrpc/main.c calls these from module_init/module_exit.  For now the
 * module only announces itself at debug level; the client and server
 * transports register here once they exist.
 */
#include "rpcrdmax/ktl/kernel.h"

/**
 * rpcrdmax_cxx_init - bring up the C++ side of the module
 *
 * Returns 0 or a negative errno, which fails the module load.
 */
extern "C" int rpcrdmax_cxx_init(void) noexcept
{
	rpcrdmax_log(RPCRDMAX_LOG_DEBUG, "loaded");
	return 0;
}

/**
 * rpcrdmax_cxx_exit - tear down everything rpcrdmax_cxx_init() set up
 */
extern "C" void rpcrdmax_cxx_exit(void) noexcept
{
	rpcrdmax_log(RPCRDMAX_LOG_DEBUG, "unloading");
}
