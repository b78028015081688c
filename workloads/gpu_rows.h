/*
 * gpu_rows.h - internal to the GPU trace readers (gpu_traces.c,
 * gpu_gavel.c, gpu_alibaba.c): a row reader over libcsv and zlib, and the
 * field parsers whose messages all read "field N (name): expected ...,
 * found '...'".  Not part of hsim's API: the hsim__ prefix marks functions
 * shared between these files only.
 */
#ifndef HSIM_GPU_ROWS_H
#define HSIM_GPU_ROWS_H

#include "gpu_traces.h"

/* One row as libcsv split it. */
typedef struct hsim__row {
    const char *path;     /* file name, for messages */
    int64_t line;         /* line the row starts on, >= 1 */
    int64_t index;        /* rows before this one, >= 0 (blank lines are not
                             rows; a CSV header is row 0) */
    size_t n;             /* fields, >= 1 */
    char *const *f;       /* n fields, NUL-terminated, blanks around them
                             trimmed, quotes removed (CSV only) */
} hsim__row_t;

/* Called once per row, in file order; returns 0 to go on, 1 to stop
   reading (not an error), or a negative HSIM_E* code. */
typedef int (*hsim__row_cb)(void *ctx, const hsim__row_t *row, hsim_err_t *e);

/* The longest row, bytes (the SWF reader's lines hold 256 KiB). */
#define HSIM__ROW_MAX (1 << 20)

/*
 * Reads path (gzip or plain) and calls cb for each non-blank row.  delim is
 * ',' (CSV with '"' quoting) or '\t' (no quoting: Gavel's commands are shell
 * text).  Returns 0, cb's negative code, HSIM_EIO (e: "path: cannot open"
 * or "path:LINE: read error"), HSIM_EINPUT for a row longer than
 * HSIM__ROW_MAX bytes, or HSIM_ENOMEM.  O(bytes); memory O(longest row).
 */
int hsim__rows_read(const char *path, unsigned char delim, hsim__row_cb cb,
                    void *ctx, hsim_err_t *e);

/* A column that a reader looks for in a CSV header. */
typedef struct hsim__column {
    const char *name;     /* as written in the header */
    int required;         /* 1: its absence is an error */
} hsim__column_t;

/*
 * Finds each of cols[0..count) in the header row r: index[i] = its field
 * index, or -1 for an absent optional column.  A missing required column is
 * HSIM_EINPUT with e: "path:LINE: expected a header with column 'x', found
 * 'a,b,c'".  O(count x fields).
 */
int hsim__header_find(const hsim__row_t *r, const hsim__column_t *cols,
                      size_t count, int *index, hsim_err_t *e);

/*
 * Field parsers.  Each returns 0 and sets *out, or HSIM_EINPUT and writes
 * "field N (name): expected ..., found '...'" into why (size bytes).  i is
 * the 0-based field index (the message says i + 1).
 */
/* An integer from min to max (no fraction, no exponent). */
int hsim__field_int(const hsim__row_t *r, size_t i, const char *name,
                    int64_t min, int64_t max, int64_t *out, char *why,
                    size_t size);
/* Seconds >= 0 as a decimal number ("12", "0.5"), exact to the microsecond
   (finer digits are rounded half up). */
int hsim__field_seconds(const hsim__row_t *r, size_t i, const char *name,
                        hsim_time_t *out, char *why, size_t size);
/* A number from min to max (strtod syntax; hsim never sets a locale). */
int hsim__field_double(const hsim__row_t *r, size_t i, const char *name,
                       double min, double max, double *out, char *why, size_t size);
/* A non-empty text of at most size_out - 1 bytes, copied into out. */
int hsim__field_text(const hsim__row_t *r, size_t i, const char *name,
                     char *out, size_t size_out, char *why, size_t size);

/* Field i of r as GPU model names separated by '|' ("V100M16|V100M32";
   blanks around a name ignored), each interned in w: *mask gets their
   bits.  The caller handles an empty field.  0 or HSIM_EINPUT. */
int hsim__field_models(const hsim__row_t *r, size_t i, const char *name, hsim_workload_t *w,
                       uint32_t *mask, char *why, size_t size);

/* Checks that r has n fields; else HSIM_EINPUT with why "expected n fields,
   found m". */
int hsim__row_fields(const hsim__row_t *r, size_t n, char *why, size_t size);

/*
 * Disposes of a data row that cannot become a job: with skip, it is
 * rejected in w with why as the reason (returns 0 or HSIM_ENOMEM); without,
 * e gets "path:LINE: why" and the result is HSIM_EINPUT.
 */
int hsim__row_bad(const hsim__row_t *r, int64_t id, int skip, const char *why,
                  hsim_workload_t *w, hsim_err_t *e);

/* The end of every job reader: sorts w's jobs on success, empties w on
   error.  Returns rc. */
int hsim__workload_finish(hsim_workload_t *w, int rc);

#endif
