// TEST-ONLY STAND-IN (see ASAuthorizationController.swift): SwiftUI's authorization controller,
// which the real SDK declares in the `_AuthenticationServices_SwiftUI` overlay (visible with both
// `import AuthenticationServices` and `import SwiftUI`). Here it is played by the test.
internal import Foundation

/// `enum ASAuthorizationResult` (iOS 16.4, macOS 13.3): the outcome of a successful request.
/// Open in the SDK (a later system adds cases): the glue switches over it with a default.
@available(iOS 16.4, macOS 13.3, *)
public enum ASAuthorizationResult {
    /// `case password(ASPasswordCredential)`
    case password(ASPasswordCredential)
    /// `case passkeyAssertion(ASAuthorizationPlatformPublicKeyCredentialAssertion)`
    case passkeyAssertion(ASAuthorizationPlatformPublicKeyCredentialAssertion)
    /// `case passkeyRegistration(ASAuthorizationPlatformPublicKeyCredentialRegistration)`
    case passkeyRegistration(ASAuthorizationPlatformPublicKeyCredentialRegistration)
    /// A case the glue does not use (`appleID`, `customMethod`, `securityKey…`, …).
    case other
}

/// `@MainActor struct AuthorizationController` (iOS 16.4, macOS 13.3, visionOS 1): the SwiftUI
/// environment value `\.authorizationController`. The stand-in answers with what the test set.
@available(iOS 16.4, macOS 13.3, *)
@MainActor
public struct AuthorizationController {
    /// What the next call answers (the test's sheet), and what each call asked for.
    public final class Script {
        public var answer: Result<ASAuthorizationResult, any Error> = .success(.other)
        /// Each call's requests, and whether it asked for immediately available credentials.
        public private(set) var calls: [(requests: [ASAuthorizationRequest], immediate: Bool)] = []
        public init() {}
        func record(_ requests: [ASAuthorizationRequest], immediate: Bool) { calls.append((requests, immediate)) }
    }

    let script: Script

    /// Test-only: a controller answering from `script`.
    public init(script: Script) { self.script = script }

    /// `func performRequests(_ requests: [ASAuthorizationRequest]) async throws -> ASAuthorizationResult`
    public func performRequests(_ requests: [ASAuthorizationRequest]) async throws -> ASAuthorizationResult {
        script.record(requests, immediate: false)
        return try script.answer.get()
    }

    /// `func performRequests(_ requests: [ASAuthorizationRequest], options: ASAuthorizationController.RequestOptions) async throws -> ASAuthorizationResult`
    public func performRequests(_ requests: [ASAuthorizationRequest], options: ASAuthorizationController.RequestOptions)
        async throws -> ASAuthorizationResult
    {
        script.record(requests, immediate: options.contains(.preferImmediatelyAvailableCredentials))
        return try script.answer.get()
    }
}
