// A TEST-ONLY STAND-IN for Apple's AuthenticationServices framework, so that the glue
// (Sources/PasskeyClient/Apple/) type-checks and runs on Linux. It declares only
// the signatures the glue uses, copied by hand from developer.apple.com with their availability;
// bodies are minimal. Never part of a product (Package.swift declares it on Linux hosts only).
// The test-only ways to build platform objects are in StandInConstruction.swift.
public import Foundation

/// UIKit's window (iOS, visionOS, Mac Catalyst), stand-in for the presentation anchor's type.
@MainActor
open class UIWindow: NSObject {}

/// AppKit's window (macOS), the anchor's type there.
@MainActor
open class NSWindow: NSObject {}

#if os(macOS)
    /// `typealias ASPresentationAnchor = NSWindow` (macOS 10.15).
    public typealias ASPresentationAnchor = NSWindow
#else
    /// `typealias ASPresentationAnchor = UIWindow` (iOS 13, visionOS, Mac Catalyst).
    public typealias ASPresentationAnchor = UIWindow
#endif

/// `class ASAuthorizationRequest : NSObject` (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationRequest: NSObject {}

/// `protocol ASAuthorizationCredential : NSCopying, NSSecureCoding, NSObjectProtocol` (iOS 13).
@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// `class ASAuthorization : NSObject` (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorization: NSObject {
    /// `var credential: any ASAuthorizationCredential { get }`
    public let credential: any ASAuthorizationCredential

    init(credential: any ASAuthorizationCredential) { self.credential = credential }
}

/// `struct ASAuthorizationError` (iOS 13, macOS 10.15): the error domain and its codes.
@available(iOS 13.0, macOS 10.15, *)
public struct ASAuthorizationError: Error {
    /// `static var errorDomain: String { get }`
    public static var errorDomain: String { "com.apple.AuthenticationServices.AuthorizationError" }

    /// `enum Code : Int` (1000…1010; 1006 from iOS 18, 1009/1010 from iOS 26).
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        case matchedExcludedCredential = 1006
        case credentialImport = 1007
        case credentialExport = 1008
        case preferSignInWithApple = 1009
        case deviceNotConfiguredForPasskeyCreation = 1010
    }
}

/// `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol` (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// `optional func authorizationController(controller:didCompleteWithAuthorization:)`
    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// `optional func authorizationController(controller:didCompleteWithError:)`
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

/// `@MainActor protocol ASAuthorizationControllerPresentationContextProviding : NSObjectProtocol` (iOS 13).
@available(iOS 13.0, macOS 10.15, *)
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// `func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor`
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// `class ASAuthorizationController : NSObject` (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
@MainActor
open class ASAuthorizationController: NSObject {
    /// `var authorizationRequests: [ASAuthorizationRequest] { get }`
    public let authorizationRequests: [ASAuthorizationRequest]
    /// `weak var delegate: (any ASAuthorizationControllerDelegate)? { get set }`
    public weak var delegate: (any ASAuthorizationControllerDelegate)?
    /// `weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?`
    public weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    /// `init(authorizationRequests: [ASAuthorizationRequest])`
    public init(authorizationRequests: [ASAuthorizationRequest]) {
        self.authorizationRequests = authorizationRequests
        super.init()
        StandInRecorder.made(self)
    }

    /// `func performRequests()`
    public func performRequests() { StandInRecorder.performed(self, autoFill: false) }

    /// `struct ASAuthorizationController.RequestOptions : OptionSet` (iOS 16, macOS 13).
    @available(iOS 16.0, macOS 13.0, *)
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `static var preferImmediatelyAvailableCredentials: ASAuthorizationController.RequestOptions`
        public static let preferImmediatelyAvailableCredentials = RequestOptions(rawValue: 1)
    }

    /// `func performRequests(options: ASAuthorizationController.RequestOptions = [])` (iOS 16, macOS 13).
    @available(iOS 16.0, macOS 13.0, *)
    public func performRequests(options: RequestOptions = []) {
        StandInRecorder.performed(
            self, autoFill: false, immediate: options.contains(.preferImmediatelyAvailableCredentials))
    }

    /// `func performAutoFillAssistedRequests()` (iOS 16, visionOS; not on macOS or Mac Catalyst).
    @available(iOS 16.0, *)
    @available(macOS, unavailable)
    @available(macCatalyst, unavailable)
    public func performAutoFillAssistedRequests() { StandInRecorder.performed(self, autoFill: true) }

    /// `func cancel()` (iOS 16, macOS 13).
    @available(iOS 16.0, macOS 13.0, *)
    public func cancel() { StandInRecorder.cancelled(self) }
}

/// `class ASAuthorizationPasswordProvider : NSObject, ASAuthorizationProvider` (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationPasswordProvider: NSObject {
    /// `func createRequest() -> ASAuthorizationPasswordRequest`
    open func createRequest() -> ASAuthorizationPasswordRequest { ASAuthorizationPasswordRequest() }
}

/// `class ASAuthorizationPasswordRequest : ASAuthorizationRequest` (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationPasswordRequest: ASAuthorizationRequest {}

/// `class ASPasswordCredential : NSObject, ASAuthorizationCredential` (iOS 12, macOS 10.15).
@available(iOS 12.0, macOS 10.15, *)
open class ASPasswordCredential: NSObject, ASAuthorizationCredential {
    /// `var user: String { get }`
    public let user: String
    /// `var password: String { get }`
    public let password: String

    /// `init(user: String, password: String)`
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
