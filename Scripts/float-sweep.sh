#!/usr/bin/env bash
# Every Float bit pattern, formatted by WireValueFormat and by this machine's JVM
# (OpenJDK 17's Float.toString), compared. Too long for the test suite (about half an
# hour on two cores), so it is run by hand; the differential test in
# Tests/ZeroPiiModelsTests covers millions of chosen and random values on every run.
#
#   Scripts/float-sweep.sh [FIRST END]   bit patterns FIRST..<END (default: all 2^32)
#
# Both sides hash the strings of each block of 2^20 patterns (FNV-1a 64); a block whose
# hashes differ is compared value by value. Prints the values compared and the
# differences (the first ones listed), exits 1 when there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

first="${1:-0x0}"
end="${2:-0x100000000}"
block=0x100000
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

javac -d "$work" Scripts/java/JavaNumberStrings.java
java_version="$(java -cp "$work" JavaNumberStrings version)"
if [ "$java_version" -ge 19 ]; then
    echo "float-sweep: needs a JDK up to 18, whose Float.toString is FloatingDecimal's; found $java_version" >&2
    exit 2
fi
# One optimised module: the ZeroPiiModels sources and the Swift side's main.
swiftc -O -parse-as-library -module-name SwiftNumberStrings -o "$work/swift-number-strings" \
    Sources/ZeroPiiModels/*.swift Scripts/java/SwiftNumberStrings.swift

start_time=$SECONDS
java -cp "$work" JavaNumberStrings sweep "$first" "$end" "$block" "$work/java.hashes" &
java_pid=$!
"$work/swift-number-strings" sweep "$first" "$end" "$block" "$work/swift.hashes"
wait "$java_pid"

differences=0
while read -r start; do
    stop=$(printf '0x%x' $((0x$start + block)))
    [ $((stop)) -gt $((end)) ] && stop="$end"
    java -cp "$work" JavaNumberStrings range "0x$start" "$stop" "$work/java.range"
    "$work/swift-number-strings" range "0x$start" "$stop" "$work/swift.range"
    diff "$work/java.range" "$work/swift.range" > "$work/range.diff" || true
    [ "$differences" -lt 10 ] && grep '^[<>]' "$work/range.diff" | head -20
    differences=$((differences + $(grep -c '^>' "$work/range.diff" || true)))
done < <(paste -d' ' "$work/java.hashes" "$work/swift.hashes" | awk '$2 != $4 { print $1 }')

# Finite patterns: all but those with an all-ones exponent (NaN, the infinities).
compared=$(python3 -c "
def finite_below(n):
    halves, rest = divmod(n, 1 << 31)
    return halves * 0x7f800000 + min(rest, 0x7f800000)
print(finite_below($end) - finite_below($first))")
echo "float-sweep: $compared finite Float values compared in $((SECONDS - start_time)) s;" \
    "$differences differences ('<' Java, '>' Swift)"
[ "$differences" -eq 0 ]
