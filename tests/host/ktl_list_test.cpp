// SPDX-License-Identifier: GPL-2.0
/*
 * ktl::List, the intrusive list the transports keep their contexts on:
 * what the kernel's users rely on, on the host (KUnit runs the rest).
 */
/* rpcrdmax headers first: hosted headers define macros that collide
 * with ktl names. */
#include "rpcrdmax/ktl/list.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using rpcrdmax::ktl::List;
using rpcrdmax::ktl::ListNode;

struct Item {
	explicit Item(int v) : value(v) {}
	int value;
	ListNode node;
};
using Items = List<Item, &Item::node>;

std::vector<int> values(Items &l)
{
	std::vector<int> v;
	l.for_each([&](Item *i) { v.push_back(i->value); });
	return v;
}

// splice_front moves a whole list, in its order, ahead of what the
// other holds (SvcConn::retire gives a batch of send contexts back to
// the free list in one step), and leaves the source empty and usable.
TEST(KtlList, SpliceFrontMovesAllInOrder)
{
	Item a(1), b(2), c(3), x(8), y(9);
	Items dst, src;

	dst.push_back(&x);
	dst.push_back(&y);
	src.push_back(&a);
	src.push_back(&b);
	src.push_back(&c);
	dst.splice_front(&src);
	EXPECT_EQ(values(dst), (std::vector<int>{ 1, 2, 3, 8, 9 }));
	EXPECT_TRUE(src.empty());
	EXPECT_EQ(src.front(), nullptr);
	EXPECT_EQ(dst.count(), 5u);
	// the links hold both ways: popping from the front and removing
	// from the middle keep the order
	Items::remove(&c);
	EXPECT_EQ(dst.pop_front(), &a);
	EXPECT_EQ(values(dst), (std::vector<int>{ 2, 8, 9 }));
	EXPECT_FALSE(c.node.linked());
	// the source takes entries again
	src.push_back(&c);
	EXPECT_EQ(values(src), (std::vector<int>{ 3 }));
	// an empty source changes nothing; into an empty list, all of it
	Items empty, fresh;
	dst.splice_front(&empty);
	EXPECT_EQ(values(dst), (std::vector<int>{ 2, 8, 9 }));
	fresh.splice_front(&dst);
	EXPECT_EQ(values(fresh), (std::vector<int>{ 2, 8, 9 }));
	EXPECT_TRUE(dst.empty());
	while (fresh.pop_front())
		;
	src.pop_front();
}

// find returns the first entry its predicate holds for, or nullptr:
// Conn::frwr_remote_invalidated stops at the one MR with the rkey.
TEST(KtlList, FindReturnsFirstMatch)
{
	Item a(1), b(2), c(2);
	Items l;

	EXPECT_EQ(l.find([](const Item *) { return true; }), nullptr);
	l.push_back(&a);
	l.push_back(&b);
	l.push_back(&c);
	int asked = 0;
	EXPECT_EQ(l.find([&](const Item *i) { asked++; return i->value == 2; }), &b);
	EXPECT_EQ(asked, 2);
	EXPECT_EQ(l.find([](const Item *i) { return i->value == 7; }), nullptr);
	EXPECT_EQ(values(l), (std::vector<int>{ 1, 2, 2 }));
	while (l.pop_front())
		;
}

} // namespace
