/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-huge-heap.h: the heap of a short-lived program in transparent huge
 * pages (sp-huge-heap.c), for the report and the perf.data conversion. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* At the start, before the big tables: reserve bytes of heap (untouched
 * room, no memory until used) advised huge, kept to the end. */
void sp_huge_heap_prepare (size_t reserve);
