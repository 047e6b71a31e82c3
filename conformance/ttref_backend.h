/*
 * ttref_backend.h: the C plugin ABI of `ttref conform --backend plugin:PATH.so`
 * (docs/adapter-protocol.md). A plugin is a shared object exporting
 * ttref_backend_get_api(); the harness loads it in a child process per
 * worker and calls run_case once per item, so a plugin crash or hang is a
 * CRASH or TIMEOUT verdict, never the harness's death.
 * Ownership: everything the harness passes is borrowed for the duration of
 * the call (output data may be written, input data must not); everything
 * the plugin returns (the api table and its strings) is owned by the plugin
 * and must stay valid while it is loaded.
 */
#ifndef TTREF_BACKEND_H
#define TTREF_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI this header describes; the harness refuses a plugin reporting another one. */
#define TTREF_BACKEND_ABI_VERSION 1

/** The symbol the harness looks up with dlsym. */
#define TTREF_BACKEND_ENTRY "ttref_backend_get_api"

/** Return values of run_case (and init). Any other value means error. */
#define TTREF_BACKEND_OK          0 /**< ran; every output buffer holds the result (verdict: judged) */
#define TTREF_BACKEND_ERROR       1 /**< the backend failed (verdict: ERROR) */
#define TTREF_BACKEND_UNSUPPORTED 3 /**< this backend cannot run this case (verdict: UNSUPPORTED) */

/** One buffer: a pointer argument of the kernel, dense, C order, little-endian. */
typedef struct ttref_backend_tensor {
  const char *name; /**< the TTIR argument name, as in case.yaml */
  const char
      *dtype; /**< case.yaml spelling: bool i8..i64 u8..u64 f16 bf16 f32 f64 f8E4M3FN f8E5M2 f8E4M3FNUZ f8E5M2FNUZ */
  int rank;   /**< 0..8 */
  const int64_t *shape; /**< rank dims */
  void *data;           /**< nbytes bytes; bf16 and fp8 as raw bit patterns */
  size_t nbytes;        /**< product of shape times the element size */
} ttref_backend_tensor;

/** What a plugin exports. */
typedef struct ttref_backend_api {
  int abi_version;     /**< TTREF_BACKEND_ABI_VERSION the plugin was built against */
  const char *name;    /**< backend name, for reports */
  const char *version; /**< one line: backend, compiler, driver versions, device */

  /**
   * Called once per loaded instance (per harness worker, and again after a
   * crash or timeout restarts it), before any run_case.
   * @param[out] ctx  the plugin's state, passed to run_case and fini
   * @return TTREF_BACKEND_OK, or another value: every item run by this
   * instance is then ERROR.
   */
  int (*init)(void **ctx);

  /**
   * Run one item (one case x specialization).
   * @param[in]     ctx               from init
   * @param[in]     kernel_ttir_path  the kernel (constexprs baked in)
   * @param[in]     case_yaml_path    the launch: grid, scalar arguments, function (docs/adapter-protocol.md)
   * @param[in]     inputs            every pointer argument before the launch, in signature order
   * @param[in]     ninputs           count of @p inputs
   * @param[in,out] outputs           the judged buffers, allocated by the harness with the shape and
   *                                  dtype of the input of the same name and filled with its contents
   *                                  (pointer arguments are in/out); the plugin writes the buffer as
   *                                  it is after the launch
   * @param[in]     noutputs          count of @p outputs
   * @return TTREF_BACKEND_OK, TTREF_BACKEND_UNSUPPORTED, or any other value for an error.
   */
  int (*run_case)(void *ctx, const char *kernel_ttir_path, const char *case_yaml_path,
                  const ttref_backend_tensor *inputs, int ninputs, ttref_backend_tensor *outputs, int noutputs);

  /** Release @p ctx; called when the worker finishes (not after a crash or timeout). May be NULL. */
  void (*fini)(void *ctx);
} ttref_backend_api;

/** The entry point every plugin exports (extern "C" in C++). @return a table that lives as long as the plugin. */
const ttref_backend_api *ttref_backend_get_api(void);

/** Pointer type of the entry point, for dlsym. */
typedef const ttref_backend_api *(*ttref_backend_get_api_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
