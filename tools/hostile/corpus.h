/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/hostile/corpus.h - the hostile peer's randomized corpus: a seeded
 * generator of mutated RPC-over-RDMA version 1 Calls and CM Private Data,
 * and the oracle that says which outcomes the RFCs allow for a message.
 *
 * Pure code: no RDMA, no I/O.  tools/hostile/hostile.cpp sends the
 * messages; tests/host/corpus_test.cpp tests the generator and the
 * oracle, and checks the protocol core's responder verdicts against the
 * oracle.  The oracle is written from the RFC rules, apart from the core,
 * so that the two can disagree.
 */
#pragma once

#include <rpcrdmax/ktl/xdr.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hostile {

using Bytes = std::vector<uint8_t>;

/* Handcrafted XDR, one word at a time. */
struct W {
	Bytes b;
	W &u32(uint32_t v)
	{
		uint8_t w[4];
		rpcrdmax::ktl::store_be32(w, v);
		b.insert(b.end(), w, w + 4);
		return *this;
	}
	W &u64(uint64_t v) { return u32((uint32_t)(v >> 32)).u32((uint32_t)v); }
	W &seg(uint32_t handle, uint32_t len, uint64_t off)
	{
		return u32(handle).u32(len).u64(off);
	}
	/* one Read list entry: discriminator 1, position, segment */
	W &rseg(uint32_t pos, uint32_t handle, uint32_t len, uint64_t off)
	{
		return u32(1).u32(pos).seg(handle, len, off);
	}
	W &raw(const Bytes &x)
	{
		b.insert(b.end(), x.begin(), x.end());
		return *this;
	}
	W &pad_to(size_t n)
	{
		if (b.size() < n)
			b.resize(n, 0);
		return *this;
	}
	W &cut(size_t n)
	{
		if (b.size() > n)
			b.resize(n);
		return *this;
	}
};

/* The RPC message every corpus Call carries before mutation: an NFSv3
 * NULL Call (program 100003, version 3, procedure 0, AUTH_NONE). */
constexpr uint32_t kRpcCallLen = 40;
Bytes rpc_null_call(uint32_t xid);

/* What a Responder did with one message; a set of them is a bitmask. */
enum Outcome : unsigned {
	O_ERRVERS = 1u << 0,  /* RDMA_ERROR / ERR_VERS with our XID */
	O_ERRCHUNK = 1u << 1, /* RDMA_ERROR / ERR_CHUNK with our XID */
	O_DROP = 1u << 2,     /* nothing; the connection kept working */
	O_CLOSED = 1u << 3,   /* nothing; the connection was closed */
	O_REPLY = 1u << 4,    /* an RPC Reply (the Call was processed) */
	O_OTHER = 1u << 5,    /* another RDMA_ERROR code or a malformed answer */
	O_ERRV2 = 1u << 6,    /* RDMA2_ERROR (a version 2 Responder) with our XID */
};
constexpr unsigned kAny = O_ERRVERS | O_ERRCHUNK | O_DROP | O_CLOSED | O_REPLY | O_ERRV2;
/* A version 2 message (draft-cel-nfsv4-rpcrdma-version-two Section 7):
 * a version 1 Responder answers ERR_VERS, a version 2 one in version 2. */
constexpr unsigned kV2Any = O_ERRVERS | O_ERRV2;
/* A Read or Write the Responder attempts against a bad segment fails at
 * the Requester's RNIC, which terminates the connection (RFC 8166
 * Sections 8.1.1, 8.1.4); a Responder that validates first answers
 * ERR_CHUNK. */
constexpr unsigned kFault = O_ERRCHUNK | O_CLOSED;

std::string outcome_names(unsigned set);

/* The Requester's side of one connection, as the corpus needs it. */
struct Peer {
	uint64_t area_addr; /* our remotely readable and writable region */
	uint32_t rkey;	    /* its handle */
	uint32_t area_size;
	uint32_t threshold; /* call-direction inline threshold (RFC 8797 4.2) */
	uint8_t *area;	    /* its octets: Read chunks pull from here */
};

/* What the RFCs allow a Responder to do with one message. */
struct Judgement {
	unsigned allowed = 0;	 /* Outcome set */
	std::string rule;	 /* the rule that decided it, with its section */
	bool exact_null = false; /* the RPC message is exactly a NULL Call:
				  * an inline Reply must be its good Reply */
	uint32_t rpc_xid = 0;	 /* the RPC message's XID, when it has one */
};

/* Where the three chunk lists of an RDMA_MSG or RDMA_NOMSG header end (a
 * Call's or a Reply's: the XDR is the same), walked by hand, without
 * the core's capacity limits; 0 when they run past @m or a discriminator
 * is neither 0 nor 1. */
uint32_t chunk_lists_end(const Bytes &m);

/* The oracle: what a Responder may do with @m from @p.  Reads the octets
 * of @p.area that @m's Read chunks point at. */
Judgement judge(const Bytes &m, const Peer &p);

/* One message of the corpus. */
struct Mutant {
	Bytes msg;
	uint32_t xid = 0;	/* rdma_xid as sent */
	std::string what;	/* template and mutations, for a failure line */
	Judgement j;		/* judge(msg) */
};

/*
 * Message @index of the corpus @seed, built for @p with rdma_xid @xid
 * before mutation.  Writes what its Read chunks pull into @p.area.  The
 * same (seed, index) gives the same message on any connection (segments
 * are placed relative to @p), so one message can be replayed alone.
 */
Mutant corpus_message(uint64_t seed, uint64_t index, uint32_t xid, const Peer &p);

/* The CM Private Data for connection @n of the corpus @seed (RFC 8797
 * shapes: none, valid at an offset, truncated, bad version, garbage). */
Bytes corpus_private_data(uint64_t seed, uint64_t n, std::string *what);

/* Names of every mutation the generator applies (for coverage checks). */
const std::vector<std::string> &corpus_mutation_names();

} // namespace hostile
