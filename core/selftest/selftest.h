/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/selftest/selftest.h - the framework-neutral self-test harness.
 *
 * A case is a function taking a Reporter.  It states facts with
 * ST_CHECK(r, cond) / ST_EQ(r, a, b); the Reporter forwards failures to
 * whichever framework runs the case (GoogleTest on the host, KUnit in
 * the kernel) and counts checks, so a case that checks nothing fails.
 * Large objects (decoded headers, plans, buffers) come from the
 * Reporter's scratch memory, never from the stack.
 */
#pragma once

#include <rpcrdmax_shim.h>
#include <rpcrdmax/core/wire.h>
#include <rpcrdmax/ktl/placement.h>
#include <rpcrdmax/ktl/utility.h>

namespace rpcrdmax::core::selftest {

inline constexpr size_t kScratchSize = 64 * 1024;

class Reporter {
public:
	Reporter(rpcrdmax_selftest_report_fn fn, void *ctx, ktl::Bytes scratch)
		: fn_(fn), ctx_(ctx), scratch_(scratch)
	{
	}

	bool check(bool ok, const char *what, const char *file, int line)
	{
		checks_++;
		if (!ok) {
			failures_++;
			if (fn_)
				fn_(ctx_, what, file, line);
		}
		return ok;
	}

	/* Zeroed, value-initialised T from scratch; nullptr (and a failed
	 * check) when scratch is exhausted. */
	template <typename T> T *make()
	{
		void *p = take(sizeof(T));
		return p ? new (p) T() : nullptr;
	}

	/* Zeroed octets from scratch; empty (and a failed check) if none. */
	ktl::Bytes bytes(size_t n)
	{
		void *p = take(n);
		return p ? ktl::Bytes(static_cast<u8 *>(p), n) : ktl::Bytes();
	}

	/* Big-endian octets of XDR words, as a test vector. */
	ktl::ConstBytes words(const u32 *w, size_t n)
	{
		ktl::Bytes b = bytes(n * 4);

		for (size_t i = 0; i < b.size() / 4; i++)
			ktl::store_be32(b.data() + 4 * i, w[i]);
		return b;
	}
	template <size_t N> ktl::ConstBytes words(const u32 (&w)[N])
	{
		return words(w, N);
	}

	u32 checks() const { return checks_; }
	u32 failures() const { return failures_; }

private:
	void *take(size_t n)
	{
		size_t start = ktl::round_up<size_t>(used_, 8);

		if (start > scratch_.size() || n > scratch_.size() - start) {
			check(false, "selftest scratch exhausted", __FILE__, __LINE__);
			return nullptr;
		}
		used_ = start + n;
		ktl::mem_set(scratch_.data() + start, 0, n);
		return scratch_.data() + start;
	}

	rpcrdmax_selftest_report_fn fn_;
	void *ctx_;
	ktl::Bytes scratch_;
	size_t used_ = 0;
	u32 checks_ = 0;
	u32 failures_ = 0;
};

struct Case {
	const char *name;
	void (*fn)(Reporter &r);
};

/* Each case file defines one group. */
extern const Case kV1Cases[];
extern const u32 kV1CaseCount;
extern const Case kV2Cases[];
extern const u32 kV2CaseCount;
extern const Case kPrivDataCases[];
extern const u32 kPrivDataCaseCount;
extern const Case kPlannerCases[];
extern const u32 kPlannerCaseCount;
extern const Case kCreditsCases[];
extern const u32 kCreditsCaseCount;
extern const Case kResponderCases[];
extern const u32 kResponderCaseCount;

/* Case @i across all groups, or nullptr. */
const Case *case_at(u32 i);
u32 case_count();

} // namespace rpcrdmax::core::selftest

#define ST_CHECK(r, cond) (r).check(!!(cond), #cond, __FILE__, __LINE__)
#define ST_EQ(r, a, b) (r).check((a) == (b), #a " == " #b, __FILE__, __LINE__)
/* Bail out of a case when an allocation from scratch failed. */
#define ST_NEED(r, p)                                                    \
	do {                                                             \
		if (!(r).check((p) != nullptr, "allocated " #p, __FILE__, \
			       __LINE__))                                \
			return;                                          \
	} while (0)
