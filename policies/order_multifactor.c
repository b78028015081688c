/*
 * order_multifactor.c - Slurm's multifactor priority: a weighted sum of
 * factors in [0, 1], with Slurm's parameter names.
 *
 *   priority = PriorityWeightAge       x min(wait, PriorityMaxAge) / PriorityMaxAge
 *            + PriorityWeightJobSize   x size
 *            + PriorityWeightFairshare x F (fair share, as in order_fairshare.c)
 *            + PriorityWeightPartition x PartitionFactors[partition] / max
 *            + PriorityWeightQOS       x QOSFactors[queue] / max
 *
 * size is processors / capacity, or 1 - (processors - 1) / capacity with
 * PriorityFavorSmall = yes.  The partition and QOS factors are tables of
 * the INI, normalised by their largest value (Slurm's PriorityJobFactor of
 * a partition, the priority of a QOS); the trace's queue number stands for
 * the QOS.  Higher goes first; ties keep submission order.
 */
#include "order_state.h"

static const hsim_param_def_t multifactor_params[] = {
    {"PriorityWeightAge", HSIM_PARAM_REAL, 1000, 0, 1e9, NULL, "weight of the age factor"},
    {"PriorityWeightJobSize", HSIM_PARAM_REAL, 100, 0, 1e9, NULL,
     "weight of the job size factor"},
    {"PriorityWeightFairshare", HSIM_PARAM_REAL, 10000, 0, 1e9, NULL,
     "weight of the fair-share factor"},
    {"PriorityWeightPartition", HSIM_PARAM_REAL, 0, 0, 1e9, NULL,
     "weight of the partition factor"},
    {"PriorityWeightQOS", HSIM_PARAM_REAL, 0, 0, 1e9, NULL,
     "weight of the QOS factor (the trace's queue)"},
    {"PriorityMaxAge", HSIM_PARAM_REAL, 168, 0.001, 1e6, NULL,
     "hours of wait at which the age factor reaches 1"},
    {"PriorityFavorSmall", HSIM_PARAM_CHOICE, 1, 0, 0, "no|yes",
     "yes: smaller jobs get the larger size factor"},
    {"PriorityDecayHalfLife", HSIM_PARAM_REAL, 168, 0.01, 1e6, NULL,
     "hours after which past usage counts half"},
    {"user_shares", HSIM_PARAM_TABLE, 0, 1e-6, 1e9, NULL,
     "fair-share shares per user id (users not listed: 1)"},
    {"PartitionFactors", HSIM_PARAM_TABLE, 0, 0, 1e9, NULL,
     "priority per partition id (not listed: 0), normalised by the largest"},
    {"QOSFactors", HSIM_PARAM_TABLE, 0, 0, 1e9, NULL,
     "priority per queue id (not listed: 0), normalised by the largest"},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

typedef struct mf {
    hsim_scores_t s; /* first: hsim_scores_compare() */
    hsim_usage_t users;
    double w_age, w_size, w_fs, w_part, w_qos, max_age_s;
    int favor_small;
    int32_t capacity;
    const hsim_param_table_t *part, *qos;
    double part_max, qos_max;
} mf_t;

static double table_max(const hsim_param_table_t *t)
{
    double m = 0;
    for (size_t i = 0; t && i < t->n; i++)
        if (t->value[i] > m)
            m = t->value[i];
    return m;
}

static int mf_create(const hsim_order_ctx_t *c, void **state)
{
    mf_t *m = hsim_calloc(1, sizeof *m);
    if (!m || hsim_scores_init(&m->s, c->n_jobs)) {
        hsim_free(m);
        return HSIM_ENOMEM;
    }
    const char *me = "multifactor";
    const hsim_param_set_t *x = c->values;
    m->w_age = hsim_param_num(x, me, multifactor_params, "PriorityWeightAge");
    m->w_size = hsim_param_num(x, me, multifactor_params, "PriorityWeightJobSize");
    m->w_fs = hsim_param_num(x, me, multifactor_params, "PriorityWeightFairshare");
    m->w_part = hsim_param_num(x, me, multifactor_params, "PriorityWeightPartition");
    m->w_qos = hsim_param_num(x, me, multifactor_params, "PriorityWeightQOS");
    m->max_age_s = 3600 * hsim_param_num(x, me, multifactor_params, "PriorityMaxAge");
    m->favor_small = hsim_param_num(x, me, multifactor_params, "PriorityFavorSmall") > 0;
    double hl = 3600 * hsim_param_num(x, me, multifactor_params, "PriorityDecayHalfLife");
    hsim_usage_init(&m->users, hl, hsim_param_table(x, me, "user_shares"));
    m->part = hsim_param_table(x, me, "PartitionFactors");
    m->qos = hsim_param_table(x, me, "QOSFactors");
    m->part_max = table_max(m->part);
    m->qos_max = table_max(m->qos);
    m->capacity = c->capacity > 0 ? c->capacity : 1;
    *state = m;
    return 0;
}

static void mf_destroy(void *state)
{
    mf_t *m = state;
    hsim_scores_free(&m->s);
    hsim_usage_free(&m->users);
    hsim_free(m);
}

/* A table's factor of id in [0, 1]. */
static double factor(const hsim_param_table_t *t, double max, int32_t id)
{
    return max > 0 ? hsim_table_lookup(t, id, 0) / max : 0;
}

static int mf_pass(void *state, const hsim_view_t *v)
{
    mf_t *m = state;
    int rc = 0;
    for (size_t i = 0; i < v->n_waiting && rc == 0; i++) {
        int32_t k = v->waiting[i];
        if (k < 0)
            continue;
        const hsim_vjob_t *j = &v->jobs[k];
        double age = hsim_wait_s(j, v->now) / m->max_age_s;
        double size = (double)j->procs / m->capacity;
        if (m->favor_small)
            size = 1 - (double)(j->procs - 1) / m->capacity;
        double fs = m->w_fs > 0 ? hsim_usage_factor(&m->users, j->user, v->now, &rc) : 0;
        m->s.score[k] = m->w_age * (age < 1 ? age : 1) + m->w_size * size + m->w_fs * fs +
                        m->w_part * factor(m->part, m->part_max, j->partition) +
                        m->w_qos * factor(m->qos, m->qos_max, j->queue);
    }
    return rc;
}

static int mf_started(void *state, const hsim_view_t *v, int32_t job)
{
    return hsim_usage_job(&((mf_t *)state)->users, NULL, v, job, 1);
}

static int mf_ended(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start)
{
    (void)start;
    return hsim_usage_job(&((mf_t *)state)->users, NULL, v, job, -1);
}

const hsim_order_t hsim_order_multifactor = {
    .name = "multifactor",
    .summary = "Slurm's multifactor priority: weighted age, size, fair share, partition, QOS",
    .params = multifactor_params,
    .time_dependent = 1,
    .ignores_estimates = 1,
    .compare = hsim_scores_compare,
    .create = mf_create,
    .destroy = mf_destroy,
    .grow = hsim_scores_grow,
    .pass = mf_pass,
    .started = mf_started,
    .ended = mf_ended,
};
