#!/usr/bin/env bash
# Kills the mock server with SIGKILL while `zeropii tokenize` streams a CSV into it,
# restarts it on the same data file, tokenizes the same input again, and checks that
# nothing answered before the kill was lost: the same token for every row that made it
# into the first output, and every one of those values already in the vault.
#
# Usage: Scripts/crash-test.sh [ROWS]     (default 400000)
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-400000}"

swift build -c release --product zeropii >/dev/null
binary="$(swift build -c release --show-bin-path)/zeropii"
work="$(mktemp -d)"
server=""
trap 'kill -9 $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$rows" > "$work/input.csv" <<'PY'
import sys
print("id,email")
for row in range(int(sys.argv[1])):
    print(f"{row},person{row}@example.com")
PY

# Starts the server (not in a subshell, so $server is its pid) and sets $url.
start_server() {
    : > "$work/server.log"
    "$binary" serve --port "$1" --allow-any-token --data-file "$work/vault.db" > "$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 100); do grep -q "listening on" "$work/server.log" 2>/dev/null && break; sleep 0.05; done
    url="$(grep -o 'http://[0-9.:]*/' "$work/server.log")"
}

start_server 0
port="${url##*:}"; port="${port%/}"

# First run: the server is killed part-way through.
set +e
"$binary" tokenize --quiet --api-url "$url" --access-token crash-test --concurrency 2 \
    --csv "$work/input.csv" --columns email --output "$work/first.csv" 2> "$work/first.err" &
client=$!
sleep 1.5
kill -9 "$server"
wait "$server" 2>/dev/null
wait "$client"
first_status=$?
set -e

# A run that stops early keeps what it wrote in FILE.partial (FILE itself is only ever
# replaced by a finished run).
first="$work/first.csv"
[ -f "$first" ] || first="$work/first.csv.partial"
answered=$(($(wc -l < "$first") - 1))
failed_report=$(grep -c "could not be tokenized" "$work/first.err" || true)
echo "first run: exit status $first_status, $answered of $rows rows answered before the kill, $failed_report failed-batch reports (by line number)"
if grep -q "@example.com" "$work/first.err"; then echo "FAIL: a value appeared in the error output"; exit 1; fi

# Restart on the same data file and port, and tokenize the same input again.
start_server "$port"
"$binary" tokenize --api-url "$url" --access-token crash-test \
    --csv "$work/input.csv" --columns email --output "$work/second.csv" 2> "$work/second.err"
grep "rows," "$work/second.err" | sed 's/^/second run: /'

python3 - "$first" "$work/second.csv" "$work/second.err" "$answered" <<'PY'
import csv, re, sys
first = {row["id"]: row["email"] for row in csv.DictReader(open(sys.argv[1]))}
second = {row["id"]: row["email"] for row in csv.DictReader(open(sys.argv[2]))}
different = [key for key, token in first.items() if second.get(key) != token]
summary = open(sys.argv[3]).read()
existing = int(re.search(r"(\d+) existing", summary).group(1))
answered = int(sys.argv[4])
print(f"rows answered before the kill: {len(first)}, same token after the restart: {len(first) - len(different)}, "
      f"values already in the vault on the second run: {existing} (at least {answered} needed)")
if different or existing < answered:
    print("FAIL: a value answered before the kill was lost")
    sys.exit(1)
print("PASS: nothing answered before the kill was lost")
PY
