// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/shims.c - the real shims, compiled into the KUnit module.
 *
 * The test module is separate from rpcrdmax.ko (KUnit runs a module's
 * suites before its module_init, and the transport module must not be
 * needed to test the runtime), so it carries its own copy of the shim
 * code.  kbuild refuses one object in two modules, hence this file
 * includes the sources instead of naming their objects.
 */
#include "../shim/mem.c"
#include "../shim/log.c"
#include "../shim/sync.c"
#include "../shim/work.c"
#include "../shim/time.c"
#include "../shim/cm.c"
#include "../shim/verbs.c"
#include "../shim/rw.c"
