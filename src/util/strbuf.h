/*
 * strbuf.h - a growable NUL-terminated byte buffer (git strbuf + curl
 * dynbuf's size cap).
 *
 * NOTE: buf is always NUL-terminated and never NULL after strbuf_init, so
 * sb.buf can be passed to any C string function.  len excludes the NUL.
 * A strbuf owns its memory: strbuf_release() frees it and leaves an empty,
 * reusable buffer; strbuf_detach() hands the memory to the caller (who
 * frees it with free()).  Appends past max_len (0 = no cap) fail with
 * CP_ERR_RANGE and leave the buffer unchanged.
 */
#ifndef LLMPLAN_UTIL_STRBUF_H
#define LLMPLAN_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

struct strbuf {
    char *buf;
    size_t len;
    size_t alloc;
    size_t max_len; /* 0: unlimited */
};

#define STRBUF_INIT                                                            \
    {                                                                          \
        0, 0, 0, 0                                                             \
    }

void strbuf_init(struct strbuf *sb, size_t max_len);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len_out /* OUT, may be NULL */);
void strbuf_reset(struct strbuf *sb);

enum cp_status strbuf_add(struct strbuf *sb, const void *data, size_t n);
enum cp_status strbuf_addstr(struct strbuf *sb, const char *s);
enum cp_status strbuf_addch(struct strbuf *sb, int c);
enum cp_status strbuf_addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
enum cp_status strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Read a whole file into sb (appending).  CP_ERR_IO when it cannot be read,
 * CP_ERR_RANGE when it is larger than the cap - max_len, or for a buffer
 * without one STRBUF_READ_MAX, so that /dev/zero or an endless pipe given
 * as a file name is an error, not a hang. */
#define STRBUF_READ_MAX ((size_t)256 << 20)
enum cp_status strbuf_read_file(struct strbuf *sb, const char *path);
/* The same from an open stream (not closed): a FIFO is opened once. */
enum cp_status strbuf_read_stream(struct strbuf *sb, FILE *f);

#endif
