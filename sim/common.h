/*
 * common.h - types, error codes, the assert macro and the allocation wrapper
 * shared by every hsim module.
 *
 * Time is an exact integer: hsim_time_t counts microseconds.  SWF traces are in
 * whole seconds and stay whole; speedups on heterogeneous nodes give fractions
 * of a second that are still exact, so two runs of the same input are
 * byte-identical on any machine.
 */
#ifndef HSIM_COMMON_H
#define HSIM_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HSIM_VERSION "0.1.0"

typedef int64_t hsim_time_t;            /* microseconds since the trace's epoch */
#define HSIM_SECOND ((hsim_time_t)1000000)
#define HSIM_TIME_MAX INT64_MAX
/* The longest time a trace may give in any field: 10^10 s, 317 years, so
   that sums of a few times stay far inside the microsecond range. */
#define HSIM_MAX_SECONDS INT64_C(10000000000)
/* Simulated time never passes this, 2^61 us (73,000 years): a run stops
   with an error when a start, an end or a reservation would.  Below it,
   one more time of at most HSIM_MAX_SECONDS cannot overflow. */
#define HSIM_HORIZON ((hsim_time_t)1 << 61)

/* Error codes: functions return 0 or one of these (negative). */
enum {
    HSIM_OK = 0,
    HSIM_ENOMEM = -1,   /* an allocation failed */
    HSIM_EINPUT = -2,   /* bad input: a message naming file and line was printed */
    HSIM_EIO = -3,      /* a file could not be opened, read or written */
    HSIM_EUSAGE = -4,   /* bad command line */
    HSIM_ERUN = -5,     /* a replay failed (a policy error): the input was
                           good, so the command goes on to the next */
    HSIM_NOFIT = 1,     /* not an error: no node can hold the job now (a
                           placement's or a start decision's answer) */
};

/* Programming errors only: aborts with file and line. */
#define HSIM_ASSERT(cond)                                                      \
    do {                                                                       \
        if (!(cond))                                                           \
            hsim_assert_fail(#cond, __FILE__, __LINE__);                       \
    } while (0)
/* _Noreturn for C11, and the attribute for the tools that know only it
   (cppcheck) */
_Noreturn void hsim_assert_fail(const char *what, const char *file, int line)
    __attribute__((noreturn));

/*
 * Every allocation goes through these, so tests can count live blocks and
 * inject failures.  hsim_malloc(0) returns a valid unique pointer.  The caller
 * owns what they return and gives it back with hsim_free().  Blocks of 1 MiB
 * or more are mapped apart, 2 MiB-aligned, in transparent huge pages, but
 * when HSIM_LARGE_BLOCKS is 0 (under AddressSanitizer, which checks only
 * malloc's blocks): see common.c.
 */
#if defined(__SANITIZE_ADDRESS__)
#define HSIM_LARGE_BLOCKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HSIM_LARGE_BLOCKS 0
#endif
#endif
#ifndef HSIM_LARGE_BLOCKS
#define HSIM_LARGE_BLOCKS 1
#endif
void *hsim_malloc(size_t size);
void *hsim_calloc(size_t count, size_t size);
void *hsim_realloc(void *ptr, size_t size);
char *hsim_strdup(const char *s);
void hsim_free(void *ptr);
/* Grow *ptr (holding *cap elements of elem bytes) to hold at least need.
   0 or HSIM_ENOMEM.  Inline when there is room already, as there nearly
   always is (conservative backfilling asks at every move). */
int hsim_grow_to(void *ptr, size_t *cap, size_t need, size_t elem);
static inline int hsim_grow(void *ptr, size_t *cap, size_t need, size_t elem)
{
    return need <= *cap ? 0 : hsim_grow_to(ptr, cap, need, elem);
}

/* Grow *ptr, a table of n elements of elem bytes, to exactly need (when
   more), the new elements all zero bytes: a table by job index that
   grows with a run's jobs.  0 or HSIM_ENOMEM (then it is as it was). */
int hsim_grow_zeroed(void *ptr, size_t n, size_t need, size_t elem);

/* Live blocks allocated through the wrapper and not yet freed. */
long hsim_alloc_live(void);
/* Make the n-th allocation from now fail (n >= 1); 0 disables injection. */
void hsim_alloc_fail_after(long n);

/* Seconds <-> hsim_time_t. */
static inline hsim_time_t hsim_seconds(int64_t s) { return s * HSIM_SECOND; }
/* v - w, never below 0 (v - min(v, w)). */
static inline int64_t hsim_sub_floor(int64_t v, int64_t w) { return w < v ? v - w : 0; }
/* Writes t as seconds into buf (at least 32 bytes): "12" for whole
   seconds, else "12.5" or "-0.000001" (up to 6 decimals); returns buf. */
char *hsim_format_time(char *buf, size_t size, hsim_time_t t);
/*
 * Reads [-+]digits[.digits] at s as a value scaled by 10^6 (seconds as an
 * hsim_time_t), rounded half away from zero at the sixth decimal.  *end
 * gets the first character after the number, *inexact whether digits past
 * the sixth decimal were not all 0.  Returns 0; -1 when there is no digit;
 * -2 when the value does not fit in int64 (*out then saturates, and *end
 * is still right).
 */
int hsim_parse_fixed6(const char *s, int64_t *out, const char **end, int *inexact);
/* strtod() for decimal numbers only: it also reads hexadecimal ones
   ("0x1p-1" is 0.5), which no one writing an input file means; for those
   *end = s (no number). */
double hsim_strtod(const char *s, char **end);


/*
 * Error messages travel in an hsim_err_t owned by the caller, so that the
 * command prints them and tests can read them.  Messages have the form
 * "file:line: what was expected, what was found".
 */
typedef struct hsim_err {
    char msg[4096]; /* room for two paths of HSIM_PATH_MAX (an INI and a
                       trace, say) and the words around them, so that the
                       reason at the end is never cut off */
} hsim_err_t;

/* Formats msg into e (when e is not NULL) and returns code. */
int hsim_errf(hsim_err_t *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Reads a small CSV file of a few fields a line (the failure traces, the
 * dependency lists): blank lines and lines that start with '#' (after
 * blanks) are skipped; every other line is split at its commas into at
 * most HSIM_LINE_FIELDS trimmed fields, and fn(ctx, line, f, n, text) gets
 * them: n is how many fields the line has (f holds the first
 * HSIM_LINE_FIELDS), text the line's first field.  A line longer than
 * max_line characters (at most HSIM_LINE_MAX), or holding a NUL byte, is
 * an error at its line: its tail would read as a line.  Messages name
 * the file as shown.  Returns 0, fn's nonzero return (which stops the
 * reading), HSIM_EIO ("cannot open", "cannot read") or HSIM_EINPUT.
 */
#define HSIM_LINE_FIELDS 4
#define HSIM_LINE_MAX 1022
typedef int (*hsim_line_fn)(void *ctx, int64_t line, char **f, size_t n, const char *text);
int hsim_read_lines(const char *path, const char *shown, size_t max_line, hsim_line_fn fn,
                    void *ctx, hsim_err_t *e);

/* Copies src into dst (size bytes, always terminated); returns strlen(src),
   so a result >= size means it was cut. */
size_t hsim_strlcpy(char *dst, const char *src, size_t size);

/* 1 when s ends with suffix (a file's extension, say), else 0. */
int hsim_ends_with(const char *s, const char *suffix);

/* The length of the UTF-8 byte order mark that the len bytes at s start
   with (some Windows editors write one): 3, or 0 when there is none.
   Every reader of input files skips it at the start of a file. */
size_t hsim_bom_len(const char *s, size_t len);

/*
 * An output file is written under a temporary name, <path>.<pid>.part (the
 * process id: two processes never write one temporary file), and takes its
 * own name only when it is whole: a run that is stopped (Ctrl-C, a full
 * disk, a crash) leaves no cut-off jobs.csv, chart or trace that a script
 * could take for a complete one.  A failed write removes its .part file,
 * and so does a stopping signal (hsim_part_remove_on_signals()); a crash
 * leaves them, and the next run of the experiment removes them
 * (hsim_results_lock()).  That is for a new path or
 * a regular file only: a symbolic link, a device or a pipe (/dev/stdout) is
 * written in place, as a rename would replace it (as root, even /dev/stdout
 * itself).
 */
#define HSIM_PART_PATH_MAX 4224 /* an output path and ".<pid>.part" */
/* The lock file of a results folder (see hsim_results_lock() in report.h):
   no policy may take its name. */
#define HSIM_LOCK_NAME ".hsim.lock"

/* The file to write for path into part (size bytes): <path>.<pid>.part, or ""
   when path is to be written in place (see above).  0, or HSIM_EIO when
   it does not fit. */
int hsim_part_path(char *part, size_t size, const char *path, hsim_err_t *e);
/* For a part that is not "": renames it to path when rc is 0 (an error of
   its own, naming path, when that fails); else, or then, removes it.
   Returns rc, or that error. */
int hsim_publish(const char *part, const char *path, int rc, hsim_err_t *e);
/* From now on, SIGINT, SIGTERM and SIGHUP (those not ignored) remove the
   .part files being written before they stop hsim. */
void hsim_part_remove_on_signals(void);
/* The .part files recorded for that: each hsim_part_path() that gave one
   until its hsim_publish().  For tests. */
int hsim_part_pending(void);

#endif
