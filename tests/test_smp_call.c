// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU function calls (kernel/smp.h): every online CPU runs what it
 * is sent exactly once, in its interrupt handler; the calls that could
 * deadlock are refused with a WARNING and nothing sent; bad CPU numbers
 * are -ENXIO. The cases that need a second CPU skip on a one-CPU boot;
 * on the host every CPU is a thread of the program and always online.
 */
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"

#define CALLS		10000
#define VEC_CALLER	0x5a	/* a handler that tries a cross-CPU call */

static struct call_probe {
	unsigned long hits[NR_CPUS];	/* per CPU the function ran on */
	unsigned long total;
	unsigned long bad_context;	/* remote: not hardirq; any: irqs on */
	unsigned long wrong_cpu;
} probe;

static void probe_reset(void)
{
	memset(&probe, 0, sizeof(probe));
}

/* info: the CPU the function should run on, or NULL for "any". */
static void count_call(void *info)
{
	unsigned int cpu = smp_processor_id();

	if (!irqs_disabled())
		__atomic_fetch_add(&probe.bad_context, 1, __ATOMIC_RELAXED);
	if (info && (unsigned long)info - 1 != cpu)
		__atomic_fetch_add(&probe.wrong_cpu, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&probe.hits[cpu], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&probe.total, 1, __ATOMIC_RELAXED);
}

/* Runs on another CPU: it must be there in its interrupt handler. */
static void count_remote_call(void *info)
{
	if (!in_hardirq())
		__atomic_fetch_add(&probe.bad_context, 1, __ATOMIC_RELAXED);
	count_call(info);
}

#define CPU_INFO(cpu)	((void *)((unsigned long)(cpu) + 1))

static unsigned int need_other_cpus(struct ktest *t)
{
	unsigned int n = num_online_cpus();

	if (n < 2)
		ktest_skip(t, "one CPU online: nothing to call across");
	return n;
}

/* The next online CPU after cpu that is not this one. */
static unsigned int next_other_cpu(unsigned int cpu)
{
	unsigned int this = smp_processor_id();

	do {
		cpu = (cpu + 1) % nr_cpu_ids;
	} while (cpu == this || !cpu_online(cpu));
	return cpu;
}

/* Bounded wait for the asynchronous calls to have run. */
static bool wait_total(unsigned long want)
{
	u64 deadline = arch_clock_ns() + SMP_CALL_TIMEOUT_NS;

	while (__atomic_load_n(&probe.total, __ATOMIC_ACQUIRE) < want) {
		if (arch_clock_ns() > deadline)
			return false;
		arch_cpu_relax();
	}
	return true;
}

static void test_on_each_cpu_runs_once_everywhere(struct ktest *t)
{
	unsigned int this = smp_processor_id(), online = 0;

	probe_reset();
	KTEST_ASSERT_EQ(t, on_each_cpu(count_call, NULL, true), 0);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		KTEST_EXPECT_EQ(t, probe.hits[cpu], cpu_online(cpu) ? 1UL : 0UL);
		online += cpu_online(cpu);
	}
	KTEST_EXPECT_TRUE(t, cpu_online(this));
	KTEST_EXPECT_EQ(t, online, num_online_cpus());
	KTEST_EXPECT_EQ(t, probe.total, (unsigned long)online);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static void test_smp_call_function_skips_this_cpu(struct ktest *t)
{
	unsigned int n = need_other_cpus(t), this = smp_processor_id();

	probe_reset();
	KTEST_ASSERT_EQ(t, smp_call_function(count_remote_call, NULL, true), 0);
	KTEST_EXPECT_EQ(t, probe.hits[this], 0UL);
	KTEST_EXPECT_EQ(t, probe.total, (unsigned long)(n - 1));
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
}

static void test_self_call_runs_here_irqs_off(struct ktest *t)
{
	unsigned int this = smp_processor_id();
	unsigned long flags;

	probe_reset();
	KTEST_EXPECT_EQ(t, smp_call_function_single(this, count_call,
						    CPU_INFO(this), true), 0);
	/* wait=0 to itself is synchronous too, and allowed irqs off. */
	local_irq_save(flags);
	KTEST_EXPECT_EQ(t, smp_call_function_single(this, count_call,
						    CPU_INFO(this), false), 0);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, probe.hits[this], 2UL);
	KTEST_EXPECT_EQ(t, probe.total, 2UL);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_EQ(t, probe.wrong_cpu, 0UL);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static void test_many_single_calls_counted(struct ktest *t)
{
	unsigned int cpu = smp_processor_id();
	unsigned long want[NR_CPUS] = { 0 };

	need_other_cpus(t);
	probe_reset();
	for (unsigned int i = 0; i < CALLS; i++) {
		cpu = next_other_cpu(cpu);
		want[cpu]++;
		if (smp_call_function_single(cpu, count_remote_call,
					     CPU_INFO(cpu), true))
			break;
		/* wait: it has run, exactly once, before the call returned */
		if (probe.hits[cpu] != want[cpu])
			break;
	}
	KTEST_EXPECT_EQ(t, probe.total, (unsigned long)CALLS);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, probe.hits[cpu], want[cpu]);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_EQ(t, probe.wrong_cpu, 0UL);
}

static void test_many_calls_to_all_counted(struct ktest *t)
{
	unsigned int n = need_other_cpus(t), this = smp_processor_id();

	probe_reset();
	for (unsigned int i = 0; i < CALLS; i++)
		if (on_each_cpu(count_call, NULL, true))
			break;
	KTEST_EXPECT_EQ(t, probe.total, (unsigned long)CALLS * n);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, probe.hits[cpu],
				cpu_online(cpu) ? (unsigned long)CALLS : 0UL);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_EQ(t, probe.hits[this], (unsigned long)CALLS);
}

static void test_async_calls_all_complete(struct ktest *t)
{
	unsigned int n = need_other_cpus(t), cpu = smp_processor_id();
	unsigned long want[NR_CPUS] = { 0 }, sent = 0;

	probe_reset();
	for (unsigned int i = 0; i < CALLS; i++) {
		cpu = next_other_cpu(cpu);
		if (smp_call_function_single(cpu, count_remote_call,
					     CPU_INFO(cpu), false))
			break;
		want[cpu]++;
		sent++;
	}
	for (unsigned int i = 0; i < CALLS / 10; i++) {
		if (smp_call_function(count_remote_call, NULL, false))
			break;
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (cpu != smp_processor_id() && cpu_online(cpu))
				want[cpu]++;
		sent += n - 1;
	}
	KTEST_EXPECT_EQ(t, sent, (unsigned long)CALLS + CALLS / 10 * (n - 1));
	KTEST_EXPECT_TRUE(t, wait_total(sent));
	/* And none more: an extra run would show after a synchronous call. */
	KTEST_EXPECT_EQ(t, smp_call_function(count_remote_call, NULL, true), 0);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu != smp_processor_id() && cpu_online(cpu))
			want[cpu]++;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, probe.hits[cpu], want[cpu]);
	KTEST_EXPECT_EQ(t, probe.total, sent + n - 1);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_EQ(t, probe.wrong_cpu, 0UL);
}

/* on_each_cpu_cond(): the CPUs whose bit is set in *info. */
static unsigned long cond_asked[NR_CPUS];

static bool cpu_in_mask(unsigned int cpu, void *info)
{
	cond_asked[cpu]++;
	return *(unsigned long *)info & (1UL << cpu);
}

/* func for on_each_cpu_cond(): info is the mask, not a CPU. */
static void count_masked_call(void *info)
{
	(void)info;
	count_call(NULL);
}

/*
 * Four masks: the odd CPUs, the even ones, this CPU alone, all but
 * this one; each with and without wait, CALLS / 100 times. func runs
 * exactly on the CPUs cond_func chose, once per call, and cond_func is
 * asked once per online CPU per call.
 */
static void test_on_each_cpu_cond_runs_where_chosen(struct ktest *t)
{
	unsigned int this = smp_processor_id(), rounds = CALLS / 100;
	unsigned long masks[4], want[NR_CPUS] = { 0 }, sent = 0, asked_ok = 0;
	unsigned long late = 0, failed = 0;

	masks[0] = 0xaaaaaaaaaaaaaaaaUL;
	masks[1] = ~masks[0];
	masks[2] = 1UL << this;
	masks[3] = ~masks[2];
	probe_reset();
	memset(cond_asked, 0, sizeof(cond_asked));
	for (unsigned int r = 0; r < rounds; r++) {
		for (unsigned int m = 0; m < ARRAY_SIZE(masks); m++) {
			bool wait = r & 1;

			/* the asynchronous calls before it have all run */
			if (wait && !wait_total(sent))
				late++;
			failed += on_each_cpu_cond(cpu_in_mask,
						   count_masked_call,
						   &masks[m], wait) != 0;
			for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
				if (!cpu_online(cpu) ||
				    !(masks[m] & (1UL << cpu)))
					continue;
				want[cpu]++;
				sent++;
			}
			/* wait: the chosen CPUs are done before it returns */
			if (wait && READ_ONCE(probe.total) != sent)
				late++;
		}
	}
	KTEST_EXPECT_EQ(t, failed, 0UL);
	KTEST_EXPECT_EQ(t, late, 0UL);
	KTEST_EXPECT_TRUE(t, wait_total(sent));
	/* A synchronous call to every CPU: any extra run would show now. */
	KTEST_EXPECT_EQ(t, on_each_cpu(count_call, NULL, true), 0);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		want[cpu] += cpu_online(cpu);
		KTEST_EXPECT_EQ(t, probe.hits[cpu], want[cpu]);
		asked_ok += cond_asked[cpu] ==
			    (cpu_online(cpu) ? 4UL * rounds : 0UL);
	}
	KTEST_EXPECT_EQ(t, asked_ok, (unsigned long)NR_CPUS);
	KTEST_EXPECT_GT(t, probe.hits[this], 0UL);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
}

/* Nobody chosen: nothing runs, no IPI; this CPU alone: no IPI either. */
static void test_on_each_cpu_cond_sends_only_to_chosen(struct ktest *t)
{
	unsigned long none = 0, self = 1UL << smp_processor_id();
	unsigned long ipis;

	need_other_cpus(t);
	probe_reset();
	ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
	for (unsigned int i = 0; i < 100; i++) {
		KTEST_EXPECT_EQ(t, on_each_cpu_cond(cpu_in_mask,
						    count_masked_call, &none,
						    true), 0);
		KTEST_EXPECT_EQ(t, on_each_cpu_cond(cpu_in_mask,
						    count_masked_call, &self,
						    i & 1), 0);
	}
	KTEST_EXPECT_EQ(t, irq_vector_count(CALL_FUNCTION_VECTOR), ipis);
	KTEST_EXPECT_EQ(t, probe.total, 100UL);
	KTEST_EXPECT_EQ(t, probe.hits[smp_processor_id()], 100UL);
}

/* Interrupts off: allowed for this CPU alone, refused for any other. */
static void test_on_each_cpu_cond_irqs_off(struct ktest *t)
{
	unsigned int this = smp_processor_id();
	unsigned long self = 1UL << this, all = ~0UL, flags;
	unsigned long ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
	int ret_self, ret_all;

	need_other_cpus(t);
	probe_reset();
	ktest_capture_start(t, "WARNING:");
	local_irq_save(flags);
	ret_self = on_each_cpu_cond(cpu_in_mask, count_masked_call, &self,
				    true);
	ret_all = on_each_cpu_cond(cpu_in_mask, count_masked_call, &all,
				   true);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t,
		"on_each_cpu_cond to another CPU with interrupts off");
	KTEST_EXPECT_EQ(t, ret_self, 0);
	KTEST_EXPECT_EQ(t, ret_all, -EDEADLK);
	/* The refused call ran nowhere, this CPU included. */
	KTEST_EXPECT_EQ(t, probe.total, 1UL);
	KTEST_EXPECT_EQ(t, probe.hits[this], 1UL);
	KTEST_EXPECT_EQ(t, irq_vector_count(CALL_FUNCTION_VECTOR), ipis);
	ktest_capture_start(t, "WARNING:");
	KTEST_EXPECT_EQ(t, on_each_cpu_cond(NULL, count_masked_call, &all,
					    true), -EINVAL);
	KTEST_EXPECT_EQ(t, on_each_cpu_cond(cpu_in_mask, NULL, &all, true),
			-EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_EQ(t, probe.total, 1UL);
}

static void test_irqs_off_refused(struct ktest *t)
{
	unsigned long sent = irq_vector_count(CALL_FUNCTION_VECTOR);
	unsigned long flags;
	int single, all, each;

	need_other_cpus(t);
	probe_reset();
	ktest_capture_start(t, "WARNING:");
	local_irq_save(flags);
	single = smp_call_function_single(next_other_cpu(smp_processor_id()),
					  count_call, NULL, true);
	all = smp_call_function(count_call, NULL, true);
	each = on_each_cpu(count_call, NULL, true);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_CAPTURED(t, "with interrupts off or from an interrupt handler");
	KTEST_EXPECT_EQ(t, single, -EDEADLK);
	KTEST_EXPECT_EQ(t, all, -EDEADLK);
	KTEST_EXPECT_EQ(t, each, -EDEADLK);
	/* Nothing ran, here or there, and no IPI went out. */
	KTEST_EXPECT_EQ(t, probe.total, 0UL);
	KTEST_EXPECT_EQ(t, irq_vector_count(CALL_FUNCTION_VECTOR), sent);
}

static struct {
	int single, all, each;
	unsigned long runs;
} from_irq;

static void caller_handler(unsigned int vector)
{
	(void)vector;
	from_irq.runs++;
	from_irq.single = smp_call_function_single(
		next_other_cpu(smp_processor_id()), count_call, NULL, false);
	from_irq.all = smp_call_function(count_call, NULL, false);
	from_irq.each = on_each_cpu(count_call, NULL, false);
}

static void remove_caller(void *arg)
{
	(void)arg;
	set_irq_handler(VEC_CALLER, NULL);
}

static void test_from_interrupt_handler_refused(struct ktest *t)
{
	need_other_cpus(t);
	probe_reset();
	memset(&from_irq, 0, sizeof(from_irq));
	KTEST_ASSERT_EQ(t, set_irq_handler(VEC_CALLER, caller_handler), 0);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, remove_caller, NULL), 0);
	ktest_capture_start(t, "WARNING:");
	apic_send_IPI_self(VEC_CALLER);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_EQ(t, from_irq.runs, 1UL);
	KTEST_EXPECT_EQ(t, from_irq.single, -EDEADLK);
	KTEST_EXPECT_EQ(t, from_irq.all, -EDEADLK);
	KTEST_EXPECT_EQ(t, from_irq.each, -EDEADLK);
	KTEST_EXPECT_EQ(t, probe.total, 0UL);
}

static void test_bad_cpu_and_func(struct ktest *t)
{
	const unsigned int bad[] = { NR_CPUS, NR_CPUS + 1, 1000, ~0U };
	unsigned int offline = 0;

	probe_reset();
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		KTEST_EXPECT_FALSE(t, cpu_online(bad[i]));
		KTEST_EXPECT_EQ(t, smp_call_function_single(bad[i], count_call,
							    NULL, true), -ENXIO);
		KTEST_EXPECT_EQ(t, smp_call_function_single(bad[i], count_call,
							    NULL, false), -ENXIO);
	}
	/* A CPU number below NR_CPUS that is not online (x86 -smp 4). */
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu_online(cpu))
			continue;
		offline++;
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, count_call,
							    NULL, true), -ENXIO);
	}
	KTEST_EXPECT_EQ(t, offline + num_online_cpus(), (unsigned int)NR_CPUS);
	ktest_capture_start(t, "WARNING:");
	KTEST_EXPECT_EQ(t, smp_call_function_single(smp_processor_id(), NULL,
						    NULL, true), -EINVAL);
	KTEST_EXPECT_EQ(t, smp_call_function(NULL, NULL, true), -EINVAL);
	KTEST_EXPECT_EQ(t, on_each_cpu(NULL, NULL, false), -EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_CAPTURED(t, "call of a NULL function");
	KTEST_EXPECT_EQ(t, probe.total, 0UL);
}

/* A CPU that runs work (arch_cpu_run) still takes the calls. */
static unsigned long busy_stop;

static void busy_loop(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&busy_stop, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

static void test_busy_cpu_takes_calls(struct ktest *t)
{
	unsigned int cpu;
	int err;

	need_other_cpus(t);
	cpu = next_other_cpu(smp_processor_id());
	busy_stop = 0;
	err = arch_cpu_run(cpu, busy_loop, NULL);
	if (err == -ENOSYS)
		ktest_skip(t, "this arch cannot run work on another CPU yet (arch_cpu_run)");
	KTEST_ASSERT_EQ(t, err, 0);
	probe_reset();
	for (unsigned int i = 0; i < 100; i++)
		if (smp_call_function_single(cpu, count_remote_call,
					     CPU_INFO(cpu), true))
			break;
	__atomic_store_n(&busy_stop, 1, __ATOMIC_RELEASE);
	arch_cpu_join(cpu);
	KTEST_EXPECT_EQ(t, probe.hits[cpu], 100UL);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_EQ(t, probe.wrong_cpu, 0UL);
}

static const struct ktest_case smp_call_cases[] = {
	KTEST_CASE(test_on_each_cpu_runs_once_everywhere),
	KTEST_CASE(test_smp_call_function_skips_this_cpu),
	KTEST_CASE(test_self_call_runs_here_irqs_off),
	KTEST_CASE(test_many_single_calls_counted),
	KTEST_CASE(test_many_calls_to_all_counted),
	KTEST_CASE(test_async_calls_all_complete),
	KTEST_CASE(test_on_each_cpu_cond_runs_where_chosen),
	KTEST_CASE(test_on_each_cpu_cond_sends_only_to_chosen),
	KTEST_CASE(test_on_each_cpu_cond_irqs_off),
	KTEST_CASE(test_irqs_off_refused),
	KTEST_CASE(test_from_interrupt_handler_refused),
	KTEST_CASE(test_bad_cpu_and_func),
	KTEST_CASE(test_busy_cpu_takes_calls),
	{}
};
KTEST_SUITE(smp_call, smp_call_cases);
