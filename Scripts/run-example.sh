#!/usr/bin/env bash
# Builds the example package in Examples/ against this checkout and runs its
# `tokenize-values` program against a `zeropii serve` mock server, twice: the first run
# must create a token per value, the second must get the same tokens back as existing.
#
# Usage: Scripts/run-example.sh        (run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

swift build --product zeropii >/dev/null
swift build --package-path Examples -Xswiftc -warnings-as-errors >/dev/null

# Examples/CompileErrors: Swift 6 code that misuses the callbacks' isolation must fail to
# compile, with the error its `// expected-error:` line names (a trap at run time otherwise).
for snippet in Examples/CompileErrors/*.swift; do
    expected="$(sed -n 's|^// expected-error: ||p' "$snippet")"
    # The second -I: the module map of the C module the curl transport imports.
    if swiftc -swift-version 6 -typecheck -I Examples/.build/debug/Modules -I Examples/.build/debug/ZeroPiiCurlShim.build "$snippet" \
        >"$work/compile-error.log" 2>&1; then
        echo "run-example: $snippet compiles in Swift 6; it must not"; exit 1
    fi
    if [ -z "$expected" ] || ! grep -qF -- "$expected" "$work/compile-error.log"; then
        cat "$work/compile-error.log"
        echo "run-example: $snippet fails to compile, but not with \"$expected\""; exit 1
    fi
done

.build/debug/zeropii serve --port 0 --demo-client --data-file "$work/vault.db" >"$work/server.out" 2>&1 &
server_pid=$!
# The server prints its address once it listens; wait for that line, not for a time.
for _ in $(seq 1 300); do
    grep -q "listening on" "$work/server.out" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.out"; exit 1; }
    sleep 0.1
done
api_url="$(grep -o 'http://[^ ]*' "$work/server.out")"

values=("alice@example.com" "+1 (555) 010-2345" "42")
run() { ZEROPII_API_URL="$api_url" Examples/.build/debug/tokenize-values "${values[@]}"; }
run | tee "$work/first.out"
run >"$work/second.out"

for value in "${values[@]}"; do
    first="$(grep -F -- "$value -> " "$work/first.out" || true)"
    second="$(grep -F -- "$value -> " "$work/second.out" || true)"
    token="${first#"$value -> "}"
    token="${token%%  *}"
    # A short number may be its own token (the cipher is a permutation); an email is not.
    if [ -z "$first" ] || { [[ "$value" == *@* ]] && [ "$token" = "$value" ]; } || [[ "$first" != *"new]" ]]; then
        echo "run-example: no new token for one of the values in the first run"; exit 1
    fi
    if [ "${second%%  *}" != "${first%%  *}" ] || [[ "$second" != *"existing]" ]]; then
        echo "run-example: the second run did not return the same token as existing"; exit 1
    fi
done
echo "run-example: ${#values[@]} values tokenized; the second run got the same tokens back"
