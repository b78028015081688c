/*
 * common.c - the allocation wrapper, the assert hook and time formatting.
 *
 * The live-block counter and the failure-injection countdown are the only
 * process-wide state in hsim: they belong to the test harness, not to a run,
 * and no simulation result depends on them.  They are atomic, as the
 * policies of an experiment may be replayed on threads of their own.
 */
#include "common.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_long live_blocks;    /* allocations not yet freed */
static atomic_long fail_countdown; /* <= 0 = off; else the allocation that
                                      fails, counted from here */

void hsim_assert_fail(const char *what, const char *file, int line)
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
    void *p = malloc(size ? size : 1);
    if (p)
        atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *hsim_calloc(size_t count, size_t size)
{
    if (injected_failure())
        return NULL;
    void *p = calloc(count ? count : 1, size ? size : 1);
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

void hsim_fprint_time(FILE *f, hsim_time_t t)
{
    char buf[32];
    fputs(hsim_format_time(buf, sizeof buf, t), f);
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
