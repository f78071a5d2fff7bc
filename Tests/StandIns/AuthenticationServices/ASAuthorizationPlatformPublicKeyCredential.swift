// TEST-ONLY STAND-IN (see ASAuthorizationController.swift): the platform passkey provider,
// its requests and its credentials.
public import Foundation

/// `struct ASAuthorizationPublicKeyCredentialUserVerificationPreference` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let preferred = Self(rawValue: "preferred")
    public static let required = Self(rawValue: "required")
    public static let discouraged = Self(rawValue: "discouraged")
}

/// `struct ASAuthorizationPublicKeyCredentialAttestationKind` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialAttestationKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = Self(rawValue: "none")
    public static let direct = Self(rawValue: "direct")
    public static let indirect = Self(rawValue: "indirect")
    public static let enterprise = Self(rawValue: "enterprise")
}

/// `enum ASAuthorizationPublicKeyCredentialAttachment : Int` (iOS 16.6, macOS 13.5). Imported from
/// Objective-C, so open: a later system may hand over a value this SDK has no case for. Modelled
/// as a struct, so the stand-in carries such a value too (a `switch` over it needs a default, as
/// the real one needs `@unknown default`).
@available(iOS 16.6, macOS 13.5, *)
public struct ASAuthorizationPublicKeyCredentialAttachment: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let platform = Self(rawValue: 0)
    public static let crossPlatform = Self(rawValue: 1)
}

/// `class ASAuthorizationPlatformPublicKeyCredentialDescriptor : NSObject` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    /// `var credentialID: Data { get set }`
    public var credentialID: Data
    /// `init(credentialID: Data)`
    public init(credentialID: Data) { self.credentialID = credentialID }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialProvider : NSObject` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    /// `var relyingPartyIdentifier: String { get }`
    public let relyingPartyIdentifier: String

    /// `init(relyingPartyIdentifier: String)`
    public init(relyingPartyIdentifier: String) { self.relyingPartyIdentifier = relyingPartyIdentifier }

    /// `func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`
    public func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest(
            relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge, name: name, userID: userID)
    }

    /// `func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`
    public func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    {
        ASAuthorizationPlatformPublicKeyCredentialAssertionRequest(
            relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge)
    }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest : ASAuthorizationRequest` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    /// `enum RequestStyle : Int` (iOS 18, macOS 15).
    @available(iOS 18.0, macOS 15.0, *)
    public enum RequestStyle: Int, Sendable {
        case standard = 0
        case conditional = 1
    }

    /// `var relyingPartyIdentifier: String { get }`
    public let relyingPartyIdentifier: String
    /// `var challenge: Data { get set }`
    public var challenge: Data
    /// `var name: String { get set }`
    public var name: String
    /// `var displayName: String? { get set }`
    public var displayName: String?
    /// `var userID: Data { get set }`
    public var userID: Data
    /// `var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }`
    public var userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred
    /// `var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind { get set }`
    public var attestationPreference = ASAuthorizationPublicKeyCredentialAttestationKind.none
    /// `var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? { get set }` (iOS 17.4,
    /// macOS 13.5; from `ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest`).
    @available(iOS 17.4, macOS 13.5, *)
    public var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? {
        get { excluded }
        set { excluded = newValue }
    }
    /// `var requestStyle: RequestStyle { get set }` (iOS 18, macOS 15).
    @available(iOS 18.0, macOS 15.0, *)
    public var requestStyle: RequestStyle {
        get { RequestStyle(rawValue: style) ?? .standard }
        set { style = newValue.rawValue }
    }

    private var excluded: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]?
    private var style = 0

    init(relyingPartyIdentifier: String, challenge: Data, name: String, userID: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.name = name
        self.userID = userID
    }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest : ASAuthorizationRequest` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    /// `var relyingPartyIdentifier: String { get }`
    public let relyingPartyIdentifier: String
    /// `var challenge: Data { get set }`
    public var challenge: Data
    /// `var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] { get set }`
    public var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    /// `var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }`
    public var userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred

    init(relyingPartyIdentifier: String, challenge: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
    }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialRegistration : NSObject, ASAuthorizationPublicKeyCredentialRegistration` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    /// `var credentialID: Data { get }`
    public let credentialID: Data
    /// `var rawClientDataJSON: Data { get }`
    public let rawClientDataJSON: Data
    /// `var rawAttestationObject: Data? { get }`
    public let rawAttestationObject: Data?
    /// `var attachment: ASAuthorizationPublicKeyCredentialAttachment { get }` (iOS 16.6, macOS 13.5).
    @available(iOS 16.6, macOS 13.5, *)
    public var attachment: ASAuthorizationPublicKeyCredentialAttachment {
        ASAuthorizationPublicKeyCredentialAttachment(rawValue: attachmentValue)
    }

    private let attachmentValue: Int

    init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?, attachmentValue: Int) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
        self.attachmentValue = attachmentValue
    }
}

/// `class ASAuthorizationPlatformPublicKeyCredentialAssertion : NSObject, ASAuthorizationPublicKeyCredentialAssertion` (iOS 15, macOS 12).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    /// `var credentialID: Data { get }`
    public let credentialID: Data
    /// `var rawClientDataJSON: Data { get }`
    public let rawClientDataJSON: Data
    /// `var rawAuthenticatorData: Data! { get }`
    public let rawAuthenticatorData: Data!
    /// `var signature: Data! { get }`
    public let signature: Data!
    /// `var userID: Data! { get }`
    public let userID: Data!

    init(credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data?) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
    }
}
