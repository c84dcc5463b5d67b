/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/kernel.h - what the kernel-facing ktl headers share: the shim API,
 * the generated constants, and the errno cross-check.
 *
 * Only code that runs in the module (or against a fake shim) includes
 * this; the protocol core does not.
 */
#pragma once

#include "rpcrdmax_consts.h"
#include "rpcrdmax_shim.h"
#include "result.h"

namespace rpcrdmax::ktl {

/* ktl's errno numbers must be the kernel's (shim/sunrpc/main.c checks the other side). */
static_assert(err::EPERM == RPCRDMAX_EPERM && err::ENOENT == RPCRDMAX_ENOENT &&
	      err::ESRCH == RPCRDMAX_ESRCH &&
	      err::EINTR == RPCRDMAX_EINTR && err::EIO == RPCRDMAX_EIO &&
	      err::E2BIG == RPCRDMAX_E2BIG && err::EAGAIN == RPCRDMAX_EAGAIN &&
	      err::ENOMEM == RPCRDMAX_ENOMEM && err::EFAULT == RPCRDMAX_EFAULT &&
	      err::EBUSY == RPCRDMAX_EBUSY && err::EEXIST == RPCRDMAX_EEXIST &&
	      err::ENODEV == RPCRDMAX_ENODEV && err::EINVAL == RPCRDMAX_EINVAL &&
	      err::ENOSPC == RPCRDMAX_ENOSPC && err::ERANGE == RPCRDMAX_ERANGE &&
	      err::ENOSYS == RPCRDMAX_ENOSYS && err::ENOBUFS == RPCRDMAX_ENOBUFS &&
	      err::EBADSLT == RPCRDMAX_EBADSLT &&
	      err::EMSGSIZE == RPCRDMAX_EMSGSIZE &&
	      err::EPROTONOSUPPORT == RPCRDMAX_EPROTONOSUPPORT &&
	      err::EOPNOTSUPP == RPCRDMAX_EOPNOTSUPP &&
	      err::EADDRINUSE == RPCRDMAX_EADDRINUSE &&
	      err::ENETDOWN == RPCRDMAX_ENETDOWN && err::ENETUNREACH == RPCRDMAX_ENETUNREACH &&
	      err::ECONNABORTED == RPCRDMAX_ECONNABORTED &&
	      err::ECONNRESET == RPCRDMAX_ECONNRESET &&
	      err::ENOTCONN == RPCRDMAX_ENOTCONN && err::ETIMEDOUT == RPCRDMAX_ETIMEDOUT &&
	      err::ECONNREFUSED == RPCRDMAX_ECONNREFUSED &&
	      err::EHOSTUNREACH == RPCRDMAX_EHOSTUNREACH &&
	      err::EALREADY == RPCRDMAX_EALREADY && err::EPROTO == RPCRDMAX_EPROTO &&
	      err::EBADMSG == RPCRDMAX_EBADMSG && err::MAX_ERRNO == RPCRDMAX_MAX_ERRNO,
	      "ktl errno values differ from the kernel's");

/*
 * The structure each kernel field belongs to (RPCRDMAX_KERNEL_FIELDS in
 * rpcrdmax_shim.h), as kfield_owner::NAME: a field is read only through a
 * handle of that type, so an offset of one structure never lands in
 * another.
 */
namespace kfield_owner {
#define RPCRDMAX_KFIELD_OWNER(NAME, S, member) using NAME = S;
RPCRDMAX_KERNEL_FIELDS(RPCRDMAX_KFIELD_OWNER)
#undef RPCRDMAX_KFIELD_OWNER
} // namespace kfield_owner

/*
 * A kernel field read in place, no call: Off and Size are the field's
 * offset and width as generated from the target kernel's headers
 * (shim/kernel/consts.c FIELD), Owner its structure; read it with
 * RPCRDMAX_FIELD.
 */
template <typename T, typename Owner, unsigned long Off, unsigned long Size>
inline T kfield(const Owner *obj)
{
	static_assert(sizeof(T) == Size, "the C++ type is not as wide as the kernel's field");
	return *reinterpret_cast<const T *>(reinterpret_cast<const unsigned char *>(obj) + Off);
}

/* The same field, to write in place. */
template <typename T, typename Owner, unsigned long Off, unsigned long Size>
inline T &kfield_ref(Owner *obj)
{
	static_assert(sizeof(T) == Size, "the C++ type is not as wide as the kernel's field");
	return *reinterpret_cast<T *>(reinterpret_cast<unsigned char *>(obj) + Off);
}

/*
 * Storage for a kernel object C++ embeds but must not look inside: Size
 * and Align are generated from the kernel's definition of K, which C++
 * sees declared only (rpcrdmax_shim.h); get() is the typed handle the
 * shims take.
 */
template <typename K, size_t Size, size_t Align> struct alignas(Align) Opaque {
	unsigned char bytes[Size];
	K *get() { return static_cast<K *>(static_cast<void *>(bytes)); }
	const K *get() const { return static_cast<const K *>(static_cast<const void *>(bytes)); }
};

} // namespace rpcrdmax::ktl

/* Field NAME (RPCRDMAX_OFF_NAME, RPCRDMAX_FSIZE_NAME) of kernel object @obj
 * (a pointer to the field's structure), as a T. */
#define RPCRDMAX_FIELD(T, obj, NAME)                                                      \
	(::rpcrdmax::ktl::kfield<T, ::rpcrdmax::ktl::kfield_owner::NAME, RPCRDMAX_OFF_##NAME, \
				 RPCRDMAX_FSIZE_##NAME>(obj))
/* The same, as an lvalue to write. */
#define RPCRDMAX_FIELD_REF(T, obj, NAME)                                      \
	(::rpcrdmax::ktl::kfield_ref<T, ::rpcrdmax::ktl::kfield_owner::NAME,  \
				     RPCRDMAX_OFF_##NAME, RPCRDMAX_FSIZE_##NAME>(obj))

/* RPCRDMAX_NOINIT: ktl/types.h */

/* Report a broken invariant (once, with a backtrace) and evaluate to it. */
#define RPCRDMAX_WARN_ON(cond)                                                 \
	({                                                                     \
		bool _rpcrdmax_c = !!(cond);                                   \
		if (__builtin_expect(_rpcrdmax_c, 0))                          \
			rpcrdmax_warn_once(__FILE__, __LINE__, #cond);         \
		_rpcrdmax_c;                                                   \
	})
