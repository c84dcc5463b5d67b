// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/st_credits.cpp - credit accounting cases.
 */
#include "selftest.h"
#include <rpcrdmax/core/credits.h>

namespace rpcrdmax::core::selftest {

namespace credits_cases {

static void requester_first_exchange(Reporter &r)
{
	RequesterCredits c;

	credits_requester_init(&c, 32);
	ST_EQ(r, credits_requester_request(c), 32u);
	ST_EQ(r, c.granted, 1u);
	ST_CHECK(r, credits_requester_try_send(&c));
	ST_CHECK(r, !credits_requester_try_send(&c)); /* one credit until a Reply */
	ST_EQ(r, c.in_flight, 1u);
	credits_requester_complete(&c);
	ST_EQ(r, credits_requester_update(&c, 16), 16u);
	for (u32 i = 0; i < 16; i++)
		ST_CHECK(r, credits_requester_try_send(&c));
	ST_CHECK(r, !credits_requester_try_send(&c));
	ST_EQ(r, c.in_flight, 16u);
}

static void requester_grant_rules(Reporter &r)
{
	RequesterCredits c;

	credits_requester_init(&c, 8);
	ST_EQ(r, credits_requester_update(&c, 0), 1u);	  /* zero counts as one */
	ST_EQ(r, credits_requester_update(&c, 100), 8u); /* clamped to ours */
	for (u32 i = 0; i < 8; i++)
		ST_CHECK(r, credits_requester_try_send(&c));
	/* the grant shrinks below what is in flight: no new Call until
	 * enough complete */
	ST_EQ(r, credits_requester_update(&c, 3), 3u);
	ST_EQ(r, credits_requester_available(c), 0u);
	for (u32 i = 0; i < 5; i++) {
		ST_CHECK(r, !credits_requester_try_send(&c));
		credits_requester_complete(&c);
	}
	ST_EQ(r, credits_requester_available(c), 0u);
	credits_requester_complete(&c);
	ST_EQ(r, credits_requester_available(c), 1u);
	ST_CHECK(r, credits_requester_try_send(&c));
	/* completing more than was sent never underflows */
	for (u32 i = 0; i < 10; i++)
		credits_requester_complete(&c);
	ST_EQ(r, c.in_flight, 0u);
	credits_requester_init(&c, 0);
	ST_EQ(r, c.max_requests, 1u);
}

static void responder_grants(Reporter &r)
{
	ResponderCredits c;

	credits_responder_init(&c, 32);
	ST_EQ(r, credits_responder_grant(c, 0), 1u); /* never zero */
	ST_EQ(r, credits_responder_grant(c, 5), 5u);
	ST_EQ(r, credits_responder_grant(c, 1000), 32u);
	/* before any Reply only one Call may be outstanding */
	ST_CHECK(r, credits_responder_receive(&c));
	ST_CHECK(r, !credits_responder_receive(&c));
	ST_EQ(r, credits_responder_reply(&c, 64), 32u);
	ST_EQ(r, credits_responder_reply(&c, 64), 32u);
	ST_EQ(r, c.outstanding, 0u);
	for (u32 i = 0; i < 32; i++)
		ST_CHECK(r, credits_responder_receive(&c));
	ST_CHECK(r, !credits_responder_receive(&c));
	/* a dropped Call is no longer outstanding: room for one more */
	credits_responder_drop(&c);
	credits_responder_drop(&c);
	ST_EQ(r, c.outstanding, 31u);
	ST_CHECK(r, credits_responder_receive(&c));
	credits_responder_init(&c, 0);
	credits_responder_drop(&c); /* never below zero */
	ST_EQ(r, c.outstanding, 0u);
	ST_EQ(r, credits_responder_grant(c, 0), 1u);
	ST_EQ(r, credits_responder_grant(c, 9), 1u);
}

/*
 * RFC 8167: the Replies to our backward Calls arrive on the Receives
 * Calls use and are counted until recvfrom tells them apart.  A
 * requester with its whole grant outstanding and a Reply to each of our
 * backward Calls in flight is within its rights; one more is an overrun.
 */
static void responder_backward_replies(Reporter &r)
{
	ResponderCredits c;

	credits_responder_init(&c, 8, 2);
	ST_CHECK(r, credits_responder_receive(&c));
	ST_EQ(r, credits_responder_reply(&c, 8), 8u);
	for (u32 i = 0; i < 8; i++)
		ST_CHECK(r, credits_responder_receive(&c));
	ST_CHECK(r, credits_responder_receive(&c)); /* a backward Reply */
	ST_CHECK(r, credits_responder_receive(&c)); /* and another */
	ST_CHECK(r, !credits_responder_receive(&c));
	/* told apart: the Replies are no longer outstanding */
	credits_responder_drop(&c);
	credits_responder_drop(&c);
	credits_responder_drop(&c);
	ST_EQ(r, c.outstanding, 8u);
	/* without a backchannel there is no such room */
	credits_responder_init(&c, 8);
	ST_CHECK(r, credits_responder_receive(&c));
	ST_CHECK(r, !credits_responder_receive(&c));
}

} // namespace credits_cases

const Case kCreditsCases[] = {
	{"credits.requester_first_exchange", credits_cases::requester_first_exchange},
	{"credits.requester_grant_rules", credits_cases::requester_grant_rules},
	{"credits.responder_grants", credits_cases::responder_grants},
	{"credits.responder_backward_replies", credits_cases::responder_backward_replies},
};
const u32 kCreditsCaseCount = sizeof(kCreditsCases) / sizeof(kCreditsCases[0]);

} // namespace rpcrdmax::core::selftest
