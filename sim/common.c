/*
 * common.c - the allocation wrapper, the assert hook and time formatting.
 *
 * The live-block counter, the failure-injection countdown and the list of
 * large blocks here, the .part files being written (below, for a signal
 * handler) and the first error writing standard output (report.c) are the
 * only process-wide state in hsim: the first two belong to the test
 * harness, the third is the allocator's own, the last two follow resources
 * that are the process's (its signals, its stdout), and no simulation
 * result depends on any of them.  They are atomic or locked, as the
 * policies of an experiment may be replayed on threads of their own (only
 * the main thread writes the table).
 *
 * Large blocks.  A replay's big arrays (the trace's records, the jobs, the
 * engine's arrays by job, the outcomes) are written once from end to end,
 * and on a virtual machine the first touch of each 4 KiB page can cost far
 * more than the writes (on the development machine, half of the time of a
 * light replay: docs/performance.md).  So a block of
 * LARGE_BLOCK bytes or more is mapped apart, on a 2 MiB boundary, and
 * advised for transparent huge pages: one fault per 2 MiB where the kernel
 * allows it (THP "always" or "madvise"), else the same 4 KiB faults as
 * malloc's own mappings.  Growing one maps a new block and copies (the
 * doubling of hsim_grow() keeps that O(final size)).  Under AddressSanitizer
 * every block stays malloc's, for it to check.
 */
#define _DEFAULT_SOURCE /* madvise(), MAP_ANONYMOUS */
#include "common.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_long live_blocks;    /* allocations not yet freed */
static atomic_long fail_countdown; /* <= 0 = off; else the allocation that
                                      fails, counted from here */

#define HUGE_PAGE ((size_t)2 << 20)   /* bytes; the x86-64 THP size */
#define LARGE_BLOCK ((size_t)1 << 20) /* bytes: blocks this large are mapped */
#define MAX_LARGE 256                 /* large blocks live at once; more are
                                         malloc's (a replay has a few dozen) */

typedef struct large {
    void *p;    /* 2 MiB-aligned */
    size_t len; /* bytes mapped, a multiple of HUGE_PAGE */
} large_t;

static pthread_mutex_t large_lock = PTHREAD_MUTEX_INITIALIZER;
static large_t large[MAX_LARGE]; /* in no order */
static size_t n_large;

/* Maps a large block of at least size bytes, zeroed; NULL when it cannot
   (the caller then asks malloc).  O(1) but for the zeroing, which the
   kernel does at each first touch. */
static void *map_large(size_t size)
{
    if (!HSIM_LARGE_BLOCKS || size < LARGE_BLOCK || size > SIZE_MAX / 2)
        return NULL;
    size_t len = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    /* keep the 2 MiB-aligned len bytes, give back the rest */
    char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (raw + HUGE_PAGE > p)
        munmap(p + len, (size_t)(raw + HUGE_PAGE - p));
    madvise(p, len, MADV_HUGEPAGE); /* advice: without THP, 4 KiB pages */
    pthread_mutex_lock(&large_lock);
    int listed = n_large < MAX_LARGE;
    if (listed)
        large[n_large++] = (large_t){p, len};
    pthread_mutex_unlock(&large_lock);
    if (!listed) {
        munmap(p, len);
        return NULL;
    }
    return p;
}

/* The bytes mapped for p when it is a large block, else 0 (p is malloc's);
   with take, p leaves the list.  O(1) for malloc's blocks, but for the
   rare ones on a 2 MiB boundary; else O(large blocks). */
static size_t large_len(const void *p, int take)
{
    if (!HSIM_LARGE_BLOCKS || ((uintptr_t)p & (HUGE_PAGE - 1)))
        return 0;
    size_t len = 0;
    pthread_mutex_lock(&large_lock);
    for (size_t i = 0; i < n_large; i++)
        if (large[i].p == p) {
            len = large[i].len;
            if (take)
                large[i] = large[--n_large];
            break;
        }
    pthread_mutex_unlock(&large_lock);
    return len;
}

_Noreturn void hsim_assert_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "hsim: internal error at %s:%d: assertion '%s' failed\n",
            file, line, what);
    abort();
}

static int injected_failure(void)
{
    if (atomic_load_explicit(&fail_countdown, memory_order_relaxed) <= 0)
        return 0;
    return atomic_fetch_sub_explicit(&fail_countdown, 1, memory_order_relaxed) == 1;
}

void *hsim_malloc(size_t size)
{
    if (injected_failure())
        return NULL;
    void *p = map_large(size);
    if (!p)
        p = malloc(size ? size : 1);
    if (p)
        atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *hsim_calloc(size_t count, size_t size)
{
    if (injected_failure())
        return NULL;
    if (size && count > SIZE_MAX / size)
        return NULL; /* count * size would wrap */
    void *p = map_large(count * size); /* zeroed */
    if (!p)
        p = calloc(count ? count : 1, size ? size : 1);
    if (p)
        atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *hsim_realloc(void *ptr, size_t size)
{
    if (!ptr)
        return hsim_malloc(size);
    if (injected_failure())
        return NULL;
    size_t len = large_len(ptr, 0);
    if (len && size <= len)
        return ptr; /* it stays mapped when it shrinks */
    if (len || size >= LARGE_BLOCK) {
        /* a mapped block grows at least twofold, so that a caller growing
           it by a little at a time (libcsv) does not copy it each time */
        void *q = map_large(len && size < 2 * len ? 2 * len : size);
        if (!q && len)
            q = malloc(size);
        if (q) {
            size_t old = len ? len : malloc_usable_size(ptr);
            memcpy(q, ptr, old < size ? old : size);
            if (len)
                munmap(ptr, large_len(ptr, 1));
            else
                free(ptr);
            return q;
        }
        if (len)
            return NULL;
    }
    return realloc(ptr, size ? size : 1);
}

char *hsim_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = hsim_malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

void hsim_free(void *ptr)
{
    if (!ptr)
        return;
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    size_t len = large_len(ptr, 1);
    if (len)
        munmap(ptr, len);
    else
        free(ptr);
}

int hsim_grow_to(void *ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void **pp = ptr;
    void *p = hsim_realloc(*pp, n * elem);
    if (!p)
        return HSIM_ENOMEM;
    *pp = p;
    *cap = n;
    return 0;
}

int hsim_grow_zeroed(void *ptr, size_t n, size_t need, size_t elem)
{
    if (need <= n)
        return 0;
    void **pp = ptr;
    char *p = hsim_realloc(*pp, need * elem);
    if (!p)
        return HSIM_ENOMEM;
    memset(p + n * elem, 0, (need - n) * elem);
    *pp = p;
    return 0;
}

long hsim_alloc_live(void) { return atomic_load(&live_blocks); }

void hsim_alloc_fail_after(long n) { atomic_store(&fail_countdown, n); }

char *hsim_format_time(char *buf, size_t size, hsim_time_t t)
{
    int64_t whole = t / HSIM_SECOND;
    int64_t frac = t % HSIM_SECOND;
    if (frac == 0) {
        snprintf(buf, size, "%" PRId64, whole);
        return buf;
    }
    const char *sign = "";
    if (t < 0) {
        sign = "-";
        whole = -whole;
        frac = -frac;
    }
    int n = snprintf(buf, size, "%s%" PRId64 ".%06" PRId64, sign, whole, frac);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    return buf;
}

int hsim_parse_fixed6(const char *s, int64_t *out, const char **end, int *inexact)
{
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    /* the largest whole part whose value, with any fraction, fits */
    const int64_t max_whole = (INT64_MAX - 999999) / 1000000;
    int64_t whole = 0, frac = 0, scale = 1000000;
    int digits = 0, overflow = 0, round_up = 0, dropped = 0, past = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        int d = *s - '0';
        if (whole > (max_whole - d) / 10)
            overflow = 1; /* and stays so: more digits only add */
        else
            whole = whole * 10 + d;
    }
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            if (scale > 1) {
                scale /= 10;
                frac += (*s - '0') * scale;
            } else {
                if (!past++)
                    round_up = *s >= '5'; /* the first digit dropped */
                dropped |= *s != '0';
            }
        }
    *end = s;
    *inexact = dropped;
    if (!digits)
        return -1;
    if (overflow) {
        *out = neg ? INT64_MIN : INT64_MAX;
        return -2;
    }
    int64_t v = whole * 1000000 + frac + round_up; /* max_whole leaves room */
    *out = neg ? -v : v;
    return 0;
}

int hsim_errf(hsim_err_t *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

double hsim_strtod(const char *s, char **end)
{
    const char *digits = s;
    while (isspace((unsigned char)*digits)) /* as strtod() skips it */
        digits++;
    digits += *digits == '+' || *digits == '-';
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        *end = (char *)s;
        return 0;
    }
    return strtod(s, end);
}

size_t hsim_strlcpy(char *dst, const char *src, size_t size)
{
    size_t n = strlen(src);
    if (size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(dst, src, k);
        dst[k] = '\0';
    }
    return n;
}

int hsim_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

size_t hsim_bom_len(const char *s, size_t len)
{
    return len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

/* The .part files being written, for a signal handler to remove: a slot's
   path is written before its flag is set (release), and the handler reads
   the flag first (acquire), so it never reads a path half written.  A few
   files are open at once (summary.csv, classes.csv, a jobs.csv); one that
   finds no free slot is only not removed at a signal. */
#define PART_SLOTS 16
static char part_paths[PART_SLOTS][HSIM_PART_PATH_MAX];
static atomic_int part_used[PART_SLOTS];
static pthread_mutex_t part_lock = PTHREAD_MUTEX_INITIALIZER; /* among threads */

/* Records part in a free slot (on), or frees the slot that holds it. */
static void part_track(const char *part, int on)
{
    pthread_mutex_lock(&part_lock);
    for (int i = 0; i < PART_SLOTS; i++) {
        int used = atomic_load_explicit(&part_used[i], memory_order_relaxed);
        if (on && !used) {
            hsim_strlcpy(part_paths[i], part, sizeof part_paths[i]);
            atomic_store_explicit(&part_used[i], 1, memory_order_release);
            break;
        }
        if (!on && used && !strcmp(part_paths[i], part)) {
            atomic_store_explicit(&part_used[i], 0, memory_order_release);
            break;
        }
    }
    pthread_mutex_unlock(&part_lock);
}

/* Removes the .part files being written, then lets the signal stop hsim as
   it would have (SA_RESETHAND restored its default action, and it is
   blocked until this returns).  unlink() and raise() are safe in a
   handler. */
static void remove_parts(int sig)
{
    for (int i = 0; i < PART_SLOTS; i++)
        if (atomic_load_explicit(&part_used[i], memory_order_acquire))
            unlink(part_paths[i]);
    raise(sig);
}

int hsim_part_pending(void)
{
    int n = 0;
    for (int i = 0; i < PART_SLOTS; i++)
        n += atomic_load(&part_used[i]) != 0;
    return n;
}

void hsim_part_remove_on_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
            continue; /* ignored, as under nohup: it stays so */
        struct sigaction act = {.sa_handler = remove_parts, .sa_flags = SA_RESETHAND};
        sigemptyset(&act.sa_mask);
        sigaction(sigs[i], &act, NULL);
    }
}

int hsim_part_path(char *part, size_t size, const char *path, hsim_err_t *e)
{
    struct stat st;
    if (size)
        part[0] = '\0';
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return 0; /* a link, a device, a pipe: a rename would replace it */
    /* the process id: two runs (or hsim gen) writing one path never
       share a temporary file, whatever the locks */
    if ((size_t)snprintf(part, size, "%s.%ld.part", path, (long)getpid()) >= size)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: path too long", path);
    part_track(part, 1);
    return 0;
}

int hsim_publish(const char *part, const char *path, int rc, hsim_err_t *e)
{
    if (!part[0])
        return rc; /* written in place */
    if (rc == 0 && rename(part, path))
        rc = hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno));
    if (rc)
        remove(part);
    part_track(part, 0);
    return rc;
}

/* The fields of a line, split at commas and trimmed (at most max kept);
   returns how many there are. */
static size_t split_fields(char *s, char **f, size_t max)
{
    size_t n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        char *end = s + strcspn(s, ",\r\n");
        char stop = *end, *t = end;
        while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        *t = '\0';
        if (n < max)
            f[n] = s;
        n++;
        if (stop != ',')
            return n;
        s = end + 1;
    }
}

int hsim_read_lines(const char *path, const char *shown, size_t max_line, hsim_line_fn fn,
                    void *ctx, hsim_err_t *e)
{
    HSIM_ASSERT(max_line >= 1 && max_line <= HSIM_LINE_MAX);
    FILE *f = fopen(path, "r");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", shown, strerror(errno));
    char buf[HSIM_LINE_MAX + 2];
    int64_t line = 0;
    int rc = 0;
    while (rc == 0 && fgets(buf, (int)max_line + 2, f)) {
        line++;
        size_t len = strlen(buf);
        if (!(len && buf[len - 1] == '\n') && !feof(f)) { /* its tail would read as a line */
            rc = hsim_errf(e, HSIM_EINPUT, "%s:%lld: expected a line of at most %zu characters "
                           "and no NUL byte, found a longer one or a NUL", shown,
                           (long long)line, max_line);
            break;
        }
        char *s = buf + strspn(buf, " \t");
        if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
            continue;
        char *fields[HSIM_LINE_FIELDS];
        size_t n = split_fields(s, fields, HSIM_LINE_FIELDS);
        rc = fn(ctx, line, fields, n, s);
    }
    if (rc == 0 && ferror(f))
        rc = hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", shown, strerror(EIO));
    fclose(f);
    return rc;
}
