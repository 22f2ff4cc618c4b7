/*
 * driver.c - a plain main() for the fuzz targets, so that `make check`
 * replays every corpus without clang (SQLite's fuzzcheck, tmux's fuzz/).
 *
 *   replay-<name> FILE|DIR...
 *
 * Feeds each file (each regular file of a directory) to
 * LLVMFuzzerTestOneInput once and prints "<n> inputs".  A failed check in
 * the target aborts, so the exit status is non-zero; the name of the input
 * is printed before it runs, so the last "input:" line names the culprit.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int verbose;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, got;

    if (!f) {
        fprintf(stderr, "replay: %s: cannot open\n", path);
        return -1;
    }
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        got = fread(buf + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    if (verbose)
        fprintf(stderr, "input: %s\n", path);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order. */
static int run_dir(const char *dir, long *count)
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int rc = 0;

    if (!dp) {
        fprintf(stderr, "replay: %s: cannot open directory\n", dir);
        return -1;
    }
    while ((e = readdir(dp)) != NULL) {
        char path[4096];
        struct stat sb;

        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof(*names));
            if (!names)
                abort();
        }
        names[n] = malloc(strlen(path) + 1);
        if (!names[n])
            abort();
        strcpy(names[n++], path);
    }
    closedir(dp);
    if (n)
        qsort(names, n, sizeof(*names), cmp);
    for (i = 0; i < n; i++) {
        if (rc == 0 && run_file(names[i]) != 0)
            rc = -1;
        else
            (*count)++;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    long count = 0;
    int i, rc = 0;

    verbose = getenv("REPLAY_VERBOSE") != NULL;
    for (i = 1; i < argc; i++) {
        struct stat sb;

        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "replay: %s: not found\n", argv[i]);
            rc = 1;
        } else if (S_ISDIR(sb.st_mode)) {
            if (run_dir(argv[i], &count) != 0)
                rc = 1;
        } else if (run_file(argv[i]) != 0) {
            rc = 1;
        } else {
            count++;
        }
    }
    printf("%ld inputs\n", count);
    return rc;
}
