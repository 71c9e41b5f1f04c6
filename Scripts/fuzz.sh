#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for a while on its seed corpus.
#
# Usage: Scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 60; Linux, Swift's -sanitize=fuzzer)
# Corpora live in Fuzz/Corpus/<target>; new interesting inputs are added there, and a
# crashing input is written to Fuzz/Crashes/. Fix the crash and turn the input into a
# regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
scratch="${TMPDIR:-/tmp}/zeropii-fuzz-build"
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

swift build --scratch-path "$scratch" --target ZeroPiiCLI "${flags[@]}" >/dev/null
objects=()
for module in ZeroPiiLocking ZeroPiiCrypto ZeroPiiModels ZeroPiiWire ZeroPiiCurlShim ZeroPiiTransport ZeroPiiAuth ZeroPiiRetry ZeroPiiSDK ZeroPiiMockServer ZeroPiiCLI; do
    objects+=("$scratch"/debug/"$module".build/*.o)
done

mkdir -p Fuzz/Crashes
status=0
for source in Fuzz/*Fuzzer.swift; do
    name="$(basename "$source" .swift)"
    binary="$scratch/$name"
    # The C module of the curl transport is found by its module map.
    swiftc -sanitize=fuzzer,address -parse-as-library -enable-testing -I "$scratch/debug/Modules" -I "$scratch/debug/ZeroPiiCurlShim.build" \
        "$source" "${objects[@]}" -o "$binary" 2>/dev/null
    mkdir -p "Fuzz/Corpus/$name"
    log="$scratch/$name.log"
    if ASAN_OPTIONS=detect_leaks=0 "$binary" -detect_leaks=0 -max_total_time="$seconds" \
        -artifact_prefix="Fuzz/Crashes/$name-" "Fuzz/Corpus/$name" >"$log" 2>&1; then
        runs="$(grep -o 'Done [0-9]* runs' "$log" | tail -1)"
        echo "$name: ${runs:-no summary}, no crash, corpus $(ls "Fuzz/Corpus/$name" | wc -l) inputs"
    else
        echo "$name: CRASH, see $log and Fuzz/Crashes/"
        status=1
    fi
done
exit $status
