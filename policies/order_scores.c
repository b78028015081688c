/*
 * order_scores.c - queue orders that rank jobs by a score of their size,
 * their estimate and their wait: longest job first, and the score
 * functions of the literature.
 *
 * r is the job's planning estimate in seconds (its requested time, or a
 * predictor's answer), n its processors, w its wait so far (now - submit,
 * seconds), s its submission time in seconds (at least 1).  A job with the
 * better score goes first; equal scores keep submission order.
 *
 *   ljf     largest r first
 *   wfp3    (w / r)^3 * n, largest first        (Tang et al., 2009)
 *   unicep  w / (log2(max(n, 2)) * r), largest first (Tang et al., 2009)
 *   f1      log10(r) * n + 870 * log10(s), smallest first
 *   f2      sqrt(r) * n + 25600 * log10(s), smallest first
 *   f3      r * n + 6860000 * log10(s), smallest first
 *   f4      r * sqrt(n) + 530000 * log10(s), smallest first
 *                              (Carastan-Santos and de Camargo, SC'17)
 *
 * wfp3 and unicep grow with the wait, so they are time-dependent: a queue
 * is ranked again at every pass.  f1 to f4 rank by the submission time
 * itself, so they are not.
 */
#include "policy.h"

#include <math.h>

static double secs(hsim_time_t t) { return (double)t / HSIM_SECOND; }

/* -1 when a goes first: score x of a against y of b, larger first when
   larger_first; ties by index (submission order). */
static int by_score(double x, double y, int larger_first, int32_t a, int32_t b)
{
    if (x != y)
        return (x > y) == larger_first ? -1 : 1;
    return (a > b) - (a < b);
}

static int ljf_compare(const void *st, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                       hsim_time_t now)
{
    (void)st;
    (void)now;
    return by_score((double)jobs[a].estimate, (double)jobs[b].estimate, 1, a, b);
}

static double wait_s(const hsim_vjob_t *j, hsim_time_t now)
{
    return now > j->submit ? secs(now - j->submit) : 0;
}

static double wfp3(const hsim_vjob_t *j, hsim_time_t now)
{
    double q = wait_s(j, now) / secs(j->estimate);
    return q * q * q * j->procs;
}

static double unicep(const hsim_vjob_t *j, hsim_time_t now)
{
    return wait_s(j, now) / (log2(j->procs > 2 ? (double)j->procs : 2.0) * secs(j->estimate));
}

static double submit_s(const hsim_vjob_t *j) { return j->submit > HSIM_SECOND ? secs(j->submit) : 1; }

static double f1(const hsim_vjob_t *j)
{
    return log10(secs(j->estimate)) * j->procs + 870 * log10(submit_s(j));
}
static double f2(const hsim_vjob_t *j)
{
    return sqrt(secs(j->estimate)) * j->procs + 25600 * log10(submit_s(j));
}
static double f3(const hsim_vjob_t *j)
{
    return secs(j->estimate) * j->procs + 6860000 * log10(submit_s(j));
}
static double f4(const hsim_vjob_t *j)
{
    return secs(j->estimate) * sqrt((double)j->procs) + 530000 * log10(submit_s(j));
}

static int wfp3_compare(const void *st, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                        hsim_time_t now)
{
    (void)st;
    return by_score(wfp3(&jobs[a], now), wfp3(&jobs[b], now), 1, a, b);
}
static int unicep_compare(const void *st, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                          hsim_time_t now)
{
    (void)st;
    return by_score(unicep(&jobs[a], now), unicep(&jobs[b], now), 1, a, b);
}

#define STATIC_SCORE(f)                                                                      \
    static int f##_compare(const void *st, const hsim_vjob_t *jobs, int32_t a, int32_t b,  \
                           hsim_time_t now)                                                  \
    {                                                                                        \
        (void)st;                                                                            \
        (void)now;                                                                           \
        return by_score(f(&jobs[a]), f(&jobs[b]), 0, a, b);                                  \
    }
STATIC_SCORE(f1)
STATIC_SCORE(f2)
STATIC_SCORE(f3)
STATIC_SCORE(f4)

const hsim_order_t hsim_order_ljf = {
    .name = "ljf",
    .summary = "longest job first (largest estimate; ties by submission)",
    .compare = ljf_compare,
};
const hsim_order_t hsim_order_wfp3 = {
    .name = "wfp3",
    .summary = "WFP3: (wait / estimate)^3 x processors, largest first (Tang et al.)",
    .time_dependent = 1,
    .compare = wfp3_compare,
};
const hsim_order_t hsim_order_unicep = {
    .name = "unicep",
    .summary = "UNICEP: wait / (log2(processors) x estimate), largest first (Tang et al.)",
    .time_dependent = 1,
    .compare = unicep_compare,
};
const hsim_order_t hsim_order_f1 = {
    .name = "f1",
    .summary = "F1: log10(r) n + 870 log10(s), smallest first (Carastan-Santos, SC'17)",
    .compare = f1_compare,
};
const hsim_order_t hsim_order_f2 = {
    .name = "f2",
    .summary = "F2: sqrt(r) n + 25600 log10(s), smallest first (Carastan-Santos, SC'17)",
    .compare = f2_compare,
};
const hsim_order_t hsim_order_f3 = {
    .name = "f3",
    .summary = "F3: r n + 6860000 log10(s), smallest first (Carastan-Santos, SC'17)",
    .compare = f3_compare,
};
const hsim_order_t hsim_order_f4 = {
    .name = "f4",
    .summary = "F4: r sqrt(n) + 530000 log10(s), smallest first (Carastan-Santos, SC'17)",
    .compare = f4_compare,
};
