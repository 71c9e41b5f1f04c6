# CocoaPods compiles every subspec into the one module `CleverTapZeroPiiSDK`, so apps write
# `import CleverTapZeroPiiSDK` (or `@import CleverTapZeroPiiSDK;`) whichever installer they use.
# Scripts/podspec-check.py compiles each subspec that way on every CI run.
Pod::Spec.new do |spec|
  spec.name         = 'CleverTapZeroPiiSDK'
  spec.version      = '1.0.0'
  spec.summary      = 'Replace personal data with format-preserving tokens, encrypted in transit.'
  spec.description  = <<-DESC
    CleverTap ZeroPii SDK tokenizes personally identifiable information (emails, phone
    numbers, IDs, numbers) through a tokenization service. Payloads are encrypted per
    request with HKDF-SHA256 and AES-256-GCM, implemented in pure Swift with no
    dependencies.
  DESC
  spec.homepage     = 'https://github.com/CleverTap/clevertap-ios-zeropii-sdk'
  spec.license      = { :type => 'Apache-2.0', :file => 'LICENSE' }
  spec.author       = { 'CleverTap' => 'support@clevertap.com' }
  spec.source       = { :git => 'https://github.com/CleverTap/clevertap-ios-zeropii-sdk.git', :tag => spec.version.to_s }
  spec.documentation_url = 'https://github.com/CleverTap/clevertap-ios-zeropii-sdk#readme'

  spec.module_name    = 'CleverTapZeroPiiSDK'
  # Swift 6 language mode, as Xcode 16 (Swift 6.0) compiles it; Package.swift's tools version.
  spec.swift_versions = ['6.0']
  spec.ios.deployment_target     = '13.0'
  spec.osx.deployment_target     = '10.15'
  spec.tvos.deployment_target    = '13.0'
  spec.watchos.deployment_target = '6.0'
  spec.frameworks = 'Foundation'
  # The SDK's plumbing (token cache, retry loop, wire bodies) has `package` access: shared
  # between its modules under SPM, hidden from apps. SwiftPM passes -package-name itself;
  # CocoaPods does not, and the compiler refuses `package` declarations without one.
  # Scripts/podspec-check.py compiles with these flags.
  spec.pod_target_xcconfig = { 'OTHER_SWIFT_FLAGS' => '$(inherited) -package-name CleverTapZeroPiiSDK' }

  # `pod 'CleverTapZeroPiiSDK'` installs the whole SDK, as the released pod did.
  spec.default_subspec = 'SDK'

  # The lock-protected state the other subspecs keep their shared mutable state in.
  spec.subspec 'Locking' do |locking|
    locking.source_files = 'Sources/ZeroPiiLocking/**/*.swift'
  end

  spec.subspec 'Crypto' do |crypto|
    crypto.source_files = 'Sources/ZeroPiiCrypto/**/*.swift'
    crypto.dependency 'CleverTapZeroPiiSDK/Locking'
  end

  spec.subspec 'Models' do |models|
    models.source_files = 'Sources/ZeroPiiModels/**/*.swift'
  end

  # The wire protocol: package access, shared by the SDK and the mock server under SPM.
  spec.subspec 'Wire' do |wire|
    wire.source_files = 'Sources/ZeroPiiWire/**/*.swift'
    wire.dependency 'CleverTapZeroPiiSDK/Crypto'
    wire.dependency 'CleverTapZeroPiiSDK/Models'
  end

  spec.subspec 'Transport' do |transport|
    transport.source_files = 'Sources/ZeroPiiTransport/**/*.swift'
    transport.dependency 'CleverTapZeroPiiSDK/Locking'
  end

  spec.subspec 'Auth' do |auth|
    auth.source_files = 'Sources/ZeroPiiAuth/**/*.swift'
    # Privacy manifests go in resource bundles, so that Xcode finds them in the app.
    auth.resource_bundles = { 'ZeroPiiAuth_Privacy' => ['Sources/ZeroPiiAuth/PrivacyInfo.xcprivacy'] }
    auth.dependency 'CleverTapZeroPiiSDK/Locking'
  end

  spec.subspec 'Retry' do |retry|
    retry.source_files = 'Sources/ZeroPiiRetry/**/*.swift'
    retry.dependency 'CleverTapZeroPiiSDK/Locking'
  end

  # The umbrella: the facade and the module apps import, on top of every other subspec.
  spec.subspec 'SDK' do |sdk|
    sdk.source_files = 'Sources/ZeroPiiSDK/**/*.swift', 'Sources/CleverTapZeroPiiSDK/**/*.swift'
    sdk.resource_bundles = { 'CleverTapZeroPiiSDK_Privacy' => ['Sources/ZeroPiiSDK/PrivacyInfo.xcprivacy'] }
    sdk.dependency 'CleverTapZeroPiiSDK/Locking'
    sdk.dependency 'CleverTapZeroPiiSDK/Crypto'
    sdk.dependency 'CleverTapZeroPiiSDK/Models'
    sdk.dependency 'CleverTapZeroPiiSDK/Wire'
    sdk.dependency 'CleverTapZeroPiiSDK/Transport'
    sdk.dependency 'CleverTapZeroPiiSDK/Auth'
    sdk.dependency 'CleverTapZeroPiiSDK/Retry'
  end

  # Test doubles for an app's tests (a closure-backed transport, manual clocks); not in the default.
  spec.subspec 'TestSupport' do |support|
    support.source_files = 'Sources/ZeroPiiTestSupport/**/*.swift'
    support.dependency 'CleverTapZeroPiiSDK/Locking'
    support.dependency 'CleverTapZeroPiiSDK/Transport'
    support.dependency 'CleverTapZeroPiiSDK/Auth'
    support.dependency 'CleverTapZeroPiiSDK/Retry'
  end
end
