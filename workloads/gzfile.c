/*
 * gzfile.c - see gzfile.h.
 */
#include "gzfile.h"

#include <errno.h>
#include <string.h>

int hsim_gz_open(const char *path, gzFile *gz, hsim_err_t *e)
{
    errno = 0;
    *gz = gzopen(path, "rb");
    if (!*gz)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path,
                         errno ? strerror(errno) : "zlib error");
    return 0;
}

int hsim_gz_read(gzFile gz, void *buf, unsigned len, const char *path, long long line,
                 hsim_err_t *e)
{
    int got = gzread(gz, buf, len);
    if (got > 0)
        return got;
    int zerr;
    const char *why = hsim_without_path(gzerror(gz, &zerr), path);
    if (got == 0 && (zerr == Z_OK || zerr == Z_STREAM_END))
        return 0;
    if (got < 0 && zerr == Z_ERRNO) /* the system's: a folder, say */
        hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", path, why);
    else
        hsim_errf(e, HSIM_EIO, "%s:%lld: read error: %s%s", path, line, why,
                  got == 0 ? " (is the file cut short?)" : "");
    return -1;
}
