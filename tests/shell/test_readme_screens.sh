#!/bin/sh
# test_readme_screens.sh - the README's TUI captures are the real screens
# (issue 14, item 16): each ``` block after a line starting "At 80x24" or
# "At 200x60" in README.md must equal the text layer of the screen golden
# tests/golden/screens/plan.screen or plan-200x60.screen (trailing blanks
# dropped).  README_UPDATE=1 rewrites the blocks from the goldens (run it
# after `make golden-update` changed those screens).
# Prints "ok ..." / "FAIL ...".
set -u
README=${README:-README.md}
exec python3 - "$README" <<'EOP'
import os, sys

readme = sys.argv[1]
caps = [("At 80x24", "tests/golden/screens/plan.screen"),
        ("At 200x60", "tests/golden/screens/plan-200x60.screen")]

def screen_text(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    w, h = (int(v) for v in lines[0].split()[1].split("x"))
    return [l.rstrip() for l in lines[1:1 + h]]

text = open(readme, encoding="utf-8").read().split("\n")
update = os.environ.get("README_UPDATE") == "1"
for marker, golden in caps:
    want = screen_text(golden)
    at = next((i for i, l in enumerate(text) if l.startswith(marker)), None)
    if at is None:
        print("FAIL readme: no capture '%s...'" % marker)
        continue
    start = next(i for i in range(at, len(text)) if text[i].startswith("```"))
    end = next(i for i in range(start + 1, len(text)) if text[i].startswith("```"))
    got = [l.rstrip() for l in text[start + 1:end]]
    if update:
        text[start + 1:end] = want
        print("ok readme: %s capture (updated)" % marker)
    elif got == want:
        print("ok readme: the %s capture is %s" % (marker, golden))
    else:
        bad = next(i for i in range(max(len(got), len(want)))
                   if i >= len(got) or i >= len(want) or got[i] != want[i])
        print("FAIL readme: the %s capture differs from %s at line %d:"
              % (marker, golden, bad + 1))
        print("  want | %s" % (want[bad] if bad < len(want) else "(end)"))
        print("  got  | %s" % (got[bad] if bad < len(got) else "(end)"))
if update:
    open(readme, "w", encoding="utf-8").write("\n".join(text))
EOP
