/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-machine.h: a perf.data file beside the machine that
 * converts it (docs/PERF-DATA.md, "Kernel frames"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-kallsyms.h"
#include "sp-module-files.h"
#include "sp-perf-data-file.h"

/* Begins reading this machine's /proc/kallsyms into load, for
 * sp_perf_data_kernel_symbols at the end, when it runs the release of the
 * kernel that recorded data (as far as its header says yet); otherwise
 * leaves load as it is (zeroed). */
void sp_perf_data_begin_kernel_symbols (const SpPerfData *data,
                                        SpKallsymsLoad *load);

/* This machine's /proc/kallsyms into kallsyms when it runs the kernel
 * that recorded data (same release, same build-id where perf noted one);
 * false otherwise. note says how kernel frames are named, or why not
 * (sampled: whether any kernel frame was sampled). load: the reading of
 * /proc/kallsyms begun early (sp_kallsyms_load_begin), or zeroed; it is
 * ended here either way. */
bool sp_perf_data_kernel_symbols (const SpPerfData *data,
                                  bool sampled,
                                  SpKallsymsLoad *load,
                                  SpKallsyms *kallsyms,
                                  char *note,
                                  size_t note_size);

/* Reads the module files and gives each whose build-id differs from the
 * one perf noted that recorded build-id (said on stderr), so that the
 * viewer refuses it; returns how many differ. */
uint64_t sp_perf_data_check_module_files (const SpPerfData *data,
                                          SpModuleFiles *files);
