/*
 * order_fcfs.c - first come, first served: submission order.
 */
#include "policy.h"

static int fcfs_compare(const void *st, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                        hsim_time_t now)
{
    (void)st;
    (void)jobs;
    (void)now;
    return (a > b) - (a < b); /* job indices are in submission order */
}

const hsim_order_t hsim_order_fcfs = {
    .name = "fcfs",
    .summary = "first come, first served (submission order)",
    .ignores_estimates = 1,
    .compare = fcfs_compare,
};
