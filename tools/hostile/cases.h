/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/hostile/cases.h - the hostile peer's fixed cases: for each, a
 * builder of the octets it sends and the outcomes the RFCs allow for it
 * (with stock's documented deviations).  Pure code, shared by the tool
 * (hostile.cpp) and its host tests, which check the corpus oracle
 * against this same table.
 */
#pragma once

#include "corpus.h"

#include <cstddef>
#include <cstdint>

namespace hostile {

constexpr uint32_t kCreditsAsked = 8;		 /* rdma_credit in every Call */
constexpr size_t kAreaSize = 64 * 1024;		 /* remotely readable/writable */

/* A valid RDMA_MSG header with empty chunk lists, from the core encoder. */
Bytes v1_msg_header(uint32_t xid);
/* A whole valid inline NULL Call, optionally padded to @total octets. */
Bytes null_msg(uint32_t xid, size_t total = 0);

struct Ctx {
	uint32_t xid;
	uint64_t area;	   /* address of our readable/writable region */
	uint32_t rkey;	   /* its handle */
	uint32_t threshold; /* call-direction inline threshold */
};

using Build = Bytes (*)(const Ctx &);

struct Case {
	const char *name;
	Build build;
	unsigned allowed;     /* RFC-allowed outcomes */
	unsigned stock_dev;   /* extra outcomes accepted unless --strict */
	const char *dev_why;  /* the documented stock deviation */
	bool xid_readable;    /* the message carries our XID (else any error
			       * reply cannot match it: see short-*) */
};

extern const Case kCases[];
extern const size_t kCaseCount;

} // namespace hostile
