/*
 * fuzz.h - what the libFuzzer targets in tests/fuzz share: a check that
 * aborts with a message (libFuzzer then keeps the input as a reproducer),
 * and ways to hand one input to a reader as a C string or as a file.
 *
 * The targets are built only with -DHSIM_FUZZ=ON (clang); tests/fuzz/run.sh
 * builds and runs them.  Each target also checks that hsim's count of live
 * allocations is back where it was after every input, so a block that hsim
 * forgets to free fails at once, even one that LeakSanitizer would still
 * see as reachable.
 */
#ifndef HSIM_FUZZ_H
#define HSIM_FUZZ_H

#include "sim/engine.h"

#include <stddef.h>
#include <stdint.h>

/* Aborts, printing where and the formatted message, unless cond holds. */
#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond))                                                           \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                 \
    } while (0)
_Noreturn void fuzz_fail(const char *file, int line, const char *cond,
                         const char *fmt, ...) __attribute__((noreturn, format(printf, 4, 5)));

/* The input as a NUL-terminated string (cut at its first NUL byte, as a
   reader of strings sees it); the caller frees it with free(). */
char *fuzz_text(const uint8_t *data, size_t size);

/* A path for a temporary file of this process: $TMPDIR (or /tmp), then
   "hsim-fuzz-<pid>-<tag>".  Written into buf (size bytes). */
void fuzz_temp_path(char *buf, size_t size, const char *tag);

/* Writes data to path, replacing it; aborts when it cannot. */
void fuzz_write_file(const char *path, const uint8_t *data, size_t size);
/* The same bytes, gzipped. */
void fuzz_write_gzip(const char *path, const uint8_t *data, size_t size);

/* Aborts unless hsim's live allocations are back to live_before. */
void fuzz_check_no_leak(long live_before);

/* Replays w under cfg into out (a slot per job) and returns the engine's
   result, its message in *e; when that is 0, aborts unless every job
   started at or after its submission and ended after its start.  label
   names the run in messages. */
int fuzz_replay(const hsim_workload_t *w, const hsim_run_config_t *cfg, const char *label,
                hsim_outcome_t *out, hsim_err_t *e);

#endif
