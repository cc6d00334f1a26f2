/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-offcpu.h: the window's word on a recording of off-CPU time
 * whose blocked stacks are missing (for the window's files only).
 *
 * A recording made in the window with off-CPU time but without the rights
 * to sample the kernel has thread states and times, not the stacks where
 * threads waited. When it ends, a bar above the status line says so with
 * the recorder's reason (data/sp-offcpu-stacks.h) and, where pkexec is
 * installed and the recording was not elevated already, offers "Record
 * Again as Administrator" (win.record-again-elevated, sp-window-recording.c),
 * as the error page does for a recording the kernel refused. */
#pragma once

#include "sp-window-private.h"

/* After the recording of session (made in self) finished. */
void _sp_window_offcpu_check_stacks (SpWindow *self,
                                     SpRecordingSession *session);
