// The platform requests built from the server's options as given (UV, attestation, excluded and
// allowed credentials, display name, request style). Part of PasskeyClient on Apple systems;
// compiled on Linux as PasskeyClientGlue against the test-only stand-in (docs/ios.md), so it uses
// only PasskeyClient's public API.
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    internal import Foundation
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    extension PasskeyAuthorizationRequest {
        /// The platform's request, or nil when this system cannot perform it (a conditional
        /// registration before iOS 18 / macOS 15, the account-creation sheet before iOS 26 / macOS 26).
        public func platformRequest() -> ASAuthorizationRequest? {
            switch self {
            case .registration(let options):
                guard options.requestStyle == .standard || Self.performsConditionalRegistration else { return nil }
                return options.platformRequest()
            case .assertion(let options, _):
                return options.platformRequest()
            case .accountRegistration(let options):
                return options.platformRequest()
            case .accountCreationSheet(let options):
                guard #available(iOS 26.0, macOS 26.0, *) else { return nil }
                return options.accountCreationRequest()
            case .assertionOrPassword(let options):
                return options.platformRequest()
            }
        }

        /// Every platform request the sheet shows: the passkey request, and for
        /// `.assertionOrPassword` the saved passwords' (`ASAuthorizationPasswordProvider`) too.
        public func platformRequests() -> [ASAuthorizationRequest] {
            guard let request = platformRequest() else { return [] }
            guard case .assertionOrPassword = self else { return [request] }
            return [request, ASAuthorizationPasswordProvider().createRequest()]
        }

        /// Whether this system has `requestStyle` `.conditional` (iOS 18, macOS 15).
        static var performsConditionalRegistration: Bool {
            if #available(iOS 18.0, macOS 15.0, *) { return true }
            return false
        }
    }

    extension ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
        /// A passkey registration request with what both registrations pass as given: the user,
        /// the display name, and the UV and attestation preferences.
        static func passkey(
            relyingPartyID: String, challenge: Data, userName: String, userID: Data, displayName: String,
            userVerification: PasskeyUserVerification, attestation: PasskeyAttestationPreference
        ) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            let request = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
                .createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
            request.displayName = displayName
            request.userVerificationPreference = userVerification.platformPreference
            request.attestationPreference = attestation.platformKind
            return request
        }
    }

    extension PasskeyRegistrationOptions {
        /// The platform request: a button (`.standard`) or Automatic Passkey Upgrade (`.conditional`,
        /// iOS 18 / macOS 15; the style is left standard before, see `PasskeyAuthorizationRequest.platformRequest()`).
        /// Excluded credentials are passed from iOS 17.4 / macOS 13.5, where passkeys honour them.
        public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            let request = ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.passkey(
                relyingPartyID: relyingPartyID, challenge: challenge, userName: userName, userID: userID,
                displayName: displayName, userVerification: userVerification, attestation: attestation)
            if #available(iOS 17.4, macOS 13.5, *) {
                request.excludedCredentials = excludedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
            }
            if #available(iOS 18.0, macOS 15.0, *), requestStyle == .conditional {
                request.requestStyle = .conditional
            }
            return request
        }
    }

    extension PasskeyAccountRegistrationOptions {
        /// The platform request for a new account's passkey (form flow: email and name known now).
        public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            .passkey(
                relyingPartyID: relyingPartyID, challenge: challenge, userName: userName, userID: userID,
                displayName: displayName, userVerification: userVerification, attestation: attestation)
        }

        /// The iOS 26 account-creation sheet: the system asks for the email and name and returns
        /// them with the passkey. The request takes no UV or attestation preference.
        @available(iOS 26.0, macOS 26.0, *)
        public func accountCreationRequest() -> ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest {
            ASAuthorizationAccountCreationProvider().createPlatformPublicKeyCredentialRegistrationRequest(
                acceptedContactIdentifiers: [.email], shouldRequestName: true, relyingPartyIdentifier: relyingPartyID,
                challenge: challenge, userID: userID)
        }
    }

    extension PasskeySignInOptions {
        /// The platform request for the discoverable sign-in (modal with `performRequests()`,
        /// or AutoFill with `performAutoFillAssistedRequests()`).
        public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
            let request = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
                .createCredentialAssertionRequest(challenge: challenge)
            request.userVerificationPreference = userVerification.platformPreference
            request.allowedCredentials = allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            return request
        }
    }

    extension PasskeyUserVerification {
        /// The platform's value of the same name.
        public var platformPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
            switch self {
            case .required: .required
            case .preferred: .preferred
            case .discouraged: .discouraged
            }
        }
    }

    extension PasskeyAttestationPreference {
        /// The platform's value of the same name.
        public var platformKind: ASAuthorizationPublicKeyCredentialAttestationKind {
            switch self {
            case .none: .none
            case .indirect: .indirect
            case .direct: .direct
            case .enterprise: .enterprise
            }
        }
    }
#endif
