/* fs.c - atomic file writes, mkdir -p, XDG paths; see fs.h. */
#include <errno.h>
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

enum cp_status atomic_file_open(struct atomic_file *af, const char *path,
                                int mode, struct diag *d)
{
    struct stat sb;
    int fd;

    af->fp = NULL;
    af->tmp[0] = '\0';
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return diag_set(d, CP_ERR_IO, path, "is a directory");
    if (snprintf(af->path, sizeof(af->path), "%s", path) >=
            (int)sizeof(af->path) ||
        snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.XXXXXX", path) >=
            (int)sizeof(af->tmp))
        return diag_set(d, CP_ERR_IO, path, "path too long");
    fd = mkstemp(af->tmp);
    if (fd < 0) {
        af->tmp[0] = '\0';
        return diag_set(d, CP_ERR_IO, path, "cannot create file: %s",
                        strerror(errno));
    }
    if (fchmod(fd, (mode_t)mode) != 0 || !(af->fp = fdopen(fd, "w"))) {
        int e = errno;

        close(fd);
        unlink(af->tmp);
        af->tmp[0] = '\0';
        return diag_set(d, CP_ERR_IO, path, "cannot create file: %s",
                        strerror(e));
    }
    pending_add(af->tmp);
    return CP_OK;
}

enum cp_status atomic_file_commit(struct atomic_file *af, struct diag *d)
{
    int failed = 0, e = 0;

    if (!af->fp)
        return diag_set(d, CP_ERR_IO, af->path, "file is not open");
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
