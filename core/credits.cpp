// SPDX-License-Identifier: GPL-2.0
/*
 * core/credits.cpp - credit accounting for requesters and responders.
 * See core/credits.h for the rules and their RFC sources.
 */
#include <rpcrdmax/core/credits.h>
#include <rpcrdmax/ktl/utility.h>

namespace rpcrdmax::core {

void credits_requester_init(RequesterCredits *c, u32 max_requests)
{
	c->max_requests = max_requests ? max_requests : 1;
	c->granted = 1;
	c->in_flight = 0;
}

u32 credits_requester_request(const RequesterCredits &c)
{
	return c.max_requests;
}

u32 credits_requester_available(const RequesterCredits &c)
{
	return c.granted > c.in_flight ? c.granted - c.in_flight : 0;
}

bool credits_requester_try_send(RequesterCredits *c)
{
	if (credits_requester_available(*c) == 0)
		return false;
	c->in_flight++;
	return true;
}

void credits_requester_complete(RequesterCredits *c)
{
	if (c->in_flight)
		c->in_flight--;
}

u32 credits_requester_update(RequesterCredits *c, u32 credit_field)
{
	u32 g = credit_field ? credit_field : 1;

	c->granted = ktl::min(g, c->max_requests);
	return c->granted;
}

void credits_responder_init(ResponderCredits *c, u32 max_credits, u32 backward)
{
	c->max_credits = max_credits ? max_credits : 1;
	c->high_grant = 1;
	c->outstanding = 0;
	c->backward = backward;
}

u32 credits_responder_grant(const ResponderCredits &c, u32 requested)
{
	u32 want = requested ? requested : 1;

	return ktl::min(want, c.max_credits);
}

bool credits_responder_receive(ResponderCredits *c)
{
	if (c->outstanding < ktl::U32_MAX)
		c->outstanding++;
	return c->outstanding <= c->high_grant + c->backward;
}

u32 credits_responder_reply(ResponderCredits *c, u32 requested)
{
	u32 g = credits_responder_grant(*c, requested);

	credits_responder_drop(c);
	c->high_grant = ktl::max(c->high_grant, g);
	return g;
}

void credits_responder_drop(ResponderCredits *c)
{
	if (c->outstanding)
		c->outstanding--;
}

} // namespace rpcrdmax::core
