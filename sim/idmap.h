/*
 * idmap.h - numbers ids as they come: the first id seen is 0, the next new
 * one 1, and so on (users numbered as their jobs arrive).  Open
 * addressing, at most half full, doubled when it would be more.
 */
#ifndef HSIM_IDMAP_H
#define HSIM_IDMAP_H

#include "common.h"

typedef struct hsim_idmap {
    int32_t *key;   /* [cap] ids... */
    int32_t *num;   /* [cap] ...and their numbers, -1 for an empty slot */
    size_t cap, n;  /* a power of two (0 before the first id); ids held */
} hsim_idmap_t;

/* id's number, given it when new (*num gets it).  0 or HSIM_ENOMEM.
   Amortised O(1). */
int hsim_idmap_number(hsim_idmap_t *m, int32_t id, int32_t *num);
/* id's number, or -1 when it has none.  O(1). */
int32_t hsim_idmap_find(const hsim_idmap_t *m, int32_t id);
void hsim_idmap_free(hsim_idmap_t *m);

#endif
