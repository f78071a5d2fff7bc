// TEST-ONLY STAND-IN (see ASAuthorizationController.swift): the iOS 26 account-creation sheet.
public import Foundation

/// `enum ASContactIdentifierRequest` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
public enum ASContactIdentifierRequest: Hashable, Sendable {
    case email
    case phoneNumber
}

/// `struct ASEmailIdentifier` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
public struct ASEmailIdentifier: Sendable {
    /// `var value: String`
    public var value: String
}

/// `struct ASPhoneNumberIdentifier` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
public struct ASPhoneNumberIdentifier: Sendable {
    /// `var value: String`
    public var value: String
}

/// `enum ASContactIdentifier` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
public enum ASContactIdentifier: Sendable {
    case email(ASEmailIdentifier)
    case phoneNumber(ASPhoneNumberIdentifier)
}

/// `class ASAuthorizationAccountCreationProvider` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
open class ASAuthorizationAccountCreationProvider: NSObject {
    /// `init()`
    override public init() {}

    /// `func createPlatformPublicKeyCredentialRegistrationRequest(acceptedContactIdentifiers:shouldRequestName:relyingPartyIdentifier:challenge:userID:)`
    public func createPlatformPublicKeyCredentialRegistrationRequest(
        acceptedContactIdentifiers: [ASContactIdentifierRequest], shouldRequestName: Bool,
        relyingPartyIdentifier: String,
        challenge: Data, userID: Data
    ) -> ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest {
        ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest(
            acceptedContactIdentifiers: acceptedContactIdentifiers, shouldRequestName: shouldRequestName,
            relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge, userID: userID)
    }
}

/// `class ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
open class ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest: ASAuthorizationRequest {
    /// `let acceptedContactIdentifiers: [ASContactIdentifierRequest]`
    public let acceptedContactIdentifiers: [ASContactIdentifierRequest]
    /// `let shouldRequestName: Bool`
    public let shouldRequestName: Bool
    /// `let relyingPartyIdentifier: String`
    public let relyingPartyIdentifier: String
    /// `let challenge: Data`
    public let challenge: Data
    /// `let userID: Data`
    public let userID: Data

    init(
        acceptedContactIdentifiers: [ASContactIdentifierRequest], shouldRequestName: Bool,
        relyingPartyIdentifier: String,
        challenge: Data, userID: Data
    ) {
        self.acceptedContactIdentifiers = acceptedContactIdentifiers
        self.shouldRequestName = shouldRequestName
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.userID = userID
    }
}

/// `class ASAuthorizationAccountCreationPlatformPublicKeyCredential` (iOS 26, macOS 26).
@available(iOS 26.0, macOS 26.0, *)
open class ASAuthorizationAccountCreationPlatformPublicKeyCredential: NSObject, ASAuthorizationCredential {
    /// `var contactIdentifier: ASContactIdentifier { get }`
    public let contactIdentifier: ASContactIdentifier
    /// `var name: PersonNameComponents? { get }`
    public let name: PersonNameComponents?
    /// `var credentialRegistration: ASAuthorizationPlatformPublicKeyCredentialRegistration`
    public var credentialRegistration: ASAuthorizationPlatformPublicKeyCredentialRegistration

    init(
        contactIdentifier: ASContactIdentifier, name: PersonNameComponents?,
        credentialRegistration: ASAuthorizationPlatformPublicKeyCredentialRegistration
    ) {
        self.contactIdentifier = contactIdentifier
        self.name = name
        self.credentialRegistration = credentialRegistration
    }
}
