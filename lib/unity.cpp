// SPDX-License-Identifier: GPL-2.0
/*
 * lib/unity.cpp - the module's one C++ translation unit.
 *
 * kbuild links C++ objects with `ld -r`; inline and template code lands
 * in COMDAT sections whose __mcount_loc entries break that link when more
 * than one C++ object carries them.  So every C++ source of the module is
 * included here and compiled once.
 */
#include "../lib/runtime.cpp"
#include "../core/chunks.cpp"
#include "../core/credits.cpp"
#include "../core/planner.cpp"
#include "../core/privdata.cpp"
#include "../core/responder.cpp"
#include "../core/v1.cpp"
#include "../core/v2.cpp"
#include "../lib/consts_table.cpp"
#include "../lib/module.cpp"
#include "../xprtrdma/buffers.cpp"
#include "../xprtrdma/connect.cpp"
#include "../xprtrdma/transfer.cpp"
#include "../xprtrdma/endpoint.cpp"
#include "../xprtrdma/stats.cpp"
#include "../xprtrdma/frwr.cpp"
#include "../xprtrdma/marshal.cpp"
#include "../xprtrdma/v2.cpp"
#include "../svcrdma/transport.cpp"
#include "../svcrdma/recvfrom.cpp"
#include "../svcrdma/rw.cpp"
#include "../svcrdma/sendto.cpp"
#include "../svcrdma/sendctx.cpp"
#include "../svcrdma/backchannel.cpp"
#include "../svcrdma/v2.cpp"
