#!/usr/bin/env bash
# Every Float bit pattern, formatted by WireValueFormat and by this machine's JVM
# (OpenJDK 17's Float.toString), compared. Too long for the test suite (about half an
# hour on two cores), so it is run by hand; the differential test in
# Tests/ZeroPiiWireTests covers millions of chosen and random values on every run.
#
#   Scripts/float-sweep.sh [FIRST END]   bit patterns FIRST..<END (default: all 2^32)
#
# Both sides hash the strings of each block of 2^20 patterns (FNV-1a 64); a block whose
# hashes differ is compared value by value. Prints the values compared and the
# differences (the first ones listed), exits 1 when there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

first=$((${1:-0}))
end=$((${2:-0x100000000}))
block=0x100000
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

javac -d "$work" Scripts/java/JavaNumberStrings.java
java_version="$(java -cp "$work" JavaNumberStrings version)"
if [ "$java_version" -ge 19 ]; then
    echo "float-sweep: needs a JDK up to 18, whose Float.toString is FloatingDecimal's; found $java_version" >&2
    exit 2
fi
# One optimised module: the number format's sources and the Swift side's main.
swiftc -O -parse-as-library -module-name SwiftNumberStrings -package-name ZeroPii -o "$work/swift-number-strings" \
    Sources/ZeroPiiWire/Numbers/*.swift Scripts/java/SwiftNumberStrings.swift

# In chunks of 2^26 patterns, each reported as it ends, so a long run shows progress.
chunk=$((1 << 26))
differences=0
start_time=$SECONDS
for ((chunk_start = first; chunk_start < end; chunk_start += chunk)); do
    chunk_end=$((chunk_start + chunk < end ? chunk_start + chunk : end))
    java -cp "$work" JavaNumberStrings sweep "$chunk_start" "$chunk_end" "$block" "$work/java.hashes" &
    java_pid=$!
    "$work/swift-number-strings" sweep "$chunk_start" "$chunk_end" "$block" "$work/swift.hashes"
    wait "$java_pid"
    while read -r block_start; do
        block_end=$((0x$block_start + block < chunk_end ? 0x$block_start + block : chunk_end))
        java -cp "$work" JavaNumberStrings range "0x$block_start" "$block_end" "$work/java.range"
        "$work/swift-number-strings" range "0x$block_start" "$block_end" "$work/swift.range"
        diff "$work/java.range" "$work/swift.range" > "$work/range.diff" || true
        [ "$differences" -lt 10 ] && grep '^[<>]' "$work/range.diff" | head -20
        differences=$((differences + $(grep -c '^>' "$work/range.diff" || true)))
    done < <(paste -d' ' "$work/java.hashes" "$work/swift.hashes" | awk '$2 != $4 { print $1 }')
    printf 'float-sweep: patterns 0x%08x..<0x%09x done after %d s, %d differences so far\n' \
        "$first" "$chunk_end" $((SECONDS - start_time)) "$differences"
done

# Finite patterns: all but those with an all-ones exponent (NaN, the infinities).
compared=$(python3 -c "
def finite_below(n):
    halves, rest = divmod(n, 1 << 31)
    return halves * 0x7f800000 + min(rest, 0x7f800000)
print(finite_below($end) - finite_below($first))")
echo "float-sweep: $compared finite Float values compared in $((SECONDS - start_time)) s;" \
    "$differences differences ('<' Java, '>' Swift)"
[ "$differences" -eq 0 ]
