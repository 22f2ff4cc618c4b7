/*
 * term_curses.c - the terminal backend over ncursesw, and the only file
 * that includes <curses.h>: start and restore the terminal, colour pairs
 * from the theme, show the canvas, read keys, mouse clicks and resizes.
 *
 * The terminal is restored on every way out: q (the loop ends and close()
 * runs), Ctrl-C (raw mode makes it a key; a SIGINT from kill is caught
 * like SIGTERM and SIGHUP: the handler only sets a flag, the next read
 * returns UK_SIGNAL and the loop ends normally), and a crash (an abort on
 * an assertion, SIGSEGV, SIGBUS, SIGFPE, SIGILL): that handler puts back
 * the terminal modes saved at start (tcsetattr, async-signal-safe), leaves
 * the alternate screen, shows the cursor, and lets the signal go on.
 */
#include <curses.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "ui/ui.h"
#include "util/xalloc.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    (void)sig;
    got_signal = 1;
}

/* The terminal as it was before curses: what a crash puts back. */
static struct termios saved_tty;
static volatile sig_atomic_t have_saved_tty;
static const int fatal_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static void on_fatal(int sig)
{
    static const char reset[] = "\033[0m\033[?1000l\033[?1049l\033[?25h\r\n";
    ssize_t w;

    if (have_saved_tty)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
    w = write(STDOUT_FILENO, reset, sizeof(reset) - 1);
    (void)w;
    /* SA_RESETHAND made the disposition the default again */
    raise(sig);
}

struct tc {
    SCREEN *scr;
    bool open;
    bool colors;
    bool utf8;
    attr_t attr[THEME_COUNT];
    short pair[THEME_COUNT];
    struct sigaction old_term, old_int, old_hup;
    struct sigaction old_fatal[NFATAL];
};

static enum cp_status tc_open(struct term *t, struct diag *d)
{
    struct tc *p = t->priv;
    struct sigaction sa;
    const char *cs;
    size_t i;

    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return diag_set(d, CP_ERR_USAGE, "tui",
                        "needs a terminal (stdin and stdout)");
    have_saved_tty = tcgetattr(STDIN_FILENO, &saved_tty) == 0;
    cs = nl_langinfo(CODESET);
    p->utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    p->scr = newterm(NULL, stdout, stdin);
    if (!p->scr)
        return diag_set(d, CP_ERR_IO, "tui",
                        "cannot start the terminal (TERM=%s)",
                        getenv("TERM") ? getenv("TERM") : "");
    p->open = true;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    mouseinterval(0);
    p->colors = has_colors();
    if (p->colors) {
        start_color();
        use_default_colors();
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &p->old_term);
    sigaction(SIGINT, &sa, &p->old_int);
    sigaction(SIGHUP, &sa, &p->old_hup);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_RESETHAND;
    for (i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &sa, &p->old_fatal[i]);
    return CP_OK;
}

static void tc_close(struct term *t)
{
    struct tc *p = t->priv;
    size_t i;

    if (!p->open)
        return;
    erase();
    refresh();
    curs_set(1);
    endwin();
    delscreen(p->scr);
    p->scr = NULL;
    p->open = false;
    sigaction(SIGTERM, &p->old_term, NULL);
    sigaction(SIGINT, &p->old_int, NULL);
    sigaction(SIGHUP, &p->old_hup, NULL);
    for (i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &p->old_fatal[i], NULL);
}

static void tc_size(struct term *t, int *w, int *h)
{
    (void)t;
    getmaxyx(stdscr, *h, *w);
}

static bool tc_has_colors(struct term *t)
{
    return ((struct tc *)t->priv)->colors;
}

static bool tc_utf8(struct term *t)
{
    return ((struct tc *)t->priv)->utf8;
}

static short color(short c, attr_t *extra)
{
    if (c < 0)
        return -1;
    if (c >= COLORS) {
        if (c >= 8 && c < 16) {
            *extra |= A_BOLD;
            return (short)(c - 8);
        }
        return (short)(c % 8);
    }
    return c;
}

static void tc_set_theme(struct term *t, const struct theme *th)
{
    struct tc *p = t->priv;
    int i;

    for (i = 0; i < THEME_COUNT; i++) {
        const struct theme_style *s = &th->st[i];
        attr_t a = 0;

        if (s->attrs & TA_BOLD)
            a |= A_BOLD;
        if (s->attrs & TA_DIM)
            a |= A_DIM;
        if (s->attrs & TA_REVERSE)
            a |= A_REVERSE;
        if (s->attrs & TA_UNDERLINE)
            a |= A_UNDERLINE;
        if (s->attrs & TA_STANDOUT)
            a |= A_STANDOUT;
#ifdef A_ITALIC
        if (s->attrs & TA_ITALIC)
            a |= A_ITALIC;
#endif
        p->pair[i] = 0;
        if (p->colors && !th->mono && i + 1 < COLOR_PAIRS) {
            short fg = color(s->fg, &a), bg = color(s->bg, &a);

            init_pair((short)(i + 1), fg, bg);
            p->pair[i] = (short)(i + 1);
        }
        p->attr[i] = a;
    }
    bkgdset(' ' | COLOR_PAIR(p->pair[THEME_NORMAL]) | p->attr[THEME_NORMAL]);
}

static void tc_blit(struct term *t, const struct canvas *c)
{
    struct tc *p = t->priv;
    int x, y, w, h;

    getmaxyx(stdscr, h, w);
    for (y = 0; y < c->h && y < h; y++) {
        for (x = 0; x < c->w && x < w; x++) {
            const struct cell *cl = canvas_at(c, x, y);
            wchar_t wc[2];
            cchar_t cc;
            int el = cl->el < THEME_COUNT ? cl->el : 0;

            wc[0] = (wchar_t)cl->ch;
            wc[1] = 0;
            if (!p->utf8 && cl->ch > 127)
                wc[0] = '?';
            setcchar(&cc, wc, p->attr[el], p->pair[el], NULL);
            mvadd_wch(y, x, &cc);
        }
    }
    refresh();
}

static int translate(int ch, bool is_key)
{
    if (is_key) {
        switch (ch) {
        case KEY_UP:
            return UK_UP;
        case KEY_DOWN:
            return UK_DOWN;
        case KEY_LEFT:
            return UK_LEFT;
        case KEY_RIGHT:
            return UK_RIGHT;
        case KEY_PPAGE:
            return UK_PGUP;
        case KEY_NPAGE:
            return UK_PGDN;
        case KEY_HOME:
            return UK_HOME;
        case KEY_END:
            return UK_END;
        case KEY_BACKSPACE:
            return UK_BACKSPACE;
        case KEY_DC:
            return UK_DELETE;
        case KEY_IC:
            return UK_INSERT;
        case KEY_BTAB:
            return UK_BTAB;
        case KEY_ENTER:
            return UK_ENTER;
        default:
            if (ch >= KEY_F(1) && ch <= KEY_F(12))
                return UK_F(ch - KEY_F0);
            return 0;
        }
    }
    switch (ch) {
    case '\r':
    case '\n':
        return UK_ENTER;
    case '\t':
        return UK_TAB;
    case 27:
        return UK_ESC;
    case 127:
    case 8:
        return UK_BACKSPACE;
    default:
        if (ch >= 1 && ch <= 26)
            return UK_CTRL('a' + ch - 1);
        if (ch < 32)
            return 0;
        return ch;
    }
}

static int tc_read(struct term *t, struct ui_event *ev, int timeout_ms)
{
    wint_t wc;
    int r;

    (void)t;
    memset(ev, 0, sizeof(*ev));
    if (got_signal) {
        ev->key = UK_SIGNAL;
        return 1;
    }
    timeout(timeout_ms);
    r = get_wch(&wc);
    if (got_signal) {
        ev->key = UK_SIGNAL;
        return 1;
    }
    if (r == ERR)
        return 0;
    if (r == KEY_CODE_YES && wc == KEY_RESIZE) {
        ev->key = UK_RESIZE;
        getmaxyx(stdscr, ev->y, ev->x);
        return 1;
    }
    if (r == KEY_CODE_YES && wc == KEY_MOUSE) {
        MEVENT me;

        if (getmouse(&me) != OK)
            return 0;
        if (!(me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
            return 0;
        ev->key = UK_MOUSE;
        ev->x = me.x;
        ev->y = me.y;
        return 1;
    }
    ev->key = translate((int)wc, r == KEY_CODE_YES);
    return ev->key ? 1 : 0;
}

static void tc_free(struct term *t)
{
    tc_close(t);
    free(t->priv);
    free(t);
}

static const struct term_ops curses_ops = {
    .open = tc_open,
    .close = tc_close,
    .size = tc_size,
    .has_colors = tc_has_colors,
    .utf8 = tc_utf8,
    .set_theme = tc_set_theme,
    .blit = tc_blit,
    .read = tc_read,
    .free = tc_free,
};

struct term *term_curses_new(void)
{
    struct term *t = xcalloc(1, sizeof(*t));

    t->ops = &curses_ops;
    t->priv = xcalloc(1, sizeof(struct tc));
    got_signal = 0;
    return t;
}
