// The AuthenticationServices glue for iOS and macOS apps: requests from the client's options,
// and the platform's results turned into the client's finish inputs. Compiled only where
// AuthenticationServices exists, so not on the Linux machines of CI; `make test` checks its
// syntax with `swiftc -parse`. Everything here forwards to the platform-neutral API.
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    public import Foundation

    @available(iOS 18.0, macOS 15.0, *)
    extension PasskeyRegistrationOptions {
        /// The platform request: a button (`modal`) or Automatic Passkey Upgrade (`conditional`).
        public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
            let request = provider.createCredentialRegistrationRequest(
                challenge: challenge, name: userName, userID: userID)
            if mode == .conditional { request.requestStyle = .conditional }
            request.excludedCredentials = excludedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            return request
        }
    }

    @available(iOS 18.0, macOS 15.0, *)
    extension PasskeyAccountRegistrationOptions {
        /// The platform request for a new account's passkey (form flow: name known now).
        public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
            return provider.createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
        }

        /// The iOS 26 account-creation sheet: the system asks for the email and name and
        /// returns them with the passkey (then call `finishPasskeyAccountRegistration` with them).
        @available(iOS 26.0, macOS 26.0, *)
        public func accountCreationRequest() -> ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest {
            ASAuthorizationAccountCreationProvider().createPlatformPublicKeyCredentialRegistrationRequest(
                acceptedContactIdentifiers: [.email], shouldRequestName: true, relyingPartyIdentifier: relyingPartyID,
                challenge: challenge, userID: userID)
        }
    }

    @available(iOS 26.0, macOS 26.0, *)
    extension PasskeyClient {
        /// Finishes the iOS 26 account-creation sheet with the email and name the system collected.
        @discardableResult
        public func finishPasskeyAccountRegistration(
            registrationID: String, accountCreation: ASAuthorizationAccountCreationPlatformPublicKeyCredential
        ) async throws(PasskeyClientError) -> PasskeySession {
            guard case .email(let email) = accountCreation.contactIdentifier,
                let credential = PasskeyRegistrationCredential(accountCreation.credentialRegistration)
            else { throw .unexpectedResponse("the system sheet returned no email or no passkey") }
            let name = accountCreation.name.map { PersonNameComponentsFormatter().string(from: $0) } ?? ""
            return try await finishPasskeyAccountRegistration(
                registrationID: registrationID, email: email.value, displayName: name.isEmpty ? email.value : name,
                credential: credential)
        }
    }

    @available(iOS 18.0, macOS 15.0, *)
    extension PasskeySignInOptions {
        /// The platform request for the one discoverable sign-in (modal, or autofill with
        /// `performAutoFillAssistedRequests`).
        public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
            ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
                .createCredentialAssertionRequest(challenge: challenge)
        }
    }

    @available(iOS 18.0, macOS 15.0, *)
    extension PasskeyRegistrationCredential {
        /// What `ASAuthorizationController` returned for a registration request.
        public init?(_ registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) {
            guard let attestation = registration.rawAttestationObject else { return nil }
            self.init(
                credentialID: registration.credentialID, rawClientDataJSON: registration.rawClientDataJSON,
                rawAttestationObject: attestation, transports: ["internal", "hybrid"])
        }
    }

    @available(iOS 18.0, macOS 15.0, *)
    extension PasskeyAssertionCredential {
        /// What `ASAuthorizationController` returned for an assertion request.
        public init(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) {
            self.init(
                credentialID: assertion.credentialID, rawClientDataJSON: assertion.rawClientDataJSON,
                rawAuthenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature,
                userID: assertion.userID)
        }
    }
#endif
