#!/usr/bin/env bash
# Builds the DocC documentation of every library module into one archive,
# .build/docs/ZeroPii.doccarchive, and fails on a broken link, an invalid catalog or a
# public symbol without a documentation comment.
#
# It also writes the list of every public symbol of the modules an app links
# (.build/docs/API.txt, one declaration a line) and fails, printing the difference, when
# it is not Docs/API.txt: a change to the public surface shows in review as a change to
# that file. After a deliberate change, `Scripts/build-docs.sh --update-api` rewrites it.
# The list comes from this machine's build: on Apple platforms the `@objc` entry points
# for Objective-C (`#if canImport(ObjectiveC)`) come on top (Scripts/objc-header-check.py
# checks those).
#
# Usage: Scripts/build-docs.sh [--update-api]   (needs the toolchain's `docc`; run by .ci/run)
#
# Each module is converted on its own, in dependency order, with the archives of the
# modules it depends on, so a page can link to another module's symbol as
# ``/ZeroPiiAuth/AccessTokenProvider``. `swift package generate-documentation` would
# need the swift-docc-plugin package, which this project does not depend on.
set -euo pipefail
cd "$(dirname "$0")/.."
update_api=false
[ "${1:-}" = "--update-api" ] && update_api=true

# Both tools ship with the toolchain, beside `swift`.
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
docc="$toolchain/docc"
extract="$toolchain/swift-symbolgraph-extract"
[ -x "$docc" ] && [ -x "$extract" ] || { echo "build-docs: this toolchain has no docc or swift-symbolgraph-extract"; exit 1; }

# module:dependencies, in an order where every dependency comes first.
modules=(
    "ZeroPiiLocking:"
    "ZeroPiiCrypto:ZeroPiiLocking"
    "ZeroPiiModels:"
    "ZeroPiiWire:ZeroPiiCrypto ZeroPiiModels"
    "ZeroPiiTransport:ZeroPiiLocking"
    "ZeroPiiAuth:ZeroPiiLocking"
    "ZeroPiiRetry:ZeroPiiLocking"
    "ZeroPiiTestSupport:ZeroPiiLocking ZeroPiiTransport ZeroPiiAuth ZeroPiiRetry"
    "ZeroPiiSDK:ZeroPiiLocking ZeroPiiModels ZeroPiiWire ZeroPiiCrypto ZeroPiiTransport ZeroPiiAuth ZeroPiiRetry"
    "ZeroPiiMockServer:ZeroPiiLocking ZeroPiiWire ZeroPiiCrypto ZeroPiiModels"
)

work=".build/docs"
rm -rf "$work"
mkdir -p "$work"
# Symbol graphs straight from the built modules: `swift package dump-symbol-graph` also
# wants the test modules, which a fresh checkout has not built.
swift build >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
binaries="$(swift build --show-bin-path)"
triple="$(basename "$(dirname "$binaries")")"
graphs="$work/graphs"
# ZeroPiiCrypto has no public API (its types have package access, so that apps, and the
# one module of the podspec and the XCFramework, do not get an `AES` or `SymmetricKey`
# that clashes with CryptoKit's), nor have ZeroPiiWire (the protocol's plumbing) and
# ZeroPiiLocking (the lock-protected state); their catalogs document them for
# contributors, at package level.
for entry in "${modules[@]}"; do
    module="${entry%%:*}"
    level=public
    case "$module" in ZeroPiiCrypto | ZeroPiiWire | ZeroPiiLocking) level=package ;; esac
    mkdir -p "$graphs/$module"
    # The C module the curl transport imports (internally) is found by its module map.
    "$extract" -module-name "$module" -I "$binaries/Modules" -I "$binaries/ZeroPiiCurlShim.build" -target "$triple" \
        -minimum-access-level "$level" -emit-extension-block-symbols -output-dir "$graphs/$module"
done

python3 - "$graphs" "${modules[@]%%:*}" <<'PYTHON'
import glob, json, sys
graphs, modules = sys.argv[1], sys.argv[2:]
missing = []
for module in modules:
    for path in glob.glob(f"{graphs}/{module}/*.symbols.json"):
        for symbol in json.load(open(path))["symbols"]:
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or "docComment" in symbol:
                continue
            if symbol.get("accessLevel") in ("public", "open") or (module in ("ZeroPiiCrypto", "ZeroPiiWire", "ZeroPiiLocking") and symbol.get("accessLevel") == "package"):
                missing.append(f"{module}: {'.'.join(symbol['pathComponents'])}")
if missing:
    print("build-docs: public symbols without a documentation comment:\n  " + "\n  ".join(missing))
    sys.exit(1)
PYTHON

# The modules an app links (the pod's and the XCFramework's parts, and the test doubles);
# the mock server is a tool of the package, not a dependency of apps.
python3 - "$graphs" "$work/API.txt" ZeroPiiModels ZeroPiiTransport ZeroPiiAuth ZeroPiiRetry \
    ZeroPiiSDK ZeroPiiTestSupport <<'PYTHON'
import glob, json, os, sys
graphs, output, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = set()
for module in modules:
    # <module>.symbols.json and <module>@<extended module>.symbols.json (extensions of
    # other modules' types), all declared by `module`.
    for path in glob.glob(f"{graphs}/{module}/{module}*.symbols.json"):
        for symbol in json.load(open(path))["symbols"]:
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            where = ".".join(symbol["pathComponents"])
            # A deprecated symbol says so, with its message, at the end of its line.
            deprecation = ""
            for availability in symbol.get("availability", []):
                if availability.get("isUnconditionallyDeprecated") or "deprecated" in availability:
                    message = availability.get("message")
                    deprecation = " | deprecated" + (f": {message}" if message else "")
            lines.add(f"{module} | {where} | {' '.join(declaration.split())}{deprecation}")
with open(output, "w") as handle:
    handle.write("# Every public symbol of the modules an app links, as Scripts/build-docs.sh generates it.\n")
    handle.write("# module | path | declaration [| deprecated: what to use instead]\n")
    handle.write("".join(line + "\n" for line in sorted(lines)))
PYTHON
if $update_api; then
    cp "$work/API.txt" Docs/API.txt
    echo "build-docs: Docs/API.txt updated"
elif ! diff -u Docs/API.txt "$work/API.txt"; then
    echo "build-docs: the public API differs from Docs/API.txt (above: - committed, + built)."
    echo "If the change is meant, run Scripts/build-docs.sh --update-api and commit Docs/API.txt."
    exit 1
fi

archives=()
for entry in "${modules[@]}"; do
    module="${entry%%:*}"
    dependencies=()
    for dependency in ${entry#*:}; do
        dependencies+=(--dependency "$work/$dependency.doccarchive")
    done
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "com.clevertap.zeropii.$module" \
        --output-path "$work/$module.doccarchive" \
        --enable-experimental-external-link-support \
        "${dependencies[@]}" \
        --warnings-as-errors >"$work/$module.log" 2>&1 \
        || { cat "$work/$module.log"; echo "build-docs: $module has documentation errors"; exit 1; }
    archives+=("$work/$module.doccarchive")
done

"$docc" merge "${archives[@]}" --synthesized-landing-page-name "ZeroPii for Swift" \
    --output-path "$work/ZeroPii.doccarchive" >"$work/merge.log" 2>&1 \
    || { cat "$work/merge.log"; exit 1; }
echo "build-docs: ${#archives[@]} modules, no warnings: $work/ZeroPii.doccarchive"
