#include <stdlib.h>
#include "ui/ui.h"
#include "util/xalloc.h"
static void *o(struct ui *ui) { (void)ui; return xcalloc(1, 8); }
static void dr(struct ui *ui, void *st, struct canvas *c, struct rect r) { (void)ui; (void)st; canvas_text(c, r.x, r.y, -1, "catalog", 0); }
static unsigned h(struct ui *ui, void *st, enum action a, const struct ui_event *ev) { (void)ui; (void)st; (void)a; (void)ev; return 0; }
static void cl(struct ui *ui, void *st) { (void)ui; free(st); }
const struct view_ops catalog_view_ops = { "catalog", VIEW_PLAN, o, dr, h, NULL, cl };
