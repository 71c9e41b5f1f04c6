#!/usr/bin/env bash
# Builds ConsumerCheck/ (app code in Swift 6 language mode) as a new user's package whose
# manifest is the Swift Package Manager snippet of README.md and of each DocC article,
# taken from the text itself: only the package URL is replaced by this checkout (copied
# into a folder named as the URL names the package, so that `.product(name:package:)`
# finds it under the same identity). Warnings are errors.
#
# Usage: Scripts/consumer-check.sh [SCRATCH]     (run by .ci/run; default .build/consumer)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
scratch="${1:-$root/.build/consumer}"
mkdir -p "$scratch"
scratch="$(cd "$scratch" && pwd)"

url="https://github.com/CleverTap/clevertap-ios-zeropii-sdk.git"
identity="clevertap-ios-zeropii-sdk"

# The checkout, as SwiftPM would fetch it: the tracked files (and new ones not ignored).
checkout="$scratch/$identity"
rm -rf "$checkout"
mkdir -p "$checkout"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - 2>/dev/null | tar -xf - -C "$checkout"

documents=(README.md $(grep -l -F ".package(url: \"$url\"" Sources/*/*.docc/*.md))
checked=0
for document in "${documents[@]}"; do
    # Every ```swift block that names the package's URL is one manifest snippet.
    python3 - "$document" "$url" "$scratch/snippets" <<'PYTHON'
import os, re, sys
document, url, out = sys.argv[1:]
os.makedirs(out, exist_ok=True)
for name in os.listdir(out):
    os.remove(os.path.join(out, name))
blocks = re.findall(r"```swift\n(.*?)```", open(document, encoding="utf-8").read(), re.S)
for number, block in enumerate(b for b in blocks if url in b):
    open(os.path.join(out, f"{number}.swift"), "w", encoding="utf-8").write(block)
PYTHON
    snippets=("$scratch"/snippets/*.swift)
    if [ ! -e "${snippets[0]}" ]; then
        echo "consumer-check: $document has no Package.swift snippet naming $url"; exit 1
    fi
    for snippet in "${snippets[@]}"; do
        consumer="$scratch/consumer"
        rm -rf "$consumer"
        mkdir -p "$consumer"
        cp -R ConsumerCheck/Sources "$consumer/Sources"
        {
            echo "// swift-tools-version:6.0"
            echo "import PackageDescription"
            echo
            echo "let package = Package("
            echo "    name: \"Consumer\","
            echo "    platforms: [.iOS(.v13), .macOS(.v10_15)],"
            sed -e "s|.package(url: \"$url\", from: \"[0-9.]*\")|.package(path: \"$checkout\")|" "$snippet"
            echo ")"
        } >"$consumer/Package.swift"
        if ! grep -q -F ".package(path: \"$checkout\")" "$consumer/Package.swift"; then
            cat "$consumer/Package.swift"
            echo "consumer-check: the snippet in $document does not have the form .package(url: \"$url\", from: \"x.y.z\")"; exit 1
        fi
        if ! swift build --package-path "$consumer" --scratch-path "$scratch/build" -Xswiftc -warnings-as-errors >"$scratch/build.log" 2>&1; then
            cat "$consumer/Package.swift" "$scratch/build.log"
            echo "consumer-check: the snippet in $document does not give a package that builds"; exit 1
        fi
        checked=$((checked + 1))
    done
done
echo "consumer-check: $checked Package.swift snippets (${documents[*]}) build ConsumerCheck in Swift 6 mode"
