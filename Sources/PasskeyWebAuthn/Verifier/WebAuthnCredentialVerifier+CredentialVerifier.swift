internal import PasskeyApplication

extension WebAuthnCredentialVerifier: CredentialVerifier {}
