/*===- ptrmap.c - a hash map from pointers to 64-bit values ---------------===*/

#include "ptrmap.h"

#include <stdlib.h>

static char tombstone_marker;
#define TOMBSTONE ((const void *)&tombstone_marker)

static size_t hash_pointer(const void *pointer) {
  uint64_t x = (uint64_t)(uintptr_t)pointer;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

ptrmap_entry *ptrmap_find(const ptrmap *map, const void *key) {
  if (!map->entries || !key)
    return NULL;
  size_t mask = map->capacity - 1;
  for (size_t i = hash_pointer(key) & mask;; i = (i + 1) & mask) {
    if (map->entries[i].key == key)
      return &map->entries[i];
    if (map->entries[i].key == NULL)
      return NULL;
  }
}

static bool grow(ptrmap *map) {
  size_t capacity = map->capacity ? map->capacity * 2 : 1024;
  ptrmap_entry *fresh = calloc(capacity, sizeof(ptrmap_entry));
  if (!fresh)
    return false;
  size_t used = 0;
  for (size_t i = 0; i < map->capacity; ++i) {
    const void *key = map->entries[i].key;
    if (key == NULL || key == TOMBSTONE)
      continue;
    size_t j = hash_pointer(key) & (capacity - 1);
    while (fresh[j].key)
      j = (j + 1) & (capacity - 1);
    fresh[j] = map->entries[i];
    ++used;
  }
  free(map->entries);
  map->entries = fresh;
  map->capacity = capacity;
  map->used = used;
  return true;
}

bool ptrmap_insert(ptrmap *map, const void *key, uint64_t value) {
  if ((map->used + 1) * 2 > map->capacity && !grow(map))
    return false;
  size_t mask = map->capacity - 1;
  size_t i = hash_pointer(key) & mask;
  while (map->entries[i].key && map->entries[i].key != TOMBSTONE)
    i = (i + 1) & mask;
  if (map->entries[i].key == NULL)
    ++map->used;
  map->entries[i] = (ptrmap_entry){key, value};
  return true;
}

void ptrmap_erase(ptrmap *map, ptrmap_entry *entry) {
  (void)map;
  entry->key = TOMBSTONE;
}
