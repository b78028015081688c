/*
 * order_fairshare.c - fair share: the job whose user (and group) used the
 * least of its share goes first.
 *
 * Usage is processor-seconds that decay with a half-life (order_state.h);
 * a user's factor is Slurm's classic F = 2^(-(U / U_total) / (S / S_total)),
 * with shares S from the INI (equal by default) normalised over the users
 * seen so far.  With group_weight g the score is (1 - g) F_user + g
 * F_group.  Higher goes first; equal scores keep submission order.
 */
#include "order_state.h"

static const hsim_param_def_t fairshare_params[] = {
    {"half_life", HSIM_PARAM_REAL, 168, 0.01, 1e6, NULL,
     "hours after which past usage counts half (Slurm's PriorityDecayHalfLife)"},
    {"user_shares", HSIM_PARAM_TABLE, 0, 1e-6, 1e9, NULL,
     "shares per user id (users not listed: 1)"},
    {"group_shares", HSIM_PARAM_TABLE, 0, 1e-6, 1e9, NULL,
     "shares per group id (groups not listed: 1)"},
    {"group_weight", HSIM_PARAM_REAL, 0, 0, 1, NULL,
     "weight of the group's factor against the user's, 0..1"},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

typedef struct fs {
    hsim_scores_t s; /* first: hsim_scores_compare() */
    hsim_usage_t users, groups;
    double group_weight;
} fs_t;

static int fs_create(const hsim_order_ctx_t *c, void **state)
{
    fs_t *f = hsim_calloc(1, sizeof *f);
    if (!f || hsim_scores_init(&f->s, c->n_jobs)) {
        hsim_free(f);
        return HSIM_ENOMEM;
    }
    const char *me = "fairshare";
    double hl = 3600 * hsim_param_num(c->values, me, fairshare_params, "half_life");
    hsim_usage_init(&f->users, hl, hsim_param_table(c->values, me, "user_shares"));
    hsim_usage_init(&f->groups, hl, hsim_param_table(c->values, me, "group_shares"));
    f->group_weight = hsim_param_num(c->values, me, fairshare_params, "group_weight");
    *state = f;
    return 0;
}

static void fs_destroy(void *state)
{
    fs_t *f = state;
    hsim_scores_free(&f->s);
    hsim_usage_free(&f->users);
    hsim_usage_free(&f->groups);
    hsim_free(f);
}

static int fs_pass(void *state, const hsim_view_t *v)
{
    fs_t *f = state;
    int rc = 0;
    for (size_t i = 0; i < v->n_waiting && rc == 0; i++) {
        int32_t k = v->waiting[i];
        if (k < 0)
            continue;
        const hsim_vjob_t *j = &v->jobs[k];
        double fu = hsim_usage_factor(&f->users, j->user, v->now, &rc);
        double fg = f->group_weight > 0 ? hsim_usage_factor(&f->groups, j->group, v->now, &rc)
                                        : 0;
        f->s.score[k] = (1 - f->group_weight) * fu + f->group_weight * fg;
    }
    return rc;
}

static int fs_started(void *state, const hsim_view_t *v, int32_t job)
{
    fs_t *f = state;
    return hsim_usage_job(&f->users, &f->groups, v, job, 1);
}

static int fs_ended(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start)
{
    (void)start;
    fs_t *f = state;
    return hsim_usage_job(&f->users, &f->groups, v, job, -1);
}

const hsim_order_t hsim_order_fairshare = {
    .name = "fairshare",
    .summary = "fair share: least decayed usage for its share first (Slurm's 2^(-U/S))",
    .params = fairshare_params,
    .time_dependent = 1,
    .ignores_estimates = 1,
    .compare = hsim_scores_compare,
    .create = fs_create,
    .destroy = fs_destroy,
    .grow = hsim_scores_grow,
    .pass = fs_pass,
    .started = fs_started,
    .ended = fs_ended,
};
