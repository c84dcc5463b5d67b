/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/credits.h - RPC-over-RDMA credit accounting (RFC 8166 Section
 * 3.3.1; RFC 5666 Section 3.3).
 *
 * Credits are Send flow control: the number of Calls a requester may
 * have outstanding, which the responder backs with posted Receives.
 *
 * Requester rules:
 *  - until the first Reply arrives, assume a grant of one credit;
 *  - never have more unanswered Calls than the current grant;
 *  - a grant of zero is treated as one (RFC 5666 Section 3.3: zero would
 *    deadlock a requester with nothing outstanding);
 *  - a grant above what we asked for is clamped to what we can use.
 *
 * Responder rules:
 *  - never grant zero;
 *  - grant no more than we can back with Receives (max_credits), and no
 *    more than was asked for;
 *  - a Call stops being outstanding when its Reply is built (before the
 *    Send is posted, so the requester never sees a credit back before
 *    we do), or, if it gets none, when it is dropped;
 *  - more outstanding Calls than ever granted is an overrun: RFC 5666
 *    Section 3.3 (carried into RFC 8166 Section 3.3.1) makes handling
 *    the excess OPTIONAL and allows an RPC error.
 *
 * These are plain value types: the transport wraps them in its own lock.
 */
#pragma once

#include <rpcrdmax/core/wire.h>

namespace rpcrdmax::core {

struct RequesterCredits {
	u32 max_requests; /* our ceiling; also the value we ask for */
	u32 granted;	  /* current effective grant, >= 1 */
	u32 in_flight;	  /* Calls sent and not yet answered */
};

/* Start of a connection: grant 1 (first exchange), nothing in flight.
 * @max_requests of 0 is taken as 1. */
void credits_requester_init(RequesterCredits *c, u32 max_requests);
/* The rdma_credit value to put in a Call: what we would like. */
u32 credits_requester_request(const RequesterCredits &c);
/* Calls we may send now (0 when the grant shrank below in_flight). */
u32 credits_requester_available(const RequesterCredits &c);
/* Take a credit for one Call; false (and nothing taken) when none is free. */
bool credits_requester_try_send(RequesterCredits *c);
/* A Call was answered (or abandoned after disconnect): return its credit. */
void credits_requester_complete(RequesterCredits *c);
/* Apply the rdma_credit of a valid Reply; returns the new grant. */
u32 credits_requester_update(RequesterCredits *c, u32 credit_field);

struct ResponderCredits {
	u32 max_credits;  /* Receives we keep posted for this connection */
	u32 high_grant;   /* largest grant ever sent (1 before any) */
	u32 outstanding;  /* messages received and not yet answered or dropped */
	u32 backward;     /* messages beyond the grant that are not Calls */
};

/*
 * @max_credits of 0 is taken as 1.  @backward: how many messages other
 * than Calls the requester may have in flight besides its granted Calls:
 * the Replies to our backward-direction Calls (RFC 8167), which arrive
 * on the same Receives and are counted until they are told apart.
 */
void credits_responder_init(ResponderCredits *c, u32 max_credits, u32 backward = 0);
/* The grant for a Reply, given the requester's rdma_credit: in
 * [1, max_credits], never zero. */
u32 credits_responder_grant(const ResponderCredits &c, u32 requested);
/* A message arrived.  False when the requester now has more outstanding
 * than it was ever granted plus @backward (RFC 8166 Section 3.3.1: the
 * responder may then fail the RPC or close the connection). */
bool credits_responder_receive(ResponderCredits *c);
/* A Reply is being built for one Call: the Call is no longer
 * outstanding; returns the grant to put in the Reply. */
u32 credits_responder_reply(ResponderCredits *c, u32 requested);
/* A Call counted by credits_responder_receive() gets no Reply (dropped,
 * or its connection is gone): it is no longer outstanding. */
void credits_responder_drop(ResponderCredits *c);

} // namespace rpcrdmax::core
