/*
 * rope.c: the example wrapper's registry and its C "kernels" (see rope.h).
 */
#include "rope.h"

#include <stdio.h>
#include <string.h>

static const rope_variant registry[] = {
    {64, "bf16", "hd64_bf16"},
    {128, "bf16", "hd128_bf16"},
};

const rope_variant *rope_registry(int *n)
{
  *n = (int)(sizeof registry / sizeof *registry);
  return registry;
}

const rope_variant *rope_lookup(int head_dim, const char *dtype)
{
  for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
    if (registry[i].head_dim == head_dim && strcmp(registry[i].dtype, dtype) == 0) return &registry[i];
  return NULL;
}

void rope_dispatch_key(int head_dim, const char *dtype, char *buf, size_t n)
{
  snprintf(buf, n, "head_dim=%d,dtype=%s", head_dim, dtype);
}

static float bf16_to_f32(uint16_t b)
{
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint16_t f32_to_bf16(float f) /* round to nearest even (no NaNs arise here) */
{
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

int rope_apply(int head_dim, const char *dtype, int T, const uint16_t *x, const float *cos_t, const float *sin_t,
               uint16_t *o)
{
  if (!rope_lookup(head_dim, dtype)) return -1;
  const int h = head_dim / 2;
  for (int t = 0; t < T; t++)
    for (int d = 0; d < h; d++) {
      const float x1 = bf16_to_f32(x[t * head_dim + d]), x2 = bf16_to_f32(x[t * head_dim + h + d]);
      const float c = cos_t[t * h + d], s = sin_t[t * h + d];
      const float p = x1 * c, q = x2 * s, r = x2 * c, u = x1 * s;
      o[t * head_dim + d] = f32_to_bf16(p - q);
      o[t * head_dim + h + d] = f32_to_bf16(r + u);
    }
  return 0;
}
