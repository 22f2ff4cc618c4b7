#!/bin/sh
# test_tui_tmux.sh - the real binary in a real terminal (tmux send-keys /
# capture-pane): open, edit the GPU count (the numbers change, the plan
# reads modified, u undoes it), help, compare, search, apply a layout,
# catalog, resize to 30x8 and back, q asks over unsaved edits, quit with
# exit status 0 and the terminal left clean.  Issue 14: a catalog edit
# keeps a concurrent import and says when an import holds the lock
# (item 3); a burst of keys on a big MoE plan is one evaluation (14);
# results of a plan that cannot be evaluated are dimmed (15).  Prints "ok ..." /
# "FAIL ...".  A private tmux server (-L) keeps the user's sessions out.
set -u
. "$(dirname "$0")/lib.sh"
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL tmux not installed"
    exit 1
fi
sock="llmplan-test-$$"
T="tmux -L $sock -f /dev/null"
cleanup() {
    $T kill-server >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home"

# The program, then its exit status into a file; the pane stays a moment
# so that what the program left on the screen can be checked.
cat >"$tmp/run.sh" <<EOS
#!/bin/sh
cd "$tmp"
# the inner shell writes its pid and becomes the program (exec)
env -i HOME="$tmp/home" TERM=screen-256color LC_ALL=C TZ=UTC \
    PATH=/usr/bin:/bin LLMPLAN_TEST_EVALS=1 \
    sh -c 'echo \$\$ >"\$1"; shift; exec "\$@"' sh \
    "$tmp/pid" "$BIN" --catalog "$tmp/catalog.db" "\$@" 2>"$tmp/err"
echo \$? >"$tmp/rc"
sleep 30
EOS
chmod +x "$tmp/run.sh"

S=t # the session the helpers talk to
screen() { $T capture-pane -p -t "$S" 2>/dev/null; }

# wait_for PATTERN: up to 10 s for the pane to show PATTERN (grep -E).
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        if screen | grep -qE "$1"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

check() { # check NAME PATTERN
    if wait_for "$2"; then
        echo "ok tmux: $1"
    else
        echo "FAIL tmux: $1 (no '$2' on the screen)"
        screen | sed 's/^/  | /'
    fi
}

keys() { $T send-keys -t "$S" "$@"; }

$T new-session -d -s t -x 120 -y 40 "$tmp/run.sh"
check "opens on the plan view" "MEMORY PER GPU"
before=$(screen | grep -E 'STEP TIME|MEMORY PER GPU')
keys / hardware.gpus Enter Enter
wait_for "hardware.gpus \(" >/dev/null
keys C-u 2048 Enter
check "GPU count edited" "gpus +2,048"
check "an edited plan reads modified" "plan \(modified\)"
after=$(screen | grep -E 'STEP TIME|MEMORY PER GPU')
if [ -n "$before" ] && [ "$before" != "$after" ]; then
    echo "ok tmux: the numbers change with the GPU count"
else
    echo "FAIL tmux: the numbers did not change ('$before' -> '$after')"
fi
keys u
check "u undoes the edit" "gpus +1,024"
if screen | grep -q "(modified)"; then
    echo "FAIL tmux: the plan reads modified after the undo"
else
    echo "ok tmux: after the undo the plan is as loaded"
fi
keys / hardware.gpus Enter Enter
wait_for "hardware.gpus \(" >/dev/null
keys C-u 2048 Enter
wait_for "gpus +2,048" >/dev/null
keys '?'
check "help" "Keys of the plan view"
keys c
check "compare" "Cumulative cost"
keys s
check "search" "Layouts of .*checked"
keys Down Enter
check "a layout applied" "layout 2 applied"
keys g
check "catalog" "accelerators .*systems"
$T resize-window -t "$S" -x 30 -y 8
check "resized to 30x8" "terminal too small"
$T resize-window -t "$S" -x 120 -y 40
check "resized back to 120x40" "rows .*-"
keys q
check "q over unsaved edits asks first" "unsaved edits.*quit\? \(y/n\)"
keys y
i=0
while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
rc=$(cat "$tmp/rc" 2>/dev/null)
if [ "$rc" = 0 ]; then
    echo "ok tmux: q exits with status 0"
else
    echo "FAIL tmux: q exit status '${rc:-none}'"
fi
if screen | grep -qE "llmplan|Catalog|F10"; then
    echo "FAIL tmux: output left on the screen"
    screen | sed 's/^/  | /'
else
    echo "ok tmux: the terminal is restored"
fi

# SIGTERM while running also restores the terminal and exits
# (a new session beside the first: killing the last one would stop the
# server while the next connects)
rm -f "$tmp/rc" "$tmp/pid"
S=t2
$T new-session -d -s "$S" -x 100 -y 30 "$tmp/run.sh"
wait_for "MEMORY PER GPU" >/dev/null
pid=$(cat "$tmp/pid" 2>/dev/null)
[ -n "$pid" ] && kill -TERM "$pid"
i=0
while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ -s "$tmp/rc" ] && ! screen | grep -qE "MEMORY PER GPU"; then
    echo "ok tmux: SIGTERM exits cleanly"
else
    echo "FAIL tmux: SIGTERM (status '$(cat "$tmp/rc" 2>/dev/null)')"
fi

# Ctrl-C in a prompt quits too, with the terminal restored
rm -f "$tmp/rc" "$tmp/pid"
S=t3
$T new-session -d -s "$S" -x 100 -y 30 "$tmp/run.sh"
wait_for "MEMORY PER GPU" >/dev/null
keys / hardware.gpus Enter Enter
wait_for "hardware.gpus \(" >/dev/null
keys C-c
i=0
while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ] && ! screen | grep -qE "MEMORY PER GPU"; then
    echo "ok tmux: Ctrl-C exits cleanly"
else
    echo "FAIL tmux: Ctrl-C (status '$(cat "$tmp/rc" 2>/dev/null)')"
fi

# ---- issue 14 ----------------------------------------------------------
db="$tmp/catalog.db"
cli() { env -i HOME="$tmp/home" LC_ALL=C TZ=UTC PATH=/usr/bin:/bin "$@"; }
finish() { # quit the session S (answering the prompt over unsaved edits)
    keys q
    # wait for the program to end or to ask (a loaded machine may take
    # seconds to draw the prompt), then answer it once
    i=0
    while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
        if screen | grep -q "quit? (y/n)"; then
            keys y
            break
        fi
        sleep 0.1
        i=$((i + 1))
    done
    i=0
    while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}

# item 3: an import of other columns while the TUI shows the row, then a
# TUI edit of the name: the import's tdp_w stays
rm -f "$tmp/rc" "$tmp/pid"
S=t4
$T new-session -d -s "$S" -x 120 -y 40 "$tmp/run.sh"
wait_for "MEMORY PER GPU" >/dev/null
keys g
wait_for "a100-40gb" >/dev/null
cli "$BIN" --catalog "$db" catalog export accelerators >"$tmp/acc.csv"
awk -F, -v OFS=, 'NR == 1 || $1 == "a100-40gb" { if ($1 == "a100-40gb") $13 = 450; print }' \
    "$tmp/acc.csv" >"$tmp/imp.csv"
cli "$BIN" --catalog "$db" catalog import accelerators "$tmp/imp.csv" >/dev/null 2>&1
keys Enter Down Enter
wait_for "accelerators.name \(" >/dev/null
keys C-u "ACME 40" Enter
check "catalog edit saved" "name saved"
cli "$BIN" --catalog "$db" catalog show accelerators a100-40gb >"$tmp/show" 2>&1
if grep -qE "^ *name +ACME 40" "$tmp/show" && grep -qE "^ *tdp_w +450" "$tmp/show"; then
    echo "ok tmux: a TUI edit keeps a concurrent import of other columns"
else
    echo "FAIL tmux: a TUI edit undid a concurrent import"
    grep -E "name|tdp_w" "$tmp/show" | sed 's/^/  | /'
fi
if grep -qE "^ *source +user edit" "$tmp/show"; then
    echo "ok tmux: the edited row's source says user edit"
else
    echo "FAIL tmux: the edited row's source is not marked"
fi
# another writer holds the catalog: the TUI says so and changes nothing
cli env LLMPLAN_TEST_IMPORT_DELAY_MS=4000 \
    "$BIN" --catalog "$db" catalog import accelerators "$tmp/imp.csv" \
    >/dev/null 2>"$tmp/imp.err" &
imp=$!
i=0
while ! grep -q "commit in" "$tmp/imp.err" 2>/dev/null && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
keys Enter
wait_for "accelerators.name \(" >/dev/null
keys C-u "ACME 41" Enter
check "an edit while an import holds the lock says so" "another process is writing"
wait "$imp"
finish

# item 14: a burst of 11 edits of a big MoE plan settles in one evaluation
cat >"$tmp/ds.ini" <<'EOP'
[model]
preset = deepseek-v3
[hardware]
accelerator = h100-sxm
gpus = 16384
[train]
tokens = 15T
seq_len = 32768
EOP
rm -f "$tmp/rc" "$tmp/pid" "$tmp/err"
S=t5
$T new-session -d -s "$S" -x 120 -y 40 "$tmp/run.sh tui $tmp/ds.ini"
wait_for "MEMORY PER GPU" >/dev/null
keys / hardware.gpus Enter Enter
wait_for "hardware.gpus \(" >/dev/null
keys C-u 1 2 2 8 8 BSpace BSpace BSpace BSpace BSpace 8 1 9 2 Enter
check "a burst of keys on a big plan" "gpus +8,192"
i=0
while screen | grep -q "evaluating the plan" && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
# item 15: a plan that cannot be evaluated: the last result, dimmed, and
# no cost chart
keys / parallel.tp Enter Enter C-u 5 Enter
check "an invalid plan's results say they are stale" "cannot be evaluated; the last result, dimmed"
# the stale memory heading is drawn dim (SGR 2) right after the pane border
if $T capture-pane -e -p -t "$S" | grep "MEMORY PER GPU" |
    grep -q "$(printf '\033')\[2m[^ ]* MEMORY PER GPU"; then
    echo "ok tmux: the stale results are dimmed"
else
    echo "FAIL tmux: the stale results are not dimmed"
fi
finish
n=$(sed -n 's/^llmplan: test: \([0-9]*\) evaluations$/\1/p' "$tmp/err" 2>/dev/null)
# the start, the burst (once), the invalid tp (once)
if [ -n "$n" ] && [ "$n" -le 4 ]; then
    echo "ok tmux: 11 edits in a burst, $n evaluations in all"
else
    echo "FAIL tmux: evaluations '${n:-none}' for 11 edits in a burst (want <= 4)"
fi

# issue 20 item 14: the mouse as in htop, through the terminal's own mouse
# reports (xterm X10 encoding, what screen-256color's kmous announces): a
# click on a tab opens its view, a click on an input row selects it.
chr() { printf "\\$(printf '%03o' "$1")"; }
click() { # click COL ROW (from 0): press and release of button 1
    keys -l "$(printf '\033[M')$(chr 32)$(chr $(($1 + 33)))$(chr $(($2 + 33)))"
    keys -l "$(printf '\033[M')$(chr 35)$(chr $(($1 + 33)))$(chr $(($2 + 33)))"
}
rm -f "$tmp/rc" "$tmp/pid"
S=t6
$T new-session -d -s "$S" -x 120 -y 40 "$tmp/run.sh"
wait_for "MEMORY PER GPU" >/dev/null
x=$(screen | head -n 1 | awk '{ print index($0, "s Search") - 1 }')
click "$x" 0
check "mouse: a click on the Search tab" "Layouts of "
x=$(screen | head -n 1 | awk '{ print index($0, "p Plan") - 1 }')
click "$x" 0
wait_for "MEMORY PER GPU" >/dev/null
y=$(screen | grep -n "^  tokens  " | head -n 1 | cut -d: -f1)
click 4 $((${y:-1} - 1))
keys Enter
check "mouse: a click on a row selects it (Enter edits train.tokens)" "train.tokens \("
keys Escape
finish
