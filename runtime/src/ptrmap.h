/*===- ptrmap.h - a hash map from pointers to 64-bit values ---------------===*
 *
 * Open addressing with linear probing; not thread-safe (callers lock).
 *
 *===----------------------------------------------------------------------===*/

#ifndef GOOGLE_RUNTIME_PTRMAP_H
#define GOOGLE_RUNTIME_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ptrmap_entry {
  const void *key; /* NULL: empty; ptrmap_tombstone: erased */
  uint64_t value;
} ptrmap_entry;

typedef struct ptrmap {
  ptrmap_entry *entries;
  size_t capacity; /* a power of two */
  size_t used;     /* live entries and tombstones */
} ptrmap;

/* The entry of `key`, NULL when absent. */
ptrmap_entry *ptrmap_find(const ptrmap *map, const void *key);
/* Adds `key` (not present); false when out of memory. */
bool ptrmap_insert(ptrmap *map, const void *key, uint64_t value);
/* Removes the entry `ptrmap_find` returned. */
void ptrmap_erase(ptrmap *map, ptrmap_entry *entry);

#endif /* GOOGLE_RUNTIME_PTRMAP_H */
