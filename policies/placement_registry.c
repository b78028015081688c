/*
 * placement_registry.c - the one table of placement policies.  Adding one
 * means writing its file (a const hsim_placement_t) and adding a line here.
 * The table is const: lookups share no mutable state.
 */
#include "placement.h"

#include <string.h>

extern const hsim_placement_t hsim_place_first_fit;
extern const hsim_placement_t hsim_place_best_fit;
extern const hsim_placement_t hsim_place_worst_fit;
extern const hsim_placement_t hsim_place_round_robin;
extern const hsim_placement_t hsim_place_weighted_rr;
extern const hsim_placement_t hsim_place_least_conn;
extern const hsim_placement_t hsim_place_source_hash;
extern const hsim_placement_t hsim_place_hetero;

const hsim_placement_t *const hsim_placements[] = {
    &hsim_place_first_fit,
    &hsim_place_best_fit,
    &hsim_place_worst_fit,
    &hsim_place_round_robin,
    &hsim_place_weighted_rr,
    &hsim_place_least_conn,
    &hsim_place_source_hash,
    &hsim_place_hetero,
    NULL,
};

/* The policy named name, or NULL.  O(policies). */
const hsim_placement_t *hsim_placement_find(const char *name)
{
    for (size_t i = 0; hsim_placements[i]; i++)
        if (!strcmp(hsim_placements[i]->name, name))
            return hsim_placements[i];
    return NULL;
}

/* "first-fit, best-fit, ..." into buf (size bytes, always terminated; cut
   when too small). */
void hsim_placement_names(char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; hsim_placements[i]; i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? ", " : "", hsim_placements[i]->name);
    }
}
