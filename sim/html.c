/*
 * html.c - report.html.  See html.h.
 *
 * The page is plain HTML 5 with a little CSS and no script.  Every text
 * that comes from a file (policy names, the INI, captions) is escaped.
 */
#include "html.h"

#include "plot.h"
#include "report.h"

#include <string.h>

size_t hsim_base64(const unsigned char *in, size_t n, char *out)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[o++] = abc[v >> 18 & 63];
        out[o++] = abc[v >> 12 & 63];
        out[o++] = i + 1 < n ? abc[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? abc[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

static void escaped(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static const char style[] =
    "<style>body{font-family:sans-serif;margin:24px;max-width:1400px;color:#222}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px}"
    "table{border-collapse:collapse;font-size:12px}"
    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap}"
    "th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}"
    ".wide{overflow-x:auto}figure{margin:18px 0}img,svg{max-width:100%;height:auto}"
    "figcaption{font-weight:bold;margin-bottom:6px}"
    "pre{background:#f6f6f6;padding:10px;font-size:12px;overflow-x:auto}</style>\n";

/* A CSV file of dir as a table (header row first); nothing when it is
   missing. */
static int csv_table(FILE *out, const char *dir, const char *name, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    hsim_csv_t c;
    int rc = hsim_csv_open(&c, path, e);
    if (rc == 0) {
        fputs("<div class=\"wide\"><table>\n<tr>", out);
        for (size_t k = 0; k < c.n_head; k++) {
            fputs("<th>", out);
            escaped(out, c.head[k]);
            fputs("</th>", out);
        }
        fputs("</tr>\n", out);
        while (hsim_csv_next(&c)) {
            fputs("<tr>", out);
            for (size_t k = 0; k < c.n; k++) {
                fputs("<td>", out);
                escaped(out, c.f[k]);
                fputs("</td>", out);
            }
            fputs("</tr>\n", out);
        }
        fputs("</table></div>\n", out);
    }
    hsim_csv_close(&c);
    return rc;
}

/* One chart: a PNG as data, an SVG inline (after its XML declaration),
   or a link to the PDF. */
static int chart(FILE *out, const char *dir, const hsim_chart_file_t *fl, unsigned formats,
                 hsim_err_t *e)
{
    const char *ext = formats & HSIM_FORMAT_PNG ? "png" : formats & HSIM_FORMAT_SVG ? "svg"
                                                                                    : "pdf";
    fputs("<figure><figcaption>", out);
    escaped(out, fl->caption);
    fputs("</figcaption>\n", out);
    if (!strcmp(ext, "pdf")) {
        fputs("<a href=\"", out);
        escaped(out, fl->rel);
        fputs(".pdf\">", out);
        escaped(out, fl->rel);
        fputs(".pdf</a></figure>\n", out);
        return 0;
    }
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.%s", dir, fl->rel, ext);
    char *data;
    size_t len = 0;
    int rc = hsim_read_file(path, &data, &len, e);
    if (rc)
        return rc;
    if (!strcmp(ext, "svg")) {
        const char *s = data;
        if (!strncmp(s, "<?xml", 5) && strstr(s, "?>"))
            s = strstr(s, "?>") + 2;
        fputs(s, out);
    } else {
        char *b64 = hsim_malloc(4 * ((len + 2) / 3) + 1);
        if (!b64) {
            hsim_free(data);
            return HSIM_ENOMEM;
        }
        hsim_base64((const unsigned char *)data, len, b64);
        fputs("<img alt=\"", out);
        escaped(out, fl->caption);
        fprintf(out, "\" src=\"data:image/png;base64,%s\">", b64);
        hsim_free(b64);
    }
    hsim_free(data);
    fputs("</figure>\n", out);
    return 0;
}

/* The INI as it was run, when the folder has it. */
static int ini_text(FILE *out, const char *dir, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/experiment.ini", dir);
    char *text;
    size_t len;
    hsim_err_t ignored;
    if (hsim_read_file(path, &text, &len, &ignored)) {
        fputs("<p>(no experiment.ini in the results folder)</p>\n", out);
        return 0;
    }
    (void)e;
    fputs("<pre>", out);
    escaped(out, text);
    fputs("</pre>\n", out);
    hsim_free(text);
    return 0;
}

int hsim_html_report(const char *dir, const char *title, const hsim_chart_file_t *files,
                     size_t n, unsigned formats, int repeats, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/report.html", dir);
    hsim_report_t r;
    int rc = hsim_report_open(&r, path, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                                        "<meta charset=\"utf-8\">\n<title>hsim: ", e);
    if (rc)
        return rc;
    escaped(r.f, title);
    fprintf(r.f, "</title>\n%s</head><body>\n<h1>", style);
    escaped(r.f, title);
    fputs("</h1>\n<h2>The run</h2>\n<p>The trace's checksum is zlib's CRC-32 of the file "
          "as stored (compressed when it is): the same number means the same bytes, and "
          "the INI below with the same hsim version gives the same results.</p>\n", r.f);
    rc = csv_table(r.f, dir, "run.csv", e);
    if (rc == 0) {
        fputs("<h2>Summary</h2>\n", r.f);
        if (repeats)
            fputs("<p>Repeated runs: each figure is the mean over the seeds, and a "
                  "<code>_ci95</code> column the half-width of its 95% confidence interval. "
                  "Each seed's jobs, time series and charts are in its own "
                  "<code>seed-S/</code> folder, with its <code>report.html</code>.</p>\n", r.f);
        rc = csv_table(r.f, dir, "summary.csv", e);
    }
    if (rc == 0 && n)
        fputs("<h2>Charts</h2>\n", r.f);
    for (int policy = 0; policy < 2; policy++) /* the comparisons first */
        for (size_t k = 0; k < n && rc == 0; k++)
            if (!strchr(files[k].rel, '/') == !policy)
                rc = chart(r.f, dir, &files[k], formats, e);
    if (rc == 0) {
        fputs("<h2>The experiment</h2>\n", r.f);
        rc = ini_text(r.f, dir, e);
    }
    fputs("</body></html>\n", r.f);
    if (rc) {
        hsim_report_discard(&r);
        return rc;
    }
    return hsim_report_close(&r, e);
}
