/* strbuf.c - growable buffer; see strbuf.h for the ownership rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

static char empty[1];

void strbuf_init(struct strbuf *sb, size_t max_len)
{
    sb->buf = empty;
    sb->len = 0;
    sb->alloc = 0;
    sb->max_len = max_len;
    empty[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
    if (sb->alloc)
        free(sb->buf);
    strbuf_init(sb, sb->max_len);
}

char *strbuf_detach(struct strbuf *sb, size_t *len_out)
{
    char *p;

    if (len_out)
        *len_out = sb->len;
    if (!sb->alloc)
        p = xstrdup("");
    else
        p = sb->buf;
    strbuf_init(sb, sb->max_len);
    return p;
}

void strbuf_reset(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->alloc)
        sb->buf[0] = '\0';
}

static enum cp_status grow(struct strbuf *sb, size_t extra)
{
    size_t want;

    if (sb->max_len && (extra > sb->max_len || sb->len > sb->max_len - extra))
        return CP_ERR_RANGE;
    want = sb->len + extra + 1;
    if (want <= sb->alloc)
        return CP_OK;
    if (want < 64)
        want = 64;
    if (want < sb->alloc * 2)
        want = sb->alloc * 2;
    if (sb->alloc) {
        sb->buf = xrealloc(sb->buf, want);
    } else {
        sb->buf = xmalloc(want);
        sb->buf[0] = '\0';
    }
    sb->alloc = want;
    return CP_OK;
}

enum cp_status strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
    enum cp_status st = grow(sb, n);

    if (st)
        return st;
    memcpy(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
    return CP_OK;
}

enum cp_status strbuf_addstr(struct strbuf *sb, const char *s)
{
    return strbuf_add(sb, s, strlen(s));
}

enum cp_status strbuf_addch(struct strbuf *sb, int c)
{
    char ch = (char)c;

    return strbuf_add(sb, &ch, 1);
}

enum cp_status strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
    va_list cp;
    int n;
    enum cp_status st;

    va_copy(cp, ap);
    n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        return CP_ERR_PARSE;
    st = grow(sb, (size_t)n);
    if (st)
        return st;
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
    return CP_OK;
}

enum cp_status strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    enum cp_status st;

    va_start(ap, fmt);
    st = strbuf_vaddf(sb, fmt, ap);
    va_end(ap);
    return st;
}

enum cp_status strbuf_read_stream(struct strbuf *sb, FILE *f)
{
    char chunk[8192];
    size_t n, start = sb->len;
    enum cp_status st = CP_OK;

    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        /* an uncapped buffer still stops somewhere (/dev/zero, a FIFO) */
        if (!sb->max_len && sb->len - start + n > STRBUF_READ_MAX) {
            st = CP_ERR_RANGE;
            break;
        }
        st = strbuf_add(sb, chunk, n);
        if (st)
            break;
    }
    if (!st && ferror(f))
        st = CP_ERR_IO;
    return st;
}

enum cp_status strbuf_read_file(struct strbuf *sb, const char *path)
{
    FILE *f = fopen(path, "rb");
    enum cp_status st;

    if (!f)
        return CP_ERR_IO;
    st = strbuf_read_stream(sb, f);
    fclose(f);
    return st;
}
