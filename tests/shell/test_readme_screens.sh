#!/bin/sh
# test_readme_screens.sh - every output the README shows is what the
# binary prints today (issue 14 item 16, issue 20 item 13).  A generated
# block is a ``` block between two markers that name its command:
#
#   <!-- begin output: llmplan ARGS... [keep=WORD,WORD...] -->
#   ```
#   $ llmplan ARGS...
#   ...the command's standard output...
#   ```
#   <!-- end output -->
#
#   <!-- begin screen: tests/golden/screens/NAME.keys -->
#   ```
#   ...the text layer of the TUI driven by that keys file...
#   ```
#   <!-- end screen -->
#
# An output command runs in the repository (plan paths as data/plans/...)
# with a fresh catalog and a clean environment (env -i LC_ALL=C TZ=UTC
# HOME=<temp>), `llmplan` being the binary under test; keep= makes the block
# an excerpt, after a "...": the lines SECTION.KEY names (KEY the first word
# of an indented line under the unindented line SECTION), each under its
# section's line.  A
# screen runs as tests/shell/test_tui_screens.sh runs it (the "# size" and
# "# args" lines of the keys file).  The test fails on a stale block;
# README_UPDATE=1 (make readme, make golden-update) rewrites every block.
# Prints "ok ..." / "FAIL ...".
set -u
README=${README:-README.md}
BIN=${LLMPLAN_BIN:-./llmplan}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
exec python3 - "$README" "$BIN" <<'EOP'
import os, re, shutil, subprocess, sys, tempfile

readme, binary = sys.argv[1], sys.argv[2]
update = os.environ.get("README_UPDATE") == "1"
begin = re.compile(r"^<!-- begin (output|screen): (.*?) -->$")
tmp = tempfile.mkdtemp()
bindir = os.path.join(tmp, "bin")
os.mkdir(bindir)
os.symlink(binary, os.path.join(bindir, "llmplan"))


def clean_env(home):
    os.makedirs(home, exist_ok=True)
    return {"LC_ALL": "C", "TZ": "UTC", "HOME": home,
            "PATH": bindir + ":/usr/bin:/bin",
            "SOURCE_DATE_EPOCH": "1793491200"}


def run_output(spec, n):
    keep = None
    m = re.search(r"\s+keep=(\S+)$", spec)
    if m:
        keep = set(m.group(1).split(","))
        spec = spec[:m.start()]
    if not spec.startswith("llmplan "):
        return None, "the command must start with llmplan"
    p = subprocess.run(["sh", "-c", spec], env=clean_env(os.path.join(tmp, "h%d" % n)),
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if p.returncode != 0:
        return None, "exits %d: %s" % (p.returncode, p.stderr.strip()[:200])
    lines = [l.rstrip() for l in p.stdout.rstrip("\n").split("\n")]
    if keep is not None:
        out, section, shown = ["..."], "", None
        for l in lines:
            if l and not l[0].isspace():
                section = l.split()[0]
            elif l.split()[:1] and section + "." + l.split()[0] in keep:
                if shown != section:
                    out.append(section)
                    shown = section
                out.append(l)
        lines = out
    return ["$ " + spec] + lines, None


def run_screen(keys, n):
    if not os.path.isfile(keys):
        return None, "no keys file %s" % keys
    src = open(keys, encoding="utf-8").read()
    size = re.search(r"^# size (\d+x\d+)", src, re.M)
    args = re.search(r"^# args (.*)$", src, re.M)
    home = os.path.join(tmp, "h%d" % n)
    dump = os.path.join(tmp, "s%d.screen" % n)
    cmd = [binary, "--catalog", os.path.join(tmp, "c%d.db" % n)]
    cmd += args.group(1).split() if args else []
    cmd += ["tui", "--ui-script", os.path.abspath(keys), "--ui-size",
            size.group(1) if size else "80x24", "--ui-dump", dump]
    p = subprocess.run(cmd, env=clean_env(home), cwd=home, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, "exits %d: %s" % (p.returncode, p.stderr.strip()[:200])
    lines = open(dump, encoding="utf-8").read().split("\n")
    w, h = (int(v) for v in lines[0].split()[1].split("x"))
    return [l.rstrip() for l in lines[1:1 + h]], None


text = open(readme, encoding="utf-8").read().split("\n")
i = n = 0
blocks = 0
while i < len(text):
    m = begin.match(text[i])
    if not m:
        i += 1
        continue
    kind, spec = m.group(1), m.group(2)
    n += 1
    end = next((j for j in range(i + 1, len(text))
                if text[j] == "<!-- end %s -->" % kind), None)
    fences = [j for j in range(i + 1, end or i + 1) if text[j].startswith("```")]
    if end is None or len(fences) != 2 or fences[0] != i + 1 or fences[1] != end - 1:
        print("FAIL readme line %d: %s block without ``` fences and <!-- end %s -->"
              % (i + 1, kind, kind))
        i += 1
        continue
    want, err = (run_output if kind == "output" else run_screen)(spec, n)
    blocks += 1
    what = "readme %s block '%s'" % (kind, re.sub(r"\s+keep=\S+$", "", spec))
    if err:
        print("FAIL %s: %s" % (what, err))
    elif update:
        text[fences[0] + 1:fences[1]] = want
        print("ok %s (updated)" % what)
        end = fences[0] + 1 + len(want) + 1
    else:
        got = [l.rstrip() for l in text[fences[0] + 1:fences[1]]]
        if got == want:
            print("ok %s" % what)
        else:
            bad = next(k for k in range(max(len(got), len(want)))
                       if k >= len(got) or k >= len(want) or got[k] != want[k])
            print("FAIL %s is stale at its line %d (make readme):" % (what, bad + 1))
            print("  want | %s" % (want[bad] if bad < len(want) else "(end)"))
            print("  got  | %s" % (got[bad] if bad < len(got) else "(end)"))
    i = end + 1
if blocks == 0:
    print("FAIL readme: no generated blocks (<!-- begin output: ... -->)")
if update:
    open(readme, "w", encoding="utf-8").write("\n".join(text))
shutil.rmtree(tmp)
EOP
