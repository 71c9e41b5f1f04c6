#!/usr/bin/env bash
# Loads the mock server from another process over loopback and reports throughput,
# latency percentiles, failures and memory before and after.
#
# Usage: Scripts/load-test.sh [CONNECTIONS] [SECONDS]     (defaults: 64 connections, 60 s)
# Needs wrk (apt-get install wrk). The server runs in development mode (any bearer
# token) with plaintext bodies, so the load is on HTTP, parsing, the vault and JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
connections="${1:-64}"
seconds="${2:-60}"

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)"; exit 2; }
swift build -c release --product zeropii >/dev/null
binary="$(swift build -c release --show-bin-path)/zeropii"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$binary" serve --port 0 --allow-any-token --wire plaintext --data-file "$work/vault.db" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q "listening on" "$work/server.log" 2>/dev/null && break; sleep 0.1; done
url="$(grep -o 'http://[0-9.:]*/' "$work/server.log")"

cat > "$work/load.lua" <<'LUA'
-- Half new values (a counter per thread), half repeats of a small set.
local counter = 0
request = function()
  counter = counter + 1
  local value
  if counter % 2 == 0 then value = "user" .. counter .. "-" .. math.random(1, 1000000000) .. "@example.com"
  else value = "known" .. (counter % 100) .. "@example.com" end
  return wrk.format("POST", nil, {["Authorization"] = "Bearer load-test", ["Content-Type"] = "application/json"},
                    '{"value":"' .. value .. '"}')
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, non-2xx or errors %d, %.0f requests/s\n", summary.requests,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6)))
  for _, p in ipairs({50, 90, 99, 99.9}) do
    io.write(string.format("latency p%s %.2f ms\n", p, latency:percentile(p) / 1000))
  end
end
LUA

rss() { awk '/VmRSS/ {print $2 / 1024 " MB"}' "/proc/$server/status"; }
echo "server $url, RSS before: $(rss)"
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/load.lua" "${url}ct-vault/api/v2/tokenize" | tail -6
echo "RSS after: $(rss)"
kill -0 "$server" && echo "server still running"
