// SPDX-License-Identifier: GPL-2.0
/*
 * tools/hostile/corpus.cpp - the randomized hostile corpus: generator and
 * oracle (see corpus.h).
 *
 * Generator.  Each message starts from one of six valid Calls carrying an
 * NFSv3 NULL (plain inline; with a Write chunk; with a Reply chunk; with
 * the RPC message split by a Read chunk; RDMA_NOMSG with a Position Zero
 * Read chunk; all chunk kinds at once) and gets one to three mutations
 * over every header field, the chunk-list shape, segment handles, lengths,
 * offsets and positions, the XDR discriminators and counts, the RPC
 * message, and the octets themselves.  Its random numbers come from
 * (seed, index) alone.
 *
 * Oracle.  judge() parses the octets itself (not with the project's
 * core) and applies the rules of RFC 8166 / RFC 5666 / RFC 8167 in the
 * order a Responder meets them; each Judgement names its rule.  A
 * version 2 message (draft-cel-nfsv4-rpcrdma-version-two-04) is parsed
 * with the core's version 2 decoder, which is fuzzed and self-tested on
 * its own; what a Responder may do with it is decided here, from the
 * draft's sections (judge_v2).
 */
/* rpcrdmax headers first (see cases.cpp) */
#include <rpcrdmax/core/v2.h>

#include "corpus.h"

#include <cstdio>
#include <cstring>

namespace hostile {

namespace ktl = rpcrdmax::ktl;

Bytes rpc_null_call(uint32_t xid)
{
	W w;
	w.u32(xid).u32(0 /* CALL */).u32(2 /* RPC version */);
	w.u32(100003).u32(3).u32(0 /* NFSv3 NULL */);
	w.u32(0).u32(0); /* cred AUTH_NONE, empty */
	w.u32(0).u32(0); /* verf AUTH_NONE, empty */
	return w.b;
}

std::string outcome_names(unsigned set)
{
	static const char *names[] = {"ERR_VERS", "ERR_CHUNK", "drop",	 "close",
				      "reply",	  "other",     "RDMA2_ERROR"};
	std::string s;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (set & (1u << i))
			s += (s.empty() ? "" : "|") + std::string(names[i]);
	return s.empty() ? "nothing" : s;
}

/* ---- the oracle ------------------------------------------------------------ */

namespace {

constexpr uint32_t kMsg = 0, kNomsg = 1, kMsgp = 2, kDone = 3, kError = 4;

struct Seg {
	uint32_t h, len;
	uint64_t off;
};
struct Rd {
	uint32_t pos;
	Seg s;
};

/* A Read chunk: the consecutive Read list entries with one position. */
struct RdChunk {
	uint32_t pos;
	std::vector<Seg> segs;
	uint64_t len() const
	{
		uint64_t n = 0;
		for (auto &s : segs)
			n += s.len;
		return n;
	}
};

struct Parsed {
	std::vector<Rd> reads;
	std::vector<std::vector<Seg>> writes;
	bool has_reply = false;
	std::vector<Seg> reply;
	size_t body_off = 0;
};

/* The three chunk lists from octet 16 (RFC 8166 Section 4.2, the XDR of
 * rpc_rdma_header_msg / _nomsg).  Returns why it could not, or "". */
std::string parse_lists(const Bytes &m, Parsed *p)
{
	size_t off = 16, n = m.size();
	auto word = [&](uint32_t *v) {
		if (off + 4 > n)
			return false;
		*v = ktl::load_be32(m.data() + off);
		off += 4;
		return true;
	};
	auto seg = [&](Seg *s) {
		if (off + 16 > n)
			return false;
		s->h = ktl::load_be32(m.data() + off);
		s->len = ktl::load_be32(m.data() + off + 4);
		s->off = (uint64_t)ktl::load_be32(m.data() + off + 8) << 32 |
			 ktl::load_be32(m.data() + off + 12);
		off += 16;
		return true;
	};
	uint32_t d, cnt;
	for (;;) {
		if (!word(&d))
			return "the Read list runs past the message";
		if (d > 1)
			return "a Read list optional-data word is neither 0 nor 1";
		if (!d)
			break;
		Rd r;
		if (!word(&r.pos) || !seg(&r.s))
			return "a Read list entry runs past the message";
		p->reads.push_back(r);
	}
	for (;;) {
		if (!word(&d))
			return "the Write list runs past the message";
		if (d > 1)
			return "a Write list optional-data word is neither 0 nor 1";
		if (!d)
			break;
		if (!word(&cnt) || (n - off) / 16 < cnt)
			return "a Write chunk's segment count runs past the message";
		p->writes.emplace_back(cnt);
		for (auto &s : p->writes.back())
			seg(&s);
	}
	if (!word(&d))
		return "the Reply chunk runs past the message";
	if (d > 1)
		return "the Reply chunk's optional-data word is neither 0 nor 1";
	if (d) {
		if (!word(&cnt) || (n - off) / 16 < cnt)
			return "the Reply chunk's segment count runs past the message";
		p->has_reply = true;
		p->reply.resize(cnt);
		for (auto &s : p->reply)
			seg(&s);
	}
	p->body_off = off;
	return "";
}

} // namespace

uint32_t chunk_lists_end(const Bytes &m)
{
	Parsed ps;
	return parse_lists(m, &ps).empty() ? (uint32_t)ps.body_off : 0;
}

namespace {

bool seg_wraps(const Seg &s) { return s.off + s.len < s.off; }

/* Would an RDMA Read or Write of @s fail at the Requester? A zero-length
 * operation touches no memory. */
bool seg_bad(const Seg &s, const Peer &p)
{
	if (!s.len)
		return false;
	return s.h != p.rkey || seg_wraps(s) || s.off < p.area_addr ||
	       s.off + s.len > p.area_addr + p.area_size;
}

Bytes pull(const RdChunk &c, const Peer &p)
{
	Bytes d;
	for (auto &s : c.segs)
		d.insert(d.end(), p.area + (s.off - p.area_addr),
			 p.area + (s.off - p.area_addr) + s.len);
	return d;
}

/* @rpc is a whole NULL Call with octets after it. */
bool null_call_then_more(const Bytes &rpc)
{
	if (rpc.size() <= kRpcCallLen)
		return false;
	Bytes head(rpc.begin(), rpc.begin() + kRpcCallLen);
	return head == rpc_null_call(ktl::load_be32(rpc.data()));
}

Judgement verdict(unsigned allowed, std::string rule)
{
	Judgement j;
	j.allowed = allowed;
	j.rule = std::move(rule);
	return j;
}

/*
 * rdma_vers 2: a version 1 Responder answers ERR_VERS (Section 7.2); a
 * version 2 one (Section 7.3) as follows, so either is allowed.
 */
Judgement judge_v2(const Bytes &m, const Peer &p)
{
	static rpcrdmax::core::V2Header h; /* 4.5 KiB: not on the stack */
	namespace core = rpcrdmax::core;
	const core::DecodeLimits lim;

	if (core::v2_decode(rpcrdmax::ktl::ConstBytes(m.data(), m.size()), lim, &h) !=
	    core::V2Verdict::Ok) {
		/* RDMA2_MSG or RDMA2_NOMSG, rdma_direction REPLY */
		const uint32_t proc = m.size() >= 16 ? ktl::load_be32(m.data() + 12) : ~0u;
		if (proc <= 1 && m.size() >= 20 && ktl::load_be32(m.data() + 16) == core::kMsgReply)
			return verdict(O_ERRVERS | O_DROP, "a version 2 Reply whose header does not "
							   "decode: its Requester discards it (RFC "
							   "8166 Section 4.5); errors never flow to "
							   "a Responder (Section 6.2.4)");
		return verdict(kV2Any, "version 2 header that does not decode: the RDMA2_ERROR "
				       "its fault names (Section 6.2.4)");
	}
	switch (h.proc) {
	case core::V2Proc::Error:
		return verdict(O_ERRVERS | O_DROP, "RDMA2_ERROR flows only to Requesters (Section "
						   "6.2.4)");
	case core::V2Proc::ConnProp:
		return verdict(O_ERRVERS | O_DROP, "RDMA2_CONNPROP is noted, never answered "
						   "(Section 5.3.1)");
	case core::V2Proc::Optional:
		if (h.opttype == 1)
			return verdict(core::v2_decode_optinfo(&h) == core::V2Verdict::Ok
					       ? O_ERRVERS | O_DROP
					       : kV2Any,
				       "RDMA2_OPTIONAL opttype 1 is a CONNPROP (Table 2)");
		return verdict(kV2Any, "an RDMA2_OPTIONAL the Responder does not support: "
				       "RDMA2_ERR_INVAL_OPTION (Section 5.3)");
	case core::V2Proc::Msg:
	case core::V2Proc::NoMsg:
		break;
	default:
		return verdict(kV2Any, "a property operation the Responder need not support: "
				       "RDMA2_ERR_INVAL_OPTION (Section 5.3)");
	}
	if (h.direction == core::kMsgReply)
		return verdict(O_ERRVERS | O_DROP, "a Reply that answers no backward Call of ours: "
						   "dropped (RFC 8167)");
	/* A Long Call's RPC message, in its Position Zero Read chunk, must
	 * begin with rdma_xid (RFC 8166 Section 4.5.2; the decoder checked
	 * an RDMA2_MSG's): pulled here when the chunk lies in our region. */
	if (h.proc == core::V2Proc::NoMsg && h.chunks.has_call_chunk()) {
		const core::ChunkRef &c0 = h.chunks.read[0];
		RdChunk rc{0, {}};
		bool inside = true;
		for (uint32_t i = 0; i < c0.nsegs; i++) {
			const core::Segment s = h.chunks.segment(c0, i);
			rc.segs.push_back({s.handle, s.length, s.offset});
			inside = inside && !seg_bad(rc.segs.back(), p);
		}
		const Bytes rpc = inside ? pull(rc, p) : Bytes();
		if (inside && (rpc.size() < 4 || ktl::load_be32(rpc.data()) != h.xid))
			return verdict(kV2Any, "a Long Call whose RPC message's XID is not rdma_xid: "
					       "RDMA2_ERR_BAD_XDR (RFC 8166 Section 4.5.2, draft "
					       "Section 6.2.4)");
	}
	Bytes null = rpc_null_call(m.size() >= 4 ? ktl::load_be32(m.data()) : 0);
	if (h.proc == core::V2Proc::Msg && h.chunks.empty() && h.payload_len == null.size() &&
	    memcmp(m.data() + h.hdr_len, null.data(), null.size()) == 0) {
		Judgement j = verdict(O_ERRVERS | O_REPLY, "a version 2 NULL Call: served in "
							   "version 2 (Section 7.3)");
		j.exact_null = true;
		j.rpc_xid = ktl::load_be32(null.data());
		return j;
	}
	return verdict(kV2Any | O_REPLY | O_DROP | O_CLOSED,
		       "a version 2 Call with chunks or another RPC message: served, refused or "
		       "faulted on its chunks as in version 1");
}

} // namespace

Judgement judge(const Bytes &m, const Peer &p)
{
	const size_t n = m.size();
	auto be = [&](size_t off) { return ktl::load_be32(m.data() + off); };

	if (n > p.threshold)
		return verdict(kAny, "larger than the inline threshold: the receiver may break the "
				     "connection (RFC 5666 Section 6); any answer, so long as it serves on");
	if (n < 4)
		return verdict(O_DROP, "no XID: nothing can be answered");
	static const char kShort[] = "shorter than the 28-octet minimal header: the XID cannot "
				     "be trusted, silently discarded (RFC 8166 Section 4.5)";
	if (n < 16)
		return verdict(O_DROP, kShort);
	if (be(4) == 2)
		return judge_v2(m, p);
	if (n < 28)
		return verdict(O_DROP, kShort);
	if (be(4) != 1)
		return verdict(O_ERRVERS, "rdma_vers is not 1: ERR_VERS (RFC 8166 Section 4.5.1, "
					  "RFC 5666 Section 4.2)");
	const uint32_t proc = be(12);
	if (proc == kError)
		return verdict(O_DROP, "RDMA_ERROR flows only to Requesters and is never answered");
	if (proc == kMsgp)
		return verdict(O_ERRCHUNK | O_DROP, "RDMA_MSGP is retired "
						    "(RFC 8166 Section 4.6.1): ERR_CHUNK (SHOULD)");
	if (proc == kDone)
		return verdict(O_DROP, "RDMA_DONE is retired: receivers MUST silently discard it "
				       "(RFC 8166 Section 4.6.2)");
	if (proc > kError)
		return verdict(O_ERRCHUNK, "unknown rdma_proc: an XDR error in the header, "
					   "ERR_CHUNK (RFC 8166 Section 4.5)");

	Parsed ps;
	std::string bad = parse_lists(m, &ps);
	if (!bad.empty())
		return verdict(O_ERRCHUNK, bad + ": an XDR error, ERR_CHUNK (RFC 8166 Section 4.5)");

	/* What a Responder may refuse besides: RFC 8166 sets no limit on
	 * chunks or segments, and a Responder answers ERR_CHUNK for what it
	 * cannot process. */
	unsigned extra = 0;
	std::string extra_why;
	auto also = [&](unsigned o, const char *why) {
		extra |= o;
		extra_why += std::string("; ") + why;
	};
	size_t total = ps.reads.size() + ps.reply.size(), most = ps.reply.size();
	bool empty = ps.has_reply && ps.reply.empty(), wraps = false;
	for (auto &w : ps.writes) {
		total += w.size();
		most = w.size() > most ? w.size() : most;
		empty |= w.empty();
		for (auto &s : w)
			wraps |= seg_wraps(s);
	}
	for (auto &r : ps.reads)
		wraps |= seg_wraps(r.s);
	for (auto &s : ps.reply)
		wraps |= seg_wraps(s);
	if (ps.reads.size() > 8 || ps.writes.size() > 8 || most > 16 || total > 64)
		also(O_ERRCHUNK, "more chunks or segments than a Responder must take (no RFC limit)");
	if (empty)
		also(O_ERRCHUNK, "a chunk without segments");
	if (wraps)
		also(O_ERRCHUNK, "a segment whose offset + length wraps 64 bits");
	for (auto &s : ps.reply)
		if (seg_bad(s, p)) {
			also(O_ERRCHUNK | O_CLOSED, "a Reply chunk segment outside our region "
						    "(an RDMA Write to it fails)");
			break;
		}

	/* Read chunks (RFC 8166 Section 3.4.5): consecutive entries with
	 * one position form a chunk; positions are XDR-aligned, increase
	 * from chunk to chunk, and fall inside the RPC message. */
	std::vector<RdChunk> rc;
	for (auto &r : ps.reads) {
		if (r.pos % 4)
			return verdict(O_ERRCHUNK, "a Read chunk position that is not a multiple of 4 "
						   "(RFC 8166 Section 3.4.5): ERR_CHUNK");
		if (!rc.empty() && rc.back().pos == r.pos) {
			rc.back().segs.push_back(r.s);
			continue;
		}
		if (!rc.empty() && r.pos < rc.back().pos)
			return verdict(O_ERRCHUNK, "Read chunks out of order (RFC 8166 Section 3.4.5): ERR_CHUNK");
		rc.push_back({r.pos, {r.s}});
	}
	const bool pz = !rc.empty() && rc.front().pos == 0;
	const size_t body_len = n - ps.body_off;
	if (proc == kNomsg && !pz)
		return verdict(O_ERRCHUNK, "RDMA_NOMSG without a Position Zero Read chunk: an XDR "
					   "error (RFC 8166 Section 4.5.2): ERR_CHUNK");
	if (proc == kMsg && !body_len && !pz)
		return verdict(O_ERRCHUNK | O_DROP, "RDMA_MSG with no RPC message after the header");
	if (proc == kNomsg && body_len)
		also(O_ERRCHUNK, "RDMA_NOMSG with octets after the chunk lists");
	/* an RDMA_MSG whose inline part already says REPLY (a backward
	 * Reply, RFC 8167) may be discarded before any chunk is pulled */
	const bool inline_reply = proc == kMsg && body_len >= 8 && be(ps.body_off + 4) == 1;
	for (auto &c : rc)
		for (auto &s : c.segs)
			if (seg_bad(s, p))
				return verdict(kFault | extra | (inline_reply ? (unsigned)O_DROP : 0u),
					       "a Read segment outside our region: the RDMA Read fails, "
					       "or the Responder refuses it" + extra_why);
	if (proc == kMsg && pz)
		return verdict(O_ERRCHUNK | O_REPLY | O_DROP | extra,
			       "a Position Zero Read chunk in RDMA_MSG: the RPC message both inline "
			       "and in the chunk" + extra_why);

	/* Rebuild the RPC message: the inline part (RDMA_MSG) or the
	 * Position Zero chunk (RDMA_NOMSG) with every other chunk's data,
	 * XDR-padded, at its position. */
	Bytes base = pz ? pull(rc.front(), p) : Bytes(m.begin() + ps.body_off, m.end());
	Bytes rpc;
	size_t at = 0, before = 0; /* inline octets used; stream octets of earlier chunks */
	for (size_t k = pz ? 1 : 0; k < rc.size(); k++) {
		uint64_t len = rc[k].len();
		if (rc[k].pos < before || rc[k].pos - before < at)
			return verdict(O_ERRCHUNK, "overlapping Read chunks (RFC 8166 Section 3.4.5): ERR_CHUNK");
		size_t io = rc[k].pos - before;
		if (io > base.size())
			return verdict(O_ERRCHUNK, "a Read chunk positioned past the end of the RPC message "
						   "(RFC 8166 Section 3.4.5): ERR_CHUNK");
		rpc.insert(rpc.end(), base.begin() + at, base.begin() + io);
		Bytes d = pull(rc[k], p);
		d.resize((d.size() + 3) & ~size_t(3), 0);
		rpc.insert(rpc.end(), d.begin(), d.end());
		at = io;
		before += (len + 3) & ~uint64_t(3);
	}
	rpc.insert(rpc.end(), base.begin() + at, base.end());

	if (rpc.empty())
		return verdict(O_ERRCHUNK | O_DROP | extra, "no RPC message: the Position Zero Read "
							    "chunk is empty" + extra_why);
	Judgement j;
	j.rpc_xid = rpc.size() >= 4 ? ktl::load_be32(rpc.data()) : 0;
	const bool chunks = !ps.reads.empty() || !ps.writes.empty() || ps.has_reply;
	if (rpc.size() >= 8 && ktl::load_be32(rpc.data() + 4) == 1) {
		j.allowed = O_DROP | (chunks ? (unsigned)O_ERRCHUNK : 0u) | extra;
		j.rule = "an RPC Reply where a Call belongs: a backward Reply that no backward Call "
			 "waits for is discarded (RFC 8167)";
	} else if (rpc.size() < 4 || j.rpc_xid != be(0)) {
		j.allowed = O_ERRCHUNK | extra;
		j.rule = "an RPC message whose XID is not rdma_xid: an XDR error (RFC 8166 Section "
			 "4.5.2): ERR_CHUNK";
	} else if (rpc == rpc_null_call(j.rpc_xid)) {
		j.exact_null = true;
		j.allowed = O_REPLY | extra;
		j.rule = "a well-formed NULL Call: it must be processed";
		if (rc.size() > (pz ? 1u : 0u)) {
			j.allowed |= O_ERRCHUNK;
			j.rule += ", or its Read chunk refused (DDP-eligibility is the Upper-Layer "
				  "Binding's, RFC 8166 Section 6; NFS's allows none here, RFC 8267)";
		}
	} else if (null_call_then_more(rpc)) {
		j.allowed = O_REPLY | extra;
		j.rule = "a NULL Call followed by more octets: the transport delivers it and the RPC "
			 "layer answers it (NULL takes no arguments: SUCCESS, or GARBAGE_ARGS)";
		if (rc.size() > (pz ? 1u : 0u)) {
			j.allowed |= O_ERRCHUNK;
			j.rule += ", or its Read chunk refused (RFC 8166 Section 6, RFC 8267)";
		}
	} else {
		j.allowed = O_REPLY | O_DROP | O_CLOSED | extra;
		j.rule = "a garbled RPC message: the RPC layer answers it, discards it, or closes the "
			 "connection (Linux's svc_process closes it for a message under 24 octets "
			 "or a credential it must not answer)";
	}
	j.rule += extra_why;
	return j;
}

/* ---- the generator ------------------------------------------------------------ */

namespace {

/* splitmix64: small, and the same everywhere. */
struct Rng {
	uint64_t s;
	uint64_t next()
	{
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}
	uint32_t below(uint32_t n) { return n ? (uint32_t)(next() % n) : 0; }
	bool chance(uint32_t pct) { return below(100) < pct; }
};

Rng rng_for(uint64_t seed, uint64_t index, uint64_t stream)
{
	Rng r{seed * 0xd1342543de82ef95ull ^ index * 0x9e3779b97f4a7c15ull ^ stream};
	r.next();
	return r;
}

uint32_t interesting32(Rng &r)
{
	static const uint32_t v[] = {0,	     1,		 2,	     3,		 4,
				     7,	     8,		 0x3f,	     0x40,	 0xff,
				     0x100,  0x1000,	 0xffff,     0x10000,	 0x7fffffff,
				     0x80000000, 0xfffffffc, 0xffffffff};
	return r.chance(75) ? v[r.below(sizeof(v) / sizeof(v[0]))] : (uint32_t)r.next();
}

/* A message before encoding, with the lies its encoding will tell. */
struct Model {
	uint32_t xid = 0, vers = 1, credits = 8, proc = kMsg;
	std::vector<Rd> reads;
	std::vector<std::vector<Seg>> writes;
	bool has_reply = false;
	std::vector<Seg> reply;
	Bytes body;
	int discrim_at = -1; /* the n-th optional-data word says discrim_val */
	uint32_t discrim_val = 0;
	int count_at = -1; /* the n-th segment count says count_val */
	uint32_t count_val = 0;

	int discriminators() const
	{
		return (int)(reads.size() + 1 + writes.size() + 1 + 1);
	}
	int counts() const { return (int)(writes.size() + (has_reply ? 1 : 0)); }
	std::vector<Seg *> segments()
	{
		std::vector<Seg *> v;
		for (auto &r : reads)
			v.push_back(&r.s);
		for (auto &w : writes)
			for (auto &s : w)
				v.push_back(&s);
		for (auto &s : reply)
			v.push_back(&s);
		return v;
	}
};

Bytes encode(const Model &m)
{
	W w;
	w.u32(m.xid).u32(m.vers).u32(m.credits).u32(m.proc);
	int disc = 0, cnt = 0;
	auto d = [&](uint32_t v) { w.u32(disc++ == m.discrim_at ? m.discrim_val : v); };
	auto c = [&](uint32_t v) { w.u32(cnt++ == m.count_at ? m.count_val : v); };
	for (auto &r : m.reads) {
		d(1);
		w.u32(r.pos).seg(r.s.h, r.s.len, r.s.off);
	}
	d(0);
	for (auto &ch : m.writes) {
		d(1);
		c((uint32_t)ch.size());
		for (auto &s : ch)
			w.seg(s.h, s.len, s.off);
	}
	d(0);
	if (m.has_reply) {
		d(1);
		c((uint32_t)m.reply.size());
		for (auto &s : m.reply)
			w.seg(s.h, s.len, s.off);
	} else {
		d(0);
	}
	return w.raw(m.body).b;
}

/* The corpus's part of the area: Calls pulled by Read chunks go into the
 * first half, Write and Reply chunks point into the second. */
struct Layout {
	const Peer &p;
	Rng &r;
	uint64_t pull_slot() { return 64ull * r.below(p.area_size / 2 / 64); }
	Seg sink(uint32_t len)
	{
		uint32_t half = p.area_size / 2;
		len = len > half ? half : len;
		uint64_t off = half + ((uint64_t)r.below(half - len + 1) & ~uint64_t(3));
		return {p.rkey, len, p.area_addr + off};
	}
	/* @bytes placed in the area, as @nsegs segments of one Read chunk */
	std::vector<Seg> source(const Bytes &bytes, uint32_t nsegs)
	{
		uint64_t off = pull_slot();
		if (bytes.size() < 8)
			nsegs = 1;
		memcpy(p.area + off, bytes.data(), bytes.size());
		std::vector<Seg> v;
		uint32_t done = 0, n = (uint32_t)bytes.size();
		for (uint32_t i = 0; i < nsegs; i++) {
			uint32_t len = i + 1 == nsegs ? n - done : ((n / nsegs) & ~3u);
			v.push_back({p.rkey, len, p.area_addr + off + done});
			done += len;
		}
		return v;
	}
};

Model template_call(Rng &r, const Peer &p, uint32_t xid, std::string *what)
{
	static const char *names[] = {"plain", "write", "reply", "split", "nomsg", "mixed"};
	Layout lay{p, r};
	Model m;
	m.xid = xid;
	m.credits = 1 + r.below(32);
	Bytes call = rpc_null_call(xid);
	uint32_t t = r.below(6);
	*what = names[t];
	m.body = call;
	if (t == 1 || t == 5) {
		m.writes.emplace_back();
		for (uint32_t i = 0, n = 1 + r.below(3); i < n; i++)
			m.writes.back().push_back(lay.sink(64 + r.below(4096)));
	}
	if (t == 2 || t == 4 || t == 5)
		for (uint32_t i = 0, n = 1 + r.below(2); i < n; i++) {
			m.has_reply = true;
			m.reply.push_back(lay.sink(512 + r.below(4096)));
		}
	if (t == 3 || t == 5) {
		uint32_t k = 4 * (1 + r.below(9)); /* the chunk takes octets k..40 */
		m.body.assign(call.begin(), call.begin() + k);
		for (auto &s : lay.source(Bytes(call.begin() + k, call.end()), 1 + r.below(2)))
			m.reads.push_back({k, s});
	}
	if (t == 4) {
		m.proc = kNomsg;
		m.body.clear();
		for (auto &s : lay.source(call, 1 + r.below(2)))
			m.reads.push_back({0, s});
	}
	return m;
}

using ModelMut = void (*)(Model &, Rng &, const Peer &);
using ByteMut = void (*)(Bytes &, Rng &, const Peer &);

Seg *pick_seg(Model &m, Rng &r)
{
	auto v = m.segments();
	return v.empty() ? nullptr : v[r.below((uint32_t)v.size())];
}

void mut_xid(Model &m, Rng &r, const Peer &)
{
	m.xid = (uint32_t)r.next() | 0x80000000u; /* never one of the runner's own */
	if (r.chance(50) && m.body.size() >= 4)
		ktl::store_be32(m.body.data(), m.xid);
}
void mut_vers(Model &m, Rng &r, const Peer &)
{
	m.vers = interesting32(r);
	if (m.vers == 1)
		m.vers = 2;
}
void mut_credits(Model &m, Rng &r, const Peer &) { m.credits = interesting32(r); }
void mut_proc(Model &m, Rng &r, const Peer &)
{
	static const uint32_t v[] = {0, 1, 2, 3, 4, 5, 6, 0xff, 0xffffffff};
	m.proc = r.chance(85) ? v[r.below(9)] : (uint32_t)r.next();
}
void mut_read_add(Model &m, Rng &r, const Peer &p)
{
	Layout lay{p, r};
	uint32_t pos = r.chance(60) ? 4 * r.below(20) : interesting32(r);
	Seg s = lay.sink(4 + 4 * r.below(64));
	size_t at = r.below((uint32_t)m.reads.size() + 1);
	m.reads.insert(m.reads.begin() + at, Rd{pos, s});
}
void mut_read_drop(Model &m, Rng &r, const Peer &)
{
	if (!m.reads.empty())
		m.reads.erase(m.reads.begin() + r.below((uint32_t)m.reads.size()));
}
void mut_read_pos(Model &m, Rng &r, const Peer &)
{
	if (m.reads.empty())
		return;
	static const int32_t d[] = {4, -4, 1, 2, 3, 8, -8, 40};
	Rd &e = m.reads[r.below((uint32_t)m.reads.size())];
	if (r.chance(30))
		e.pos = r.chance(50) ? 0 : interesting32(r);
	else
		e.pos += (uint32_t)d[r.below(8)];
}
void mut_seg_handle(Model &m, Rng &r, const Peer &p)
{
	if (Seg *s = pick_seg(m, r)) {
		static const uint32_t x[] = {0x5a5a5a00u, 0x100, 1};
		uint32_t k = r.below(5);
		s->h = k < 3 ? p.rkey ^ x[k] : k == 3 ? 0 : (uint32_t)r.next();
	}
}
void mut_seg_len(Model &m, Rng &r, const Peer &p)
{
	if (Seg *s = pick_seg(m, r)) {
		uint32_t v[] = {0, 1, 3, p.area_size, p.area_size + 4096, 0x80000000u, 0xffffffffu,
				4 * r.below(1024)};
		s->len = r.chance(85) ? v[r.below(8)] : interesting32(r);
	}
}
void mut_seg_off(Model &m, Rng &r, const Peer &p)
{
	if (Seg *s = pick_seg(m, r)) {
		uint64_t v[] = {p.area_addr + p.area_size, p.area_addr - 8,
				p.area_addr + p.area_size - 4, 0, ~0ull - 7, r.next(),
				p.area_addr + r.below(p.area_size), s->off + 4 * r.below(64)};
		s->off = v[r.below(8)];
	}
}
void mut_write_add(Model &m, Rng &r, const Peer &p)
{
	Layout lay{p, r};
	for (uint32_t i = 0, n = 1 + r.below(r.chance(20) ? 20 : 3); i < n; i++) {
		m.writes.emplace_back();
		uint32_t segs = r.chance(10) ? 0 : r.chance(15) ? 17 + r.below(54) : 1 + r.below(4);
		for (uint32_t k = 0; k < segs; k++)
			m.writes.back().push_back(lay.sink(r.below(8192)));
	}
}
void mut_write_drop(Model &m, Rng &, const Peer &) { m.writes.clear(); }
void mut_reply_toggle(Model &m, Rng &r, const Peer &p)
{
	Layout lay{p, r};
	m.has_reply = !m.has_reply;
	m.reply.clear();
	if (m.has_reply)
		for (uint32_t i = 0, n = r.chance(10) ? 0 : 1 + r.below(3); i < n; i++)
			m.reply.push_back(lay.sink(r.below(8192)));
}
void mut_reply_grow(Model &m, Rng &r, const Peer &p)
{
	Layout lay{p, r};
	m.has_reply = true;
	for (uint32_t i = 0, n = 17 + r.below(54); i < n; i++)
		m.reply.push_back(lay.sink(64));
}
void mut_discrim(Model &m, Rng &r, const Peer &)
{
	m.discrim_at = (int)r.below((uint32_t)m.discriminators());
	static const uint32_t v[] = {2, 3, 0x100, 0x80000000u, 0xffffffffu};
	m.discrim_val = r.chance(80) ? v[r.below(5)] : ((uint32_t)r.next() | 2);
}
void mut_count_lie(Model &m, Rng &r, const Peer &)
{
	if (!m.counts())
		return;
	m.count_at = (int)r.below((uint32_t)m.counts());
	uint32_t real = m.count_at < (int)m.writes.size() ? (uint32_t)m.writes[m.count_at].size() :
							     (uint32_t)m.reply.size();
	static const uint32_t v[] = {0xffffffffu, 0x10000000u, 0x80000000u, 0x0fffffffu};
	uint32_t k = r.below(7);
	m.count_val = k < 4 ? v[k] : k == 4 ? real + 1 : k == 5 ? real + 2 : real - 1;
}
void mut_body_flip(Model &m, Rng &r, const Peer &)
{
	if (!m.body.empty())
		m.body[r.below((uint32_t)m.body.size())] ^= (uint8_t)(1u << r.below(8));
}
void mut_body_cut(Model &m, Rng &r, const Peer &)
{
	m.body.resize(r.below((uint32_t)m.body.size() + 1));
}
void mut_body_reply(Model &m, Rng &, const Peer &)
{
	W w;
	w.u32(m.xid).u32(1).u32(0).u32(0).u32(0).u32(0); /* accepted NULL Reply */
	m.body = w.b;
}
void mut_body_grow(Model &m, Rng &r, const Peer &)
{
	for (uint32_t i = 0, n = 1 + r.below(64); i < n; i++)
		m.body.push_back((uint8_t)r.next());
}
void mut_truncate(Bytes &b, Rng &r, const Peer &) { b.resize(r.below((uint32_t)b.size())); }
void mut_append(Bytes &b, Rng &r, const Peer &)
{
	for (uint32_t i = 0, n = 4 * (1 + r.below(16)); i < n; i++)
		b.push_back((uint8_t)r.next());
}
void mut_word(Bytes &b, Rng &r, const Peer &)
{
	if (b.size() >= 4)
		ktl::store_be32(b.data() + 4 * r.below((uint32_t)b.size() / 4), interesting32(r));
}
void mut_oversize(Bytes &b, Rng &r, const Peer &p)
{
	b.resize(p.threshold + 4 * (1 + r.below(64)), 0);
}

struct Mutation {
	const char *name;
	ModelMut model;
	ByteMut bytes;
	uint32_t weight;
};

const Mutation kMutations[] = {
	{"xid", mut_xid, nullptr, 3},
	{"vers", mut_vers, nullptr, 2},
	{"credits", mut_credits, nullptr, 3},
	{"proc", mut_proc, nullptr, 3},
	{"read-add", mut_read_add, nullptr, 4},
	{"read-drop", mut_read_drop, nullptr, 2},
	{"read-pos", mut_read_pos, nullptr, 5},
	{"seg-handle", mut_seg_handle, nullptr, 3},
	{"seg-len", mut_seg_len, nullptr, 5},
	{"seg-off", mut_seg_off, nullptr, 4},
	{"write-add", mut_write_add, nullptr, 3},
	{"write-drop", mut_write_drop, nullptr, 1},
	{"reply-toggle", mut_reply_toggle, nullptr, 3},
	{"reply-grow", mut_reply_grow, nullptr, 1},
	{"discrim", mut_discrim, nullptr, 3},
	{"count-lie", mut_count_lie, nullptr, 3},
	{"body-flip", mut_body_flip, nullptr, 3},
	{"body-cut", mut_body_cut, nullptr, 2},
	{"body-reply", mut_body_reply, nullptr, 1},
	{"body-grow", mut_body_grow, nullptr, 2},
	{"truncate", nullptr, mut_truncate, 3},
	{"append", nullptr, mut_append, 2},
	{"word", nullptr, mut_word, 4},
	{"oversize", nullptr, mut_oversize, 1},
};
constexpr uint32_t kNumMutations = sizeof(kMutations) / sizeof(kMutations[0]);

const Mutation &pick_mutation(Rng &r)
{
	uint32_t sum = 0;
	for (auto &k : kMutations)
		sum += k.weight;
	uint32_t x = r.below(sum);
	for (auto &k : kMutations) {
		if (x < k.weight)
			return k;
		x -= k.weight;
	}
	return kMutations[0];
}

} // namespace

const std::vector<std::string> &corpus_mutation_names()
{
	static const std::vector<std::string> names = [] {
		std::vector<std::string> v;
		for (auto &k : kMutations)
			v.push_back(k.name);
		return v;
	}();
	return names;
}

Mutant corpus_message(uint64_t seed, uint64_t index, uint32_t xid, const Peer &p)
{
	Rng r = rng_for(seed, index, 0x4d53474du /* "MSGM" */);
	Mutant mu;
	Model m = template_call(r, p, xid, &mu.what);
	std::vector<const Mutation *> later;
	for (uint32_t i = 0, n = 1 + r.below(3); i < n; i++) {
		const Mutation &k = pick_mutation(r);
		mu.what += std::string(" +") + k.name;
		if (k.model)
			k.model(m, r, p);
		else
			later.push_back(&k);
	}
	mu.msg = encode(m);
	for (auto *k : later)
		k->bytes(mu.msg, r, p);
	mu.xid = mu.msg.size() >= 4 ? ktl::load_be32(mu.msg.data()) : 0;
	mu.j = judge(mu.msg, p);
	return mu;
}

Bytes corpus_private_data(uint64_t seed, uint64_t n, std::string *what)
{
	constexpr uint8_t core_r_bit = 0x01; /* RFC 8797 Section 4: Remote Invalidation */
	Rng r = rng_for(seed, n, 0x50524956u /* "PRIV" */);
	/* RFC 8797 Section 4: Format Identifier, Version 1, flags (R),
	 * Send Size and Receive Size in units of 1 KiB less one */
	auto valid = [&](uint8_t version, uint8_t flags) {
		uint8_t sizes[] = {0, 1, 3, 7, 15, 63, 255};
		Bytes b = {0xf6, 0xab, 0x0e, 0x18, version, flags, sizes[r.below(7)], 0};
		b[7] = (uint8_t)r.below(64); /* we receive into 64 KiB buffers */
		return b;
	};
	auto junk = [&](size_t len) {
		Bytes b(len);
		for (auto &x : b)
			x = (uint8_t)r.next();
		return b;
	};
	switch (r.below(7)) {
	case 0:
		*what = "no private data";
		return {};
	case 1:
		*what = "valid";
		return valid(1, 0);
	case 2: {
		size_t off = 1 + r.below(48);
		Bytes b = junk(off + 8 + r.below((uint32_t)(56 - off - 8) + 1));
		Bytes v = valid(1, 0);
		memcpy(b.data() + off, v.data(), 8);
		*what = "valid at offset " + std::to_string(off);
		return b;
	}
	case 3: {
		Bytes b = valid(1, 0);
		b.resize(1 + r.below(7));
		*what = "truncated to " + std::to_string(b.size());
		return b;
	}
	case 4:
		*what = "version 2";
		return valid((uint8_t)(2 + r.below(254)), 0);
	case 5:
		/* never R: our regions are plain MRs, which a Send With
		 * Invalidate cannot invalidate (the Receive would fail) */
		*what = "reserved flag bits set";
		return valid(1, (uint8_t)((r.next() | 0x02) & ~core_r_bit));
	default: {
		Bytes b = junk(1 + r.below(56));
		*what = "garbage of " + std::to_string(b.size());
		return b;
	}
	}
}

} // namespace hostile
