/*
 * main.c - the hsim command: hsim [options] FILE.ini..., hsim gen, hsim help.
 *
 * Exit status: 0 on success, 1 when a run failed (or what it printed could
 * not be written), 2 for bad usage or bad input (the message names the file
 * and line).
 */
#define _XOPEN_SOURCE 700 /* realpath() */
#include "experiment.h"

#include "describe.h"
#include "plot.h"
#include "predict_cli.h"
#include "progress.h"
#include "report.h"
#include "runs.h"
#include "shard.h"

#include "../policies/placement.h"
#include "../policies/registry.h"
#include "../predictor/predictor.h"
#include "../workloads/swf.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: hsim [options] FILE.ini...\n"
          "       hsim merge OUT SHARD_DIR...\n"
          "       hsim gen FILE.ini OUT.swf[.gz] [OUT.csv]\n"
          "       hsim plot [--charts LIST] [--formats LIST] RESULTS_DIR...\n"
          "       hsim help policies\n"
          "Runs each experiment: replays its workload under each [policy NAME]\n"
          "and writes <output>/<name>/summary.csv, classes.csv, rejected.csv,\n"
          "summary.png and <output>/<name>/<policy>/jobs.csv; on a cluster of nodes\n"
          "also cluster.csv and <policy>/nodes.csv.\n"
          "hsim gen writes the workload of FILE.ini (a trace after cleaning, or\n"
          "the jobs of a generator) as SWF, and as CSV with the resources SWF\n"
          "cannot hold, for other tools.\n"
          "hsim plot redraws the charts, timeseries.csv and report.html of a\n"
          "results folder from its CSV files, without simulating again.\n"
          "hsim help policies lists every queue order, scheduler, estimate and\n"
          "placement policy a [policy NAME] section can name, and their parameters.\n"
          "hsim merge joins the folders that hsim --shard wrote into OUT/<name>/.\n"
          "\n"
          "options:\n"
          "  -q, --quiet     print no table and no progress line\n"
          "  -j, --threads N replay up to N policies at once, of one experiment\n"
          "                  or of several (default 1; the files and the table\n"
          "                  are the same for any N)\n"
          "  --shard I/N     run every N-th (experiment, seed, policy) triple,\n"
          "                  from the I-th (1..N), into <output>/shard-I-of-N/\n"
          "  -h, --help      this help\n"
          "  -V, --version   the version\n"
          "On a terminal, standard error shows a progress line of the replays.\n"
          "exit status: 0 ok, 1 a run failed, 2 bad usage or bad input\n"
          "manual: man hsim, or docs/ in the source tree\n",
          f);
}

/* One plug-in's line of hsim help policies. */
static void plugin_line(const char *name, const char *summary)
{
    printf("  %-22s %s\n", name, summary);
}

/* hsim help [policies]: every plug-in a [policy] section can name, with the
   summary its descriptor carries, read from the registries themselves, so
   that the binary and docs/policies.md (which tests/docs.test.sh checks
   against this list) cannot disagree.  Exit 0, or 2 for an unknown topic. */
static int help(int argc, char **argv)
{
    if (argc == 2) {
        usage(stdout);
        return 0;
    }
    if (argc != 3 || (strcmp(argv[2], "policies") && strcmp(argv[2], "list"))) {
        fprintf(stderr, "hsim: help: expected 'hsim help policies', found '%s'\n",
                argc > 2 ? argv[2] : "");
        return 2;
    }
    puts("queue orders (queue = NAME, backfill_order = NAME; parameters NAME.KEY = value):");
    hsim_plugin_help(stdout, HSIM_PLUGIN_ORDER);
    puts("schedulers (backfill = NAME):");
    hsim_plugin_help(stdout, HSIM_PLUGIN_SCHEDULER);
    puts("estimates (estimate = NAME):");
    hsim_plugin_help(stdout, HSIM_PLUGIN_PREDICTOR);
    puts("placements (placement = NAME; a cluster of nodes only):");
    hsim_plugin_help(stdout, HSIM_PLUGIN_PLACEMENT);
    puts("spreads (spread = NAME; a cluster of nodes only):");
    plugin_line("pack", "as few nodes as possible: fill each chosen node");
    plugin_line("spread", "as many nodes as possible: one unit (core or GPU) per node");
    return 0;
}

/* The value of -j: 1..HSIM_MAX_THREADS.  0, or -1 after a message. */
static int parse_threads(const char *v, int *threads)
{
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || end == v || *end || n < 1 || n > HSIM_MAX_THREADS) {
        fprintf(stderr, "hsim: -j: expected a number of threads in 1..%d, found '%s'\n",
                HSIM_MAX_THREADS, v ? v : "");
        return -1;
    }
    *threads = (int)n;
    return 0;
}

/* The length of the UTF-8 character at p: 1 to 4, or 0 when the bytes
   there are not one (a stray continuation byte, a sequence cut short, a
   lead byte that no character starts with). */
static int utf8_len(const unsigned char *p)
{
    int n = *p < 0x80 ? 1 : *p >= 0xC2 && *p <= 0xDF ? 2 : *p >= 0xE0 && *p <= 0xEF ? 3
          : *p >= 0xF0 && *p <= 0xF4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Prints an error message on stderr.  A message may quote bytes of a bad
   input file: control characters among them (an escape sequence in a
   binary file, say) and bytes that are not UTF-8 are shown as '?', so
   that they cannot act on the terminal or garble it.  UTF-8 text (a
   file name, say) is kept. */
static void print_error(const char *msg)
{
    fputs("hsim: ", stderr);
    for (const unsigned char *p = (const unsigned char *)msg; *p;) {
        int n = utf8_len(p);
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
            fputc('?', stderr);
            p++;
        } else {
            fwrite(p, 1, (size_t)n, stderr);
            p += n;
        }
    }
    fputc('\n', stderr);
}

typedef char results_dir_t[HSIM_PATH_MAX + HSIM_NAME_MAX + 1];
static void one_spelling(const char *dir, char *out, size_t size);

/* 1 when the file 'out' exists and is the file 'in' (any spelling, a
   link), which writing out would replace. */
static int same_file(const char *out, const char *in)
{
    struct stat a, b;
    return in[0] && stat(out, &a) == 0 && stat(in, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* 1, having said so, when hsim gen's output 'out' is one of the
   experiment's input files. */
static int output_is_input(const char *out, const hsim_config_t *c)
{
    const char *const inputs[][2] = {{c->path, "the INI file"},
                                     {c->trace, "the trace"},
                                     {c->throughputs, "the throughputs table"},
                                     {c->alibaba_nodes, "the node list"}};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        if (same_file(out, inputs[i][0])) {
            fprintf(stderr, "hsim gen: %s is %s of %s: expected a file to write\n", out,
                    inputs[i][1], c->path);
            return 1;
        }
    for (size_t i = 0; i < c->n_nodes; i++)
        if (same_file(out, c->nodes[i].topology)) {
            fprintf(stderr, "hsim gen: %s is the topology of [nodes %s] in %s: expected a file "
                    "to write\n", out, c->nodes[i].type.name, c->path);
            return 1;
        }
    return 0;
}

/* hsim gen FILE.ini OUT.swf [OUT.csv] */
static int gen(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1]) { /* hsim's options are not gen's */
            fprintf(stderr, "hsim gen: unknown option '%s': gen takes none\n", argv[i]);
            return 2;
        }
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: hsim gen FILE.ini OUT.swf[.gz] [OUT.csv]\n");
        return 2;
    }
    if (argc == 5) { /* the CSV would replace the SWF */
        results_dir_t swf, csv;
        one_spelling(argv[3], swf, sizeof swf);
        one_spelling(argv[4], csv, sizeof csv);
        if (!strcmp(swf, csv)) {
            fprintf(stderr, "hsim gen: %s and %s are one file: expected two\n", argv[3],
                    argv[4]);
            return 2;
        }
    }
    hsim_config_t *c = hsim_malloc(sizeof *c);
    if (!c)
        return 1;
    hsim_err_t e = {{0}};
    hsim_workload_t w;
    int32_t capacity;
    hsim_workload_init(&w);
    int rc = hsim_config_load(argv[2], c, &e);
    int bad_input = rc != 0; /* the INI itself: missing or malformed */
    if (rc == 0 && (output_is_input(argv[3], c) || (argc == 5 && output_is_input(argv[4], c)))) {
        hsim_free(c);
        return 2;
    }
    if (rc == 0)
        rc = hsim_experiment_load(c, &w, &capacity, &e);
    if (rc == 0) {
        /* The header names the machine the jobs were cleaned for: the
           experiment's processors or cluster, which need not be the
           trace's own (its node count then names another machine). */
        if (w.header.max_procs != capacity) {
            w.header.max_procs = capacity;
            w.header.max_nodes = -1;
        }
        rc = hsim_swf_write(argv[3], &w, &e);
    }
    if (rc == 0 && argc == 5)
        rc = hsim_csv_write_jobs(argv[4], &w, &e);
    if (rc == 0) /* on stderr: OUT may be /dev/stdout, for a pipe */
        fprintf(stderr, "%s: %zu jobs (%zu rejected) -> %s%s%s\n", c->name, w.n_jobs,
                w.n_rejected, argv[3], argc == 5 ? ", " : "", argc == 5 ? argv[4] : "");
    else if (rc == HSIM_ENOMEM)
        fprintf(stderr, "hsim: %s: out of memory\n", argv[2]);
    else
        print_error(e.msg);
    hsim_workload_free(&w);
    hsim_free(c);
    return rc == 0 ? 0 : bad_input || rc == HSIM_EINPUT ? 2 : 1;
}

/* hsim describe FILE.ini...: what each run would see, not run. */
static int describe(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: hsim describe FILE.ini...\n");
        return 2;
    }
    hsim_config_t *c = hsim_malloc(sizeof *c);
    if (!c)
        return 1;
    int status = 0;
    for (int i = 2; i < argc && status == 0; i++) {
        hsim_err_t e = {{0}};
        int rc = hsim_config_load(argv[i], c, &e);
        if (rc == 0) {
            if (i > 2)
                putchar('\n');
            rc = hsim_describe(c, stdout, &e);
        }
        if (rc == HSIM_ENOMEM)
            fprintf(stderr, "hsim: %s: out of memory\n", argv[i]);
        else if (rc)
            print_error(e.msg);
        status = rc == 0 ? 0 : rc == HSIM_ENOMEM ? 1 : 2;
    }
    hsim_free(c);
    if (status == 0 && fflush(stdout)) {
        fprintf(stderr, "hsim describe: cannot write: %s\n", strerror(errno));
        status = 1;
    }
    return status;
}

/* The folder 'dir' as one spelling, so that two spellings of it compare
   equal (results, ./results, /home/me/results, a link to it): the longest
   part of it that exists, resolved by realpath(), then the rest without
   its empty and '.' names, and each '..' taking off the name before it.
   That is right for the rest as it is for the resolved part: what does
   not exist yet, hsim_mkdirs() makes as folders, not links, so 'new/..'
   is where 'new' was made.  dir itself on any failure, as text is then
   all there is to compare. */
static void spelling_at(const char *dir, char *out, size_t size, int links);

static void one_spelling(const char *dir, char *out, size_t size)
{
    spelling_at(dir, out, size, 0);
}

/* A link that points at nothing (yet) is where hsim_mkdirs() makes its
   target: dir as the link's target (relative to the link's folder), then
   the rest, into out; 0, or -1 when head is no such link. */
static int through_dangling_link(const char *head, const char *rest, char *out, size_t size,
                                 int links)
{
    struct stat st;
    char target[sizeof(results_dir_t)], next[2 * sizeof(results_dir_t)];
    if (links >= 8 || lstat(head, &st) || !S_ISLNK(st.st_mode))
        return -1;
    ssize_t n = readlink(head, target, sizeof target - 1);
    if (n <= 0)
        return -1;
    target[n] = '\0';
    const char *slash = strrchr(head, '/');
    int parent = target[0] == '/' || !slash ? 0 : (int)(slash - head + 1);
    snprintf(next, sizeof next, "%.*s%s%s", parent, head, target, rest);
    spelling_at(next, out, size, links + 1);
    return 0;
}

static void spelling_at(const char *dir, char *out, size_t size, int links)
{
    char head[sizeof(results_dir_t)];
    size_t len = hsim_strlcpy(head, dir, sizeof head);
    if (len >= sizeof head || len >= size) {
        hsim_strlcpy(out, dir, size);
        return;
    }
    char *real;
    size_t cut = len; /* head[0..cut) is tried, dir + cut is the rest */
    while (!(real = realpath(cut ? head : ".", NULL)) && cut > 0 && !(cut == 1 && *dir == '/')) {
        if (through_dangling_link(head, dir + cut, out, size, links) == 0)
            return;
        while (cut > 0 && dir[cut - 1] != '/')
            cut--; /* drop the last name, and the slashes before it */
        while (cut > 1 && dir[cut - 1] == '/')
            cut--;
        head[cut] = '\0';
    }
    if (!real) {
        hsim_strlcpy(out, dir, size);
        return;
    }
    size_t n = hsim_strlcpy(out, real, size);
    free(real); /* realpath()'s own malloc() */
    for (const char *p = dir + cut; *p && n < size;) {
        size_t k = strcspn(p, "/");
        if (k == 2 && p[0] == '.' && p[1] == '.') {
            char *last = strrchr(out, '/'); /* realpath() gave a '/' */
            n = last && last > out ? (size_t)(last - out) : 1;
            out[n] = '\0';
        } else if (k > 0 && !(k == 1 && p[0] == '.')) {
            n += (size_t)snprintf(out + n, size - n, "%s%.*s",
                                  n > 0 && out[n - 1] == '/' ? "" : "/", (int)k, p);
        }
        p += k + (p[k] == '/');
    }
    if (n >= size)
        hsim_strlcpy(out, dir, size);
}

/* Reads every INI file whole into texts[] (freed by the caller) and parses
   it before any experiment runs, so that a mistake in the last of many
   files is reported at once, not after the replays of the others; each bad
   file's first mistake is printed.  What is checked is what runs: the runs
   parse these texts, not the files again (a pipe, hsim <(sed ... x.ini),
   reads once).  Two experiments that would write one results folder (a
   copied INI whose name was kept, the same file twice) are a mistake too:
   the second would overwrite the first's results, however its path is
   spelled (one_spelling()); so is an input file that cannot be opened
   (hsim_experiment_check_inputs()).  0; 2 when a file is
   bad; 1 when out of memory.  O(n^2) comparisons of folder names for n
   files. */
static int check_all(int n, char **files, char **texts)
{
    hsim_config_t *c = hsim_malloc(sizeof *c);
    results_dir_t *dirs = hsim_calloc((size_t)n, sizeof *dirs);
    results_dir_t *same = hsim_calloc((size_t)n, sizeof *same); /* one_spelling() */
    int status = !c || !dirs || !same;
    for (int i = 0; i < n && status != 1; i++) {
        hsim_err_t e = {{0}};
        int rc = hsim_config_read(files[i], &texts[i], &e);
        if (rc == 0)
            rc = hsim_config_parse_string(texts[i], files[i], c, &e);
        if (rc == HSIM_ENOMEM) {
            status = 1;
        } else if (rc) {
            print_error(e.msg);
            status = 2;
        } else {
            snprintf(dirs[i], sizeof dirs[i], "%s/%s", c->output, c->name);
            one_spelling(dirs[i], same[i], sizeof same[i]);
            for (int k = 0; k < i; k++) {
                if (strcmp(same[k], same[i]))
                    continue;
                rc = hsim_errf(&e, HSIM_EINPUT, "%s: its results would go to %s, as those "
                               "of %s do: set another [experiment] name or output",
                               files[i], dirs[i], files[k]);
                break;
            }
            if (rc == 0)
                rc = hsim_experiment_check_inputs(c, &e);
            if (rc) {
                print_error(e.msg);
                status = 2;
            }
        }
    }
    if (status == 1)
        fprintf(stderr, "hsim: out of memory\n");
    hsim_free(c);
    hsim_free(dirs);
    hsim_free(same);
    return status;
}

/* hsim_runs()'s report of an experiment that failed. */
static void report_failure(void *arg, const char *file, int rc, const hsim_err_t *e)
{
    (void)arg;
    if (rc == HSIM_ENOMEM)
        fprintf(stderr, "hsim: %s: out of memory\n", file);
    else
        print_error(e->msg);
}

/* Runs the n experiments whose INI texts check_all() read, in order (see
   hsim_runs()), with a progress line when standard error is a terminal
   and the table is not off. */
static int run_all(int n, char **files, char **texts, hsim_runs_options_t *opt)
{
    hsim_runs_input_t *in = hsim_calloc((size_t)n, sizeof *in);
    if (!in) {
        fprintf(stderr, "hsim: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        in[i] = (hsim_runs_input_t){.file = files[i], .text = texts[i]};
    opt->failed = report_failure;
    if (!opt->quiet && isatty(STDERR_FILENO))
        opt->progress = hsim_progress_new(stderr, HSIM_MAX_THREADS);
    int status = hsim_runs(in, (size_t)n, opt);
    hsim_progress_free(opt->progress);
    opt->progress = NULL;
    hsim_free(in);
    return status;
}

/* The value of --shard: I/N with 1 <= I <= N <= 1000000.  0, or -1 after
   a message. */
static int parse_shard(const char *v, hsim_runs_options_t *o)
{
    char *end, *end2;
    long i = v ? strtol(v, &end, 10) : 0;
    long n = v && end != v && *end == '/' ? strtol(end + 1, &end2, 10) : 0;
    if (!v || end == v || *end != '/' || end2 == end + 1 || *end2 || i < 1 || n < 1 ||
        i > n || n > 1000000) {
        fprintf(stderr, "hsim: --shard: expected I/N with 1 <= I <= N <= 1000000 (this "
                        "run's shard of N), found '%s'\n", v ? v : "");
        return -1;
    }
    o->shard = (int)i;
    o->shards = (int)n;
    return 0;
}

/* A standard descriptor that is closed (hsim x.ini >&-) would be the number
   the next file opened gets, and the table on stdout would be written into
   summary.csv: each closed one is taken by the root folder, which no read
   or write of it, and no opening of /dev/stdout or /dev/stdin, can use. */
static void hold_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int got = open("/", O_RDONLY | O_DIRECTORY);
            if (got >= 0 && got != fd) /* not the lowest free number: cannot be */
                close(got);
        }
}

static int cli(int argc, char **argv)
{
    hold_standard_fds();
    /* past a file size limit (ulimit -f), a write fails with EFBIG and is
       reported as any failed write, with the .part files removed, instead
       of the signal killing hsim without a word */
    signal(SIGXFSZ, SIG_IGN);
    hsim_part_remove_on_signals();
    if (argc > 1 && !strcmp(argv[1], "gen"))
        return gen(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "describe"))
        return describe(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "help"))
        return help(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "plot"))
        return hsim_plot_main(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "train"))
        return hsim_train_main(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "predict-eval"))
        return hsim_predict_eval_main(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "merge"))
        return hsim_merge_main(argc, argv);
    hsim_runs_options_t opt = {0};
    /* getopt_long(): -j2, -j 2, --threads=2, --threads 2, -qj 2, and options
       after the files too; -- ends them.  Its own messages are off, for
       hsim's. */
    static const struct option longs[] = {
        {"quiet", no_argument, NULL, 'q'},
        {"threads", required_argument, NULL, 'j'},
        {"shard", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    for (int ch; (ch = getopt_long(argc, argv, ":qj:hV", longs, NULL)) != -1;) {
        switch (ch) {
        case 'q':
            opt.quiet = 1;
            break;
        case 'j':
            if (parse_threads(optarg, &opt.threads))
                return 2;
            break;
        case 'S':
            if (parse_shard(optarg, &opt))
                return 2;
            break;
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            printf("hsim %s\n", HSIM_VERSION);
            return 0;
        case ':': /* -j, --threads or --shard last, without its value */
            if (optopt == 'S')
                parse_shard(NULL, &opt);
            else
                parse_threads(NULL, &opt.threads);
            return 2;
        default: { /* '?': an unknown letter (optopt), an unknown name (optopt
                      0), or a value for a name that takes none (optopt its
                      letter, one of ours).  Only a name is whole when it
                      fails: a letter may be in a group ("-xq") that optind
                      has not passed yet. */
            const char *a = argv[optind - 1];
            if (optopt && !strchr("qjhV", optopt))
                fprintf(stderr, "hsim: unknown option '-%c' (try hsim --help)\n", optopt);
            else if (optopt)
                fprintf(stderr, "hsim: option '%.*s' takes no value, found '%s'\n",
                        (int)strcspn(a, "="), a, a);
            else
                fprintf(stderr, "hsim: unknown option '%s' (try hsim --help)\n", a);
            return 2;
        }
        }
    }
    int first_file = optind;
    if (first_file >= argc) {
        usage(stderr);
        return 2;
    }
    /* The results are the files; the table is a view of them.  A reader
       that stops reading it (hsim x.ini | head) must not stop hsim in the
       middle of an experiment, with its files half written: a write to a
       closed pipe fails with EPIPE instead of killing the process, and
       main() takes that as no error. */
    struct sigaction ignore = {.sa_handler = SIG_IGN};
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, NULL);
    int n = argc - first_file;
    char **texts = hsim_calloc((size_t)n, sizeof *texts);
    if (!texts) {
        fprintf(stderr, "hsim: out of memory\n");
        return 1;
    }
    int status = check_all(n, argv + first_file, texts);
    if (status == 0)
        status = run_all(n, argv + first_file, texts, &opt);
    for (int i = 0; i < n; i++)
        hsim_free(texts[i]);
    hsim_free(texts);
    return status;
}

/* Runs the command, then makes sure that what it printed reached standard
   output: a table written to a full disk, say, is an error (exit 1), not a
   silent loss.  A reader that stopped reading the table (EPIPE: hsim
   ignores SIGPIPE when it runs experiments) is not one: the results files
   were written whole.  (hsim gen and --help keep SIGPIPE, and stop at a
   closed pipe as any command does.) */
int main(int argc, char **argv)
{
    int status = cli(argc, argv);
    if (hsim_report_table_flush(stdout) == 0)
        return status;
    int err = hsim_report_table_error();
    if (err == EPIPE)
        return status;
    if (err)
        fprintf(stderr, "hsim: standard output: cannot write: %s\n", strerror(err));
    else
        fprintf(stderr, "hsim: standard output: cannot write\n");
    return status ? status : 1;
}
