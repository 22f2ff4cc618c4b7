/*
 * fs.h - files written atomically, directories, XDG paths.
 *
 * An atomic file is written to "<path>.tmp.XXXXXX" in the same directory
 * (mkstemp) and renamed over <path> by atomic_file_commit(), so readers see
 * the old file or the whole new one, never half a file.  On any error, or
 * when the writer gives up, atomic_file_abort() removes the temporary; so
 * does SIGINT, SIGTERM or SIGHUP while it is open (the signal then takes
 * its usual course).  Nothing at <path> is touched until commit.  Not
 * thread-safe: one thread writes files.
 */
#ifndef LLMPLAN_UTIL_FS_H
#define LLMPLAN_UTIL_FS_H

#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

struct atomic_file {
    FILE *fp;         /* write here */
    char path[4096];  /* final name */
    char tmp[4096];   /* temporary name */
};

/* Create the temporary with the given mode (e.g. 0644).  CP_ERR_IO with
 * d naming path when the directory is missing or not writable. */
enum cp_status atomic_file_open(struct atomic_file *af, const char *path,
                                int mode, struct diag *d);

/* Flush, fsync, close and rename; on failure the temporary is removed and
 * CP_ERR_IO returned (e.g. disk full, file size limit). */
enum cp_status atomic_file_commit(struct atomic_file *af, struct diag *d);

/* Close and remove the temporary.  Safe to call after a failed commit. */
void atomic_file_abort(struct atomic_file *af);

/* mkdir -p with mode for every directory it creates. */
enum cp_status fs_mkdir_p(const char *path, int mode, struct diag *d);

/* $XDG_DATA_HOME (else ~/.local/share) or $XDG_CONFIG_HOME (else ~/.config)
 * joined with "llmplan/<name>" into buf.  CP_ERR_IO when HOME is unset too. */
enum cp_status fs_xdg_data_path(char *buf, size_t n, const char *name,
                                struct diag *d);
enum cp_status fs_xdg_config_path(char *buf, size_t n, const char *name,
                                  struct diag *d);

#endif
