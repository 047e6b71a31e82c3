/*
 * rope.h: an example kernel wrapper: rotary position embedding of a [T, head_dim] bf16
 * tensor with f32 cos/sin tables [T, head_dim/2]. Like a real wrapper it picks a compiled
 * variant from a registry by exact dispatch values (head_dim, dtype), each named by a
 * variant_key; its "compiled variants" here are plain C.
 * Ownership: nothing is retained; every pointer argument is borrowed for the call.
 */
#ifndef ROPE_H
#define ROPE_H

#include <stddef.h>
#include <stdint.h>

/** One compiled variant of the registry. */
typedef struct rope_variant {
  int head_dim;
  const char *dtype;       /* "bf16" */
  const char *variant_key; /* the name the golden library uses too */
} rope_variant;

/** The registry: @p *n entries. */
const rope_variant *rope_registry(int *n);

/** The variant for (head_dim, dtype), or NULL when none was compiled. */
const rope_variant *rope_lookup(int head_dim, const char *dtype);

/** The dispatch key "head_dim=64,dtype=bf16" (the golden index's key) into @p buf. */
void rope_dispatch_key(int head_dim, const char *dtype, char *buf, size_t n);

/**
 * o = rope(x) for @p T rows: o1 = x1*cos - x2*sin, o2 = x2*cos + x1*sin on the halves of each
 * row, in f32, rounded to bf16. x and o hold raw bf16 bits.
 * @return 0, or -1 when no variant matches (head_dim, dtype).
 */
int rope_apply(int head_dim, const char *dtype, int T, const uint16_t *x, const float *cos_t, const float *sin_t,
               uint16_t *o);

#endif
