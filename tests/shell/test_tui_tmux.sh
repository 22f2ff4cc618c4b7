#!/bin/sh
# test_tui_tmux.sh - the real binary in a real terminal (tmux send-keys /
# capture-pane): open, edit the GPU count (the numbers change), help,
# compare, search, apply a layout, catalog, resize to 30x8 and back, quit
# with exit status 0 and the terminal left clean.  Prints "ok ..." /
# "FAIL ...".  A private tmux server (-L) keeps the user's sessions out.
set -u
BIN=${LLMPLAN_BIN:-./llmplan}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL tmux not installed"
    exit 1
fi
tmp=$(mktemp -d)
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
    PATH=/usr/bin:/bin sh -c 'echo \$\$ >"\$1"; shift; exec "\$@"' sh \
    "$tmp/pid" "$BIN" --catalog "$tmp/catalog.db"
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
keys Enter
wait_for "hardware.gpus \(" >/dev/null
keys C-u 2048 Enter
check "GPU count edited" "gpus +2,048"
after=$(screen | grep -E 'STEP TIME|MEMORY PER GPU')
if [ -n "$before" ] && [ "$before" != "$after" ]; then
    echo "ok tmux: the numbers change with the GPU count"
else
    echo "FAIL tmux: the numbers did not change ('$before' -> '$after')"
fi
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
keys Enter
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
