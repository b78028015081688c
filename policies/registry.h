/*
 * registry.h - every queue order and scheduler, listed once, found by name.
 */
#ifndef HSIM_REGISTRY_H
#define HSIM_REGISTRY_H

#include "policy.h"

extern const hsim_order_t *const hsim_orders[];         /* NULL-terminated */
extern const hsim_scheduler_t *const hsim_schedulers[]; /* NULL-terminated */

const hsim_order_t *hsim_order_find(const char *name);
const hsim_scheduler_t *hsim_scheduler_find(const char *name);

/* Writes "a, b, c" (the valid names of a registry) into buf. */
void hsim_order_names(char *buf, size_t size);
void hsim_scheduler_names(char *buf, size_t size);
void hsim_predictor_names(char *buf, size_t size);

#endif
