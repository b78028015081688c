/*
 * main.c - the hsim command: hsim [options] FILE.ini...
 *
 * Exit status: 0 on success, 1 when a run failed, 2 for bad usage or bad
 * input (the message names the file and line).
 */
#include "experiment.h"

#include "../policies/registry.h"

#include <string.h>

static void usage(FILE *f)
{
    char orders[256], scheds[256], preds[256];
    hsim_order_names(orders, sizeof orders);
    hsim_scheduler_names(scheds, sizeof scheds);
    hsim_predictor_names(preds, sizeof preds);
    fprintf(f,
            "usage: hsim [options] FILE.ini...\n"
            "Runs each experiment: replays its workload under each [policy NAME]\n"
            "and writes <output>/<name>/summary.csv, rejected.csv and\n"
            "<output>/<name>/<policy>/jobs.csv.\n"
            "\n"
            "options:\n"
            "  -q, --quiet     print no table\n"
            "  -h, --help      this help\n"
            "  -V, --version   the version\n"
            "\n"
            "policy keys: queue = %s\n"
            "             backfill = %s\n"
            "             backfill_order = %s (default: the queue order)\n"
            "             estimate = %s\n"
            "exit status: 0 ok, 1 a run failed, 2 bad usage or bad input\n",
            orders, scheds, orders, preds);
}

int main(int argc, char **argv)
{
    hsim_experiment_options_t opt = {0};
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            first_file = i + 1;
            break;
        }
        if (a[0] != '-' || !a[1]) {
            first_file = i;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("hsim %s\n", HSIM_VERSION);
            return 0;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            opt.quiet = 1;
            continue;
        }
        fprintf(stderr, "hsim: unknown option '%s' (try hsim --help)\n", a);
        return 2;
    }
    if (first_file >= argc) {
        usage(stderr);
        return 2;
    }
    int status = 0;
    for (int i = first_file; i < argc; i++) {
        hsim_config_t *c = hsim_malloc(sizeof *c);
        if (!c) {
            fprintf(stderr, "hsim: out of memory\n");
            return 1;
        }
        hsim_err_t e = {{0}};
        int rc = hsim_config_load(argv[i], c, &e);
        int bad_input = rc != 0; /* the INI itself: missing or malformed */
        if (rc == 0)
            rc = hsim_experiment_run(c, &opt, &e);
        hsim_free(c);
        if (rc == HSIM_ENOMEM) {
            fprintf(stderr, "hsim: %s: out of memory\n", argv[i]);
            return 1;
        }
        if (rc) {
            fprintf(stderr, "hsim: %s\n", e.msg);
            if (bad_input || rc == HSIM_EINPUT)
                return 2;
            status = 1; /* a run failed, or its results could not be written */
        }
        if (!opt.quiet && i + 1 < argc)
            putchar('\n');
    }
    return status;
}
