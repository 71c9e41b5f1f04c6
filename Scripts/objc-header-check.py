#!/usr/bin/env python3
"""Checks the SDK's Objective-C API on Linux, against the reference's Objective-C code.

Apple's compiler writes a `<Module>-Swift.h` header for every Swift module; that header is
all Objective-C code sees of the SDK. The Linux toolchain can write the same header when
Objective-C interop is switched on, given an `ObjectiveC` and a `Foundation` module to
compile against. Scripts/objc-stand-in/ holds small stand-ins for both (NSObject, NSString,
NSNumber, NSArray, NSError, NSLock, the bridging of String, arrays and numbers); with them
on the include path `#if canImport(ObjectiveC)` is true, as on Apple platforms, and the
SDK's sources compile as they would in Xcode. Function bodies are skipped
(`-experimental-skip-all-function-bodies`): a header depends on declarations only.

The script then:

1. writes the headers of the Swift Package Manager layout (one module per target, as
   Package.swift says) and of the CocoaPods layout (every subspec of the default install
   compiled into the one module CleverTapZeroPiiSDK, as the podspec says, in a framework
   as `use_frameworks!` builds it);
2. checks that each header declares every class, protocol, enum, selector and property
   that the reference's Objective-C code uses, with the reference's types and nullability
   (EXPECTED below, written from design/SDK_REFERENCE.md), and that the SPM header of
   CleverTapZeroPiiSDK imports the four modules that declare them
   (Sources/CleverTapZeroPiiSDK/ObjectiveCImports.swift);
3. compiles the reference's Objective-C snippets (Examples/Sources/ObjectiveCSnippets)
   against those headers with clang, GNUstep's Foundation headers and ARC
   (`-fsyntax-only -fobjc-arc -Wall -Werror`), through Examples/.../ZeroPiiImport.h and
   through a copy whose only import is exactly `@import CleverTapZeroPiiSDK;`:
   - CocoaPods with modules: `@import CleverTapZeroPiiSDK;`, against the framework's
     module map as CocoaPods and Xcode write it (`framework module CleverTapZeroPiiSDK`
     with the pod's umbrella header, `export *`, and the submodule
     `CleverTapZeroPiiSDK.Swift` for the generated header);
   - CocoaPods without modules: `#import <CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>`;
   - Swift Package Manager in Xcode (an app target, without SWIFT_PACKAGE): `@import
     CleverTapZeroPiiSDK;` against the module maps Xcode writes for a package's Swift
     targets, `module M { header "M-Swift.h" export * }`, one per module, all passed with
     -fmodule-map-file (swift-package-manager, Sources/XCBuildSupport/PIFBuilder.swift and
     Sources/SwiftBuildSupport/PackagePIFProjectBuilder+Modules.swift). `export *` passes
     the umbrella header's `@import`s on to the importer;
   - Swift Package Manager's own build system (`swift build`, with -DSWIFT_PACKAGE=1):
     its module map for a Swift target is `module M { header "/path/M-Swift.h" requires
     objc }`, without `export *` (swift-package-manager,
     Sources/Build/BuildDescription/SwiftModuleBuildDescription.swift, generateModuleMap;
     Sources/Build/BuildPlan/BuildPlan+Clang.swift passes every dependency's map), so the
     umbrella's imports stay inside it. The snippets compile through ZeroPiiImport.h,
     which imports the four modules as well there; the copy with the single import must
     fail, or ZeroPiiImport.h and the Getting Started article say more than they need to.
   GNUstep (Debian's libgnustep-base-dev and gobjc) must be installed; `.ci/run` installs
   it. `--headers-only` skips this step.

Usage: Scripts/objc-header-check.py [--scratch-path DIR] [--headers-only]
Exits 1 when a header misses a declaration or a snippet does not compile.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAND_IN = os.path.join(ROOT, "Scripts", "objc-stand-in")
SNIPPETS = os.path.join(ROOT, "Examples", "Sources", "ObjectiveCSnippets")

# The library modules in dependency order, as Package.swift builds them.
SPM_MODULES = ["ZeroPiiLocking", "ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiWire", "ZeroPiiTransport", "ZeroPiiRetry", "ZeroPiiAuth",
               "ZeroPiiSDK", "CleverTapZeroPiiSDK"]
# The sources of the pod's default subspec (SDK) and the subspecs it depends on.
POD_MODULE = "CleverTapZeroPiiSDK"
POD_SOURCE_DIRS = ["ZeroPiiLocking", "ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiWire", "ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry",
                   "ZeroPiiSDK", "CleverTapZeroPiiSDK"]
# The modules that declare what Objective-C code uses under SPM: the header of
# CleverTapZeroPiiSDK imports them (ObjectiveCImports.swift), and under `swift build`
# Examples/.../ZeroPiiImport.h imports them too.
SPM_OBJC_MODULES = ["ZeroPiiModels", "ZeroPiiAuth", "ZeroPiiRetry", "ZeroPiiSDK"]
# The one line the reference gives Objective-C code, for CocoaPods and SPM alike.
SINGLE_IMPORT = f"@import {POD_MODULE};"

# What the reference's Objective-C code needs, as the compiler prints it: per module, per
# declaration (kind, name), the lines that must appear in that declaration's block.
# Whitespace is normalised and SWIFT_WARN_UNUSED_RESULT / OBJC_DESIGNATED_INITIALIZER are
# dropped before comparing, and so is a Sendable marking of a block type (SENDABLE_MARKS):
# AccessTokenProvider's completion is `@Sendable` in Swift, which Objective-C callers and
# implementations do not see (Swift 6.3 prints nothing for it; Apple's headers spell it
# NS_SWIFT_SENDABLE). So a difference is a difference of selector, type or nullability.
EXPECTED = {
    "ZeroPiiModels": {
        ("interface", "TokenizeResult"): [
            "@interface TokenizeResult : NSObject",
            "@property (nonatomic, readonly) BOOL isSuccess;",
            "@property (nonatomic, readonly, copy) NSString * _Nullable token;",
            "@property (nonatomic, readonly) BOOL exists;",
            "@property (nonatomic, readonly) BOOL newlyCreated;",
            "@property (nonatomic, readonly, copy) NSString * _Nullable dataType;",
            "@property (nonatomic, readonly, copy) NSString * _Nullable errorMessage;",
            "@property (nonatomic, readonly, strong) NSNumber * _Nullable httpStatusCode;",
        ],
        ("interface", "BatchTokenizeResult"): [
            "@interface BatchTokenizeResult : NSObject",
            "@property (nonatomic, readonly) BOOL isSuccess;",
            "@property (nonatomic, readonly, copy) NSArray<BatchTokenItem *> * _Nonnull results;",
            "@property (nonatomic, readonly, strong) BatchTokenizeSummary * _Nullable summary;",
            "@property (nonatomic, readonly, copy) NSString * _Nullable errorMessage;",
            "@property (nonatomic, readonly, strong) NSNumber * _Nullable httpStatusCode;",
        ],
        ("interface", "BatchTokenItem"): [
            "@interface BatchTokenItem : NSObject",
            "@property (nonatomic, readonly, copy) NSString * _Nonnull originalValue;",
            "@property (nonatomic, readonly, copy) NSString * _Nonnull token;",
            "@property (nonatomic, readonly) BOOL exists;",
            "@property (nonatomic, readonly) BOOL newlyCreated;",
            "@property (nonatomic, readonly, copy) NSString * _Nullable dataType;",
        ],
        ("interface", "BatchTokenizeSummary"): [
            "@interface BatchTokenizeSummary : NSObject",
            "@property (nonatomic, readonly) NSInteger processedCount;",
            "@property (nonatomic, readonly) NSInteger existingCount;",
            "@property (nonatomic, readonly) NSInteger newlyCreatedCount;",
        ],
    },
    "ZeroPiiAuth": {
        ("interface", "AccessTokenInfo"): [
            "@interface AccessTokenInfo : NSObject",
            "@property (nonatomic, readonly, copy) NSString * _Nonnull token;",
            "@property (nonatomic, readonly) NSInteger expiresInSeconds;",
            "- (nonnull instancetype)initWithToken:(NSString * _Nonnull)token expiresInSeconds:(NSInteger)expiresInSeconds;",
        ],
        ("protocol", "AccessTokenProvider"): [
            "@protocol AccessTokenProvider",
            "- (void)fetchTokenWithCompletion:(void (^ _Nonnull)(AccessTokenInfo * _Nullable, NSError * _Nullable))completion;",
        ],
    },
    "ZeroPiiRetry": {
        ("protocol", "RetryPolicy"): [
            "@protocol RetryPolicy",
            "- (BOOL)shouldRetryWithAttempt:(NSInteger)attempt httpStatusCode:(NSNumber * _Nullable)httpStatusCode;",
            "- (NSInteger)retryDelayMsWithAttempt:(NSInteger)attempt;",
        ],
        ("interface", "DefaultRetryPolicy"): [
            "@interface DefaultRetryPolicy : NSObject <RetryPolicy>",
            "- (nonnull instancetype)init;",
            "- (BOOL)shouldRetryWithAttempt:(NSInteger)attempt httpStatusCode:(NSNumber * _Nullable)httpStatusCode;",
            "- (NSInteger)retryDelayMsWithAttempt:(NSInteger)attempt;",
        ],
    },
    "ZeroPiiSDK": {
        ("enum", "ZeroPiiLogLevel"): [
            "typedef SWIFT_ENUM_NAMED(NSInteger, ZeroPiiLogLevel, \"ZeroPiiLogLevel\", *) {",
            "ZeroPiiLogLevelOff = 0,",
            "ZeroPiiLogLevelError = 1,",
            "ZeroPiiLogLevelInfo = 2,",
            "ZeroPiiLogLevelDebug = 3,",
        ],
        ("interface", "ZeroPiiSDK"): [
            "@interface ZeroPiiSDK : NSObject",
            "+ (ZeroPiiSDK * _Nonnull)initializeWithTokenProvider:(id <AccessTokenProvider> _Nonnull)tokenProvider"
            " apiUrl:(NSString * _Nonnull)apiUrl logLevel:(enum ZeroPiiLogLevel)logLevel"
            " retryPolicy:(id <RetryPolicy> _Nonnull)retryPolicy;",
            "+ (ZeroPiiSDK * _Nonnull)initializeWithTokenProvider:(id <AccessTokenProvider> _Nonnull)tokenProvider"
            " apiUrl:(NSString * _Nonnull)apiUrl logLevel:(enum ZeroPiiLogLevel)logLevel;",
            "+ (ZeroPiiSDK * _Nonnull)initializeWithTokenProvider:(id <AccessTokenProvider> _Nonnull)tokenProvider"
            " apiUrl:(NSString * _Nonnull)apiUrl;",
            "+ (ZeroPiiSDK * _Nonnull)getInstance;",
        ] + [
            f"- (void)tokenize{name}:({objc_type})value callback:(void (^ _Nonnull)(TokenizeResult * _Nonnull))callback;"
            for name, objc_type in [("String", "NSString * _Nonnull"), ("Int", "NSInteger"), ("Long", "int64_t"),
                                    ("Float", "float"), ("Double", "double"), ("Bool", "BOOL")]
        ] + [
            f"- (void)batchTokenize{name}Values:(NSArray<{element}> * _Nonnull)values"
            " callback:(void (^ _Nonnull)(BatchTokenizeResult * _Nonnull))callback;"
            for name, element in [("String", "NSString *"), ("Int", "NSNumber *"), ("Long", "NSNumber *"),
                                  ("Float", "NSNumber *"), ("Double", "NSNumber *"), ("Bool", "NSNumber *")]
        ],
    },
}

DROPPED_MACROS = [" SWIFT_WARN_UNUSED_RESULT", " OBJC_DESIGNATED_INITIALIZER"]
SENDABLE_MARKS = re.compile(r' ?(?:NS_SWIFT_SENDABLE|SWIFT_SENDABLE|__attribute__\(\(swift_attr\("@Sendable"\)\)\))')


def fail(message):
    print(f"objc-header-check: FAILED: {message}")
    sys.exit(1)


def run(command, what):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print(result.stdout)
        fail(what)
    return result.stdout


def normalise(line):
    line = re.sub(r"\s+", " ", line.strip())
    for macro in DROPPED_MACROS:
        line = line.replace(macro, "")
    return SENDABLE_MARKS.sub("", line)


def declaration_blocks(header_text):
    """Returns {(kind, name): [normalised lines]} for the @interface, @protocol and enum
    blocks. A class's Swift extensions come out as categories (`@interface ZeroPiiSDK
    (SWIFT_EXTENSION(ZeroPiiSDK))`); their members count as the class's, as they do for
    Objective-C code that calls them."""
    blocks, current = {}, None
    for raw in header_text.splitlines():
        line = normalise(raw)
        if current is None:
            category = re.match(r"@interface (\w+) \(SWIFT_EXTENSION\(\w+\)\)", line)
            if category and ("interface", category.group(1)) in blocks:
                current = ("interface", category.group(1))
                continue
            interface = re.match(r"@interface (\w+)\b(?! \()", line)
            protocol = re.match(r"@protocol (\w+)(?!.*;)", line)
            enum = re.match(r"typedef SWIFT_ENUM_NAMED\(\w+, (\w+), \"\w+\", (\w+)\) \{", line)
            if interface:
                current = ("interface", interface.group(1))
            elif protocol:
                current = ("protocol", protocol.group(1))
            elif enum:
                current = ("enum", enum.group(1))
                # The enum's extensibility (open/closed) depends on library evolution.
                line = line.replace(f", {enum.group(2)}) {{", ", *) {")
            if current is not None:
                blocks[current] = [line]
            continue
        blocks[current].append(line)
        if line in ("@end", "};"):
            current = None
    return blocks


def check_header(header_path, expectations, layout):
    with open(header_path, encoding="utf-8") as handle:
        blocks = declaration_blocks(handle.read())
    problems = []
    for (kind, name), lines in expectations.items():
        block = blocks.get((kind, name))
        if block is None:
            problems.append(f"{layout}: {os.path.basename(header_path)} declares no {kind} {name}")
            continue
        for line in lines:
            if line not in block:
                problems.append(f"{layout}: {kind} {name} lacks `{line}`")
    return problems


def resource_dir_without_foundation(scratch):
    """A copy of the toolchain's resource directory (symbolic links) without the Swift
    Foundation modules, so that `import Foundation` finds the stand-in."""
    info = json.loads(run(["swiftc", "-print-target-info"], "swiftc -print-target-info"))
    source = info["paths"]["runtimeResourcePath"]
    platform = info["target"]["unversionedTriple"].split("-")[2]
    excluded = re.compile(r"^(Foundation|FoundationNetworking|FoundationXML|_Testing_Foundation|XCTest)\.swiftmodule$")
    target = os.path.join(scratch, "resource-dir")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(os.path.join(target, platform))
    for entry in os.listdir(source):
        if entry not in (platform, "CoreFoundation"):
            os.symlink(os.path.join(source, entry), os.path.join(target, entry))
    for entry in os.listdir(os.path.join(source, platform)):
        if not excluded.match(entry):
            os.symlink(os.path.join(source, platform, entry), os.path.join(target, platform, entry))
    return target


def swift_sources(directories):
    files = []
    for directory in directories:
        files += sorted(glob.glob(os.path.join(ROOT, "Sources", directory, "**", "*.swift"), recursive=True))
    return files


def generate_headers(scratch):
    """Compiles the stand-in Foundation and both layouts.

    Returns ({layout: {module: header}}, the SPM directory, the CocoaPods framework directory)."""
    resource_dir = resource_dir_without_foundation(scratch)
    modules = os.path.join(scratch, "modules")
    shutil.rmtree(modules, ignore_errors=True)
    os.makedirs(modules)
    common = ["swiftc", "-frontend", "-emit-module", "-enable-objc-interop", "-parse-as-library",
              "-swift-version", "5", "-resource-dir", resource_dir,
              "-module-cache-path", os.path.join(scratch, "module-cache")]
    run(common + ["-I", STAND_IN, "-import-underlying-module", "-module-name", "Foundation",
                  os.path.join(STAND_IN, "Foundation.swift"), "-o", os.path.join(modules, "Foundation.swiftmodule")],
        "the stand-in Foundation does not compile")

    headers = {"SPM": {}, "CocoaPods": {}}
    spm = os.path.join(scratch, "spm")
    shutil.rmtree(spm, ignore_errors=True)
    os.makedirs(os.path.join(spm, "swift-build"))
    for module in SPM_MODULES:
        header = os.path.join(spm, f"{module}-Swift.h")
        # One -package-name for all the package's modules, as SwiftPM passes it, so that
        # the SDK's `package` declarations are visible from module to module.
        run(common + ["-experimental-skip-all-function-bodies", "-D", "SWIFT_PACKAGE", "-package-name", "ZeroPii",
                      "-I", spm, "-I", modules, "-I", STAND_IN, "-module-name", module]
            + swift_sources([module])
            + ["-o", os.path.join(spm, f"{module}.swiftmodule"), "-emit-objc-header-path", header],
            f"{module} does not compile with Objective-C interop")
        headers["SPM"][module] = header
        # The module map Xcode writes beside a package's Swift target's generated header,
        # in GeneratedModuleMaps (XCBuildSupport/PIFBuilder.swift, and
        # SwiftBuildSupport/PackagePIFProjectBuilder+Modules.swift: MODULEMAP_FILE_CONTENTS).
        # `export *` passes the header's own @imports on to the code that imports it.
        with open(os.path.join(spm, f"{module}.modulemap"), "w", encoding="utf-8") as handle:
            handle.write(f"module {module} {{\n    header \"{module}-Swift.h\"\n    export *\n}}\n")
        # The one `swift build` writes in the target's build directory
        # (Build/BuildDescription/SwiftModuleBuildDescription.swift, generateModuleMap): an
        # absolute path and no `export *`, so those @imports stay inside the module.
        with open(os.path.join(spm, "swift-build", f"{module}.modulemap"), "w", encoding="utf-8") as handle:
            handle.write(f"module {module} {{\n    header \"{header}\"\n    requires objc\n}}\n")

    # CocoaPods with use_frameworks!: the framework's Headers hold the pod's umbrella header
    # and the generated header, and its module map is the one CocoaPods writes
    # (Generator::ModuleMap) with the Swift submodule Xcode adds for the generated header.
    pod = os.path.join(scratch, "cocoapods")
    shutil.rmtree(pod, ignore_errors=True)
    framework = os.path.join(pod, "Frameworks", f"{POD_MODULE}.framework")
    os.makedirs(os.path.join(framework, "Headers"))
    os.makedirs(os.path.join(framework, "Modules"))
    header = os.path.join(framework, "Headers", f"{POD_MODULE}-Swift.h")
    # The podspec's pod_target_xcconfig passes the same -package-name.
    run(common + ["-experimental-skip-all-function-bodies", "-package-name", POD_MODULE, "-I", modules, "-I", STAND_IN,
                  "-module-name", POD_MODULE] + swift_sources(POD_SOURCE_DIRS)
        + ["-o", os.path.join(pod, f"{POD_MODULE}.swiftmodule"), "-emit-objc-header-path", header],
        "the pod's module does not compile with Objective-C interop")
    headers["CocoaPods"][POD_MODULE] = header
    # CocoaPods' umbrella header imports UIKit (Cocoa on macOS); Foundation stands for both.
    with open(os.path.join(framework, "Headers", f"{POD_MODULE}-umbrella.h"), "w", encoding="utf-8") as handle:
        handle.write("#ifdef __OBJC__\n#import <Foundation/Foundation.h>\n#endif\n\n"
                     f"extern double {POD_MODULE}VersionNumber;\n"
                     f"extern const unsigned char {POD_MODULE}VersionString[];\n")
    with open(os.path.join(framework, "Modules", "module.modulemap"), "w", encoding="utf-8") as handle:
        handle.write(f"framework module {POD_MODULE} {{\n  umbrella header \"{POD_MODULE}-umbrella.h\"\n\n"
                     "  export *\n  module * { export * }\n}\n\n"
                     f"module {POD_MODULE}.Swift {{\n  header \"{POD_MODULE}-Swift.h\"\n  requires objc\n}}\n")
    return headers, spm, os.path.dirname(framework)


def gnustep_setup(scratch):
    """Clang flags for GNUstep's Foundation under ARC, or None when GNUstep is not installed.

    Debian builds GNUstep for GCC's Objective-C runtime; two things in that setup stop
    clang in ARC mode, and a copy of the runtime headers fixes them for a syntax check:
    GNUstep includes <objc/blocks_runtime.h> (libobjc2's) when blocks are on, and GCC's
    objc/runtime.h has `Protocol **` results and an `id` dereference that ARC rejects.
    """
    foundation = "/usr/include/GNUstep/Foundation/Foundation.h"
    runtimes = sorted(glob.glob("/usr/lib/gcc/*/*/include/objc/runtime.h"))
    if not os.path.exists(foundation) or not runtimes or shutil.which("clang") is None:
        return None
    shim = os.path.join(scratch, "gnustep-shim")
    shutil.rmtree(shim, ignore_errors=True)
    shutil.copytree(os.path.dirname(runtimes[-1]), os.path.join(shim, "objc"))
    runtime = os.path.join(shim, "objc", "runtime.h")
    with open(runtime, encoding="utf-8") as handle:
        text = handle.read()
    text = text.replace("return object->class_pointer;",
                        "return ((__bridge struct objc_object *)object)->class_pointer;")
    text = text.replace("Protocol **", "Protocol * __unsafe_unretained *")
    with open(runtime, "w", encoding="utf-8") as handle:
        handle.write(text)
    with open(os.path.join(shim, "objc", "blocks_runtime.h"), "w", encoding="utf-8") as handle:
        handle.write("void *_Block_copy(const void *);\nvoid _Block_release(const void *);\n")
    # `@import Foundation;` and `@import ObjectiveC;` in the generated headers, as modules.
    with open(os.path.join(shim, "module.modulemap"), "w", encoding="utf-8") as handle:
        handle.write(f"module Foundation [system] {{\n    umbrella header \"{foundation}\"\n    export *\n}}\n"
                     f"module ObjectiveC [system] {{\n    header \"{runtime}\"\n    export *\n}}\n")
    return ["clang", "-x", "objective-c", "-fsyntax-only", "-fobjc-arc", "-fblocks", "-fobjc-runtime=gnustep-2.0",
            "-fobjc-exceptions", "-fconstant-string-class=NSConstantString", "-DGNUSTEP", "-DGNUSTEP_BASE_LIBRARY=1",
            "-DGNU_RUNTIME=1", "-DZEROPII_OBJC_CHECK", "-Wall", "-Werror",
            "-I", shim, "-I", "/usr/include/GNUstep", "-I", SNIPPETS]


def single_import_copy(snippet, scratch):
    """A copy of `snippet` whose only SDK import is exactly the reference's one line."""
    with open(snippet, encoding="utf-8") as handle:
        text = handle.read()
    if text.count('#import "ZeroPiiImport.h"\n') != 1:
        fail(f"{os.path.basename(snippet)} no longer imports the SDK through ZeroPiiImport.h")
    os.makedirs(os.path.join(scratch, "single-import"), exist_ok=True)
    copy = os.path.join(scratch, "single-import", os.path.basename(snippet))
    with open(copy, "w", encoding="utf-8") as handle:
        handle.write(text.replace('#import "ZeroPiiImport.h"\n', SINGLE_IMPORT + "\n"))
    return copy


def compile_snippets(clang, scratch, spm, pod_frameworks):
    """Compiles the snippets in each layout; returns the lines to print."""
    # MyAuthService.m (the app's own auth client in the snippets) needs NSURLSession, which
    # Debian's GNUstep is built without; its header, which the snippets use, is compiled.
    snippets = [os.path.join(SNIPPETS, "MyTokenProvider.m")]
    shim_map = f"-fmodule-map-file={os.path.join(scratch, 'gnustep-shim', 'module.modulemap')}"

    def modules(cache):
        return ["-fmodules", f"-fmodules-cache-path={os.path.join(scratch, 'clang-module-cache', cache)}", shim_map]

    def maps(directory):
        # Every Swift module the product depends on, as both build systems pass them.
        return [f"-fmodule-map-file={os.path.join(directory, f'{module}.modulemap')}" for module in SPM_MODULES]

    layouts = [
        # (what is checked, clang flags, whether the copy with only SINGLE_IMPORT must compile)
        ("CocoaPods, @import", modules("cocoapods") + ["-F", pod_frameworks], True),
        # No modules: ZeroPiiImport.h takes #import <CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>.
        ("CocoaPods, #import", ["-F", pod_frameworks], None),
        ("SPM in Xcode", modules("spm-xcode") + maps(spm), True),
        ("SPM, swift build", modules("spm-swift-build") + maps(os.path.join(spm, "swift-build"))
         + ["-DSWIFT_PACKAGE=1"], False),
    ]
    copies = {snippet: single_import_copy(snippet, scratch) for snippet in snippets}
    printed = []
    for layout, flags, single_import in layouts:
        for snippet in snippets:
            name = os.path.basename(snippet)
            run(clang + flags + [snippet], f"{name} does not compile ({layout}, through ZeroPiiImport.h)")
            printed.append(f"{os.path.relpath(snippet, ROOT)} compiles ({layout})")
            if single_import is None:
                continue
            result = subprocess.run(clang + flags + [copies[snippet]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if single_import and result.returncode != 0:
                print(result.stdout)
                fail(f"{name} does not compile ({layout}) with exactly `{SINGLE_IMPORT}`")
            if not single_import and result.returncode == 0:
                fail(f"{name} compiles ({layout}) with exactly `{SINGLE_IMPORT}`: SwiftPM's module maps now pass "
                     "the umbrella's imports on; drop the per-module imports from ZeroPiiImport.h and update the "
                     "Objective-C part of GettingStarted.md")
            if not single_import and "must be imported from module" not in result.stdout:
                print(result.stdout)
                fail(f"{name} does not compile ({layout}) with exactly `{SINGLE_IMPORT}`, but not because the "
                     "umbrella's imports stay inside it")
            printed.append(f"  with exactly `{SINGLE_IMPORT}`: "
                           + ("compiles" if single_import else "does not compile, as expected (no `export *`)"))
    return printed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build", "objc-header-check"))
    parser.add_argument("--headers-only", action="store_true", help="skip compiling the snippets with GNUstep")
    arguments = parser.parse_args()
    scratch = os.path.abspath(arguments.scratch_path)
    os.makedirs(scratch, exist_ok=True)

    headers, spm, pod_frameworks = generate_headers(scratch)
    problems = []
    for module, expectations in EXPECTED.items():
        problems += check_header(headers["SPM"][module], expectations, "SPM")
        problems += check_header(headers["CocoaPods"][POD_MODULE], expectations, "CocoaPods")
    # Under SPM the classes live in four modules; `@import CleverTapZeroPiiSDK;` brings them
    # only if the umbrella's header imports them (Sources/CleverTapZeroPiiSDK/ObjectiveCImports.swift).
    with open(headers["SPM"][POD_MODULE], encoding="utf-8") as handle:
        umbrella = [normalise(line) for line in handle]
    for module in SPM_OBJC_MODULES:
        if f"@import {module};" not in umbrella:
            problems.append(f"SPM: {POD_MODULE}-Swift.h does not import {module}, so `{SINGLE_IMPORT}` does not "
                            f"bring its classes (see Sources/{POD_MODULE}/ObjectiveCImports.swift)")
    if problems:
        fail("the generated Objective-C headers differ from the reference:\n  " + "\n  ".join(problems))
    declarations = sum(len(expectations) for expectations in EXPECTED.values())
    lines = sum(len(lines) for expectations in EXPECTED.values() for lines in expectations.values())
    print(f"objc-header-check: {declarations} declarations, {lines} selectors/properties/cases "
          f"as the reference has them, in the SPM and CocoaPods headers; the SPM header of {POD_MODULE} "
          f"imports {', '.join(SPM_OBJC_MODULES)}")

    if arguments.headers_only:
        return
    clang = gnustep_setup(scratch)
    if clang is None:
        fail("GNUstep's Foundation headers (libgnustep-base-dev, gobjc) or clang are missing; "
             "install them or pass --headers-only")
    for line in compile_snippets(clang, scratch, spm, pod_frameworks):
        print(f"objc-header-check: {line}")
    print("objc-header-check: (clang -fsyntax-only -fobjc-arc -Wall -Werror, GNUstep Foundation)")


if __name__ == "__main__":
    main()
