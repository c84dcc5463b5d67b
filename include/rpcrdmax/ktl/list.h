/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/list.h - an intrusive, circular, doubly linked list.
 *
 *	struct Req { ktl::ListNode node; ... };
 *	ktl::List<Req, &Req::node> free_reqs;
 *
 * Nodes live inside their objects; the list never allocates.  A node
 * knows whether it is linked, and unlinking twice is harmless.  Locking
 * is the owner's business.
 */
#pragma once

#include "types.h"

namespace rpcrdmax::ktl {

/* Find the object that embeds @ptr as @member. */
template <typename T, typename M> T *container_of(M *ptr, M T::*member)
{
	/* A fake non-null base keeps the offset arithmetic away from null. */
	constexpr uintptr_t probe_base = 0x1000;
	const T *base = reinterpret_cast<const T *>(probe_base);
	auto off = reinterpret_cast<uintptr_t>(&(base->*member)) - probe_base;
	return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(ptr) - off);
}

class ListNode {
public:
	ListNode() = default;
	ListNode(const ListNode &) = delete;
	ListNode &operator=(const ListNode &) = delete;

	bool linked() const { return next_ != this; }
	/* linked() without the lock, as the kernel's READ_ONCE reads. */
	bool linked_once() const { return *static_cast<ListNode *const volatile *>(&next_) != this; }
	void unlink()
	{
		next_->prev_ = prev_;
		prev_->next_ = next_;
		next_ = prev_ = this;
	}

private:
	template <typename T, ListNode T::*> friend class List;
	void insert_after(ListNode *pos)
	{
		next_ = pos->next_;
		prev_ = pos;
		pos->next_->prev_ = this;
		pos->next_ = this;
	}
	ListNode *next_ = this;
	ListNode *prev_ = this;
};

template <typename T, ListNode T::*Node> class List {
public:
	List() = default;
	List(const List &) = delete;
	List &operator=(const List &) = delete;

	bool empty() const { return !head_.linked(); }
	/* For a check whose "empty" answer cannot go stale (nobody else
	 * adds), made without the lock. */
	bool empty_once() const { return !head_.linked_once(); }
	void push_back(T *obj) { (obj->*Node).insert_after(head_.prev_); }
	void push_front(T *obj) { (obj->*Node).insert_after(&head_); }
	T *front() const { return empty() ? nullptr : owner(head_.next_); }
	T *pop_front()
	{
		T *obj = front();
		if (obj)
			(obj->*Node).unlink();
		return obj;
	}
	static void remove(T *obj) { (obj->*Node).unlink(); }
	/* Move every entry of @other, in its order, to the front of this
	 * list: one step however many; @other is left empty. */
	void splice_front(List *other)
	{
		if (other->empty())
			return;
		ListNode *first = other->head_.next_, *last = other->head_.prev_;

		last->next_ = head_.next_;
		head_.next_->prev_ = last;
		head_.next_ = first;
		first->prev_ = &head_;
		other->head_.next_ = other->head_.prev_ = &other->head_;
	}
	size_t count() const
	{
		size_t n = 0;
		for (const ListNode *p = head_.next_; p != &head_; p = p->next_)
			n++;
		return n;
	}

	/* The first entry for which pred(const T *) holds, or nullptr. */
	template <typename P> T *find(P pred) const
	{
		for (const ListNode *p = head_.next_; p != &head_; p = p->next_)
			if (pred(owner(p)))
				return owner(p);
		return nullptr;
	}

	/* Call fn(T *) on each entry; fn may unlink the entry it is given. */
	template <typename F> void for_each(F fn)
	{
		ListNode *p = head_.next_;
		while (p != &head_) {
			ListNode *next = p->next_;
			fn(owner(p));
			p = next;
		}
	}

private:
	static T *owner(const ListNode *n)
	{
		return container_of(const_cast<ListNode *>(n), Node);
	}
	ListNode head_;
};

} // namespace rpcrdmax::ktl
