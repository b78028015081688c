/*
 * config_check.c - the INI reader's checks of the whole file, once it is
 * read: keys that nothing reads (a format's, a policy's, a node type's),
 * plug-ins that do not go together, and [failures], preemption and repeat
 * against the policies.  Each names the line to blame.
 */
#include "config_parse.h"

#include "../policies/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The [workload] keys that only some formats read; the others are read by
   every format. */
static const struct {
    int k;               /* WL_*, named hsim__wl_keys[k] */
    const char *formats; /* the formats that read it */
    int on_nodes;        /* and only on a cluster of [nodes] */
} format_keys[] = {
    {WL_PATH, "swf, gavel, elasticflow, alibaba, csv", 0},
    {WL_CLEAN, "swf", 0},
    {WL_SKIP_BAD_ROWS, "gavel, elasticflow, alibaba, csv", 0},
    {WL_JOBS, "lublin, dl, mix", 0},
    {WL_LOAD, "lublin, dl, mix", 0},
    {WL_USERS, "lublin, dl, mix", 0},
    {WL_ESTIMATE_FACTOR, "lublin, mix", 0},
    {WL_SCIENTIFIC, "mix", 0},
    {WL_DL, "mix", 0},
    {WL_BIGDATA, "mix", 0},
    {WL_GPU_SHARE, "swf", 1},
    {WL_GPUS_PER_JOB, "swf", 1},
    {WL_FPGA_SHARE, "swf", 1},
    {WL_CLASS_BY, "swf", 1},
    {WL_MAX_JOB_CORES, "mix", 0},
    {WL_DEPENDENCIES_FROM_SWF, "swf, csv", 0},
    {WL_WORKFLOW, "lublin, dl, mix", 0},
    {WL_WORKFLOW_WIDTH, "lublin, dl, mix", 0},
    {WL_WORKFLOW_DEPTH, "lublin, dl, mix", 0},
    {WL_SWF_EXTRA, "swf", 0},
};

/* Is format one of the list "a, b, c"? */
static int format_in(const char *format, const char *list)
{
    size_t n = strlen(format);
    for (const char *s = list; *s; s++)
        if ((s == list || s[-1] == ' ') && !strncmp(s, format, n) && (s[n] == ',' || !s[n]))
            return 1;
    return 0;
}

/* A [workload] key that the workload's format does not read would be
   ignored without a word: that is an error at its line (fail_at() keeps
   the earliest of all). */
static void workload_not_read(parse_t *p)
{
    const hsim_config_t *c = p->c;
    for (size_t i = 0; i < sizeof format_keys / sizeof format_keys[0]; i++) {
        int k = format_keys[i].k;
        const char *key = hsim__wl_keys[k], *readers = format_keys[i].formats;
        if (!(p->seen_wl & KEY_BIT(k)))
            continue;
        int line = p->wl_lines[k];
        if (!format_in(c->format, readers))
            hsim__fail_at(p, line, "[workload] %s does not apply to format %s: only %s read it", key,
                    c->format, readers);
        else if (format_keys[i].on_nodes && !c->n_nodes && !c->alibaba_nodes[0])
            hsim__fail_at(p, line, "[workload] %s applies only on a cluster of nodes: expected "
                             "[nodes NAME] sections or [cluster] alibaba_nodes", key);
    }
    /* keys that every format reads, but that would change nothing here */
    unsigned seen = p->seen_wl;
    if ((seen & KEY_BIT(WL_THROUGHPUTS)) && strcmp(c->format, "gavel") && !c->n_nodes &&
        !c->alibaba_nodes[0])
        hsim__fail_at(p, p->wl_lines[WL_THROUGHPUTS],
                "[workload] throughputs gives GPU models' speeds, which "
                "apply only on a cluster of nodes (or read a gavel trace): "
                "expected [nodes NAME] sections or [cluster] alibaba_nodes");
    unsigned shares = KEY_BIT(WL_SCIENTIFIC) | KEY_BIT(WL_DL) | KEY_BIT(WL_BIGDATA);
    if ((seen & shares) && !strcmp(c->format, "mix")) {
        double sum = c->share[0] + c->share[1] + c->share[2];
        int last = 0; /* the line of the last share given */
        for (int k = WL_SCIENTIFIC; k <= WL_BIGDATA; k++)
            if ((seen & KEY_BIT(k)) && p->wl_lines[k] > last)
                last = p->wl_lines[k];
        if (fabs(sum - 1) > 1e-6)
            hsim__fail_at(p, last, "[workload] scientific, dl and bigdata: expected shares summing to "
                             "1, found %g + %g + %g = %g (a share not given keeps its default: "
                             "0.5, 0.3, 0.2)", c->share[0], c->share[1], c->share[2], sum);
    }
    if (!strcmp(c->format, "mix") && (seen & KEY_BIT(WL_MAX_JOB_CORES)) && c->share[0] == 0)
        hsim__fail_at(p, p->wl_lines[WL_MAX_JOB_CORES],
                "[workload] max_job_cores bounds the scientific jobs, "
                "which scientific = 0 leaves out: expected scientific "
                "above 0");
    if (!strcmp(c->format, "mix") && (seen & KEY_BIT(WL_ESTIMATE_FACTOR)) &&
        c->share[0] == 0 && c->share[2] == 0)
        hsim__fail_at(p, p->wl_lines[WL_ESTIMATE_FACTOR],
                "[workload] estimate_factor applies to the scientific and "
                "big-data jobs, which shares of 0 leave out (deep-learning "
                "jobs request their runtime): expected scientific or "
                "bigdata above 0");
    if ((seen & KEY_BIT(WL_GPUS_PER_JOB)) && !(c->gpu_share > 0))
        hsim__fail_at(p, p->wl_lines[WL_GPUS_PER_JOB],
                "[workload] gpus_per_job applies only to the jobs that "
                "gpu_share makes GPU jobs: expected gpu_share above 0");
}

/* A section's plug-ins that do not go together (hsim_policy_refusal()),
   and plug-in parameters that none of them reads: an error at the line
   of the key to blame. */
static void policy_refused(parse_t *p, const hsim_policy_config_t *pc)
{
    const char *key = NULL;
    const char *why = hsim_policy_refusal(pc->order, pc->backfill_order, pc->scheduler,
                                          pc->predictor, &key);
    if (why) {
        int k = !strcmp(key, "estimate") ? HSIM_POLICY_ESTIMATE
                : !strcmp(key, "queue") ? HSIM_POLICY_QUEUE : HSIM_POLICY_BACKFILL_ORDER;
        const char *name = k == HSIM_POLICY_ESTIMATE ? pc->predictor->name
                           : k == HSIM_POLICY_QUEUE  ? pc->order->name
                                                     : pc->backfill_order->name;
        int line = pc->seen & KEY_BIT(k) ? pc->lines[k] : pc->line;
        hsim__fail_at(p, line, "[policy %s] %s = %s does not go with backfill = %s: %s", pc->name,
                key, name, pc->scheduler->name, why);
    }
    const hsim_param_value_t *u = hsim_param_unread(&pc->values, pc->order,
                                                    pc->backfill_order, pc->scheduler);
    if (u)
        hsim__fail_at(p, u->line, "[policy %s] %s.%s applies to %s, which this section does not "
                            "use (queue = %s, backfill = %s)", pc->name, u->plugin,
                u->def->name, u->plugin, pc->order->name, pc->scheduler->name);
}

/* The same for [policy] keys: the plug-ins' (policy_refused()), placement
   and spread only on a cluster of nodes. */
static void policy_not_read(parse_t *p, int cluster)
{
    static const struct {
        int k;
        const char *key;
    } on_nodes[] = {{HSIM_POLICY_PLACEMENT, "placement"}, {HSIM_POLICY_SPREAD, "spread"}};
    const hsim_config_t *c = p->c;
    for (size_t i = 0; i < c->n_policies; i++) {
        const hsim_policy_config_t *pc = &c->policies[i];
        const hsim_predictor_t *pred = pc->predictor;
        policy_refused(p, pc);
        static const char *const trained_keys[] = {"estimate.model", "estimate.retrain",
                                                   "estimate.under_weight"};
        for (int k = HSIM_POLICY_ESTIMATE_MODEL; k <= HSIM_POLICY_ESTIMATE_UNDER_WEIGHT; k++)
            if ((pc->seen & KEY_BIT(k)) && pred && !pred->uses_model)
                hsim__fail_at(p, pc->lines[k],
                        "[policy %s] %s applies to trained predictors only (estimate = "
                        "regression, gbdt or lstm), not to estimate = %s", pc->name,
                        trained_keys[k - HSIM_POLICY_ESTIMATE_MODEL], pred->name);
        for (int n = 0; n < 2 && !cluster; n++)
            if (pc->seen & KEY_BIT(on_nodes[n].k))
                hsim__fail_at(p, pc->lines[on_nodes[n].k],
                        "[policy %s] %s applies only on a cluster of nodes: expected "
                        "[nodes NAME] sections or [cluster] alibaba_nodes",
                        pc->name, on_nodes[n].key);
    }
}

/* The same for [nodes] keys that describe devices the nodes do not have:
   a GPU model or GPU memory without GPUs, an FPGA model without FPGAs. */
static void nodes_not_read(parse_t *p)
{
    const hsim_config_t *c = p->c;
    for (size_t i = 0; i < c->n_nodes; i++) {
        const hsim_nodes_config_t *nc = &c->nodes[i];
        const hsim_node_type_t *t = &nc->type;
        if ((nc->seen & KEY_BIT(HSIM_NODES_GPU_MODEL)) && t->gpu_model[0] && !t->gpus)
            hsim__fail_at(p, nc->lines[HSIM_NODES_GPU_MODEL],
                    "[nodes %s] gpu_model names the GPUs, but the nodes "
                    "have none: expected gpus > 0", t->name);
        if ((nc->seen & KEY_BIT(HSIM_NODES_GPU_MEMORY)) && t->gpu_mem_mb && !t->gpus)
            hsim__fail_at(p, nc->lines[HSIM_NODES_GPU_MEMORY],
                    "[nodes %s] gpu_memory is per GPU, but the nodes have "
                    "none: expected gpus > 0", t->name);
        if ((nc->seen & KEY_BIT(HSIM_NODES_FPGA_MODEL)) && t->fpga_model[0] && !t->fpgas)
            hsim__fail_at(p, nc->lines[HSIM_NODES_FPGA_MODEL],
                    "[nodes %s] fpga_model names the FPGAs, but the nodes "
                    "have none: expected fpgas > 0", t->name);
    }
}

/* Keys and sections that would change nothing are errors, at the earliest
   line of all such mistakes. */
int hsim__not_read(parse_t *p)
{
    const hsim_config_t *c = p->c;
    int cluster = c->n_nodes || c->alibaba_nodes[0];
    workload_not_read(p);
    policy_not_read(p, cluster);
    nodes_not_read(p);
    if (c->n_classes && !cluster)
        hsim__fail_at(p, c->classes[0].line, "[class %s] applies only on a cluster of nodes: "
                                       "expected [nodes NAME] sections or [cluster] "
                                       "alibaba_nodes", c->classes[0].name);
    return p->rc;
}

/* [failures] sections and the policies that name them: a model or a
   trace, a node type that exists, on a cluster of nodes, and a scheduler
   that takes failures.  0 or HSIM_EINPUT at the line at fault. */
int hsim__failures_check(parse_t *p)
{
    hsim_config_t *c = p->c;
    for (size_t i = 0; i < c->n_failures; i++) {
        hsim_failures_config_t *fc = &c->failures[i];
        int model = (fc->seen & (KEY_BIT(HSIM_FAILURES_MTBF) | KEY_BIT(HSIM_FAILURES_MTTR))) != 0;
        if (fc->trace[0] && model)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [failures %s] gives both a trace and "
                             "mtbf/mttr: expected one of the two", c->path,
                             fc->lines[HSIM_FAILURES_TRACE], fc->name);
        if (!fc->trace[0] && !(fc->mtbf_s > 0 && fc->mttr_s > 0))
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [failures %s] needs mtbf and mttr "
                             "(seconds), or a trace = FILE", c->path, fc->line, fc->name);
        if ((fc->seen & KEY_BIT(HSIM_FAILURES_WEIBULL_SHAPE)) && fc->dist != HSIM_FAIL_WEIBULL)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [failures %s] weibull_shape applies "
                             "only with distribution = weibull", c->path,
                             fc->lines[HSIM_FAILURES_WEIBULL_SHAPE], fc->name);
        size_t t = 0;
        while (fc->nodes[0] && t < c->n_nodes && strcmp(c->nodes[t].type.name, fc->nodes))
            t++;
        if (fc->nodes[0] && t == c->n_nodes)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [failures %s] nodes = %s: no [nodes %s] "
                             "section", c->path, fc->lines[HSIM_FAILURES_NODES], fc->name,
                             fc->nodes, fc->nodes);
        if (!c->n_nodes)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [failures %s] needs a cluster of "
                             "[nodes NAME] sections (a pool of P processors that fail one by "
                             "one: [nodes cpu] count = P, cores = 1)", c->path, fc->line,
                             fc->name);
    }
    for (size_t k = 0; k < c->n_policies; k++) {
        hsim_policy_config_t *pc = &c->policies[k];
        pc->failures = 0;
        if (!pc->failures_name[0]) {
            static const int only[] = {HSIM_POLICY_ON_FAILURE, HSIM_POLICY_RESTART_COST};
            for (size_t q = 0; q < 2; q++)
                if (pc->seen & KEY_BIT(only[q]))
                    return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [policy %s] %s applies only "
                                     "with failures = NAME", c->path, pc->lines[only[q]],
                                     pc->name, only[q] == HSIM_POLICY_ON_FAILURE
                                                   ? "on_failure" : "restart_cost");
            continue;
        }
        for (size_t i = 0; i < c->n_failures; i++)
            if (!strcmp(c->failures[i].name, pc->failures_name))
                pc->failures = (int)i + 1;
        if (!pc->failures)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [policy %s] failures = %s: no "
                             "[failures %s] section", c->path, pc->lines[HSIM_POLICY_FAILURES],
                             pc->name, pc->failures_name, pc->failures_name);
        if (!strcmp(pc->scheduler->name, "conservative"))
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [policy %s] failures with backfill = "
                             "conservative: not supported yet (its plan keeps the nodes of "
                             "started jobs): expected none or easy", c->path,
                             pc->lines[HSIM_POLICY_FAILURES], pc->name);
        if ((pc->seen & KEY_BIT(HSIM_POLICY_RESTART_COST)) &&
            pc->on_failure != HSIM_ON_FAILURE_CHECKPOINT)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [policy %s] restart_cost applies only "
                             "with on_failure = checkpoint", c->path,
                             pc->lines[HSIM_POLICY_RESTART_COST], pc->name);
    }
    return 0;
}

/* The preemption keys against the scheduler: rr stops jobs itself (and
   takes jobs in turn, whatever a queue order says); a plan kept for good
   (conservative) cannot lose its running jobs.  0 or HSIM_EINPUT. */
int hsim__preempt_check(parse_t *p)
{
    hsim_config_t *c = p->c;
    for (size_t k = 0; k < c->n_policies; k++) {
        hsim_policy_config_t *pc = &c->policies[k];
        const hsim_scheduler_t *s = pc->scheduler;
        int rr = s->stops_jobs, line = 0;
        const char *why = NULL;
        if ((pc->seen & KEY_BIT(HSIM_POLICY_QUANTUM)) && !rr)
            line = pc->lines[HSIM_POLICY_QUANTUM], why = "quantum applies only with backfill = rr";
        else if (pc->preempt && rr)
            line = pc->lines[HSIM_POLICY_PREEMPT],
            why = "preempt with backfill = rr, which suspends jobs itself: expected preempt = off";
        else if (pc->preempt && s->fixed_estimates)
            line = pc->lines[HSIM_POLICY_PREEMPT],
            why = "preempt with a scheduler that keeps its plans for good (conservative): "
                  "expected backfill = none or easy";
        else if ((pc->seen & KEY_BIT(HSIM_POLICY_PREEMPT_GRACE)) && !pc->preempt)
            line = pc->lines[HSIM_POLICY_PREEMPT_GRACE],
            why = "preempt_grace applies only with preempt = requeue, suspend or checkpoint";
        else if ((pc->seen & KEY_BIT(HSIM_POLICY_SWITCH_COST)) && !rr &&
                 pc->preempt != HSIM_STOP_SUSPEND && pc->preempt != HSIM_STOP_CHECKPOINT)
            line = pc->lines[HSIM_POLICY_SWITCH_COST],
            why = "switch_cost applies only with backfill = rr or preempt = suspend or "
                  "checkpoint";
        else if (rr && pc->switch_cost_s >= pc->quantum_s)
            line = pc->lines[HSIM_POLICY_SWITCH_COST],
            why = "switch_cost must be shorter than the quantum (a slice would do no work)";
        if (why)
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: [policy %s] %s", c->path,
                             line ? line : pc->line, pc->name, why);
    }
    return 0;
}

/* repeat = R > 1: seeds seed..seed+R-1, each in a folder seed-S beside
   the policies' (no policy of that name), and something that draws from
   the seed, or every seed would give the same results.  0 or
   HSIM_EINPUT at repeat's line. */
int hsim__repeat_check(parse_t *p, int generated)
{
    const hsim_config_t *c = p->c;
    if (c->repeat <= 1)
        return 0;
    if (c->seed > UINT64_MAX - (c->repeat - 1))
        return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: repeat = %u from seed %llu goes past the "
                         "largest seed, 18446744073709551615", c->path, p->repeat_line,
                         (unsigned)c->repeat, (unsigned long long)c->seed);
    for (size_t k = 0; k < c->n_policies; k++) {
        const char *n = c->policies[k].name;
        if (!strncmp(n, "seed-", 5) && n[5] && strspn(n + 5, "0123456789") == strlen(n + 5))
            return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: policy name '%s': with repeat, each "
                             "seed's results go to a folder of that form beside the policies",
                             c->path, c->policies[k].line, n);
    }
    int drawn = generated || c->gpu_share > 0 || c->fpga_share > 0 ||
                c->workflow == HSIM_WORKFLOW_DAG;
    for (size_t k = 0; k < c->n_policies; k++) {
        const hsim_policy_config_t *pc = &c->policies[k];
        drawn |= pc->failures && !c->failures[pc->failures - 1].trace[0];
        drawn |= pc->order->draws_random ||
                 (pc->backfill_order && pc->backfill_order->draws_random);
    }
    if (!drawn)
        return hsim_errf(p->e, HSIM_EINPUT, "%s:%d: repeat = %u would run one schedule %u "
                         "times: nothing here draws from the seed (a generator, gpu_share, "
                         "fpga_share, workflow = dag, a failure model, queue = ga or sa)", c->path,
                         p->repeat_line, (unsigned)c->repeat, (unsigned)c->repeat);
    return 0;
}

