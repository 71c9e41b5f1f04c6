#!/usr/bin/env bash
# Checks that every library module can ship as a binary framework (an XCFramework, or a
# pod built for distribution): built with library evolution, each module's textual
# interface (.swiftinterface, and the .private one) must type-check again on its own with
# `swiftc -typecheck-module-from-interface`, which is what a compiler newer than ours does
# when an app imports the framework.
#
# The flags that make this work (CONTRIBUTING.md, "Binary frameworks"):
#   -enable-library-evolution                 resilient layout; what BUILD_LIBRARY_FOR_DISTRIBUTION sets
#   --enable-parseable-module-interfaces      writes Modules/<Module>.swiftinterface
#   -Xfrontend -alias-module-names-in-module-interface
#       the module ZeroPiiSDK declares a class ZeroPiiSDK, so in the interface
#       `ZeroPiiSDK.ZeroPiiLogLevel` would mean the class's member, which does not exist;
#       this flag writes module qualifiers through an alias (Module____ZeroPiiSDK) that no
#       type can shadow. Xcode's build setting: OTHER_SWIFT_FLAGS =
#       "-Xfrontend -alias-module-names-in-module-interface" (Scripts/build-xcframework.sh).
#
# Then the same for the one-module package Scripts/build-xcframework.sh stages for the
# XCFramework (every part of the SDK in the module CleverTapZeroPiiSDK, as in the pod).
#
# The build has its own scratch path so the main .build/debug is not thrown away.
# Usage: Scripts/interface-check.sh [scratch-path]      (default .build/interface)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${1:-.build/interface}"
# The library products of Package.swift; building these three targets builds them all.
roots=(CleverTapZeroPiiSDK ZeroPiiTestSupport ZeroPiiMockServer)
modules=(ZeroPiiLocking ZeroPiiCrypto ZeroPiiModels ZeroPiiWire ZeroPiiTransport ZeroPiiRetry ZeroPiiAuth ZeroPiiSDK CleverTapZeroPiiSDK
    ZeroPiiTestSupport ZeroPiiMockServer)
evolution_flags=(
    --enable-parseable-module-interfaces
    -Xswiftc -enable-library-evolution
    -Xswiftc -Xfrontend -Xswiftc -alias-module-names-in-module-interface
)

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# build <what> <swift build arguments...>
build() {
    local what="$1"
    shift
    if ! swift build "$@" "${evolution_flags[@]}" >"$log" 2>&1; then
        cat "$log"
        echo "interface-check: FAILED: $what does not build with library evolution"
        exit 1
    fi
    # Linux's Foundation is not built with library evolution (Apple's is), which the
    # compiler notes for every import; any other warning fails the check.
    if grep -E "warning:" "$log" | grep -v "was not compiled with library evolution support" | grep -q .; then
        grep -E "warning:" "$log" | grep -v "was not compiled with library evolution support"
        echo "interface-check: FAILED: warnings building $what with library evolution"
        exit 1
    fi
}

checked=0
# typecheck <Modules folder> <module>...
typecheck() {
    local products="$1"
    shift
    for module in "$@"; do
        for interface in "$products/$module.swiftinterface" "$products/$module.private.swiftinterface"; do
            if [ ! -f "$interface" ]; then
                echo "interface-check: FAILED: no $interface"
                exit 1
            fi
            if ! swiftc -frontend -typecheck-module-from-interface "$interface" -module-name "$module" \
                -I "$products" -module-cache-path "$scratch/interface-module-cache" >"$log" 2>&1; then
                cat "$log"
                echo "interface-check: FAILED: $interface does not type-check"
                exit 1
            fi
            checked=$((checked + 1))
        done
    done
}

for root in "${roots[@]}"; do
    build "$root" --scratch-path "$scratch" --target "$root"
done
typecheck "$(swift build --scratch-path "$scratch" "${evolution_flags[@]}" --show-bin-path)/Modules" "${modules[@]}"

stage="$scratch/xcframework-package"
Scripts/build-xcframework.sh --stage-only "$stage"
build "the XCFramework's one-module package" --package-path "$stage" --scratch-path "$scratch/xcframework"
single="$(swift build --package-path "$stage" --scratch-path "$scratch/xcframework" "${evolution_flags[@]}" \
    --show-bin-path)/Modules"
typecheck "$single" CleverTapZeroPiiSDK

# The one module gets every public declaration of every subspec. None of CryptoKit's
# names may be among them (an app importing both got "'SymmetricKey' is ambiguous for
# type lookup"), nor the SDK's plumbing: these have package access.
if grep -nE "^ *(@[A-Za-z_]+(\([^)]*\))? )*(final )?public (final )?(enum|struct|class|actor|protocol|typealias) (AES|SHA256|HMAC|HKDF|SymmetricKey|SymmetricKeySize|Digest|HashFunction|HashedAuthenticationCode|PayloadEnvelope|SealedPayload|SecureRandom|ConstantTime|CryptoError|AccessTokenCache|SharedTokenProvider|RetryLoop|WireBodies|WireProfile|WireValueFormat|RequestID|Locked)\b" \
    "$single/CleverTapZeroPiiSDK.swiftinterface"; then
    echo "interface-check: FAILED: the XCFramework's module makes the SDK's crypto or plumbing public (above)"
    exit 1
fi

echo "interface-check: $checked interfaces type-check: ${#modules[@]} SPM modules and the XCFramework's module" \
    "(library evolution, aliased module names)"
