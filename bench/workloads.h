/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocator workloads, written once and compiled twice: into the kernel
 * against kmalloc/kfree (bench/workloads.c) and into bench/peer.c
 * against malloc/free, which then runs under glibc, jemalloc, mimalloc
 * and tcmalloc. The includer defines:
 *
 *	BENCH_ALLOC(size)	allocate size bytes
 *	BENCH_ZALLOC(size)	allocate size zeroed bytes (kzalloc, calloc)
 *	BENCH_FREE(ptr, size)	free them
 *	BENCH_SCRATCH(bytes)	memory for the workloads' own tables,
 *				taken once and kept
 *	BENCH_MEM_KB()		memory the allocator holds now, in KiB
 *				(pages in use; RSS for the peers)
 *	BENCH_SPAWN(cpu, fn, arg) run fn(arg) on CPU/thread cpu (1, 2,
 *				...; the caller is 0); 0 if it runs,
 *				nonzero if it cannot
 *	BENCH_JOIN(cpu)		wait for it
 *	BENCH_NOW_NS()		a monotonic clock in nanoseconds
 *	BENCH_CPU_NS()		the CPU time this thread has used, in ns
 *	BENCH_RELAX()		what a spinning wait does each turn
 *
 * and may define SCALE_MAX_THREADS, the most threads a scaling run takes
 * (64 if not).
 *
 * Every allocation is touched (one byte written through a volatile
 * pointer; every page of it where the memory held is measured) so
 * neither side can skip it, and results go to bench_sink.
 * Workloads that hold many objects at once record in bench_peak_kb the
 * memory the allocator held at their peak, above what it held when the
 * program started (bench_base_kb; the includer defines both and prints
 * the peak). Both sides run the workloads in the same (name) order, so
 * memory kept from earlier workloads counts alike.
 */
#ifndef BENCH_WORKLOADS_H
#define BENCH_WORKLOADS_H

#define BATCH_OBJECTS	100000

/*
 * What one thread writes and another reads sits on lines of its own (two,
 * for the adjacent-line prefetcher): a line shared with the other
 * thread's data, or with the allocator's, would charge every allocation
 * a cache-line transfer that is the workload's doing, not the allocator's.
 */
#define BENCH_LINE_PAIR	128

static volatile unsigned long bench_sink;
static void **batch_objs;
static unsigned int *batch_sizes;
static unsigned int *batch_order;

static inline void bench_touch(void *p)
{
	*(volatile char *)p = 1;
}

/*
 * Write every 4 KiB page of an object of size bytes (one byte each and
 * the last byte), as a program that uses what it allocates would: the
 * peers' peak is their resident set, which counts only pages written,
 * while the kernel counts every page its allocator handed out.
 */
static inline void bench_touch_all(void *p, unsigned long size)
{
	volatile char *c = p;

	for (unsigned long off = 0; off < size; off += 4096)
		c[off] = 1;
	c[size - 1] = 1;
}

/* xorshift64: the same sequence in every build. */
static inline unsigned long bench_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* Allocate and free one object of size, iters times. */
static inline void wl_hot_pair(unsigned long iters, unsigned long size)
{
	for (unsigned long i = 0; i < iters; i++) {
		void *p = BENCH_ALLOC(size);

		bench_touch(p);
		BENCH_FREE(p, size);
	}
}

/* The same with zeroed memory: what kzalloc and calloc cost. */
static inline void wl_zero_pair(unsigned long iters, unsigned long size)
{
	for (unsigned long i = 0; i < iters; i++) {
		void *p = BENCH_ZALLOC(size);

		bench_touch(p);
		BENCH_FREE(p, size);
	}
}

/*
 * 100,000 objects of random sizes 8..4096, then freed in random order
 * (shuffled) or in allocation order. Returns the number of operations,
 * 0 if the memory ran out (all freed again).
 */
static inline unsigned long wl_batch(bool random_order)
{
	unsigned long seed = 0x9e3779b97f4a7c15UL;

	if (!batch_objs) {
		batch_objs = BENCH_SCRATCH(BATCH_OBJECTS * sizeof(void *));
		batch_sizes = BENCH_SCRATCH(BATCH_OBJECTS * sizeof(unsigned int));
		batch_order = BENCH_SCRATCH(BATCH_OBJECTS * sizeof(unsigned int));
		if (!batch_objs || !batch_sizes || !batch_order)
			return 0;
	}
	for (unsigned int i = 0; i < BATCH_OBJECTS; i++) {
		batch_sizes[i] = 8 + (unsigned int)(bench_rand(&seed) % 4089);
		batch_order[i] = i;
	}
	for (unsigned int i = BATCH_OBJECTS - 1; random_order && i > 0; i--) {
		unsigned int j = (unsigned int)(bench_rand(&seed) % (i + 1));
		unsigned int tmp = batch_order[i];

		batch_order[i] = batch_order[j];
		batch_order[j] = tmp;
	}
	for (unsigned int i = 0; i < BATCH_OBJECTS; i++) {
		batch_objs[i] = BENCH_ALLOC(batch_sizes[i]);
		if (!batch_objs[i]) {	/* too little memory for the batch */
			while (i--)
				BENCH_FREE(batch_objs[i], batch_sizes[i]);
			return 0;
		}
		bench_touch_all(batch_objs[i], batch_sizes[i]);
	}
	bench_peak_kb = BENCH_MEM_KB() - bench_base_kb;
	for (unsigned int i = 0; i < BATCH_OBJECTS; i++) {
		unsigned int k = batch_order[i];

		BENCH_FREE(batch_objs[k], batch_sizes[k]);
	}
	return 2UL * BATCH_OBJECTS;
}

/* n objects of size at once, then all freed: the bulk pattern. */
static inline void wl_burst(unsigned long iters, unsigned long size,
			    unsigned int n)
{
	void *objs[64];

	for (unsigned long i = 0; i < iters; i++) {
		for (unsigned int j = 0; j < n; j++) {
			objs[j] = BENCH_ALLOC(size);
			bench_touch(objs[j]);
		}
		for (unsigned int j = 0; j < n; j++)
			BENCH_FREE(objs[j], size);
	}
}

/* The speed limit: a bare LIFO of pointers, push then pop. */
static inline void wl_lifo(unsigned long iters)
{
	static void *stack[64];
	volatile unsigned int top = 0;

	for (unsigned long i = 0; i < iters; i++) {
		stack[top++] = (void *)&stack[i & 63];
		bench_touch(stack[--top]);
	}
	bench_sink += top;
}

/*
 * Producer/consumer on two CPUs: the producer allocates and touches
 * objects and hands them over through a single-producer single-consumer
 * ring; the consumer frees them, so every object dies on the other CPU.
 */
#define PC_RING		1024
#define PC_OBJECTS	1000000UL

struct pc_ring {
	void *slot[PC_RING];
	/* written by the producer */
	unsigned long head __attribute__((aligned(BENCH_LINE_PAIR)));
	/* written by the consumer */
	unsigned long tail __attribute__((aligned(BENCH_LINE_PAIR)));
} __attribute__((aligned(BENCH_LINE_PAIR)));

static struct pc_ring pc_ring;

static void pc_consumer(void *arg)
{
	struct pc_ring *r = arg;

	for (unsigned long n = 0; n < PC_OBJECTS; n++) {
		void *p;

		while (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == r->tail)
			;
		p = r->slot[r->tail % PC_RING];
		__atomic_store_n(&r->tail, r->tail + 1, __ATOMIC_RELEASE);
		BENCH_FREE(p, 64);
	}
}

/*
 * The consumer on CPU/thread cpu. Returns operations done (allocations +
 * frees), 0 if it cannot run there.
 */
static inline unsigned long wl_producer_consumer_on(unsigned int cpu)
{
	struct pc_ring *r = &pc_ring;

	r->head = r->tail = 0;
	if (BENCH_SPAWN(cpu, pc_consumer, r))
		return 0;
	for (unsigned long n = 0; n < PC_OBJECTS; n++) {
		void *p = BENCH_ALLOC(64);

		bench_touch(p);
		while (n - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >= PC_RING)
			;
		r->slot[n % PC_RING] = p;
		__atomic_store_n(&r->head, n + 1, __ATOMIC_RELEASE);
	}
	BENCH_JOIN(cpu);
	return 2 * PC_OBJECTS;
}

/* The consumer on CPU/thread 1. */
static inline unsigned long wl_producer_consumer(void)
{
	return wl_producer_consumer_on(1);
}

/*
 * Larson-style server: each of two threads owns a table of live objects
 * of random sizes 16..1024 and keeps replacing a random one (free the
 * old, allocate a new); after every round the threads swap tables, so
 * objects outlive their allocating thread and are freed by the other,
 * as a server's requests are.
 */
#define LARSON_SLOTS	4096
#define LARSON_ROUNDS	10
#define LARSON_STEPS	50000UL

/* Each thread's state on lines of its own: see BENCH_LINE_PAIR. */
struct larson_thread {
	void **slots;
	unsigned long seed;
	volatile unsigned long round_done;
	volatile unsigned long go;
} __attribute__((aligned(BENCH_LINE_PAIR)));

static struct larson_thread larson[2];

/* Replace a random object of the table by one of a random size, steps times. */
static void larson_steps(void **slots, unsigned long *seed, unsigned long steps)
{
	for (unsigned long i = 0; i < steps; i++) {
		unsigned long r = bench_rand(seed);
		unsigned int k = (unsigned int)(r % LARSON_SLOTS);
		unsigned long size = 16 + (r >> 32) % 1009;

		BENCH_FREE(slots[k], 0);
		slots[k] = BENCH_ALLOC(size);
		bench_touch(slots[k]);
	}
}

static void larson_round(struct larson_thread *t)
{
	larson_steps(t->slots, &t->seed, LARSON_STEPS);
}

static void larson_swap(void)
{
	void **tmp = larson[0].slots;

	larson[0].slots = larson[1].slots;
	larson[1].slots = tmp;
}

/* The second thread: a round each time the first says go. */
static void larson_worker(void *arg)
{
	struct larson_thread *t = arg;

	for (unsigned long round = 1; round <= LARSON_ROUNDS; round++) {
		while (__atomic_load_n(&t->go, __ATOMIC_ACQUIRE) < round)
			;
		larson_round(t);
		__atomic_store_n(&t->round_done, round, __ATOMIC_RELEASE);
	}
}

static inline unsigned long wl_larson(void)
{
	for (int i = 0; i < 2; i++) {
		if (!larson[i].slots) {
			larson[i].slots = BENCH_SCRATCH(LARSON_SLOTS * sizeof(void *));
			if (!larson[i].slots)
				return 0;
		}
		larson[i].seed = 0x2545f4914f6cdd1dUL * (unsigned long)(i + 1);
		larson[i].go = larson[i].round_done = 0;
		for (unsigned int k = 0; k < LARSON_SLOTS; k++) {
			larson[i].slots[k] = BENCH_ALLOC(64);
			bench_touch(larson[i].slots[k]);
		}
	}
	if (BENCH_SPAWN(1, larson_worker, &larson[1]))
		return 0;
	for (unsigned long round = 1; round <= LARSON_ROUNDS; round++) {
		__atomic_store_n(&larson[1].go, round, __ATOMIC_RELEASE);
		larson_round(&larson[0]);
		while (__atomic_load_n(&larson[1].round_done, __ATOMIC_ACQUIRE) < round)
			;
		larson_swap();
	}
	BENCH_JOIN(1);
	bench_peak_kb = BENCH_MEM_KB() - bench_base_kb;
	for (int i = 0; i < 2; i++) {
		for (unsigned int k = 0; k < LARSON_SLOTS; k++)
			BENCH_FREE(larson[i].slots[k], 0);
	}
	return 2 * 2 * LARSON_ROUNDS * LARSON_STEPS;
}

/*
 * Scaling: one workload on 1, 2 .. N threads (CPUs) at once, each thread
 * doing the same work, so with perfect scaling N threads get N times the
 * one thread's throughput. Thread 0 is the caller; the others start with
 * BENCH_SPAWN() and all wait for one go, so they run together. Each
 * records its operations, its own time and the CPU time it used; the
 * wall time runs from the go until the last thread ended. On a shared
 * machine the wall time also counts the time other work held the CPUs;
 * the CPU time leaves that out. Thread i runs on CPU/thread i, or on
 * cpus[i] where the caller gives the CPUs (cpus[0]: the caller's own).
 *
 *	hot pair	each thread: alloc/touch/free of 256 bytes, its own
 *	producer/	threads 2p and 2p+1 are a pair: 2p allocates, hands
 *	consumer	the objects through a ring, 2p+1 frees them. A thread
 *			alone (one thread, or the last of an odd number)
 *			fills the ring and drains it itself: the same
 *			operations without the other CPU
 *	larson		each thread: rounds of replacing random objects of a
 *			table; after every round the tables rotate (thread i
 *			takes table i+1's), so the objects die on another CPU
 */
#ifndef SCALE_MAX_THREADS		/* the includer may have fewer CPUs */
#define SCALE_MAX_THREADS	64
#endif
#define SCALE_PC_OBJECTS	500000UL	/* per pair, or thread alone */
#define SCALE_LARSON_ROUNDS	10
#define SCALE_LARSON_STEPS	50000UL		/* per thread and round */

struct scale_thread {
	unsigned int id, nr;
	unsigned long work;	/* iterations (objects, steps per round) */
	unsigned long (*fn)(struct scale_thread *t);
	unsigned long ops;	/* done, and in what time of its own */
	unsigned long long start_ns, ns, cpu_ns;
	unsigned long seed;	/* larson */
} __attribute__((aligned(BENCH_LINE_PAIR)));

struct scale_result {
	unsigned int nr;		/* threads that ran (0: could not start) */
	unsigned long ops;		/* all of them */
	unsigned long long wall_ns;	/* from the go until the last ended */
	unsigned long long cpu_ns;	/* all threads' CPU time */
};

static struct scale_thread scale_threads[SCALE_MAX_THREADS];
static struct pc_ring scale_rings[SCALE_MAX_THREADS / 2];
static void **scale_tables[SCALE_MAX_THREADS];	/* larson, during a run */
/* 1: go; 2: a thread could not start, return at once */
static unsigned long scale_go __attribute__((aligned(BENCH_LINE_PAIR)));
static unsigned long scale_rounds_done __attribute__((aligned(BENCH_LINE_PAIR)));

static void scale_thread_main(void *arg)
{
	struct scale_thread *t = arg;
	unsigned long long cpu_ns;
	unsigned long go;

	while (!(go = __atomic_load_n(&scale_go, __ATOMIC_ACQUIRE)))
		BENCH_RELAX();
	if (go != 1)
		return;
	cpu_ns = BENCH_CPU_NS();
	t->start_ns = BENCH_NOW_NS();
	t->ops = t->fn(t);
	t->ns = BENCH_NOW_NS() - t->start_ns;
	t->cpu_ns = BENCH_CPU_NS() - cpu_ns;
}

/*
 * Run fn on nr threads at once, each with work, thread i on cpus[i]
 * (NULL: on i); res->nr = 0 if it could not.
 */
static void wl_scale_on(unsigned int nr, unsigned long work,
			unsigned long (*fn)(struct scale_thread *t),
			const unsigned int *cpus, struct scale_result *res)
{
	unsigned int started = 1;
	unsigned long long go_ns, end_ns;

	*res = (struct scale_result){ 0 };
	if (!nr || nr > SCALE_MAX_THREADS)
		return;
	__atomic_store_n(&scale_go, 0, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < nr; i++)
		scale_threads[i] = (struct scale_thread){
			.id = i, .nr = nr, .work = work, .fn = fn,
			.seed = 0x2545f4914f6cdd1dUL * (i + 1UL),
		};
	for (; started < nr; started++)
		if (BENCH_SPAWN(cpus ? cpus[started] : started,
				scale_thread_main, &scale_threads[started]))
			break;
	go_ns = BENCH_NOW_NS();
	__atomic_store_n(&scale_go, started == nr ? 1 : 2, __ATOMIC_RELEASE);
	if (started == nr)
		scale_thread_main(&scale_threads[0]);
	for (unsigned int i = 1; i < started; i++)
		BENCH_JOIN(cpus ? cpus[i] : i);
	if (started < nr)
		return;
	end_ns = go_ns;
	for (unsigned int i = 0; i < nr; i++) {
		struct scale_thread *t = &scale_threads[i];

		res->ops += t->ops;
		res->cpu_ns += t->cpu_ns;
		if (t->start_ns + t->ns > end_ns)
			end_ns = t->start_ns + t->ns;
	}
	res->nr = nr;
	res->wall_ns = end_ns - go_ns;
}

static void wl_scale(unsigned int nr, unsigned long work,
		     unsigned long (*fn)(struct scale_thread *t),
		     struct scale_result *res)
{
	wl_scale_on(nr, work, fn, NULL, res);
}

static unsigned long scale_hot_fn(struct scale_thread *t)
{
	wl_hot_pair(t->work, 256);
	return t->work;
}

/* One thread alone: fill the ring with new objects, free them all, again. */
static unsigned long scale_pc_alone(struct scale_thread *t, struct pc_ring *r)
{
	for (unsigned long done = 0; done < t->work; done += PC_RING) {
		unsigned long n = t->work - done < PC_RING ? t->work - done : PC_RING;

		for (unsigned long i = 0; i < n; i++) {
			r->slot[i] = BENCH_ALLOC(64);
			bench_touch(r->slot[i]);
		}
		for (unsigned long i = 0; i < n; i++)
			BENCH_FREE(r->slot[i], 64);
	}
	return 2 * t->work;
}

static unsigned long scale_pc_producer(struct scale_thread *t, struct pc_ring *r)
{
	for (unsigned long n = 0; n < t->work; n++) {
		void *p = BENCH_ALLOC(64);

		bench_touch(p);
		while (n - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >= PC_RING)
			BENCH_RELAX();
		r->slot[n % PC_RING] = p;
		__atomic_store_n(&r->head, n + 1, __ATOMIC_RELEASE);
	}
	return t->work;
}

static unsigned long scale_pc_consumer(struct scale_thread *t, struct pc_ring *r)
{
	for (unsigned long n = 0; n < t->work; n++) {
		void *p;

		while (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == n)
			BENCH_RELAX();
		p = r->slot[n % PC_RING];
		__atomic_store_n(&r->tail, n + 1, __ATOMIC_RELEASE);
		BENCH_FREE(p, 64);
	}
	return t->work;
}

static unsigned long scale_pc_fn(struct scale_thread *t)
{
	struct pc_ring *r = &scale_rings[t->id / 2];

	if (t->id % 2 == 0 && t->id + 1 == t->nr)
		return scale_pc_alone(t, r);
	if (t->id % 2 == 0)
		return scale_pc_producer(t, r);
	return scale_pc_consumer(t, r);
}

static unsigned long scale_larson_fn(struct scale_thread *t)
{
	for (unsigned long round = 0; round < SCALE_LARSON_ROUNDS; round++) {
		/* Every thread has left the table this one takes next. */
		while (__atomic_load_n(&scale_rounds_done, __ATOMIC_ACQUIRE) <
		       round * t->nr)
			BENCH_RELAX();
		larson_steps(scale_tables[(t->id + round) % t->nr], &t->seed,
			     t->work);
		__atomic_fetch_add(&scale_rounds_done, 1, __ATOMIC_RELEASE);
	}
	return 2 * SCALE_LARSON_ROUNDS * t->work;
}

static void wl_scale_hot_pair(unsigned int nr, unsigned long work,
			      struct scale_result *res)
{
	wl_scale(nr, work, scale_hot_fn, res);
}

/* Thread i on cpus[i] (NULL: on i): a pair's producer and consumer. */
static void wl_scale_producer_consumer_on(unsigned int nr, unsigned long work,
					  const unsigned int *cpus,
					  struct scale_result *res)
{
	for (unsigned int i = 0; i < nr / 2 && i < SCALE_MAX_THREADS / 2; i++)
		scale_rings[i].head = scale_rings[i].tail = 0;
	wl_scale_on(nr, work, scale_pc_fn, cpus, res);
}

static void wl_scale_producer_consumer(unsigned int nr, unsigned long work,
				       struct scale_result *res)
{
	wl_scale_producer_consumer_on(nr, work, NULL, res);
}

static void scale_larson_put(unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		for (unsigned int k = 0; k < LARSON_SLOTS && scale_tables[i]; k++)
			BENCH_FREE(scale_tables[i][k], 0);
		BENCH_FREE(scale_tables[i], 0);
		scale_tables[i] = NULL;
	}
}

/*
 * The tables are made, filled and freed outside the threads' time, and
 * none is kept (a run leaves the allocators as it found them).
 */
static void wl_scale_larson(unsigned int nr, unsigned long work,
			    struct scale_result *res)
{
	res->nr = 0;
	if (!nr || nr > SCALE_MAX_THREADS)
		return;
	for (unsigned int i = 0; i < nr; i++) {
		scale_tables[i] = BENCH_ZALLOC(LARSON_SLOTS * sizeof(void *));
		if (!scale_tables[i]) {
			scale_larson_put(i);
			return;
		}
		for (unsigned int k = 0; k < LARSON_SLOTS; k++) {
			scale_tables[i][k] = BENCH_ALLOC(64);
			bench_touch(scale_tables[i][k]);
		}
	}
	scale_rounds_done = 0;
	wl_scale(nr, work, scale_larson_fn, res);
	scale_larson_put(nr);
}

#endif /* BENCH_WORKLOADS_H */
