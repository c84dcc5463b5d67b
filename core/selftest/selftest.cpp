// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/selftest.cpp - the table of all self-test groups and
 * the C entry points a KUnit (or any other) runner calls.
 */
#include "selftest.h"

namespace rpcrdmax::core::selftest {

namespace table_impl {

struct Group {
	const Case *cases;
	const u32 *count;
};

constexpr Group kGroups[] = {
	{kV1Cases, &kV1CaseCount},
	{kV2Cases, &kV2CaseCount},
	{kPrivDataCases, &kPrivDataCaseCount},
	{kPlannerCases, &kPlannerCaseCount},
	{kCreditsCases, &kCreditsCaseCount},
	{kResponderCases, &kResponderCaseCount},
};

} // namespace table_impl

u32 case_count()
{
	u32 n = 0;

	for (const table_impl::Group &g : table_impl::kGroups)
		n += *g.count;
	return n;
}

const Case *case_at(u32 i)
{
	for (const table_impl::Group &g : table_impl::kGroups) {
		if (i < *g.count)
			return &g.cases[i];
		i -= *g.count;
	}
	return nullptr;
}

} // namespace rpcrdmax::core::selftest

extern "C" unsigned int rpcrdmax_core_selftest_count(void) noexcept
{
	return rpcrdmax::core::selftest::case_count();
}

extern "C" const char *rpcrdmax_core_selftest_name(unsigned int i) noexcept
{
	const rpcrdmax::core::selftest::Case *c = rpcrdmax::core::selftest::case_at(i);

	return c ? c->name : nullptr;
}

extern "C" unsigned long rpcrdmax_core_selftest_scratch_size(void) noexcept
{
	return rpcrdmax::core::selftest::kScratchSize;
}

extern "C" int rpcrdmax_core_selftest_run(unsigned int i,
					  rpcrdmax_selftest_report_fn report,
					  void *ctx, void *scratch,
					  unsigned long scratch_len) noexcept
{
	namespace st = rpcrdmax::core::selftest;
	const st::Case *c = st::case_at(i);

	if (!c || !scratch || scratch_len < st::kScratchSize ||
	    ((rpcrdmax::ktl::uintptr_t)scratch & 7))
		return -22;
	st::Reporter r(report, ctx,
		       rpcrdmax::ktl::Bytes(static_cast<rpcrdmax::ktl::u8 *>(scratch),
					    scratch_len));
	c->fn(r);
	if (r.checks() == 0)
		r.check(false, "case made no checks", __FILE__, __LINE__);
	return (int)r.failures();
}
