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
   compiled into the one module CleverTapZeroPiiSDK, as the podspec says);
2. checks that each header declares every class, protocol, enum, selector and property
   that the reference's Objective-C code uses, with the reference's types and nullability
   (EXPECTED below, written from design/SDK_REFERENCE.md);
3. compiles the reference's Objective-C snippets (Examples/Sources/ObjectiveCSnippets)
   against those headers with clang, GNUstep's Foundation headers and ARC
   (`-fsyntax-only -fobjc-arc`): once through the CocoaPods header
   `#import <CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>`, once through the
   per-module `@import`s that Swift Package Manager needs (module maps like the ones SPM
   generates for Swift targets). GNUstep (Debian's libgnustep-base-dev and gobjc) must be
   installed; `.ci/run` installs it. `--headers-only` skips this step.

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
SPM_MODULES = ["ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiTransport", "ZeroPiiRetry", "ZeroPiiAuth",
               "ZeroPiiSDK", "CleverTapZeroPiiSDK"]
# The sources of the pod's default subspec (SDK) and the subspecs it depends on.
POD_MODULE = "CleverTapZeroPiiSDK"
POD_SOURCE_DIRS = ["ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry",
                   "ZeroPiiSDK", "CleverTapZeroPiiSDK"]
# The modules whose headers Objective-C code imports under SPM (Examples/.../ZeroPiiImport.h).
SPM_OBJC_MODULES = ["ZeroPiiModels", "ZeroPiiAuth", "ZeroPiiRetry", "ZeroPiiSDK"]

# What the reference's Objective-C code needs, as the compiler prints it: per module, per
# declaration (kind, name), the lines that must appear in that declaration's block.
# Whitespace is normalised and SWIFT_WARN_UNUSED_RESULT / OBJC_DESIGNATED_INITIALIZER are
# dropped before comparing, so a difference is a difference of selector, type or nullability.
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
    return line


def declaration_blocks(header_text):
    """Returns {(kind, name): [normalised lines]} for the @interface, @protocol and enum blocks."""
    blocks, current = {}, None
    for raw in header_text.splitlines():
        line = normalise(raw)
        if current is None:
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
    """Compiles the stand-in Foundation and both layouts; returns {layout: {module: header}}."""
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
    os.makedirs(spm)
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
        # The module map Swift Package Manager writes for a Swift target's generated header
        # (SwiftModuleBuildDescription.generateModuleMap): no `export *`, so a header's own
        # @imports are not passed on to the code that imports it.
        with open(os.path.join(spm, f"{module}.modulemap"), "w", encoding="utf-8") as handle:
            handle.write(f"module {module} {{\n    header \"{module}-Swift.h\"\n    requires objc\n}}\n")

    pod_include = os.path.join(scratch, "cocoapods", "include")
    shutil.rmtree(os.path.dirname(pod_include), ignore_errors=True)
    os.makedirs(os.path.join(pod_include, POD_MODULE))
    header = os.path.join(pod_include, POD_MODULE, f"{POD_MODULE}-Swift.h")
    # The podspec's pod_target_xcconfig passes the same -package-name.
    run(common + ["-experimental-skip-all-function-bodies", "-package-name", POD_MODULE, "-I", modules, "-I", STAND_IN,
                  "-module-name", POD_MODULE] + swift_sources(POD_SOURCE_DIRS)
        + ["-o", os.path.join(scratch, "cocoapods", f"{POD_MODULE}.swiftmodule"), "-emit-objc-header-path", header],
        "the pod's module does not compile with Objective-C interop")
    headers["CocoaPods"][POD_MODULE] = header
    return headers, spm, pod_include


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


def compile_snippets(clang, scratch, spm, pod_include):
    # MyAuthService.m (the app's own auth client in the snippets) needs NSURLSession, which
    # Debian's GNUstep is built without; its header, which the snippets use, is compiled.
    snippets = [os.path.join(SNIPPETS, "MyTokenProvider.m")]
    # CocoaPods and frameworks: ZeroPiiImport.h takes the reference's
    # #import <CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>.
    for snippet in snippets:
        run(clang + ["-I", pod_include, snippet],
            f"{os.path.basename(snippet)} does not compile against the CocoaPods header")
    # Swift Package Manager: ZeroPiiImport.h falls back to @import of each module.
    module_maps = [f"-fmodule-map-file={os.path.join(spm, f'{module}.modulemap')}" for module in SPM_OBJC_MODULES]
    shim_map = f"-fmodule-map-file={os.path.join(scratch, 'gnustep-shim', 'module.modulemap')}"
    for snippet in snippets:
        run(clang + ["-fmodules", f"-fmodules-cache-path={os.path.join(scratch, 'clang-module-cache')}", shim_map]
            + module_maps + [snippet],
            f"{os.path.basename(snippet)} does not compile against the SPM modules' headers")
    return [os.path.relpath(snippet, ROOT) for snippet in snippets]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build", "objc-header-check"))
    parser.add_argument("--headers-only", action="store_true", help="skip compiling the snippets with GNUstep")
    arguments = parser.parse_args()
    scratch = os.path.abspath(arguments.scratch_path)
    os.makedirs(scratch, exist_ok=True)

    headers, spm, pod_include = generate_headers(scratch)
    problems = []
    for module, expectations in EXPECTED.items():
        problems += check_header(headers["SPM"][module], expectations, "SPM")
        problems += check_header(headers["CocoaPods"][POD_MODULE], expectations, "CocoaPods")
    # Getting Started says that under SPM `@import CleverTapZeroPiiSDK;` gives Objective-C
    # nothing (a module that only re-exports others gets an empty header); keep it true.
    with open(headers["SPM"][POD_MODULE], encoding="utf-8") as handle:
        if declaration_blocks(handle.read()):
            problems.append("SPM: CleverTapZeroPiiSDK-Swift.h now declares something: update the Objective-C "
                            "part of GettingStarted.md and ZeroPiiImport.h")
    if problems:
        fail("the generated Objective-C headers differ from the reference:\n  " + "\n  ".join(problems))
    declarations = sum(len(expectations) for expectations in EXPECTED.values())
    lines = sum(len(lines) for expectations in EXPECTED.values() for lines in expectations.values())
    print(f"objc-header-check: {declarations} declarations, {lines} selectors/properties/cases "
          f"as the reference has them, in the SPM and CocoaPods headers")

    if arguments.headers_only:
        return
    clang = gnustep_setup(scratch)
    if clang is None:
        fail("GNUstep's Foundation headers (libgnustep-base-dev, gobjc) or clang are missing; "
             "install them or pass --headers-only")
    compiled = compile_snippets(clang, scratch, spm, pod_include)
    print(f"objc-header-check: {', '.join(compiled)} compiles (clang -fsyntax-only -fobjc-arc, GNUstep Foundation) "
          "against the CocoaPods header and the SPM modules")


if __name__ == "__main__":
    main()
