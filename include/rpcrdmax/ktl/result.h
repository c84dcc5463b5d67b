/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/result.h - checked errno values and Result<T>.
 *
 * An Errno always holds a kernel error code in [-MAX_ERRNO, -1]; building
 * one from anything else yields -EINVAL rather than a success that is not
 * one.  Result<T> carries either a T or an Errno and must be looked at
 * ([[nodiscard]]).  RPCRDMAX_TRY() unwraps a Result or returns its error
 * from the enclosing function, the way SerenityOS's TRY() does.
 *
 * The errno numbers are the Linux UAPI ones; the kernel build re-checks
 * them against <uapi/asm-generic/errno*.h> (see shim/kernel/consts.c).
 */
#pragma once

#include "types.h"
#include "placement.h"
#include "utility.h"

namespace rpcrdmax::ktl {

namespace err {
inline constexpr int EPERM = 1;
inline constexpr int ENOENT = 2;
inline constexpr int ESRCH = 3;
inline constexpr int EINTR = 4;
inline constexpr int EIO = 5;
inline constexpr int E2BIG = 7;
inline constexpr int EAGAIN = 11;
inline constexpr int ENOMEM = 12;
inline constexpr int EFAULT = 14;
inline constexpr int EBUSY = 16;
inline constexpr int EEXIST = 17;
inline constexpr int ENODEV = 19;
inline constexpr int EINVAL = 22;
inline constexpr int ENOSPC = 28;
inline constexpr int ERANGE = 34;
inline constexpr int ENOSYS = 38;
inline constexpr int EBADSLT = 57;
inline constexpr int ENOBUFS = 105;
inline constexpr int EMSGSIZE = 90;
inline constexpr int EPROTONOSUPPORT = 93;
inline constexpr int EOPNOTSUPP = 95;
inline constexpr int EADDRINUSE = 98;
inline constexpr int ENETDOWN = 100;
inline constexpr int ENETUNREACH = 101;
inline constexpr int ECONNABORTED = 103;
inline constexpr int ECONNRESET = 104;
inline constexpr int ENOTCONN = 107;
inline constexpr int ETIMEDOUT = 110;
inline constexpr int ECONNREFUSED = 111;
inline constexpr int EHOSTUNREACH = 113;
inline constexpr int EALREADY = 114;
inline constexpr int EPROTO = 71;
inline constexpr int EBADMSG = 74;
inline constexpr int MAX_ERRNO = 4095;
} // namespace err

class [[nodiscard]] Errno {
public:
	/* @e: a negative errno; anything else becomes -EINVAL. */
	static constexpr Errno from(int e)
	{
		return Errno(e < 0 && e >= -err::MAX_ERRNO ? e : -err::EINVAL);
	}
	constexpr int code() const { return code_; }
	constexpr bool operator==(const Errno &o) const { return code_ == o.code_; }

private:
	constexpr explicit Errno(int e) : code_(e) {}
	int code_;
};

/* Build an Errno from a positive constant: ktl::error(err::ENOMEM). */
constexpr Errno error(int positive)
{
	return Errno::from(-positive);
}

template <typename T> class [[nodiscard]] Result {
public:
	Result(const T &v) : ok_(true) { new (&val_) T(v); }
	Result(T &&v) : ok_(true) { new (&val_) T(move(v)); }
	constexpr Result(Errno e) : ok_(false), err_(e) {}
	Result(const Result &) = delete;
	Result &operator=(const Result &) = delete;
	Result(Result &&o) : ok_(o.ok_), err_(o.err_)
	{
		if (ok_)
			new (&val_) T(move(o.val_));
	}
	~Result()
	{
		if (ok_)
			val_.~T();
	}

	constexpr bool is_ok() const { return ok_; }
	constexpr bool is_error() const { return !ok_; }
	constexpr Errno error() const { return err_; }
	T &value() { return val_; }
	const T &value() const { return val_; }
	T release_value() { return move(val_); }

private:
	bool ok_;
	Errno err_ = Errno::from(-err::EINVAL);
	union {
		T val_;
	};
};

/* Result<void>: only an error or nothing. */
template <> class [[nodiscard]] Result<void> {
public:
	constexpr Result() : ok_(true) {}
	constexpr Result(Errno e) : ok_(false), err_(e) {}
	constexpr bool is_ok() const { return ok_; }
	constexpr bool is_error() const { return !ok_; }
	constexpr Errno error() const { return err_; }
	constexpr void release_value() const {}

private:
	bool ok_;
	Errno err_ = Errno::from(-err::EINVAL);
};

} // namespace rpcrdmax::ktl

/*
 * RPCRDMAX_TRY(expr): evaluate a Result; on error return the error from the
 * current function, otherwise yield the value (a GNU statement expression).
 */
#define RPCRDMAX_TRY(expr)                                                  \
	({                                                                  \
		auto _rpcrdmax_try = (expr);                                \
		if (_rpcrdmax_try.is_error())                               \
			return _rpcrdmax_try.error();                       \
		_rpcrdmax_try.release_value();                              \
	})
