/*
 * gzfile.h - opening and reading an input file, gzip or plain (told apart
 * by content: gzip's magic bytes), with the messages every trace reader
 * gives: the file named once, a folder or another error of the system said
 * as "cannot read", and a damaged or cut stream, or data after its end, as
 * a read error at the line being read.
 *
 * zlib's gzread() would do, but it drops what follows the last gzip member
 * without a word (a plain trace appended to a gzip one, say), so the
 * members are inflated here, with zlib's inflate(), and anything after
 * them that is not another member is an error.
 */
#ifndef HSIM_GZFILE_H
#define HSIM_GZFILE_H

#include "../sim/common.h"

#include <stddef.h>

typedef struct hsim_gz hsim_gz_t;

/* Opens path for reading into *gz (the caller closes it with
   hsim_gz_close()).  The handle keeps the pointer path, for its messages:
   the string must outlive it.  A named pipe is waited on for up to 10 s
   until a program opens it to write (never for ever).  0, HSIM_ENOMEM, or
   HSIM_EIO: "<path>: cannot open: <why>", or "<path>: cannot read: a named
   pipe that no program writes ...". */
int hsim_gz_open(const char *path, hsim_gz_t **gz, hsim_err_t *e);

/* Reads up to len bytes (len <= INT_MAX) into buf, all of them unless the
   file ends: the number read, 0 at the clean end of the file, or when
   reading failed HSIM_ENOMEM, or HSIM_EIO with e set: "<path>: cannot
   read: <why>" for an error of the system, else "<path>:<line>: read
   error: <why>" ("(is the file cut short?)" when the stream ends early). */
int hsim_gz_read(hsim_gz_t *gz, void *buf, size_t len, long long line, hsim_err_t *e);

void hsim_gz_close(hsim_gz_t *gz);

/* The error of every text reader for a NUL byte at that line of path: what
   follows it would be lost unseen (a C string ends there).  HSIM_EINPUT. */
int hsim_gz_nul_error(const char *path, long long line, hsim_err_t *e);

#endif
