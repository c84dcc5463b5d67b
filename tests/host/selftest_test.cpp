// SPDX-License-Identifier: GPL-2.0
/*
 * Every framework-neutral self-test case (core/selftest/) as one
 * GoogleTest, driven through the same C interface KUnit uses.
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax_shim.h>
#include "selftest/selftest.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

void report(void *, const char *what, const char *file, int line)
{
	ADD_FAILURE_AT(file, line) << "check failed: " << what;
}

class SelfTest : public ::testing::TestWithParam<unsigned int> {};

TEST_P(SelfTest, Case)
{
	std::vector<uint64_t> scratch(rpcrdmax_core_selftest_scratch_size() / 8);
	int failed = rpcrdmax_core_selftest_run(GetParam(), report, nullptr, scratch.data(),
						 scratch.size() * 8);
	EXPECT_EQ(failed, 0) << rpcrdmax_core_selftest_name(GetParam());
}

std::string case_name(const ::testing::TestParamInfo<unsigned int> &info)
{
	std::string s = rpcrdmax_core_selftest_name(info.param);
	for (char &c : s)
		if (c == '.')
			c = '_';
	return s;
}

INSTANTIATE_TEST_SUITE_P(Core, SelfTest,
			 ::testing::Range(0u, rpcrdmax_core_selftest_count()), case_name);

TEST(SelfTestApi, RefusesBadArguments)
{
	std::vector<uint64_t> scratch(rpcrdmax_core_selftest_scratch_size() / 8);
	unsigned int n = rpcrdmax_core_selftest_count();

	EXPECT_GT(n, 40u);
	EXPECT_EQ(rpcrdmax_core_selftest_name(n), nullptr);
	EXPECT_EQ(rpcrdmax_core_selftest_run(n, report, nullptr, scratch.data(),
					     scratch.size() * 8), -22);
	EXPECT_EQ(rpcrdmax_core_selftest_run(0, report, nullptr, scratch.data(), 16), -22);
	EXPECT_EQ(rpcrdmax_core_selftest_run(0, report, nullptr, nullptr, 0), -22);
	EXPECT_EQ(rpcrdmax_core_selftest_run(0, report, nullptr,
					     reinterpret_cast<char *>(scratch.data()) + 1,
					     scratch.size() * 8 - 8), -22);
	/* names are unique */
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			EXPECT_STRNE(rpcrdmax_core_selftest_name(i), rpcrdmax_core_selftest_name(j));
}

/* A failing check reaches the reporter with its text, file and line;
 * passing checks stay silent; scratch is bounded and zeroed. */
TEST(SelfTestApi, ReporterForwardsFailures)
{
	struct Seen {
		int calls = 0;
		std::string what;
		int line = 0;
	} seen;
	auto record = [](void *ctx, const char *what, const char *, int line) {
		auto *s = static_cast<Seen *>(ctx);
		s->calls++;
		s->what = what;
		s->line = line;
	};
	std::vector<uint64_t> mem(8);
	rpcrdmax::core::selftest::Reporter r(
		record, &seen, rpcrdmax::ktl::Bytes(reinterpret_cast<uint8_t *>(mem.data()), 64));

	ST_CHECK(r, 1 + 1 == 2);
	EXPECT_EQ(seen.calls, 0);
	ST_EQ(r, 2 + 2, 5);
	EXPECT_EQ(seen.calls, 1);
	EXPECT_EQ(seen.what, "2 + 2 == 5");
	EXPECT_GT(seen.line, 0);
	EXPECT_EQ(r.checks(), 2u);
	EXPECT_EQ(r.failures(), 1u);
	auto b = r.bytes(40);
	ASSERT_EQ(b.size(), 40u);
	EXPECT_EQ(b[39], 0);
	EXPECT_EQ(r.bytes(40).size(), 0u); /* exhausted: a failed check */
	EXPECT_EQ(seen.calls, 2);
}

} // namespace
