// What the platform returned, as the client's Sendable values; its errors as typed cases.
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    internal import Foundation
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    extension PasskeyAuthorizationResult {
        /// The value for what `ASAuthorizationController` returned; `.invalidResponse` for a
        /// credential that is not a passkey's (or a registration without its attestation object).
        public static func from(_ credential: any ASAuthorizationCredential)
            -> Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>
        {
            if #available(iOS 26.0, macOS 26.0, *),
                let creation = credential as? ASAuthorizationAccountCreationPlatformPublicKeyCredential
            {
                guard let value = PasskeyAccountCreation(creation) else { return .failure(.invalidResponse) }
                return .success(.accountCreation(value))
            }
            if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
                guard let value = PasskeyRegistrationCredential(registration) else { return .failure(.invalidResponse) }
                return .success(.registration(value))
            }
            if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
                return .success(.assertion(PasskeyAssertionCredential(assertion)))
            }
            if let password = credential as? ASPasswordCredential {
                return .success(.password(PasskeySavedPassword(user: password.user, password: password.password)))
            }
            return .failure(.invalidResponse)
        }
    }

    extension PasskeyAuthorizationError {
        /// The case for an error of `authorizationController(controller:didCompleteWithError:)`:
        /// its `ASAuthorizationError.Code` raw value (codes a later system adds stay `.other(code:)`);
        /// an error of another domain is `.unknown`.
        public init(platformError error: any Error) {
            let error = error as NSError
            self.init(code: error.domain == ASAuthorizationError.errorDomain ? error.code : 1000)
        }

        /// The platform's words for why a request failed: its failure reason, else its debug
        /// description, else the underlying error's, else the description; at most 300 characters.
        /// (AuthenticationServices' messages name the app and the domain, never a credential.)
        public static func reason(of error: any Error) -> String? {
            let error = error as NSError
            let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
            let candidates: [Any?] = [
                error.userInfo[NSLocalizedFailureReasonErrorKey], error.userInfo[NSDebugDescriptionErrorKey],
                underlying?.userInfo[NSLocalizedFailureReasonErrorKey],
                underlying?.userInfo[NSDebugDescriptionErrorKey], underlying?.localizedDescription,
            ]
            let text = candidates.compactMap { $0 as? String }.first { !$0.isEmpty }
            return text.map { String($0.prefix(300)) }
        }
    }

    extension PasskeyRegistrationCredential {
        /// What `ASAuthorizationController` returned for a registration request; nil without an
        /// attestation object. Transports come from the platform's `attachment` (iOS 16.6 / macOS
        /// 13.5): this device's passkey (`.platform`) is reachable `internal`ly and by `hybrid`
        /// from other devices; one on another device (`.crossPlatform`, reached over `hybrid`) by
        /// `hybrid`. Empty before, as the server then learns nothing.
        public init?(_ registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) {
            guard let attestation = registration.rawAttestationObject else { return nil }
            var transports: [String] = []
            if #available(iOS 16.6, macOS 13.5, *) { transports = Self.transports(of: registration.attachment) }
            self.init(
                credentialID: registration.credentialID, rawClientDataJSON: registration.rawClientDataJSON,
                rawAttestationObject: attestation, transports: transports)
        }

        @available(iOS 16.6, macOS 13.5, *)
        static func transports(of attachment: ASAuthorizationPublicKeyCredentialAttachment) -> [String] {
            // No `switch`: the platform's enum is open, the stand-in's closed.
            if attachment == .platform { return ["internal", "hybrid"] }
            if attachment == .crossPlatform { return ["hybrid"] }
            return []
        }
    }

    extension PasskeyAssertionCredential {
        /// What `ASAuthorizationController` returned for an assertion request.
        public init(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) {
            self.init(
                credentialID: assertion.credentialID, rawClientDataJSON: assertion.rawClientDataJSON,
                rawAuthenticatorData: assertion.rawAuthenticatorData ?? Data(),
                signature: assertion.signature ?? Data(),
                userID: assertion.userID)
        }
    }

    @available(iOS 26.0, macOS 26.0, *)
    extension PasskeyAccountCreation {
        /// The account-creation sheet's result; nil when it holds no email (a phone number) or no
        /// usable passkey. The name is formatted for the user's locale; the email stands in when
        /// the sheet gave none.
        public init?(_ creation: ASAuthorizationAccountCreationPlatformPublicKeyCredential) {
            guard case .email(let email) = creation.contactIdentifier,
                let credential = PasskeyRegistrationCredential(creation.credentialRegistration)
            else { return nil }
            let name = creation.name.map(Self.format) ?? ""
            self.init(email: email.value, displayName: name.isEmpty ? email.value : name, credential: credential)
        }

        /// The name as the user's locale writes it (Linux, which checks this file against the
        /// stand-in, has no name formatter: the parts joined there).
        static func format(_ name: PersonNameComponents) -> String {
            #if canImport(Darwin)
                name.formatted()
            #else
                [name.givenName, name.middleName, name.familyName].compactMap { $0 }.joined(separator: " ")
            #endif
        }
    }
#endif
