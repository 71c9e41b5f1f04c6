#!/usr/bin/env bash
# Watches the test runner for a stall: a test process that, with its child processes,
# uses less than a second of processor time in STALL_SECONDS (600 by default) is stuck,
# not slow, since every suite computes or talks to a child all the time (a wait that
# polls, such as Foundation's waitUntilExit, costs a few milliseconds a minute). The
# watchdog then prints the stack of every thread of that process and of its children
# (with gdb, installed on demand), makes `swift test` write out the output it still
# holds (it buffers the runner's), names the tests the log shows as started and never
# ended (Scripts/unfinished-tests.py on the newest log in LOG_DIR, .build/ci-logs by
# default, where .ci/run tees each test pass), and stops the process. A deadlock thus
# ends the run in minutes with its cause at the end of the log, instead of at the CI's
# time limit with nothing to go on.
#
# Usage: Scripts/stall-watchdog.sh &    (from .ci/run; it ends when its parent does)
set -u
stall_seconds=${STALL_SECONDS:-600}
log_dir=${LOG_DIR:-.build/ci-logs}
# One second of processor time, in clock ticks.
busy_ticks=$(getconf CLK_TCK)
parent=$PPID
declare -A base_ticks base_time

# Processor time of a process in clock ticks: its own (utime, stime) and that of the
# children it has waited for (cutime, cstime); fields 14 to 17 of /proc/PID/stat.
process_ticks() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
    stat=${stat##*) }
    set -- $stat
    echo $(( ${12} + ${13} + ${14} + ${15} ))
}

descendants() {
    local child
    for child in $(pgrep -P "$1"); do
        echo "$child"
        descendants "$child"
    done
}

# The process's processor time with that of every live descendant.
tree_ticks() {
    local total member
    total=$(process_ticks "$1")
    for member in $(descendants "$1"); do
        total=$(( total + $(process_ticks "$member") ))
    done
    echo "$total"
}

dump_threads() {
    local pid=$1
    if ! command -v gdb >/dev/null 2>&1; then
        (apt-get update -qq && apt-get install -y -qq gdb) >/dev/null 2>&1
    fi
    for target in $pid $(descendants "$pid"); do
        echo "=== process $target: $(tr '\0' ' ' < "/proc/$target/cmdline" 2>/dev/null)"
        if command -v gdb >/dev/null 2>&1; then
            timeout 120 gdb -p "$target" -batch -ex 'thread apply all bt 40' 2>/dev/null | grep -E '^(Thread|#)'
        else
            echo "(gdb could not be installed; no stacks)"
        fi
    done
}

# Flushes the buffered output of the `swift test` that runs `pid`, then lists the tests
# the newest log shows as started and not ended.
report_unfinished_tests() {
    local driver log
    driver=$(ps -o ppid= -p "$1" | tr -d ' ')
    if [ -n "$driver" ] && command -v gdb >/dev/null 2>&1; then
        timeout 60 gdb -p "$driver" -batch -ex 'call (int)fflush(0)' >/dev/null 2>&1
        sleep 2
    fi
    log=$(ls -t "$log_dir"/*.log 2>/dev/null | head -1)
    if [ -n "$log" ]; then
        echo "stall-watchdog: tests that started and never ended, by $log:"
        Scripts/unfinished-tests.py "$log"
    fi
}

while kill -0 "$parent" 2>/dev/null; do
    sleep "${WATCH_INTERVAL:-30}"
    now=$(date +%s)
    for pid in $(pgrep -f '\.xctest' || true); do
        # The runner itself, not a shell whose command line names it.
        case "$(readlink "/proc/$pid/exe" 2>/dev/null)" in *.xctest) ;; *) continue ;; esac
        ticks=$(tree_ticks "$pid")
        if [ -z "${base_ticks[$pid]:-}" ] || [ $(( ticks - ${base_ticks[$pid]} )) -ge "$busy_ticks" ]; then
            base_ticks[$pid]=$ticks
            base_time[$pid]=$now
        elif [ $(( now - ${base_time[$pid]} )) -ge "$stall_seconds" ]; then
            echo "stall-watchdog: test process $pid and its children used under a second of processor time in $stall_seconds s; their threads:" >&2
            dump_threads "$pid" >&2
            report_unfinished_tests "$pid" >&2
            kill -KILL "$pid" 2>/dev/null
            unset "base_ticks[$pid]" "base_time[$pid]"
        fi
    done
done
