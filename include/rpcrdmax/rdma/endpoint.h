/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma/endpoint.h - what both ends of an RPC-over-RDMA connection set up
 * the same way: the PD, CQs and QP on its CM id (make_queues), and the
 * DMA-mapped message buffers its Sends and Receives use (MsgBuf), made
 * once when the connection is set up and reused by every RPC.
 *
 * xprtrdma's Conn and svcrdma's SvcConn each own their queues and
 * buffers (and tear them down in their own order); this is the code they
 * share to make them.
 */
#pragma once

#include "../ktl/alloc.h"
#include "../ktl/result.h"
#include "verbs.h"

namespace rpcrdmax::rdma {

/* How large make_queues() makes the queues of one connection. */
struct QueueSizes {
	ktl::u32 send_wr, recv_wr;   /* work requests each queue holds */
	ktl::u32 send_cqe, recv_cqe; /* entries each CQ holds */
	ktl::u32 send_sge, recv_sge; /* SGEs per work request */
	ktl::u32 rdma_ctxs;	     /* rdma_rw contexts in use at once (0: none) */
};

/* The step of make_queues() that failed, for a caller's tracepoints. */
enum class QueueStep : ktl::u8 { Pd, SendCq, RecvCq, Qp };

/*
 * The PD, a Send and a Receive CQ (each on any completion vector, polled
 * from a work queue) and the RC QP on @id's device.  Returns the Send
 * Queue depth the QP got (more than @s.send_wr when rdma_rw needs room),
 * or the error, with the step that failed in *@failed unless it is NULL.
 */
inline ktl::Result<ktl::u32> make_queues(CmId &id, Pd &pd, Cq &scq, Cq &rcq,
					 const QueueSizes &s, QueueStep *failed = nullptr)
{
	ib_device *dev = id.device();
	ktl::u32 sq = 0;
	QueueStep unused;

	if (!failed)
		failed = &unused;

	*failed = QueueStep::Pd;
	RPCRDMAX_TRY(pd.alloc(dev));
	*failed = QueueStep::SendCq;
	RPCRDMAX_TRY(scq.alloc(dev, (int)s.send_cqe, RPCRDMAX_ANY_VECTOR, true));
	*failed = QueueStep::RecvCq;
	RPCRDMAX_TRY(rcq.alloc(dev, (int)s.recv_cqe, RPCRDMAX_ANY_VECTOR, true));
	*failed = QueueStep::Qp;
	RPCRDMAX_TRY(id.create_qp(pd, scq, rcq, s.send_wr, s.recv_wr, s.send_sge, s.recv_sge,
				  s.rdma_ctxs, &sq));
	return sq;
}

/*
 * A message buffer: @size octets DMA-mapped once for the direction its
 * work requests use (a Send's or a Receive's), and the Cqe they complete
 * on.  An owner embeds it as its base and finds itself from a completion
 * with static_cast<Owner *>(from(cqe)).
 */
struct MsgBuf {
	MsgBuf(Cqe::Fn fn, rpcrdmax_wc_event event) : cqe(fn, event) {}
	MsgBuf(const MsgBuf &) = delete;
	MsgBuf &operator=(const MsgBuf &) = delete;
	~MsgBuf()
	{
		map.unmap();
		delete[] data;
	}

	static MsgBuf *from(Cqe *c) { return ktl::container_of(c, &MsgBuf::cqe); }

	/*
	 * Allocate the buffer (-ENOMEM) and map it on @dev for @dir.  A
	 * mapping that fails leaves data set: the caller's tracepoint then
	 * reports map.dma().  @id: the cid its completions' tracepoints print.
	 */
	ktl::Result<void> make(ib_device *dev, ktl::u32 len, int dir, int id,
			       ktl::Gfp gfp = ktl::Gfp::Kernel)
	{
		cqe.set_id(id);
		data = new (gfp) ktl::u8[len];
		if (!data)
			return ktl::error(ktl::err::ENOMEM);
		size = len;
		return map.map(dev, data, len, dir);
	}
	bool map_failed(const ktl::Result<void> &r) const { return r.is_error() && data; }

	/* The whole buffer as one SGE, synced for the device. */
	rpcrdmax_sge sge_for_device(ktl::u32 lkey)
	{
		map.sync_for_device();
		return map.sge(lkey);
	}

	Cqe cqe; /* first: see Cqe */
	DmaBuf map;
	ktl::u8 *data = nullptr;
	ktl::u32 size = 0;
};

} // namespace rpcrdmax::rdma
