/*
 * params.h - the parameters a plug-in declares in its descriptor, and the
 * values a [policy X] section gives them.
 *
 * A plug-in lists its parameters in a table of hsim_param_def_t (name,
 * type, default, range, one line of help), ended by an entry whose name is
 * NULL.  The INI reader takes "<plug-in>.<name> = value" in a [policy]
 * section, checks it against that table (an unknown name or a value out of
 * range is an error at its line, naming the valid ones) and keeps it in the
 * section's hsim_param_set_t; `hsim help policies` and docs/policies.md
 * print the same table.  A plug-in reads its values at create() through
 * the getters below, which answer the default for a parameter not given.
 * Everything here is fixed-size: a set lives inside the parsed config.
 */
#ifndef HSIM_PARAMS_H
#define HSIM_PARAMS_H

#include "../sim/common.h"

typedef enum hsim_param_type {
    HSIM_PARAM_REAL,   /* a decimal number in [min, max] */
    HSIM_PARAM_INT,    /* an integer in [min, max] */
    HSIM_PARAM_CHOICE, /* one word of choices ("a|b|c"); num is its index */
    HSIM_PARAM_TABLE,  /* "id:value, id:value": ids are integers >= -1,
                          values in [min, max] */
    HSIM_PARAM_ORDERS, /* "name,name": registered queue orders */
} hsim_param_type_t;

typedef struct hsim_param_def {
    const char *name;     /* the key after "<plug-in>."; NULL ends a table */
    hsim_param_type_t type;
    double def;           /* REAL, INT: the default; CHOICE: its index */
    double min, max;      /* REAL, INT: the range; TABLE: of each value;
                             ORDERS: how many names */
    const char *choices;  /* CHOICE: "a|b|c"; ORDERS: the default list */
    const char *help;     /* one line, no final period */
} hsim_param_def_t;

#define HSIM_TABLE_MAX 16     /* entries of one table */
#define HSIM_PARAM_TEXT 96    /* a CHOICE's or ORDERS' text, bytes */
#define HSIM_PARAM_SET_MAX 16 /* values one [policy] section may give */

typedef struct hsim_param_table {
    size_t n;                       /* entries, 0..HSIM_TABLE_MAX */
    int32_t key[HSIM_TABLE_MAX];    /* ids, distinct, >= -1 */
    double value[HSIM_TABLE_MAX];
} hsim_param_table_t;

typedef struct hsim_param_value {
    char plugin[32];                /* the plug-in's name */
    const hsim_param_def_t *def;    /* its entry in the plug-in's table */
    int line;                       /* where it was given */
    double num;                     /* REAL, INT; CHOICE: the index */
    char text[HSIM_PARAM_TEXT];     /* CHOICE, ORDERS: as given */
    hsim_param_table_t table;       /* TABLE */
} hsim_param_value_t;

typedef struct hsim_param_set {
    hsim_param_value_t v[HSIM_PARAM_SET_MAX];
    size_t n;
} hsim_param_set_t;

/* The entry named name in defs (NULL-name-terminated; defs may be NULL),
   or NULL.  O(entries). */
const hsim_param_def_t *hsim_param_find(const hsim_param_def_t *defs, const char *name);
/* "a, b, c" of defs' names into buf (always terminated; "none" for no
   parameter). */
void hsim_param_names(const hsim_param_def_t *defs, char *buf, size_t size);
/*
 * Reads text as a value of def into out (its def and num, text or table).
 * 0, or -1 with why (size bytes) saying what was expected and what was
 * found.  An ORDERS list is checked by the caller (which knows the
 * registry): here it is only copied.
 */
int hsim_param_parse(const hsim_param_def_t *def, const char *text, hsim_param_value_t *out,
                     char *why, size_t size);
/* The value set gives plugin's parameter name, or NULL when it is not
   given (set may be NULL).  O(values). */
const hsim_param_value_t *hsim_param_get(const hsim_param_set_t *set, const char *plugin,
                                         const char *name);
/* A REAL, INT or CHOICE parameter: the value given, else the default of
   defs' entry (which must exist: a programming error otherwise). */
double hsim_param_num(const hsim_param_set_t *set, const char *plugin,
                      const hsim_param_def_t *defs, const char *name);
/* A TABLE parameter: the table given, or NULL. */
const hsim_param_table_t *hsim_param_table(const hsim_param_set_t *set, const char *plugin,
                                           const char *name);
/* An ORDERS (or CHOICE) parameter: the text given, else the default. */
const char *hsim_param_text(const hsim_param_set_t *set, const char *plugin,
                            const hsim_param_def_t *defs, const char *name);
/* value of key in t, or dflt when t is NULL or has no such key. */
double hsim_table_lookup(const hsim_param_table_t *t, int32_t key, double dflt);
/* One help line per parameter: "    <plugin>.<name> = default  (range) help". */
void hsim_param_help(FILE *out, const char *plugin, const hsim_param_def_t *defs);

#endif
