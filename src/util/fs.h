/*
 * fs.h - output files written safely, directories, XDG paths.
 *
 * An output path is the user's file, so atomic_file_open() looks at what
 * is there before it writes (the rules of cp(1)):
 *   - nothing: a new regular file, created with mode & ~umask;
 *   - a regular file: written to "<path>.tmp.XXXXXX" in the same directory
 *     (mkstemp), given the old file's mode and owner, and renamed over it by
 *     atomic_file_commit(), so readers see the old file or the whole new
 *     one, never half a file.  A file with several hard links, one whose
 *     owner cannot be given to the temporary, or one in a directory where
 *     no temporary can be created, is rewritten in place at commit
 *     instead, so the links and the owner stay;
 *   - a symbolic link: followed; the file it points to is written as above
 *     and the link stays (a dangling link is refused, as cp does);
 *   - a character device or a FIFO (/dev/null, /dev/stdout, a pipe): written
 *     directly at commit, never replaced;
 *   - a directory, a block device, a socket, a file without write
 *     permission, and a file registered with fs_protect() (the open
 *     catalog) are refused, and nothing is written.
 * Until commit the output is held in the temporary or in memory, so a
 * writer that gives up (atomic_file_abort) leaves the path untouched; SIGINT,
 * SIGTERM or SIGHUP remove an open temporary too (the signal then takes its
 * usual course).  Not thread-safe: one thread writes files.
 */
#ifndef LLMPLAN_UTIL_FS_H
#define LLMPLAN_UTIL_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

struct atomic_file {
    FILE *fp;        /* write here */
    char path[4096]; /* final name (a symbolic link resolved) */
    char tmp[4096];  /* temporary name; empty when written in place */
    char *buf;       /* in place: the output held until commit */
    size_t len;
    int in_place; /* 1: commit writes buf to path itself */
    int truncate; /* in place: truncate path first (regular files) */
};

/* Prepare to write path (see the rules above).  mode (e.g. 0644) is the
 * mode of a new file, less the umask; an existing file keeps its own.
 * CP_ERR_IO with d naming path when the directory is missing or not
 * writable, or path is read-only, a directory or cannot be written;
 * CP_ERR_USAGE when path is a protected file (the catalog in use). */
enum cp_status atomic_file_open(struct atomic_file *af, const char *path,
                                int mode, struct diag *d);

/* Flush, fsync, close and rename; on failure the temporary is removed and
 * CP_ERR_IO returned (e.g. disk full, file size limit). */
enum cp_status atomic_file_commit(struct atomic_file *af, struct diag *d);

/* Close and remove the temporary.  Safe to call after a failed commit. */
void atomic_file_abort(struct atomic_file *af);

/* Refuse path (by device and inode, and its SQLite "-wal", "-shm" and
 * "-journal" companions) as an output from now on: the open catalog.
 * Up to 4 files; a path that does not exist is ignored. */
void fs_protect(const char *path);

/* Whether path names an existing file (of any type). */
bool fs_exists(const char *path);

/* path as an absolute path into buf (n bytes): resolved (realpath) when it
 * exists, else joined to the working directory; path itself when neither
 * works.  For messages that say where a file went. */
void fs_abs_path(const char *path, char *buf, size_t n);

/* mkdir -p with mode for every directory it creates. */
enum cp_status fs_mkdir_p(const char *path, int mode, struct diag *d);

/* $XDG_DATA_HOME (else ~/.local/share) or $XDG_CONFIG_HOME (else ~/.config)
 * joined with "llmplan/<name>" into buf.  CP_ERR_IO when HOME is unset too. */
enum cp_status fs_xdg_data_path(char *buf, size_t n, const char *name,
                                struct diag *d);
enum cp_status fs_xdg_config_path(char *buf, size_t n, const char *name,
                                  struct diag *d);

#endif
