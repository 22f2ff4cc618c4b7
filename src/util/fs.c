/* fs.c - atomic file writes, mkdir -p, XDG paths; see fs.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"

/* Temporaries open right now.  SIGINT, SIGTERM and SIGHUP remove them,
 * then take their usual course (the dispositions found when the first one
 * opened: default, or the TUI's terminal restore). */
#define PENDING_MAX 4
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))
static const char *volatile pending[PENDING_MAX];
static struct sigaction saved[NSIGNALS];
static int npending;

static void restore_signals(void)
{
    size_t i;

    for (i = 0; i < NSIGNALS; i++)
        sigaction(cleanup_signals[i], &saved[i], NULL);
}

static void on_signal(int sig)
{
    size_t i;

    for (i = 0; i < PENDING_MAX; i++)
        if (pending[i])
            unlink(pending[i]);
    restore_signals();
    raise(sig); /* delivered on return, to the restored disposition */
}

static void pending_add(const char *tmp)
{
    struct sigaction sa;
    size_t i, j;

    for (i = 0; i < PENDING_MAX && pending[i]; i++)
        ;
    if (i == PENDING_MAX) /* more at once than any caller opens: unguarded */
        return;
    if (npending++ == 0) {
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (j = 0; j < NSIGNALS; j++)
            sigaddset(&sa.sa_mask, cleanup_signals[j]);
        for (j = 0; j < NSIGNALS; j++)
            sigaction(cleanup_signals[j], &sa, &saved[j]);
    }
    pending[i] = tmp;
}

static void pending_remove(const char *tmp)
{
    size_t i;

    for (i = 0; i < PENDING_MAX; i++)
        if (pending[i] == tmp) {
            pending[i] = NULL;
            if (--npending == 0)
                restore_signals();
            return;
        }
}

/* Files that are never an output (fs_protect): the open catalog. */
#define PROTECT_MAX 4
static struct {
    dev_t dev;
    ino_t ino;
} protected_files[PROTECT_MAX];
static int nprotected;

void fs_protect(const char *path)
{
    struct stat sb;

    if (nprotected < PROTECT_MAX && stat(path, &sb) == 0) {
        protected_files[nprotected].dev = sb.st_dev;
        protected_files[nprotected].ino = sb.st_ino;
        nprotected++;
    }
}

static int is_protected_stat(const struct stat *sb)
{
    int i;

    for (i = 0; i < nprotected; i++)
        if (protected_files[i].dev == sb->st_dev &&
            protected_files[i].ino == sb->st_ino)
            return 1;
    return 0;
}

/* path is a protected file, or its "-wal", "-shm" or "-journal". */
static int is_protected(const char *path, const struct stat *sb)
{
    static const char *const sfx[] = {"-wal", "-shm", "-journal"};
    char base[4096];
    struct stat bsb;
    size_t i, n = strlen(path), k;

    if (sb && is_protected_stat(sb))
        return 1;
    for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
        k = strlen(sfx[i]);
        if (n <= k || n - k >= sizeof(base) || strcmp(path + n - k, sfx[i]))
            continue;
        memcpy(base, path, n - k);
        base[n - k] = '\0';
        if (stat(base, &bsb) == 0 && is_protected_stat(&bsb))
            return 1;
    }
    return 0;
}

static mode_t current_umask(void)
{
    mode_t u = umask(077);

    umask(u);
    return u;
}

/* The output goes to memory; commit writes it to af->path itself. */
static enum cp_status open_in_place(struct atomic_file *af, int truncate,
                                    struct diag *d)
{
    af->buf = NULL;
    af->len = 0;
    af->in_place = 1;
    af->truncate = truncate;
    af->fp = open_memstream(&af->buf, &af->len);
    if (!af->fp)
        return diag_set(d, CP_ERR_NOMEM, af->path, "cannot buffer output");
    return CP_OK;
}

/* mkstemp next to af->path, then the mode (and owner, when old is given). */
static enum cp_status open_temp(struct atomic_file *af, mode_t mode,
                                const struct stat *old, struct diag *d)
{
    int fd, e;

    if (snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.XXXXXX", af->path) >=
        (int)sizeof(af->tmp)) {
        af->tmp[0] = '\0';
        return diag_set(d, CP_ERR_IO, af->path, "path too long");
    }
    fd = mkstemp(af->tmp);
    if (fd < 0 && old && errno == EACCES) {
        /* A writable file in a directory we may not add to: in place. */
        af->tmp[0] = '\0';
        return open_in_place(af, 1, d);
    }
    if (fd < 0) {
        af->tmp[0] = '\0';
        return diag_set(d, CP_ERR_IO, af->path, "cannot create file: %s",
                        strerror(errno));
    }
    if (old && (old->st_uid != geteuid() || old->st_gid != getegid()) &&
        fchown(fd, old->st_uid, old->st_gid) != 0) {
        /* Not ours to give away: keep the file, rewrite it in place. */
        close(fd);
        unlink(af->tmp);
        af->tmp[0] = '\0';
        return open_in_place(af, 1, d);
    }
    if (fchmod(fd, mode) != 0 || !(af->fp = fdopen(fd, "w"))) {
        e = errno;
        close(fd);
        unlink(af->tmp);
        af->tmp[0] = '\0';
        return diag_set(d, CP_ERR_IO, af->path, "cannot create file: %s",
                        strerror(e));
    }
    pending_add(af->tmp);
    return CP_OK;
}

enum cp_status atomic_file_open(struct atomic_file *af, const char *path,
                                int mode, struct diag *d)
{
    struct stat sb;
    char *real;
    int exists;

    memset(af, 0, sizeof(*af));
    if (snprintf(af->path, sizeof(af->path), "%s", path) >=
        (int)sizeof(af->path))
        return diag_set(d, CP_ERR_IO, path, "path too long");
    exists = lstat(path, &sb) == 0;
    if (!exists && errno != ENOENT)
        return diag_set(d, CP_ERR_IO, path, "cannot write file: %s",
                        strerror(errno));
    if (exists && S_ISLNK(sb.st_mode)) {
        if (stat(path, &sb) != 0)
            return diag_set(d, CP_ERR_IO, path,
                            errno == ENOENT
                                ? "not writing through a dangling symbolic "
                                  "link"
                                : "cannot write file: %s",
                            strerror(errno));
        /* /dev/stdout and /dev/fd/N name an open file of the caller's
         * (a shell redirection): write through them, never replace. */
        if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0)
            return is_protected(path, &sb)
                       ? diag_set(d, CP_ERR_USAGE, path,
                                  "is the catalog in use; write to another "
                                  "file")
                       : open_in_place(af, S_ISREG(sb.st_mode), d);
        /* Otherwise write the file the link names, as cp does. */
        real = S_ISREG(sb.st_mode) ? realpath(path, NULL) : NULL;
        if (real && snprintf(af->path, sizeof(af->path), "%s", real) >=
                        (int)sizeof(af->path)) {
            free(real);
            return diag_set(d, CP_ERR_IO, path, "path too long");
        }
        free(real);
    }
    if (exists && is_protected(af->path, &sb))
        return diag_set(d, CP_ERR_USAGE, path,
                        "is the catalog in use; write to another file");
    if (!exists && is_protected(af->path, NULL))
        return diag_set(d, CP_ERR_USAGE, path,
                        "is a file of the catalog in use; write to another "
                        "file");
    if (!exists)
        return open_temp(af, (mode_t)mode & ~current_umask() & 0777, NULL, d);
    if (S_ISDIR(sb.st_mode))
        return diag_set(d, CP_ERR_IO, path, "is a directory");
    if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))
        return open_in_place(af, 0, d);
    if (!S_ISREG(sb.st_mode))
        return diag_set(d, CP_ERR_IO, path,
                        "is not a regular file, a character device or a "
                        "FIFO");
    if ((sb.st_mode & 0222) == 0 || access(af->path, W_OK) != 0)
        return diag_set(d, CP_ERR_IO, path,
                        "file is read-only; make it writable or write to "
                        "another file");
    if (sb.st_nlink > 1)
        return open_in_place(af, 1, d);
    return open_temp(af, sb.st_mode & 07777, &sb, d);
}

/* Write the held output to af->path itself (device, FIFO, hard link). */
static enum cp_status commit_in_place(struct atomic_file *af, struct diag *d)
{
    int fd, e = 0, flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;
    size_t off = 0;
    ssize_t w;

    if (fclose(af->fp) != 0) {
        af->fp = NULL;
        return diag_set(d, CP_ERR_NOMEM, af->path, "cannot buffer output");
    }
    af->fp = NULL;
    if (af->truncate)
        flags |= O_TRUNC;
    fd = open(af->path, flags);
    if (fd < 0)
        return diag_set(d, CP_ERR_IO, af->path, "cannot write file: %s",
                        strerror(errno));
    while (off < af->len) {
        w = write(fd, af->buf + off, af->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            e = w < 0 ? errno : EIO;
            break;
        }
        off += (size_t)w;
    }
    if (close(fd) != 0 && !e && errno != EINTR)
        e = errno;
    if (e)
        return diag_set(d, CP_ERR_IO, af->path, "cannot write file: %s",
                        strerror(e));
    return CP_OK;
}

enum cp_status atomic_file_commit(struct atomic_file *af, struct diag *d)
{
    enum cp_status st;
    int failed = 0, e = 0;

    if (!af->fp)
        return diag_set(d, CP_ERR_IO, af->path, "file is not open");
    if (af->in_place) {
        st = commit_in_place(af, d);
        free(af->buf);
        af->buf = NULL;
        af->in_place = 0;
        return st;
    }
    if (fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0) {
        failed = 1;
        e = errno;
    }
    if (fclose(af->fp) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    af->fp = NULL;
    if (!failed && rename(af->tmp, af->path) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed)
        unlink(af->tmp);
    pending_remove(af->tmp);
    af->tmp[0] = '\0';
    if (failed)
        return diag_set(d, CP_ERR_IO, af->path, "cannot write file: %s",
                        strerror(e ? e : EIO));
    return CP_OK;
}

void atomic_file_abort(struct atomic_file *af)
{
    if (af->fp) {
        fclose(af->fp);
        af->fp = NULL;
    }
    free(af->buf);
    af->buf = NULL;
    af->in_place = 0;
    if (af->tmp[0]) {
        unlink(af->tmp);
        pending_remove(af->tmp);
        af->tmp[0] = '\0';
    }
}

enum cp_status fs_mkdir_p(const char *path, int mode, struct diag *d)
{
    char buf[4096];
    size_t i, n = strlen(path);

    if (n == 0 || n >= sizeof(buf))
        return diag_set(d, CP_ERR_IO, path, "bad directory name");
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        buf[i] = '\0';
        if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST)
            return diag_set(d, CP_ERR_IO, buf, "cannot create directory: %s",
                            strerror(errno));
        buf[i] = (i == n) ? '\0' : '/';
    }
    return CP_OK;
}

static enum cp_status xdg_path(char *buf, size_t n, const char *env,
                               const char *fallback, const char *name,
                               struct diag *d)
{
    const char *base = getenv(env);
    const char *home = getenv("HOME");
    int w;

    if (base && *base)
        w = snprintf(buf, n, "%s/llmplan/%s", base, name);
    else if (home && *home)
        w = snprintf(buf, n, "%s/%s/llmplan/%s", home, fallback, name);
    else
        return diag_set(d, CP_ERR_IO, env, "neither %s nor HOME is set", env);
    if (w < 0 || (size_t)w >= n)
        return diag_set(d, CP_ERR_IO, env, "path too long");
    return CP_OK;
}

enum cp_status fs_xdg_data_path(char *buf, size_t n, const char *name,
                                struct diag *d)
{
    return xdg_path(buf, n, "XDG_DATA_HOME", ".local/share", name, d);
}

enum cp_status fs_xdg_config_path(char *buf, size_t n, const char *name,
                                  struct diag *d)
{
    return xdg_path(buf, n, "XDG_CONFIG_HOME", ".config", name, d);
}

bool fs_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

void fs_abs_path(const char *path, char *buf, size_t n)
{
    char *real = realpath(path, NULL);
    char cwd[4096];

    if (real) {
        snprintf(buf, n, "%s", real);
        free(real);
    } else if (path[0] != '/' && getcwd(cwd, sizeof(cwd))) {
        snprintf(buf, n, "%s/%s", cwd, path);
    } else {
        snprintf(buf, n, "%s", path);
    }
}
