/*
 * params.c - plug-in parameters: lookup, parsing and help.  See params.h.
 *
 * Sets are small (a few values a section) and read once per run at
 * create(), so every lookup is a linear scan.
 */
#include "params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const hsim_param_def_t *hsim_param_find(const hsim_param_def_t *defs, const char *name)
{
    for (size_t i = 0; defs && defs[i].name; i++)
        if (!strcmp(defs[i].name, name))
            return &defs[i];
    return NULL;
}

void hsim_param_names(const hsim_param_def_t *defs, char *buf, size_t size)
{
    if (!size)
        return;
    hsim_strlcpy(buf, defs && defs[0].name ? "" : "none", size);
    for (size_t i = 0; defs && defs[i].name; i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? ", " : "", defs[i].name);
    }
}

/* A decimal number, the whole of s: 0, or -1. */
static int read_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = hsim_strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || errno || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

/* Writes def's range ("a number in 0..10") into buf. */
static void range_text(const hsim_param_def_t *def, char *buf, size_t size)
{
    const char *what = def->type == HSIM_PARAM_INT ? "an integer" : "a number";
    snprintf(buf, size, "%s in %g..%g", what, def->min, def->max);
}

/* Index of word in choices "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
    size_t len = strlen(word);
    int k = 0;
    for (const char *c = choices; *c; k++) {
        size_t n = strcspn(c, "|");
        if (n == len && !strncmp(c, word, n))
            return k;
        c += n + (c[n] == '|');
    }
    return -1;
}

/* "id:value, id:value" into t.  0, or -1 with why. */
static int parse_table(const hsim_param_def_t *def, const char *text, hsim_param_table_t *t,
                       char *why, size_t size)
{
    char buf[512], range[64];
    range_text(def, range, sizeof range);
    if (hsim_strlcpy(buf, text, sizeof buf) >= sizeof buf) {
        snprintf(why, size, "%s: the table is too long", def->name);
        return -1;
    }
    t->n = 0;
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        double id, x;
        if (colon)
            *colon = '\0';
        if (!colon || read_number(item, &id) || id != floor(id) || id < -1 || id > INT32_MAX ||
            read_number(colon + 1, &x)) {
            snprintf(why, size, "%s: expected id:value pairs separated by commas (ids are "
                                "integers >= -1), found '%s'", def->name, text);
            return -1;
        }
        if (!(x >= def->min && x <= def->max)) {
            snprintf(why, size, "%s: value of id %.0f: expected %s, found %g", def->name, id,
                     range, x);
            return -1;
        }
        for (size_t k = 0; k < t->n; k++)
            if (t->key[k] == (int32_t)id) {
                snprintf(why, size, "%s: id %.0f is given twice", def->name, id);
                return -1;
            }
        if (t->n == HSIM_TABLE_MAX) {
            snprintf(why, size, "%s: at most %d entries", def->name, HSIM_TABLE_MAX);
            return -1;
        }
        t->key[t->n] = (int32_t)id;
        t->value[t->n++] = x;
    }
    if (!t->n) {
        snprintf(why, size, "%s: expected id:value pairs, found nothing", def->name);
        return -1;
    }
    return 0;
}

int hsim_param_parse(const hsim_param_def_t *def, const char *text, hsim_param_value_t *out,
                     char *why, size_t size)
{
    char range[64];
    out->def = def;
    switch (def->type) {
    case HSIM_PARAM_REAL:
    case HSIM_PARAM_INT:
        range_text(def, range, sizeof range);
        if (read_number(text, &out->num) || !(out->num >= def->min && out->num <= def->max) ||
            (def->type == HSIM_PARAM_INT && out->num != floor(out->num))) {
            snprintf(why, size, "%s: expected %s, found '%s'", def->name, range, text);
            return -1;
        }
        return 0;
    case HSIM_PARAM_CHOICE: {
        int k = choice_index(def->choices, text);
        if (k < 0) {
            snprintf(why, size, "%s: expected one of %s, found '%s'", def->name, def->choices,
                     text);
            return -1;
        }
        out->num = k;
        break;
    }
    case HSIM_PARAM_TABLE:
        return parse_table(def, text, &out->table, why, size);
    case HSIM_PARAM_ORDERS:
        break;
    }
    if (hsim_strlcpy(out->text, text, sizeof out->text) >= sizeof out->text) {
        snprintf(why, size, "%s: at most %d characters", def->name, HSIM_PARAM_TEXT - 1);
        return -1;
    }
    return 0;
}

const hsim_param_value_t *hsim_param_get(const hsim_param_set_t *set, const char *plugin,
                                         const char *name)
{
    for (size_t i = 0; set && i < set->n; i++)
        if (!strcmp(set->v[i].plugin, plugin) && !strcmp(set->v[i].def->name, name))
            return &set->v[i];
    return NULL;
}

double hsim_param_num(const hsim_param_set_t *set, const char *plugin,
                      const hsim_param_def_t *defs, const char *name)
{
    const hsim_param_value_t *v = hsim_param_get(set, plugin, name);
    if (v)
        return v->num;
    const hsim_param_def_t *d = hsim_param_find(defs, name);
    HSIM_ASSERT(d);
    return d->def;
}

const hsim_param_table_t *hsim_param_table(const hsim_param_set_t *set, const char *plugin,
                                           const char *name)
{
    const hsim_param_value_t *v = hsim_param_get(set, plugin, name);
    return v ? &v->table : NULL;
}

const char *hsim_param_text(const hsim_param_set_t *set, const char *plugin,
                            const hsim_param_def_t *defs, const char *name)
{
    const hsim_param_value_t *v = hsim_param_get(set, plugin, name);
    if (v)
        return v->text;
    const hsim_param_def_t *d = hsim_param_find(defs, name);
    HSIM_ASSERT(d && d->choices);
    return d->choices;
}

double hsim_table_lookup(const hsim_param_table_t *t, int32_t key, double dflt)
{
    for (size_t i = 0; t && i < t->n; i++)
        if (t->key[i] == key)
            return t->value[i];
    return dflt;
}

/* The default of d as text into buf. */
static void default_text(const hsim_param_def_t *d, char *buf, size_t size)
{
    if (d->type == HSIM_PARAM_CHOICE) {
        const char *c = d->choices;
        for (int k = 0; k < (int)d->def && strchr(c, '|'); k++)
            c = strchr(c, '|') + 1;
        snprintf(buf, size, "%.*s", (int)strcspn(c, "|"), c);
    } else if (d->type == HSIM_PARAM_ORDERS) {
        snprintf(buf, size, "%s", d->choices);
    } else if (d->type == HSIM_PARAM_TABLE) {
        snprintf(buf, size, "(none)");
    } else {
        snprintf(buf, size, "%g", d->def);
    }
}

void hsim_param_help(FILE *out, const char *plugin, const hsim_param_def_t *defs)
{
    for (size_t i = 0; defs && defs[i].name; i++) {
        const hsim_param_def_t *d = &defs[i];
        char key[96], dflt[HSIM_PARAM_TEXT], range[64] = "";
        snprintf(key, sizeof key, "%s.%s", plugin, d->name);
        default_text(d, dflt, sizeof dflt);
        if (d->type == HSIM_PARAM_CHOICE)
            snprintf(range, sizeof range, "%s", d->choices);
        else if (d->type == HSIM_PARAM_ORDERS)
            snprintf(range, sizeof range, "queue orders");
        else if (d->type == HSIM_PARAM_TABLE)
            snprintf(range, sizeof range, "id:value, values %g..%g", d->min, d->max);
        else
            snprintf(range, sizeof range, "%g..%g", d->min, d->max);
        fprintf(out, "      %s = %s  [%s] %s\n", key, dflt, range, d->help);
    }
}
