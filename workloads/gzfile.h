/*
 * gzfile.h - opening and reading an input file, gzip or plain (zlib tells
 * them apart by content), with the messages every trace reader gives: the
 * file named once (zlib's own messages name it too), a folder or another
 * error of the system said as "cannot read", and a damaged or cut stream
 * as a read error at the line being read.
 */
#ifndef HSIM_GZFILE_H
#define HSIM_GZFILE_H

#include "../sim/common.h"

#include <zlib.h>

/* Opens path for reading into *gz (the caller closes it with gzclose()).
   0, or HSIM_EIO: "<path>: cannot open: <why>". */
int hsim_gz_open(const char *path, gzFile *gz, hsim_err_t *e);

/* gzread() of up to len bytes into buf: the number read, 0 at the clean end
   of the file, or -1 with e set (HSIM_EIO) when reading failed: "<path>:
   cannot read: <why>" for an error of the system, else "<path>:<line>: read
   error: <why>", with "(is the file cut short?)" when the stream ended
   early, which zlib reports only once it returns 0. */
int hsim_gz_read(gzFile gz, void *buf, unsigned len, const char *path, long long line,
                 hsim_err_t *e);

#endif
