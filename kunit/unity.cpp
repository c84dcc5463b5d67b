// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/unity.cpp - the KUnit module's one C++ translation unit: the same
 * runtime and core sources as rpcrdmax.ko, both transports (xprtrdma/
 * and svcrdma/, which the marshalling and server suites drive), plus the
 * C++ test bodies.
 */
#include "rpcrdmax_kunit.h"
#include "../lib/runtime.cpp"
#include "../lib/consts_table.cpp"
#include "../core/unity_check.cpp"
#include "../kunit/cxx_runtime_tests.cpp"
#include "../kunit/cxx_rdma_tests.cpp"
#include "../xprtrdma/buffers.cpp"
#include "../xprtrdma/connect.cpp"
#include "../xprtrdma/transfer.cpp"
#include "../xprtrdma/endpoint.cpp"
#include "../xprtrdma/stats.cpp"
#include "../xprtrdma/frwr.cpp"
#include "../xprtrdma/marshal.cpp"
#include "../xprtrdma/v2.cpp"
#include "../kunit/cxx_marshal_tests.cpp"
#include "../svcrdma/transport.cpp"
#include "../svcrdma/recvfrom.cpp"
#include "../svcrdma/rw.cpp"
#include "../svcrdma/sendto.cpp"
#include "../svcrdma/sendctx.cpp"
#include "../svcrdma/backchannel.cpp"
#include "../svcrdma/v2.cpp"
#include "../kunit/cxx_svc_tests.cpp"
#include "../kunit/cxx_svc_server_tests.cpp"
