/* weir.h -- the public API of Weir's C runtime (contexts, errors, counters).
 *
 * A program that calls compiled Weir kernels includes the header `weir lib`
 * writes for each library (NAME.h), which includes this API; every library
 * built by the same `weir` shares these functions and one context type, so a
 * context may be passed to the entries of several libraries.
 *
 *   weir_ctx *ctx = weir_ctx_new();
 *   if (NAME_entry(ctx, ...)) fprintf(stderr, "%s\n", weir_error(ctx));
 *   weir_ctx_free(ctx);
 *
 * A context holds the memory the kernels work in (a bump region kept
 * across calls), counters and the last error. One thread at a time per
 * context; contexts are independent, so threads use one each. Every
 * function here is thread-safe on distinct contexts.
 *
 * Entries and shape functions return 0, or 1 with the error in the context;
 * given a NULL context they return WEIR_ERR_ARGUMENT (there is nowhere to
 * keep the error), and the functions below take a NULL context as one whose
 * error is that (weir_error(NULL) says so, weir_error_code(NULL) is
 * WEIR_ERR_ARGUMENT). An array argument may be NULL only if it has no
 * elements; a NULL result pointer (retK, outK_dims) is WEIR_ERR_ARGUMENT.
 */
#ifndef WEIR_H
#define WEIR_H

#include <stddef.h>
#include <stdint.h>

/* The version of the compiler that wrote this header, and of the ABI its
   libraries follow (contexts, calling convention). Libraries linked into one
   program must come from `weir` builds of the same WEIR_ABI_VERSION. */
#define WEIR_VERSION "0.1.0"
#define WEIR_ABI_VERSION 1

/* How the functions below are declared: `extern` for a program or library
   that links the runtime (libNAME.a / libNAME.so contain it); the generated
   C of a self-contained executable defines them itself. */
#ifndef WEIR_API
#define WEIR_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A context (opaque). */
typedef struct weir_ctx weir_ctx;

/* Memory counters of a context. */
typedef struct weir_stats {
    uint64_t sys_allocs;     /* system allocations (malloc/mmap/GC, region chunks too) */
    uint64_t sys_frees;      /* system frees */
    uint64_t cur_bytes;      /* bytes in use (leak/gc: allocated so far) */
    uint64_t peak_bytes;     /* high-water mark of cur_bytes */
    uint64_t reserved_bytes; /* total capacity of the region chunks */
} weir_stats;

/* Options of a new context (weir_ctx_new_with); zero means the default. */
typedef struct weir_options {
    size_t region_bytes; /* size of the first region chunk (default 1 MiB); a
                            caller that knows its kernels' working set sizes it
                            so that no chunk is added on the first calls */
    int threads;         /* reserved for parallel kernels: must be 0 or 1 */
} weir_options;

/* The kinds of error (weir_error_code). */
enum weir_error_code {
    WEIR_OK = 0,
    WEIR_ERR_PROGRAM = 1,  /* the program failed: index out of bounds, negative
                              size, division by zero, a failed assertion, ... */
    WEIR_ERR_ARGUMENT = 2, /* the caller's arrays: a dim that does not match the
                              entry's types, a destination of the wrong dims, a
                              destination overlapping an argument, a NULL
                              context or pointer */
    WEIR_ERR_NOMEM = 3,    /* out of memory (also a result too large for memory),
                              or a destination of data-dependent size too small
                              for the result: weir_retry_rows says how many rows
                              it needs */
    WEIR_ERR_OPTIONS = 4   /* weir_ctx_new_with: invalid options */
};

/* A new context, NULL if out of memory. */
WEIR_API weir_ctx *weir_ctx_new(void);
/* A new context with options (NULL if out of memory or the options are
   invalid; `opts` may be NULL for the defaults). */
WEIR_API weir_ctx *weir_ctx_new_with(const weir_options *opts);
/* Free a context and all memory allocated through it (NULL is ignored). */
WEIR_API void weir_ctx_free(weir_ctx *ctx);
/* Give the region's memory back to the system (the next calls allocate it
   again); results that live in the region are gone. */
WEIR_API void weir_ctx_release(weir_ctx *ctx);

/* The last error as "file.weir:LINE:COL: message" ("" if none). Valid until
   the next call on the context. */
WEIR_API const char *weir_error(const weir_ctx *ctx);
/* Its kind (enum weir_error_code; WEIR_OK if none). */
WEIR_API int weir_error_code(const weir_ctx *ctx);
/* Its Weir source location "file.weir:LINE:COL" ("" if none). */
WEIR_API const char *weir_error_location(const weir_ctx *ctx);
/* Its message without the location. */
WEIR_API const char *weir_error_message(const weir_ctx *ctx);
/* Forget the last error. */
WEIR_API void weir_error_clear(weir_ctx *ctx);

/* After an entry failed with WEIR_ERR_NOMEM on result k of existential size
   ("destination k is too small: it has R rows, the result needs N", or no
   storage at all): the rows N result k needs (call again with that many),
   else -1. */
WEIR_API int64_t weir_retry_rows(const weir_ctx *ctx, int k);

/* The context's memory counters, and their reset (counts zeroed, peak set
   to the current use). */
WEIR_API const weir_stats *weir_ctx_stats(const weir_ctx *ctx);
WEIR_API void weir_stats_reset(weir_ctx *ctx);

/* WEIR_VERSION and WEIR_ABI_VERSION of the runtime linked in. */
WEIR_API const char *weir_version(void);
WEIR_API int weir_abi_version(void);

#ifdef __cplusplus
}
#endif

#endif /* WEIR_H */
