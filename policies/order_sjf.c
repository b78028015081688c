/*
 * order_sjf.c - shortest job first: by planning estimate, ties by submission.
 */
#include "policy.h"

static int sjf_compare(const void *st, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                       hsim_time_t now)
{
    (void)st;
    (void)now;
    hsim_time_t ea = jobs[a].estimate, eb = jobs[b].estimate;
    if (ea != eb)
        return ea < eb ? -1 : 1;
    return (a > b) - (a < b);
}

const hsim_order_t hsim_order_sjf = {
    .name = "sjf",
    .summary = "shortest job first (smallest estimate; ties by submission)",
    .compare = sjf_compare,
};
