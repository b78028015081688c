/*
 * fuzz_failures.c - libFuzzer target for failure traces
 * ([failures NAME] trace = FILE: hsim_failures_read(), sim/failures.h).
 *
 * Input layout: byte 0 + 1 is the cluster's node count (1..256), the rest
 * is the trace.
 *
 * What must hold for every input:
 *   - the reader returns 0 or HSIM_EINPUT, never crashes; on error the
 *     result is empty and the message starts with the path;
 *   - else it holds one outage per data line (a reference count here: lines
 *     that are not blank, not '#' comments and not the header), sorted by
 *     (down, node), each on a node below the count with 0 <= down < up <=
 *     the horizon, and no two outages of one node overlap;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "sim/failures.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Data lines of the trace as failures.h describes it: every line but
   blank ones, '#' comments and the first other line (the header). */
static size_t data_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    int header = 0;
    for (size_t i = 0; i < size;) {
        size_t j = i;
        while (j < size && data[j] != '\n')
            j++;
        size_t k = i;
        while (k < j && (data[k] == ' ' || data[k] == '\t'))
            k++;
        if (k < j && data[k] != '#' && data[k] != '\r' && data[k] != '\0') {
            if (header)
                n++;
            header = 1;
        }
        i = j + 1;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    long live = hsim_alloc_live();
    int32_t n_nodes = (int32_t)data[0] + 1;
    char path[512];
    fuzz_temp_path(path, sizeof path, "failures.csv");
    fuzz_write_file(path, data + 1, size - 1);
    hsim_outage_t *o = (hsim_outage_t *)1;
    size_t n = 1;
    hsim_err_t e = {{0}};
    int rc = hsim_failures_read(path, n_nodes, &o, &n, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
    if (rc) {
        FUZZ_CHECK(!o && !n, "not emptied on error");
        FUZZ_CHECK(!strncmp(e.msg, path, strlen(path)), "message without the path: %s", e.msg);
    } else {
        size_t want = data_lines(data + 1, size - 1);
        FUZZ_CHECK(n == want, "%zu outages read from %zu data lines", n, want);
        for (size_t i = 0; i < n; i++) {
            const hsim_outage_t *x = &o[i];
            FUZZ_CHECK(x->node >= 0 && x->node < n_nodes && x->down >= 0 && x->up > x->down &&
                           x->up <= HSIM_HORIZON,
                       "outage %zu: node %d of %d, down %lld, up %lld", i, x->node, n_nodes,
                       (long long)x->down, (long long)x->up);
            if (i)
                FUZZ_CHECK(o[i - 1].down < x->down ||
                               (o[i - 1].down == x->down && o[i - 1].node < x->node),
                           "outage %zu (node %d at %lld) after node %d at %lld", i, x->node,
                           (long long)x->down, o[i - 1].node, (long long)o[i - 1].down);
            for (size_t k = 0; k < i; k++)
                FUZZ_CHECK(o[k].node != x->node || o[k].up <= x->down,
                           "node %d: outages %lld-%lld and %lld-%lld overlap", x->node,
                           (long long)o[k].down, (long long)o[k].up, (long long)x->down,
                           (long long)x->up);
        }
    }
    hsim_free(o);
    unlink(path);
    fuzz_check_no_leak(live);
    return 0;
}
