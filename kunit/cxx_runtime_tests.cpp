// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/cxx_runtime_tests.cpp - the C++ runtime, exercised in the kernel.
 *
 * Each rpcrdmax_kunit_cxx_*() is one KUnit case (kunit/kunit.c); every
 * expectation goes through the check callback so KUnit reports it with
 * this file's line number.
 */
#include "rpcrdmax/ktl/alloc.h"
#include "rpcrdmax/ktl/list.h"
#include "rpcrdmax/ktl/lock.h"
#include "rpcrdmax/ktl/sync.h"

namespace rpcrdmax::kunit_runtime {

using namespace rpcrdmax::ktl;

/*
 * Typed handles, checked where they are compiled: a kernel field is read
 * only through a pointer to its own structure (RPCRDMAX_FIELD), so an
 * rpc_rqst offset applied to an rpc_xprt, an svc_rqst or raw memory does
 * not build.
 */
template <typename Obj>
concept reads_rqst_xid = requires(Obj *o) { RPCRDMAX_FIELD(u32, o, RPC_RQST_XID); };
template <typename Obj>
concept writes_svc_xprt_flags =
	requires(Obj *o) { RPCRDMAX_FIELD_REF(unsigned long, o, SVC_XPRT_FLAGS) = 0; };
static_assert(reads_rqst_xid<rpc_rqst> && reads_rqst_xid<const rpc_rqst>);
static_assert(!reads_rqst_xid<rpc_xprt> && !reads_rqst_xid<svc_rqst> &&
	      !reads_rqst_xid<void> && !reads_rqst_xid<unsigned char>);
static_assert(writes_svc_xprt_flags<svc_xprt> && !writes_svc_xprt_flags<const svc_xprt> &&
	      !writes_svc_xprt_flags<rpc_xprt>);

struct Reporter {
	kunit *ctx;
	rpcrdmax_check_fn fn;
	void operator()(bool ok, const char *what, int line) const
	{
		fn(ctx, ok, what, __FILE__, line);
	}
};
#define EXPECT(cond) check((cond), #cond, __LINE__)

struct Tracked {
	explicit Tracked(int v, int *dtors) : value(v), dtors_(dtors) {}
	~Tracked() { (*dtors_)++; }
	int value;
	int *dtors_;
};

static void new_delete(Reporter check)
{
	int dtors = 0;
	Tracked *t = new (Gfp::Kernel) Tracked(42, &dtors);

	EXPECT(t != nullptr);
	if (!t)
		return;
	EXPECT(t->value == 42);
	delete t;
	EXPECT(dtors == 1);

	/* Arrays of a class with a destructor: all elements destroyed. */
	struct Elem {
		int *count;
		Elem() : count(nullptr) {}
		~Elem()
		{
			if (count)
				(*count)++;
		}
	};
	int edtors = 0;
	Elem *arr = new (Gfp::Kernel) Elem[8];
	EXPECT(arr != nullptr);
	if (arr) {
		for (int i = 0; i < 8; i++)
			arr[i].count = &edtors;
		delete[] arr;
		EXPECT(edtors == 8);
	}

	/* Zeroed memory really is zero. */
	auto *z = new (Gfp::Kernel | GfpZero) u8[512];
	EXPECT(z != nullptr);
	if (z) {
		bool all_zero = true;
		for (int i = 0; i < 512; i++)
			all_zero &= z[i] == 0;
		EXPECT(all_zero);
		delete[] z;
	}

	/* A failed allocation yields nullptr and runs no constructor. */
	struct Huge {
		u8 bytes[1ul << 30];
		Huge() { bytes[0] = 1; }
	};
	Huge *h = new (Gfp::Kernel | GfpNoWarn) Huge[64];
	EXPECT(h == nullptr);
	delete[] h;
}

struct Shape {
	virtual ~Shape() = default;
	virtual int sides() const = 0;
	virtual int kind() const { return 0; }
};

struct Triangle : Shape {
	explicit Triangle(int *dtors) : dtors_(dtors) {}
	~Triangle() override { (*dtors_)++; }
	int sides() const override { return 3; }
	int *dtors_;
};

struct Square : Shape {
	explicit Square(int *dtors) : dtors_(dtors) {}
	~Square() override { (*dtors_) += 10; }
	int sides() const override { return 4; }
	int kind() const override { return 1; }
	int *dtors_;
};

static void virtual_dispatch(Reporter check)
{
	int dtors = 0;
	Shape *shapes[2] = { new (Gfp::Kernel) Triangle(&dtors),
			     new (Gfp::Kernel) Square(&dtors) };

	EXPECT(shapes[0] && shapes[1]);
	if (!shapes[0] || !shapes[1]) {
		delete shapes[0];
		delete shapes[1];
		return;
	}
	EXPECT(shapes[0]->sides() == 3 && shapes[0]->kind() == 0);
	EXPECT(shapes[1]->sides() == 4 && shapes[1]->kind() == 1);
	/* Deleting through the base runs the derived destructor. */
	delete shapes[0];
	EXPECT(dtors == 1);
	delete shapes[1];
	EXPECT(dtors == 11);
}

struct Locked {
	SpinLock lock;
	Mutex mutex;
	int counter = 0;
};

static void lock_guard(Reporter check)
{
	Locked *l = new (Gfp::Kernel) Locked;

	EXPECT(l != nullptr);
	if (!l)
		return;
	EXPECT(!l->lock.is_locked());
	{
		SpinLockGuard g(&l->lock);
		EXPECT(l->lock.is_locked());
		l->counter++;
	}
	EXPECT(!l->lock.is_locked());
	{
		SpinLockGuard g(&l->lock);
		g.release();
		EXPECT(!l->lock.is_locked());
	}
	EXPECT(!l->lock.is_locked());
	{
		SpinLockIrqGuard g(&l->lock);
		EXPECT(l->lock.is_locked());
	}
	{
		SpinLockBhGuard g(&l->lock);
		EXPECT(l->lock.is_locked());
	}
	EXPECT(!l->lock.is_locked());
	{
		MutexGuard g(&l->mutex);
		EXPECT(l->mutex.is_locked());
	}
	EXPECT(!l->mutex.is_locked());
	EXPECT(l->counter == 1);
	delete l;
}

struct Job {
	explicit Job() : work(&Job::run) {}
	static void run(FnWork *w)
	{
		Job *job = container_of(w, &Job::work);
		job->runs.add_return(1);
		job->done.complete();
	}
	FnWork work;
	Atomic runs;
	Completion done;
	ListNode node;
};

static void workqueue(Reporter check)
{
	Job *job = new (Gfp::Kernel) Job;

	EXPECT(job != nullptr);
	if (!job)
		return;
	/* System workqueue: runs once, in another context, and completes. */
	EXPECT(job->work.queue());
	EXPECT(job->done.wait_ms(10000));
	job->work.flush();
	EXPECT(job->runs.read() == 1);

	/* A queue of our own, several jobs on an intrusive list. */
	workqueue_struct *wq = rpcrdmax_wq_alloc("rpcrdmax_kunit", true);
	EXPECT(wq != nullptr);
	List<Job, &Job::node> jobs;
	for (int i = 0; i < 4 && wq; i++) {
		Job *j = new (Gfp::Kernel) Job;
		EXPECT(j != nullptr);
		if (!j)
			break;
		jobs.push_back(j);
		EXPECT(j->work.queue(wq));
	}
	EXPECT(jobs.count() == 4);
	jobs.for_each([&](Job *j) {
		EXPECT(j->done.wait_ms(10000));
		j->work.flush();
		EXPECT(j->runs.read() == 1);
	});
	while (Job *j = jobs.pop_front())
		delete j;
	EXPECT(jobs.empty());
	rpcrdmax_wq_destroy(wq);
	delete job;
}

/* A thread sleeping on a WaitQueue until @go, for ten minutes at most:
 * only a wake-up ends its sleep within the test's wait. */
struct Sleeper {
	Sleeper() : work(&Sleeper::run) {}
	static void run(FnWork *w)
	{
		Sleeper *s = container_of(w, &Sleeper::work);
		auto cond = [s] { return s->go.read() != 0; };
		s->started.complete();
		s->woke = s->wq.wait_ms(cond, 600000);
		s->done.complete();
	}
	FnWork work;
	WaitQueue wq;
	Atomic go;
	bool woke = false;
	Completion started, done, never;
};

/* wake_all() wakes a sleeper, and with none does nothing (it tests for
 * sleepers in place, without a call). */
static void waitqueue(Reporter check)
{
	Sleeper *s = new (Gfp::Kernel) Sleeper;

	EXPECT(s != nullptr);
	if (!s)
		return;
	s->wq.wake_all(); /* nobody sleeps */
	EXPECT(s->work.queue());
	EXPECT(s->started.wait_ms(10000));
	/* time to get onto the queue and sleep */
	EXPECT(!s->never.wait_ms(200));
	s->go.set(1);
	s->wq.wake_all();
	EXPECT(s->done.wait_ms(10000));
	EXPECT(s->woke);
	s->work.flush();
	delete s;
}

static Result<int> half(int v)
{
	if (v & 1)
		return error(err::EINVAL);
	return v / 2;
}

static Result<int> quarter(int v)
{
	int h = RPCRDMAX_TRY(half(v));
	return RPCRDMAX_TRY(half(h));
}

static void result(Reporter check)
{
	auto ok = quarter(8);
	EXPECT(ok.is_ok() && ok.value() == 2);
	auto bad = quarter(6); /* 6 -> 3 -> odd */
	EXPECT(bad.is_error() && bad.error().code() == -err::EINVAL);
	EXPECT(Errno::from(-err::ENOMEM).code() == -err::ENOMEM);
	/* Not an errno: never mistaken for success. */
	EXPECT(Errno::from(0).code() == -err::EINVAL);
	EXPECT(Errno::from(-5000).code() == -err::EINVAL);
	RefCount ref(1);
	ref.get();
	EXPECT(ref.read() == 2);
	EXPECT(!ref.put());
	EXPECT(ref.put());
}

#undef EXPECT

} // namespace rpcrdmax::kunit_runtime

#define RPCRDMAX_KUNIT_ENTRY(name, body)                                       \
	extern "C" void rpcrdmax_kunit_cxx_##name(kunit *ctx,                     \
						  rpcrdmax_check_fn check) noexcept \
	{                                                                      \
		rpcrdmax::kunit_runtime::body(                                 \
			rpcrdmax::kunit_runtime::Reporter{ ctx, check });      \
	}

RPCRDMAX_KUNIT_ENTRY(new_delete, new_delete)
RPCRDMAX_KUNIT_ENTRY(virtual, virtual_dispatch)
RPCRDMAX_KUNIT_ENTRY(lock_guard, lock_guard)
RPCRDMAX_KUNIT_ENTRY(workqueue, workqueue)
RPCRDMAX_KUNIT_ENTRY(result, result)
RPCRDMAX_KUNIT_ENTRY(waitqueue, waitqueue)
