/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-output.h: the files a recording writes, created safely.
 *
 * The recorder often runs as root, and in folders others can write to
 * (/tmp). Every file it writes is created in the opened output folder
 * (openat) under a name nobody had, with O_CREAT | O_EXCL | O_NOFOLLOW,
 * mode 0666 less the umask, and put in place with rename, which replaces a
 * name and never follows it.
 *
 * A new output is created at its own name at once, so that the window (or
 * anyone) can follow it as it grows. An existing recording is replaced:
 * the new spool is written under a temporary name beside it and renamed
 * into place once the target runs (sp_output_commit), so a command that
 * cannot start leaves the old recording as it was. Refused, with a message:
 * a symbolic link, anything but a regular file, the program to record (or
 * any file named on its command line, by inode or, also before it exists,
 * by path; or the recorder itself), and an
 * existing file that is not a recording (or a side file that is not one),
 * and a recording another recorder on this host still writes (its side
 * file says complete=false and its recorder_pid lives, or its spool is
 * locked: a recorder holds the spool it writes locked with flock LOCK_EX
 * from its creation on, so two recorders started together on one path
 * cannot both win). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
  char *const *command;    /* launched: its argv, else NULL */
  const char  *directory;  /* where it runs; NULL: here */
  const pid_t *pids;       /* attached */
  size_t       n_pids;
} SpOutputInputs;

typedef struct {
  const char *path;        /* as given with -o, for messages */
  char       *meta_path;   /* path.meta, for messages */
  int         dir_fd;      /* the folder both are in */
  char       *real_folder; /* its realpath, NULL if unknown */
  char       *name;        /* the spool's name in it */
  char       *meta_name;   /* the side file's */
  char       *temp_name;   /* where the new spool is until it replaces name; NULL if new */
  int         spool_fd;    /* the new spool, for writing (the writer takes it) */
  bool        replacing;   /* an existing recording is at name */
  dev_t       spool_dev;   /* the new spool's file, to know it is still there */
  ino_t       spool_ino;
  /* --off-cpu: OUT.spool.offcpu, created and placed as the spool is. */
  char       *offcpu_name;
  char       *offcpu_temp_name; /* where it is until it replaces offcpu_name */
  int         offcpu_fd;        /* for writing (the companion's writer takes it) */
} SpOutput;

/* Checks path and creates the new spool; false with a message (naming
 * path) when it is refused or cannot be created. */
bool sp_output_open (SpOutput *out,
                     const char *path,
                     const SpOutputInputs *inputs,
                     char *message,
                     size_t message_size);

/* After sp_output_open: checks and creates the off-CPU companion
 * (OUT.spool.offcpu) under the same rules (an existing one must be a
 * companion, or empty, and is replaced only at sp_output_commit); false
 * with a message when refused. */
bool sp_output_open_offcpu (SpOutput *out,
                            const SpOutputInputs *inputs,
                            char *message,
                            size_t message_size);

/* Puts the new spool at its name (replacing the old recording), and the
 * companion at its own, once the recording has started. When that fails the recording stays where it
 * is, which the message says. */
bool sp_output_commit (SpOutput *out,
                       char *message,
                       size_t message_size);

/* Whether the spool's name (or its temporary one) still names the file
 * this run created: not when it was removed, or replaced by another. */
bool sp_output_still_ours (const SpOutput *out);

/* Whether the spool still holds what this run wrote (written bytes so
 * far): not when a program overwrote or cut it in place. It checks its
 * size and the magic at its start, cheap enough after every flush. */
bool sp_output_spool_intact (const SpOutput *out,
                             uint64_t written);

/* The spool is not the recording any more (a program wrote over it): what
 * the writer still has goes nowhere (spool_fd now writes to /dev/null). */
void sp_output_forsake_spool (SpOutput *out);

/* Cuts the spool (only the file this run created) to its first size
 * bytes: room for the last side file on a full disk. */
bool sp_output_truncate_spool (const SpOutput *out,
                               uint64_t size);

/* Nothing was recorded: removes the spool this run created, and only it. */
void sp_output_discard (SpOutput *out);

/* Closes the folder and frees the names (spool_fd is the writer's). */
void sp_output_clear (SpOutput *out);

/* A new file in dir_fd, opened for writing, under a fresh hidden name made
 * from base (".BASE.XXXXXX"), which goes to name. -1 (errno) on failure. */
int sp_output_create_temp (int dir_fd,
                           const char *base,
                           char *name,
                           size_t name_size);
