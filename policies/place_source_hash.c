/*
 * place_source_hash.c - source-hash: a user's jobs go to the same node when
 * it has room (cache and data locality, as with nginx's ip_hash).
 *
 * The nodes the job may use (of accepted types, in order) are numbered
 * 0..A-1; the job starts looking at number hash(user) mod A and takes the
 * first nodes that fit from there, wrapping round.  An unknown user (-1)
 * hashes as 0, so unknown users behave like first-fit.  The hash is
 * MurmurHash3's 64-bit finalizer: fixed, so runs are reproducible.
 * Cost: O(types) to find the start, then O(types + log nodes) per node used.
 * Assumption: nothing is remembered; stickiness holds while the node has
 * room and the set of accepted types is the same.
 */
#include "place_common.h"

static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static int sh_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    const hsim_place_plain_t *s = state;
    uint8_t types[HSIM_MAX_NODE_TYPES];
    size_t nt = hsim_place_types(c, r, types);
    int64_t accepted = 0;
    for (size_t i = 0; i < nt; i++)
        accepted += c->idx[types[i]].count;
    if (accepted == 0)
        return HSIM_NOFIT;
    uint64_t k = fmix64(r->user < 0 ? 0 : (uint64_t)r->user) % (uint64_t)accepted;
    int32_t start = 0;
    for (size_t i = 0; i < nt; i++) {
        const hsim_type_index_t *x = &c->idx[types[i]];
        if (k < (uint64_t)x->count) {
            start = x->first + (int32_t)k;
            break;
        }
        k -= (uint64_t)x->count;
    }
    hsim_place_ring_t ring = {.lo = 0, .hi = (int32_t)c->n_nodes, .start = start};
    return hsim_place_request(c, r, s->spread, hsim_place_ring_choose, &ring, a);
}

const hsim_placement_t hsim_place_source_hash = {
    .name = "source-hash",
    .summary = "a user's jobs go to the same node when it has room",
    .create = hsim_place_plain_create,
    .destroy = hsim_place_plain_destroy,
    .place = sh_place,
};
