/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-option.h: "Record off-CPU time (where threads wait)", the
 * check box of the record dialog and the process picker, with a line under
 * it saying what such a recording will hold.
 *
 * Switch records (thread states, off-CPU times) come for any user; blocked
 * stacks need kernel sampling. The line says which, with the recorder's
 * own reason (codec/sp-perf-access.h answers both, for both programs). On
 * by default wherever the kernel gives switch records. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A box: the check box (in *check, borrowed) above its explanation. */
GtkWidget *sp_offcpu_option_new (GtkCheckButton **check);

/* The explanation, as the option shows it: what will be recorded, and why
 * not the blocked stacks when they will be missing. */
char *sp_offcpu_option_describe (void);

G_END_DECLS
