/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/utility.h - the handful of <type_traits>/<utility> pieces rpcrdmax
 * uses, written from compiler built-ins.
 */
#pragma once

#include "types.h"

namespace rpcrdmax::ktl {

template <typename T> struct remove_reference { using type = T; };
template <typename T> struct remove_reference<T &> { using type = T; };
template <typename T> struct remove_reference<T &&> { using type = T; };
template <typename T>
using remove_reference_t = typename remove_reference<T>::type;

template <typename T> struct remove_cv { using type = T; };
template <typename T> struct remove_cv<const T> { using type = T; };
template <typename T> struct remove_cv<volatile T> { using type = T; };
template <typename T> struct remove_cv<const volatile T> { using type = T; };
template <typename T> using remove_cv_t = typename remove_cv<T>::type;

template <typename A, typename B> inline constexpr bool is_same_v = false;
template <typename A> inline constexpr bool is_same_v<A, A> = true;

template <bool B, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { using type = T; };
template <bool B, typename T = void>
using enable_if_t = typename enable_if<B, T>::type;

template <typename T>
inline constexpr bool is_trivially_copyable_v = __is_trivially_copyable(T);
template <typename T>
inline constexpr bool is_trivially_destructible_v =
	__has_trivial_destructor(T);
template <typename T> inline constexpr bool is_enum_v = __is_enum(T);
template <typename T>
inline constexpr bool is_unsigned_v = (T(0) < T(-1));

template <typename T> struct underlying_type { using type = __underlying_type(T); };
template <typename T>
using underlying_type_t = typename underlying_type<T>::type;

template <typename T>
constexpr remove_reference_t<T> &&move(T &&t) noexcept
{
	return static_cast<remove_reference_t<T> &&>(t);
}

template <typename T>
constexpr T &&forward(remove_reference_t<T> &t) noexcept
{
	return static_cast<T &&>(t);
}

template <typename T>
constexpr T &&forward(remove_reference_t<T> &&t) noexcept
{
	return static_cast<T &&>(t);
}

template <typename T, typename U = T>
constexpr T exchange(T &obj, U &&nv)
{
	T old = move(obj);
	obj = forward<U>(nv);
	return old;
}

template <typename T> constexpr void swap(T &a, T &b) noexcept
{
	T t = move(a);
	a = move(b);
	b = move(t);
}

template <typename T> constexpr const T &min(const T &a, const T &b)
{
	return b < a ? b : a;
}

template <typename T> constexpr const T &max(const T &a, const T &b)
{
	return a < b ? b : a;
}

template <typename T> constexpr const T &clamp(const T &v, const T &lo, const T &hi)
{
	return v < lo ? lo : (hi < v ? hi : v);
}

/* The least power of two not below @v (1 for 0); @v at most 2^31. */
constexpr u32 round_up_pow2(u32 v)
{
	u32 p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

template <typename E> constexpr underlying_type_t<E> to_underlying(E e)
{
	return static_cast<underlying_type_t<E>>(e);
}

/* Overflow-checked arithmetic: true when the result did not fit. */
template <typename T> [[nodiscard]] constexpr bool add_overflow(T a, T b, T *r)
{
	return __builtin_add_overflow(a, b, r);
}

template <typename T> [[nodiscard]] constexpr bool mul_overflow(T a, T b, T *r)
{
	return __builtin_mul_overflow(a, b, r);
}

template <typename T> constexpr T round_up(T v, T align)
{
	return (v + align - 1) / align * align;
}

template <typename T, size_t N> constexpr size_t array_size(T (&)[N])
{
	return N;
}

/* Byte copies: the compiler lowers these to the kernel's memcpy/memset. */
inline void mem_copy(void *dst, const void *src, size_t n)
{
	__builtin_memcpy(dst, src, n);
}

inline void mem_set(void *dst, int c, size_t n)
{
	__builtin_memset(dst, c, n);
}

inline int mem_compare(const void *a, const void *b, size_t n)
{
	return __builtin_memcmp(a, b, n);
}

/* The NUL-terminated strings @a and @b are equal. */
inline bool str_equal(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

} // namespace rpcrdmax::ktl
