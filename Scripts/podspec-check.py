#!/usr/bin/env python3
"""Checks CleverTapZeroPiiSDK.podspec without CocoaPods (which does not run on Linux).

CocoaPods compiles every subspec a Podfile pulls in into one module named after the pod,
unlike Swift Package Manager's module per target. So for each subspec this script gathers
its source files and those of the subspecs it depends on, and type-checks them together as
the single module `CleverTapZeroPiiSDK`, with warnings as errors and the podspec's
pod_target_xcconfig OTHER_SWIFT_FLAGS (the -package-name that `package` access needs). It also checks that the
podspec's deployment targets are Package.swift's platforms, that every library module
the SDK ships is in some subspec, and that every privacy manifest (PrivacyInfo.xcprivacy)
of those modules is in a subspec's resource_bundles.

Usage: Scripts/podspec-check.py        (from anywhere; exits 1 on the first problem)
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POD_MODULE = "CleverTapZeroPiiSDK"
# The package's library targets that belong in the pod; the mock server and the CLI do not.
SHIPPED_TARGETS = ["ZeroPiiLocking", "ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiWire", "ZeroPiiTransport", "ZeroPiiAuth",
                   "ZeroPiiRetry", "ZeroPiiSDK", "CleverTapZeroPiiSDK", "ZeroPiiTestSupport"]


def fail(message):
    print(f"podspec-check: {message}")
    sys.exit(1)


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def parse_subspecs(podspec):
    """Returns {name: (globs, dependencies)} from the `spec.subspec 'Name' do |x| ... end` blocks."""
    subspecs = {}
    for match in re.finditer(r"spec\.subspec '(\w+)' do \|(\w+)\|\n(.*?)\n  end\n", podspec, re.S):
        name, variable, body = match.groups()
        globs, dependencies = [], []
        for line in body.splitlines():
            line = line.strip()
            if line.startswith(f"{variable}.source_files"):
                globs += re.findall(r"'([^']+)'", line)
            elif line.startswith(f"{variable}.dependency"):
                dependency = re.findall(r"'([^']+)'", line)[0]
                if not dependency.startswith(f"{POD_MODULE}/"):
                    fail(f"subspec {name} depends on {dependency}, outside the pod: the SDK has no dependencies")
                dependencies.append(dependency.split("/", 1)[1])
        if not globs:
            fail(f"subspec {name} has no source_files")
        subspecs[name] = (globs, dependencies)
    if not subspecs:
        fail("no subspecs found")
    return subspecs


def closure(name, subspecs, seen=None):
    seen = set() if seen is None else seen
    if name not in subspecs:
        fail(f"unknown subspec {name}")
    if name not in seen:
        seen.add(name)
        for dependency in subspecs[name][1]:
            closure(dependency, subspecs, seen)
    return seen


def files_of(names, subspecs):
    files = set()
    for name in names:
        for pattern in subspecs[name][0]:
            matched = glob.glob(os.path.join(ROOT, pattern), recursive=True)
            if not matched:
                fail(f"subspec {name}: '{pattern}' matches no file")
            files.update(matched)
    return sorted(files)


def check_platforms(podspec):
    package = read("Package.swift")
    spm = dict(re.findall(r"\.(iOS|macOS|tvOS|watchOS)\(\.v(\d+(?:_\d+)?)\)", package))
    pod = dict(re.findall(r"spec\.(ios|osx|tvos|watchos)\.deployment_target\s*=\s*'([\d.]+)'", podspec))
    names = {"iOS": "ios", "macOS": "osx", "tvOS": "tvos", "watchOS": "watchos"}
    for platform, version in spm.items():
        expected = version.replace("_", ".")
        expected = expected if "." in expected else expected + ".0"
        if pod.get(names[platform]) != expected:
            fail(f"{platform}: Package.swift says {expected}, the podspec {pod.get(names[platform])}")
    if len(pod) != len(spm):
        fail(f"the podspec names platforms {sorted(pod)}, Package.swift {sorted(spm)}")


def check_privacy_manifests(podspec):
    bundled = set()
    for bundle, files in re.findall(r"\.resource_bundles = \{ '(\w+)' => \[([^\]]*)\] \}", podspec):
        for path in re.findall(r"'([^']+)'", files):
            if not os.path.isfile(os.path.join(ROOT, path)):
                fail(f"resource bundle {bundle}: no file {path}")
            bundled.add(path)
    for target in SHIPPED_TARGETS:
        manifest = f"Sources/{target}/PrivacyInfo.xcprivacy"
        if os.path.isfile(os.path.join(ROOT, manifest)) and manifest not in bundled:
            fail(f"{manifest} is in no subspec's resource_bundles")
    print(f"podspec-check: privacy manifests in resource bundles: {', '.join(sorted(bundled))}")


def other_swift_flags(podspec):
    """The Swift flags of pod_target_xcconfig's OTHER_SWIFT_FLAGS, which Xcode passes when it
    builds the pod; the check compiles with them as well. The pod needs -package-name for
    the SDK's `package` declarations."""
    match = re.search(r"spec\.pod_target_xcconfig\s*=\s*\{[^}]*'OTHER_SWIFT_FLAGS'\s*=>\s*'([^']*)'", podspec)
    flags = [flag for flag in (match.group(1).split() if match else []) if flag != "$(inherited)"]
    if "-package-name" not in flags:
        fail("pod_target_xcconfig's OTHER_SWIFT_FLAGS has no -package-name, which the SDK's `package` declarations need")
    return flags


def swift_language_version(podspec):
    """The language mode CocoaPods compiles the pod in (swift_versions, one entry), which
    must be the Swift version Package.swift's tools version states."""
    versions = re.findall(r"'([\d.]+)'", (re.search(r"spec\.swift_versions\s*=\s*\[([^\]]*)\]", podspec) or ["", ""])[1])
    tools = re.match(r"// swift-tools-version:\s*([\d.]+)", read("Package.swift"))
    if len(versions) != 1 or not tools or versions[0] != tools.group(1):
        fail(f"swift_versions {versions} must be the one version of Package.swift's tools version")
    return versions[0].split(".")[0]


def main():
    podspec = read(f"{POD_MODULE}.podspec")
    swift_flags = other_swift_flags(podspec)
    language_mode = swift_language_version(podspec)
    check_platforms(podspec)
    subspecs = parse_subspecs(podspec)
    default = re.search(r"spec\.default_subspec\s*=\s*'(\w+)'", podspec)
    if not default or default.group(1) not in subspecs:
        fail("default_subspec is missing or unknown")

    check_privacy_manifests(podspec)
    covered = set(files_of(subspecs, subspecs))
    for target in SHIPPED_TARGETS:
        sources = glob.glob(os.path.join(ROOT, "Sources", target, "**", "*.swift"), recursive=True)
        missing = [os.path.relpath(path, ROOT) for path in sources if path not in covered]
        if missing:
            fail(f"not in any subspec: {', '.join(missing)}")

    for name in subspecs:
        files = files_of(closure(name, subspecs), subspecs)
        command = ["swiftc", "-typecheck", "-module-name", POD_MODULE, "-parse-as-library",
                   "-swift-version", language_mode, "-warnings-as-errors",
                   "-enable-experimental-feature", "StrictConcurrency"] + swift_flags + files
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr)
            fail(f"subspec {name} does not compile as the single module {POD_MODULE}")
        print(f"podspec-check: subspec {name}: {len(files)} files compile as one module")


if __name__ == "__main__":
    main()
