/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/selftest/vectors.h - wire test vectors built from the field
 * definitions of the specifications.
 *
 * Transport headers are written as XDR words (each becomes four octets,
 * big-endian; a 64-bit offset is two words, high then low) with a
 * comment naming the field, so each vector can be checked against the
 * XDR in RFC 8166 Section 4.1 / RFC 5666 Section 4.3 and the version 2
 * draft Section 6.2.  Private Data vectors are octets (RFC 8797
 * Section 4).  Shared by the self-tests, the host tests and the fuzz
 * corpus generator.
 */
#pragma once

#include <rpcrdmax/core/wire.h>

namespace rpcrdmax::core::selftest::vec {

inline constexpr u32 kXid = 0x4a5b6c7d;

/* A minimal ONC RPC Call header (RFC 5531 Section 9): NFSv3 NULL. */
#define RPCRDMAX_VEC_RPC_CALL                                              \
	kXid, 0 /* CALL */, 2 /* rpcvers */, 100003 /* NFS */, 3 /* vers */, \
		0 /* proc */, 0, 0 /* AUTH_NONE cred */, 0, 0 /* verifier */

/* RDMA_MSG, empty lists, RPC Call inline.  hdr 28, payload 40. */
inline constexpr u32 kV1MsgInline[] = {
	kXid, 1 /* vers */, 32 /* credit */, 0 /* RDMA_MSG */,
	0 /* Read list end */, 0 /* Write list end */, 0 /* no Reply chunk */,
	RPCRDMAX_VEC_RPC_CALL,
};

/* RDMA_MSG with one Read chunk of two segments at position 48 (the end
 * of the 48-octet inline Call).  hdr 76, payload 48. */
inline constexpr u32 kV1MsgReadChunk[] = {
	kXid, 1, 32, 0 /* RDMA_MSG */,
	1 /* read segment follows */, 48 /* position */,
	0x11111111 /* handle */, 4096 /* length */, 0x00000001, 0x00000000 /* offset */,
	1, 48, 0x22222222, 4100, 0x00000001, 0x00002000,
	0 /* Read list end */, 0 /* Write list end */, 0 /* no Reply chunk */,
	RPCRDMAX_VEC_RPC_CALL, 0x1000 /* arg */, 8196 /* count */,
};

/* RDMA_NOMSG Long Call: one Position Zero Read chunk.  hdr 52. */
inline constexpr u32 kV1NoMsgLongCall[] = {
	kXid, 1, 32, 1 /* RDMA_NOMSG */,
	1, 0 /* position zero */, 0x33333333, 2048, 0x00000000, 0x00010000,
	0, 0, 0,
};

/* RDMA_MSG Call offering a Write chunk (two segments) and a Reply chunk
 * (one segment).  hdr 88, payload 40. */
inline constexpr u32 kV1MsgWriteReply[] = {
	kXid, 1, 32, 0,
	0 /* Read list end */,
	1 /* write chunk follows */, 2 /* segment count */,
	0x44444444, 65536, 0xffff8800, 0x00100000,
	0x55555555, 32768, 0xffff8800, 0x00200000,
	0 /* Write list end */,
	1 /* Reply chunk present */, 1, 0x66666666, 4096, 0x00000000, 0x00003000,
	RPCRDMAX_VEC_RPC_CALL,
};

/* RDMA_ERROR / ERR_VERS, versions 1..1.  28 octets. */
inline constexpr u32 kV1ErrVers[] = {kXid, 1, 16, 4 /* RDMA_ERROR */, 1 /* ERR_VERS */, 1, 1};
/* RDMA_ERROR / ERR_VERS answering a version 2 Call: its rdma_vers is the
 * Call's (RFC 8166 Section 4.5).  28 octets. */
inline constexpr u32 kV1ErrVersTo2[] = {kXid, 2, 16, 4, 1, 1, 1};
/* RDMA_ERROR / ERR_CHUNK.  20 octets. */
inline constexpr u32 kV1ErrChunk[] = {kXid, 1, 16, 4, 2 /* ERR_CHUNK */};

/* RDMA_MSGP (RFC 5666 Section 4.3): align, thresh, then the lists. */
inline constexpr u32 kV1Msgp[] = {
	kXid, 1, 32, 2 /* RDMA_MSGP */, 4096 /* rdma_align */, 1024 /* rdma_thresh */,
	0, 0, 0, RPCRDMAX_VEC_RPC_CALL,
};
/* RDMA_DONE (RFC 5666): no body. */
inline constexpr u32 kV1Done[] = {kXid, 1, 32, 3 /* RDMA_DONE */};
/* RDMA_DONE with three more words: as long as a minimal header. */
inline constexpr u32 kV1DoneLong[] = {kXid, 1, 32, 3, 0, 0, 0};
/* A version 2 message arriving at a version 1 responder. */
inline constexpr u32 kV1Vers2[] = {kXid, 2, 32, 0, 0, 0, 0, RPCRDMAX_VEC_RPC_CALL};

/* Replies. */
/* RDMA_NOMSG Long Reply written into the Reply chunk.  hdr 48. */
inline constexpr u32 kV1ReplyNoMsg[] = {
	kXid, 1, 32, 1 /* RDMA_NOMSG */, 0, 0,
	1, 1, 0x66666666, 1500 /* octets written */, 0x00000000, 0x00003000,
};
/* RDMA_MSG Reply echoing the Write chunk with the length written. */
inline constexpr u32 kV1ReplyMsgWrite[] = {
	kXid, 1, 32, 0, 0,
	1, 1, 0x77777777, 8192, 0x00000000, 0x00040000, 0,
	0,
	kXid, 1 /* REPLY */, 0 /* MSG_ACCEPTED */, 0, 0, 0 /* SUCCESS */,
	0 /* NFS3_OK */, 0, 8192 /* count */, 1 /* eof */,
};

/* Version 2 (draft-cel-nfsv4-rpcrdma-version-two-04 Section 6.2). */
inline constexpr u32 kV2MsgCall[] = {
	kXid, 2 /* vers */, 32, 0 /* RDMA2_MSG */,
	0 /* rdma_direction CALL */, 0x11111111 /* rdma_inv_handle */,
	1, 48, 0x11111111, 4096, 0x00000001, 0x00000000,
	0, 0, 0,
	RPCRDMAX_VEC_RPC_CALL, 0x1000, 4096,
};
inline constexpr u32 kV2NoMsgReply[] = {
	kXid, 2, 32, 1 /* RDMA2_NOMSG */, 1 /* REPLY */, 0,
	0, 0, 1, 1, 0x66666666, 1500, 0x00000000, 0x00003000,
};
inline constexpr u32 kV2ErrVers[] = {kXid, 2, 8, 4 /* RDMA2_ERROR */, 1, 1 /* low */, 2 /* high */};
inline constexpr u32 kV2ErrBadXdr[] = {kXid, 2, 8, 4, 2};
inline constexpr u32 kV2ErrInvalidProc[] = {kXid, 2, 8, 4, 3};
inline constexpr u32 kV2ErrReadChunks[] = {kXid, 2, 8, 4, 4, 8 /* rdma_max_chunks */};
inline constexpr u32 kV2ErrWriteChunks[] = {kXid, 2, 8, 4, 5, 8};
inline constexpr u32 kV2ErrSegments[] = {kXid, 2, 8, 4, 6, 64 /* rdma_max_segments */};
inline constexpr u32 kV2ErrWriteResource[] = {kXid, 2, 8, 4, 7, 1 /* chunk index */, 131072 /* needed */};
inline constexpr u32 kV2ErrReplyResource[] = {kXid, 2, 8, 4, 8, 65536 /* needed */};
inline constexpr u32 kV2ErrInvalidOption[] = {kXid, 2, 8, 4, 9};
inline constexpr u32 kV2ErrSystem[] = {kXid, 2, 8, 4, 10};
/* RDMA2_OPTIONAL carrying the 5 octets "hello" and 3 octets of padding. */
inline constexpr u32 kV2Optional[] = {
	kXid, 2, 32, 5 /* RDMA2_OPTIONAL */, 0 /* rdma_optdir CALL */,
	0x00010001 /* rdma_opttype */, 5 /* optinfo length */, 0x68656c6c, 0x6f000000,
};
/* RDMA2_CONNPROP: RBSIZ 8192, BRS GENL, an experimental id with 3 octets;
 * rdma_nochg = { item 0 }. */
inline constexpr u32 kV2ConnProp[] = {
	kXid, 2, 32, 6 /* RDMA2_CONNPROP */,
	3 /* propvals */,
	1 /* RBSIZ */, 4, 8192,
	2 /* BRS */, 4, 2 /* RDMA2_BKREQSUP_GENL */,
	0xfffffff0 /* experimental */, 3, 0xabcdef00,
	1 /* subset words */, 0x00000001,
};
inline constexpr u32 kV2ReqProp[] = {kXid, 2, 32, 7, 1, 1 /* RBSIZ */, 4, 16384};
/* RDMA2_RESPROP: done = {}, rejected = { item 1 }, other = { RBSIZ 12288 }. */
inline constexpr u32 kV2ResProp[] = {kXid, 2, 32, 8, 0, 1, 0x00000002, 1, 1, 4, 12288};
/* RDMA2_UPDPROP: RBSIZ with an empty value (= the default). */
inline constexpr u32 kV2UpdProp[] = {kXid, 2, 32, 9, 1, 1, 0};

/* RFC 8797 Section 4: identifier, version 1, R set, send 8 KiB, recv 64 KiB. */
inline constexpr u8 kPdBasic[] = {0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x07, 0x3f};
/* Preceded by 3 octets of another layer: an unaligned identifier. */
inline constexpr u8 kPdOffset3[] = {0x00, 0x11, 0x22, 0xf6, 0xab, 0x0e, 0x18,
				    0x01, 0x00, 0x00, 0x00};
inline constexpr u8 kPdBadVersion[] = {0xf6, 0xab, 0x0e, 0x18, 0x02, 0x01, 0x07, 0x3f};
inline constexpr u8 kPdTruncated[] = {0x99, 0x99, 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01};
/* Reserved bits all set, R clear; send 1 KiB, receive 256 KiB. */
inline constexpr u8 kPdReserved[] = {0xf6, 0xab, 0x0e, 0x18, 0x01, 0xfe, 0x00, 0xff};
/* A false candidate (version 7), then a valid one: R, 4 KiB / 4 KiB. */
inline constexpr u8 kPdSecondCandidate[] = {0xf6, 0xab, 0x0e, 0x18, 0x07, 0x00, 0x00, 0x00,
					    0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03};

} // namespace rpcrdmax::core::selftest::vec
