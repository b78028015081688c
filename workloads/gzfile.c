/*
 * gzfile.c - see gzfile.h.
 */
#include "gzfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

enum { IN_SIZE = 1 << 17 };

struct hsim_gz {
    int fd;
    const char *path;
    int gzip;            /* 1: gzip members, else plain bytes */
    int at_eof;          /* read() has returned 0 */
    int done;            /* the last member ended with the file */
    const char *broken;  /* why the stream cannot go on, told at the next
                            read once the bytes before it are read */
    z_stream z;          /* its next_in/avail_in: the bytes read, not used */
    unsigned char in[IN_SIZE];
};

/* Reads more of the file after the avail_in bytes not used yet (moved to
   the front).  0, or HSIM_EIO with e set. */
static int refill(hsim_gz_t *g, hsim_err_t *e)
{
    if (g->z.avail_in)
        memmove(g->in, g->z.next_in, g->z.avail_in);
    g->z.next_in = g->in;
    while (!g->at_eof && g->z.avail_in < IN_SIZE) {
        ssize_t got = read(g->fd, g->in + g->z.avail_in, IN_SIZE - g->z.avail_in);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", g->path, strerror(errno));
        if (got == 0)
            g->at_eof = 1;
        g->z.avail_in += (uInt)got;
        if (got > 0)
            break; /* enough for now: a pipe gives what it has */
    }
    return 0;
}

/* A named pipe opened without waiting for its writer (O_NONBLOCK): waits
   up to FIFO_WAIT_MS for one to come, then reads as any file, blocking.
   With no writer, read() answers 0 at once; with a writer that has written
   nothing yet, EAGAIN.  The first bytes read stay in g->in.  0, or
   HSIM_EIO when none came: a pipe nobody writes would block hsim for ever. */
enum { FIFO_WAIT_MS = 10000, FIFO_POLL_MS = 10 };

static int wait_for_writer(hsim_gz_t *g, hsim_err_t *e)
{
    for (int waited = 0;; waited += FIFO_POLL_MS) {
        ssize_t got = read(g->fd, g->in, IN_SIZE);
        if (got > 0)
            g->z.avail_in = (uInt)got;
        if (got > 0 || (got < 0 && errno == EAGAIN))
            break; /* a writer is there */
        if (got < 0 && errno != EINTR)
            return hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", g->path, strerror(errno));
        if (waited >= FIFO_WAIT_MS)
            return hsim_errf(e, HSIM_EIO, "%s: cannot read: a named pipe that no program "
                             "writes (waited %d s): expected a file, or a pipe with a writer",
                             g->path, FIFO_WAIT_MS / 1000);
        struct timespec pause = {0, FIFO_POLL_MS * 1000000L};
        nanosleep(&pause, NULL);
    }
    return 0; /* the first hsim_gz_read() takes them from g->in */
}

int hsim_gz_open(const char *path, hsim_gz_t **gz, hsim_err_t *e)
{
    *gz = NULL;
    hsim_gz_t *g = hsim_calloc(1, sizeof *g);
    if (!g)
        return HSIM_ENOMEM;
    g->path = path;
    /* O_NONBLOCK: opening a named pipe would wait for a writer, without
       end when none comes; once open, reads block again */
    g->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int rc = 0;
    struct stat st;
    if (g->fd < 0 || fstat(g->fd, &st))
        rc = hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    else if (S_ISFIFO(st.st_mode))
        rc = wait_for_writer(g, e);
    if (rc == 0) {
        int flags = fcntl(g->fd, F_GETFL);
        if (flags < 0 || fcntl(g->fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
            rc = hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", path, strerror(errno));
    }
    if (rc) {
        if (g->fd >= 0)
            close(g->fd);
        hsim_free(g);
        return rc;
    }
    *gz = g;
    return 0;
}

/* Reads on until two bytes are at hand or the file ends; *magic: whether
   they are gzip's magic number, which starts a member.  0 or HSIM_EIO. */
static int look_ahead(hsim_gz_t *g, int *magic, hsim_err_t *e)
{
    int rc;
    while (g->z.avail_in < 2 && !g->at_eof)
        if ((rc = refill(g, e)))
            return rc;
    *magic = g->z.avail_in >= 2 && g->z.next_in[0] == 0x1f && g->z.next_in[1] == 0x8b;
    return 0;
}

/* Decides gzip or plain from the first two bytes, at the first read.  0,
   HSIM_EIO or HSIM_ENOMEM. */
static int start(hsim_gz_t *g, hsim_err_t *e)
{
    int rc = look_ahead(g, &g->gzip, e);
    if (rc)
        return rc;
    if (g->gzip && inflateInit2(&g->z, 15 + 16) != Z_OK) { /* 16: gzip only */
        g->gzip = 0;
        return HSIM_ENOMEM;
    }
    return 0;
}

/* A member has ended: another may follow (inflate goes on with it), or
   the end of the file (done), or something else (broken).  0, or HSIM_EIO
   with e set. */
static int next_member(hsim_gz_t *g, hsim_err_t *e)
{
    int magic, rc = look_ahead(g, &magic, e);
    if (rc)
        return rc;
    if (g->z.avail_in == 0)
        g->done = 1;
    else if (magic)
        inflateReset(&g->z);
    else
        g->broken = "data after the end of the gzip stream (a plain file appended to a "
                    "gzip one?)";
    return 0;
}

static int read_gzip(hsim_gz_t *g, unsigned char *buf, size_t len, long long line,
                     hsim_err_t *e)
{
    g->z.next_out = buf;
    g->z.avail_out = (uInt)len;
    while (g->z.avail_out && !g->done && !g->broken) {
        int rc;
        if (g->z.avail_in == 0 && !g->at_eof && (rc = refill(g, e)))
            return rc;
        rc = inflate(&g->z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            if ((rc = next_member(g, e)))
                return rc;
        } else if (rc == Z_BUF_ERROR && g->z.avail_in == 0 && g->at_eof) {
            g->broken = "unexpected end of file (is the file cut short?)";
        } else if (rc == Z_MEM_ERROR) {
            return HSIM_ENOMEM;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            g->broken = g->z.msg ? g->z.msg : zError(rc);
        }
    }
    int got = (int)(len - g->z.avail_out);
    if (got == 0 && g->broken) /* the reader has the lines before it */
        return hsim_errf(e, HSIM_EIO, "%s:%lld: read error: %s", g->path, line, g->broken);
    return got;
}

static int read_plain(hsim_gz_t *g, unsigned char *buf, size_t len, hsim_err_t *e)
{
    size_t got = 0;
    while (got < len) {
        if (g->z.avail_in == 0) {
            int rc;
            if (g->at_eof)
                break;
            if ((rc = refill(g, e)))
                return rc;
            continue;
        }
        size_t n = g->z.avail_in < len - got ? g->z.avail_in : len - got;
        memcpy(buf + got, g->z.next_in, n);
        g->z.next_in += n;
        g->z.avail_in -= (uInt)n;
        got += n;
    }
    return (int)got;
}

int hsim_gz_read(hsim_gz_t *g, void *buf, size_t len, long long line, hsim_err_t *e)
{
    if (!g->z.next_in) { /* the first read */
        g->z.next_in = g->in;
        int rc = start(g, e);
        if (rc)
            return rc;
    }
    return g->gzip ? read_gzip(g, buf, len, line, e) : read_plain(g, buf, len, e);
}

int hsim_gz_nul_error(const char *path, long long line, hsim_err_t *e)
{
    return hsim_errf(e, HSIM_EINPUT, "%s:%lld: a NUL byte: expected text (is the file binary, "
                     "or UTF-16?)", path, line);
}

void hsim_gz_close(hsim_gz_t *g)
{
    if (!g)
        return;
    if (g->gzip)
        inflateEnd(&g->z);
    close(g->fd);
    hsim_free(g);
}
