/*
 * idmap.c - ids numbered as they come (idmap.h).
 */
#include "idmap.h"

static size_t slot_of(const hsim_idmap_t *m, int32_t id)
{
    uint64_t x = (uint64_t)(uint32_t)id * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(x >> 32) & (m->cap - 1);
    while (m->num[i] >= 0 && m->key[i] != id)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* Twice the room (16 slots at first), every id in its new slot. */
static int double_room(hsim_idmap_t *m)
{
    hsim_idmap_t bigger = {.cap = m->cap ? 2 * m->cap : 16, .n = m->n};
    bigger.key = hsim_malloc(bigger.cap * sizeof *bigger.key);
    bigger.num = hsim_malloc(bigger.cap * sizeof *bigger.num);
    if (!bigger.key || !bigger.num) {
        hsim_idmap_free(&bigger);
        return HSIM_ENOMEM;
    }
    for (size_t i = 0; i < bigger.cap; i++)
        bigger.num[i] = -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->num[i] >= 0) {
            size_t at = slot_of(&bigger, m->key[i]);
            bigger.key[at] = m->key[i];
            bigger.num[at] = m->num[i];
        }
    hsim_idmap_free(m);
    *m = bigger;
    return 0;
}

int hsim_idmap_number(hsim_idmap_t *m, int32_t id, int32_t *num)
{
    if (2 * (m->n + 1) > m->cap && double_room(m))
        return HSIM_ENOMEM;
    size_t at = slot_of(m, id);
    if (m->num[at] < 0) {
        m->key[at] = id;
        m->num[at] = (int32_t)m->n++;
    }
    *num = m->num[at];
    return 0;
}

int32_t hsim_idmap_find(const hsim_idmap_t *m, int32_t id)
{
    return m->cap ? m->num[slot_of(m, id)] : -1;
}

void hsim_idmap_free(hsim_idmap_t *m)
{
    hsim_free(m->key);
    hsim_free(m->num);
    *m = (hsim_idmap_t){0};
}
