/*
 * fuzz.c - helpers shared by the fuzz targets (see fuzz.h).  Temporary
 * files carry the process id, so targets run side by side (libFuzzer's
 * -fork and -jobs modes) never share one.
 */
#include "fuzz.h"

#include "sim/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s\n", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    FUZZ_CHECK(text, "out of memory for %zu bytes", size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

void fuzz_temp_path(char *buf, size_t size, const char *tag)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, size, "%s/hsim-fuzz-%ld-%s", dir && *dir ? dir : "/tmp",
             (long)getpid(), tag);
}

void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f, "cannot write %s", path);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size, "cannot write %s", path);
    FUZZ_CHECK(fclose(f) == 0, "cannot write %s", path);
}

void fuzz_write_gzip(const char *path, const uint8_t *data, size_t size)
{
    gzFile f = gzopen(path, "wb1");
    FUZZ_CHECK(f, "cannot write %s", path);
    FUZZ_CHECK(!size || gzwrite(f, data, (unsigned)size) == (int)size, "cannot write %s", path);
    FUZZ_CHECK(gzclose(f) == Z_OK, "cannot write %s", path);
}

void fuzz_check_no_leak(long live_before)
{
    long live = hsim_alloc_live();
    FUZZ_CHECK(live == live_before, "hsim's live allocations went from %ld to %ld",
               live_before, live);
}

int fuzz_replay(const hsim_workload_t *w, const hsim_run_config_t *cfg, const char *label,
                hsim_outcome_t *out, hsim_err_t *e)
{
    hsim_run_stats_t st;
    memset(&st, 0, sizeof st);
    int rc = hsim_engine_run(w, cfg, out, &st, e);
    hsim_free(st.node_busy);
    hsim_free(st.node_jobs);
    hsim_free(st.held); /* on a cluster: what each job held, and where */
    hsim_free(st.ranges);
    for (size_t i = 0; i < w->n_jobs && rc == 0; i++)
        FUZZ_CHECK(out[i].start >= w->jobs[i].submit && out[i].end > out[i].start,
                   "%s: job %lld submitted %lld, started %lld, ended %lld", label,
                   (long long)w->jobs[i].id, (long long)w->jobs[i].submit,
                   (long long)out[i].start, (long long)out[i].end);
    return rc;
}
