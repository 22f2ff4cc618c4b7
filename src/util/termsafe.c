/* termsafe.c - control characters shown, not obeyed; see termsafe.h. */
#include <string.h>

#include "util/termsafe.h"

/* Bytes of the control character at s (0: none), and its visible form. */
static size_t control_at(const unsigned char *s, size_t left, unsigned flags,
                         char vis[16])
{
    if (s[0] < 0x20 || s[0] == 0x7f) {
        if ((flags & TERM_SAFE_LINES) && (s[0] == '\n' || s[0] == '\t'))
            return 0;
        vis[0] = '^';
        vis[1] = s[0] == 0x7f ? '?' : (char)(s[0] + '@');
        vis[2] = '\0';
        return 1;
    }
    if (s[0] == 0xc2 && left >= 2 && s[1] >= 0x80 && s[1] <= 0x9f) {
        snprintf(vis, 16, "<U+%04X>", (unsigned)s[1]);
        return 2;
    }
    return 0;
}

int term_safe_write(FILE *out, const char *s, size_t n, unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, start = 0, k;
    char vis[16];

    while (i < n) {
        k = control_at(p + i, n - i, flags, vis);
        if (!k) {
            i++;
            continue;
        }
        if (fwrite(s + start, 1, i - start, out) != i - start ||
            fputs(vis, out) == EOF)
            return -1;
        i += k;
        start = i;
    }
    return fwrite(s + start, 1, n - start, out) == n - start ? 0 : -1;
}

const char *term_safe_str(const char *s, struct strbuf *sb, unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0, start = 0, k;
    char vis[16];
    int changed = 0;

    while (i < n) {
        k = control_at(p + i, n - i, flags, vis);
        if (!k) {
            i++;
            continue;
        }
        if (!changed)
            strbuf_reset(sb);
        changed = 1;
        strbuf_add(sb, s + start, i - start);
        strbuf_addstr(sb, vis);
        i += k;
        start = i;
    }
    if (!changed)
        return s;
    strbuf_add(sb, s + start, n - start);
    return sb->buf;
}
