/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/span.h - a bounded view of contiguous objects.
 *
 * Span never owns memory.  Element access past the end is a programming
 * error; every accessor used on untrusted data (the XDR cursors) checks
 * lengths before it indexes.
 */
#pragma once

#include "types.h"
#include "utility.h"

namespace rpcrdmax::ktl {

template <typename T> class Span {
public:
	constexpr Span() = default;
	constexpr Span(T *data, size_t size) : data_(data), size_(size) {}
	template <size_t N>
	constexpr Span(T (&arr)[N]) : data_(arr), size_(N) {}
	/* Span<T> converts to Span<const T>. */
	template <typename U,
		  typename = enable_if_t<is_same_v<const U, T> && !is_same_v<U, T>>>
	constexpr Span(Span<U> other) : data_(other.data()), size_(other.size())
	{
	}

	constexpr T *data() const { return data_; }
	constexpr size_t size() const { return size_; }
	constexpr bool empty() const { return size_ == 0; }
	constexpr T &operator[](size_t i) const { return data_[i]; }
	constexpr T *begin() const { return data_; }
	constexpr T *end() const { return data_ + size_; }

	/* Sub-views clamp to the end instead of running past it. */
	constexpr Span first(size_t n) const
	{
		return Span(data_, min(n, size_));
	}
	constexpr Span subspan(size_t off) const
	{
		return off >= size_ ? Span(data_ + size_, 0) :
				      Span(data_ + off, size_ - off);
	}
	constexpr Span subspan(size_t off, size_t n) const
	{
		return subspan(off).first(n);
	}

private:
	T *data_ = nullptr;
	size_t size_ = 0;
};

using Bytes = Span<u8>;
using ConstBytes = Span<const u8>;

} // namespace rpcrdmax::ktl
