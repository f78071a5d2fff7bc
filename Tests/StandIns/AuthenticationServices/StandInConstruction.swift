// TEST-ONLY, NOT APPLE API: what the tests need to build the platform's objects (which have no
// public initialisers on Apple systems) and to see what the glue asked of the stand-in.
public import Foundation
internal import Synchronization

/// What the glue did with the stand-in: controllers made and performed, signals sent.
public enum StandInRecorder {
    private static let signals = Mutex<[[String]]>([])

    /// Every controller made, in order (main actor).
    @MainActor public private(set) static var controllers: [ASAuthorizationController] = []
    /// `performRequests()` (false) / `performAutoFillAssistedRequests()` (true) per controller, in order.
    @MainActor public private(set) static var performances: [ObjectIdentifier: [Bool]] = [:]
    /// `cancel()` calls per controller.
    @MainActor public private(set) static var cancels: [ObjectIdentifier: Int] = [:]

    /// Every signal sent: its kind, then its arguments.
    public static var sentSignals: [[String]] { signals.withLock { $0 } }

    @MainActor static func made(_ controller: ASAuthorizationController) { controllers.append(controller) }

    /// The controllers performed with `.preferImmediatelyAvailableCredentials`.
    @MainActor public private(set) static var immediate: Set<ObjectIdentifier> = []

    @MainActor static func performed(_ controller: ASAuthorizationController, autoFill: Bool, immediate: Bool = false) {
        if immediate { self.immediate.insert(ObjectIdentifier(controller)) }
        performances[ObjectIdentifier(controller), default: []].append(autoFill)
    }

    @MainActor static func cancelled(_ controller: ASAuthorizationController) {
        cancels[ObjectIdentifier(controller), default: 0] += 1
    }

    static func signal(_ fields: String...) { signals.withLock { $0.append(fields) } }
}

extension UIWindow {
    /// A window for tests.
    public static func standIn() -> UIWindow { UIWindow() }
}

extension ASAuthorization {
    /// An authorization carrying `credential`.
    public static func standIn(credential: any ASAuthorizationCredential) -> ASAuthorization {
        ASAuthorization(credential: credential)
    }
}

extension ASAuthorizationPlatformPublicKeyCredentialRegistration {
    /// A registration as the platform returns it; `attachment` 0 is `.platform`, 1 `.crossPlatform`,
    /// anything else a value a later system may add.
    public static func standIn(
        credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?, attachment: Int = 0
    ) -> ASAuthorizationPlatformPublicKeyCredentialRegistration {
        ASAuthorizationPlatformPublicKeyCredentialRegistration(
            credentialID: credentialID, rawClientDataJSON: rawClientDataJSON,
            rawAttestationObject: rawAttestationObject,
            attachmentValue: attachment)
    }
}

extension ASAuthorizationPlatformPublicKeyCredentialAssertion {
    /// An assertion as the platform returns it.
    public static func standIn(
        credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data?
    ) -> ASAuthorizationPlatformPublicKeyCredentialAssertion {
        ASAuthorizationPlatformPublicKeyCredentialAssertion(
            credentialID: credentialID, rawClientDataJSON: rawClientDataJSON,
            rawAuthenticatorData: rawAuthenticatorData,
            signature: signature, userID: userID)
    }
}

@available(iOS 26.0, macOS 26.0, *)
extension ASAuthorizationAccountCreationPlatformPublicKeyCredential {
    /// The account-creation sheet's result; `email` nil gives a phone number instead.
    public static func standIn(
        email: String?, name: PersonNameComponents?,
        registration: ASAuthorizationPlatformPublicKeyCredentialRegistration
    ) -> ASAuthorizationAccountCreationPlatformPublicKeyCredential {
        ASAuthorizationAccountCreationPlatformPublicKeyCredential(
            contactIdentifier: email.map { .email(ASEmailIdentifier(value: $0)) }
                ?? .phoneNumber(ASPhoneNumberIdentifier(value: "+81 90 0000 0000")),
            name: name, credentialRegistration: registration)
    }
}
