/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-file.h: what the unwinder knows about one ELF file.
 *
 * Read once per file, whichever processes map it: whether it has unwind
 * tables (.eh_frame, .debug_frame) and symbols, its loadable segments (to
 * turn a file offset into an ELF address), and its functions with whether
 * each one keeps a frame pointer (starts with `push %rbp; mov %rsp,%rbp`),
 * which is what `--call-graph auto` needs to trust a frame-pointer chain.
 * The counters are the unwinding statistics of the side file. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t start;          /* ELF address */
  uint32_t size;
  uint8_t  frame_set_at;   /* bytes from start until %rbp is the frame; 0: never */
} SpUnwindFunction;

typedef struct {
  uint64_t offset;         /* p_offset */
  uint64_t vaddr;          /* p_vaddr */
  uint64_t filesz;
  bool     executable;     /* PF_X */
} SpUnwindSegment;

/* A section of PLT stubs (.plt, .plt.sec, .plt.got, .iplt): LLD and
 * mold give them no CFI. */
typedef struct {
  uint64_t vaddr;
  uint64_t size;
  uint64_t offset;         /* sh_offset */
  bool     lazy;           /* .plt: its first slot is the lazy-binding PLT0 */
} SpUnwindPlt;

#define SP_UNWIND_MAX_PLTS 4

typedef struct {
  char             *path;
  uint64_t          inode;           /* of the file mapped; 0: not known */
  bool              loaded;          /* what follows was read (sp_unwind_file_ensure_loaded) */
  uint64_t          used;            /* the unwinder's file_clock when last used */
  bool              readable;        /* the file could be opened as ELF, and is the one mapped */
  bool              is_dyn;          /* ET_DYN: placed anywhere */
  bool              has_eh_frame;
  bool              has_debug_frame; /* in the file itself */
  bool              has_debuglink;   /* a separate debug file may exist */
  bool              has_symbols;     /* .symtab or .dynsym */
  SpUnwindSegment  *segments;
  SpUnwindPlt       plts[SP_UNWIND_MAX_PLTS];
  size_t            n_plts;
  size_t            n_segments;
  SpUnwindFunction *functions;       /* sorted by start */
  size_t            n_functions;
  size_t            n_frame_pointer_functions;
  const uint8_t    *image;           /* the mapped file (or vdso copy) */
  size_t            image_size;
  void             *mapping;         /* what to munmap, or NULL */
  size_t            mapping_size;
  int               memfd;           /* [vdso]: its image as a file, else -1 */
  void             *elf;             /* Elf over image, for the CFI */
  void             *cfi;             /* Dwarf_CFI of .eh_frame, made on first use */
  bool              cfi_tried;
  uint64_t         *leaf_keys;       /* leaf rule cache: vaddr + 1 (0: empty) */
  struct SpLeafRule *leaf_values;
  size_t            leaf_capacity;   /* a power of two */
  size_t            leaf_count;

  /* Statistics (samples). */
  uint64_t          n_samples;       /* whose user stack passes through it */
  uint64_t          n_frame_pointer; /* of those, taken from frame pointers */
  uint64_t          n_truncated;     /* stack copy ran out in it */
  uint64_t          n_stopped;       /* unwinding found no way on in it */
  uint64_t          seen_stamp;      /* counts a sample once */
} SpUnwindFile;

/* Reads path (or, for "[vdso]", this process's own vDSO, which is the one
 * every 64-bit process on this kernel maps). Never NULL except out of
 * memory; an unreadable file has readable=false, and so has another file
 * at path than the inode (when not 0) the mapping named: a program rebuilt
 * during the recording is not unwound with the new file's tables. */
SpUnwindFile *sp_unwind_file_load (const char *path,
                                   uint64_t inode);

/* The same, read only when sp_unwind_file_ensure_loaded () is first
 * called: a recording of the whole system maps thousands of files, and
 * only those its stacks run through need reading (docs/SYSTEM-WIDE.md).
 * Until then the file is not readable and has nothing. */
SpUnwindFile *sp_unwind_file_new (const char *path,
                                  uint64_t inode);
void sp_unwind_file_ensure_loaded (SpUnwindFile *file);

/* Gives back what reading it took (the image, tables, caches) until it
 * is next needed; what it said (readable, its sections and counts) stays
 * for the statistics. */
void sp_unwind_file_unload (SpUnwindFile *file);

void sp_unwind_file_free (SpUnwindFile *file);

/* The ELF address of a file offset, false when no segment holds it. */
bool sp_unwind_file_vaddr_of_offset (const SpUnwindFile *file,
                                     uint64_t offset,
                                     uint64_t *vaddr);

/* The load bias of an executable mapping of the file (ELF address +
 * bias = address in the process), from the PT_LOAD it maps: start is
 * where the mapping begins in memory, file_offset where in the file (the
 * segment's offset rounded down to a page, as the kernel maps it). false
 * when no segment fits. */
bool sp_unwind_file_load_bias (const SpUnwindFile *file,
                               uint64_t start,
                               uint64_t file_offset,
                               uint64_t *bias);

/* The function containing vaddr, or NULL. */
const SpUnwindFunction *sp_unwind_file_find_function (const SpUnwindFile *file,
                                                      uint64_t vaddr);

/* Where a function stopped at vaddr has its frame, from .eh_frame: the
 * CFA is %rsp + cfa_offset (SP_LEAF_RSP) or %rbp + 16 (SP_LEAF_RBP: the
 * frame-pointer frame is set up); the caller's %rbp is still in %rbp, or
 * saved at CFA + rbp_offset. On x86-64 the return address is at CFA - 8.
 * A PLT stub without CFI (LLD, mold) gets its rule from its code, with
 * plt set: the CFA is %rsp + 8 plus the words its pushes left.
 * Looked up once per address, then cached. */
typedef enum {
  SP_LEAF_UNKNOWN,
  SP_LEAF_RSP,
  SP_LEAF_RBP,
  SP_LEAF_OUTERMOST,      /* the CFI says there is no caller (_start) */
} SpLeafBase;

typedef struct SpLeafRule {
  int32_t cfa_offset;
  int16_t rbp_offset;     /* 0: %rbp is the caller's */
  uint8_t base;           /* SpLeafBase */
  bool    plt;            /* a PLT stub's, read from its code */
} SpLeafRule;

SpLeafRule sp_unwind_file_leaf_rule (SpUnwindFile *file,
                                     uint64_t vaddr);

/* The byte at a file offset, -1 beyond the file. */
int sp_unwind_file_byte_at (const SpUnwindFile *file,
                            uint64_t offset);
