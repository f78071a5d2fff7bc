// The bridge wired to the platform in one call.
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    extension PasskeyAuthorization {
        /// The bridge over `ASAuthorizationController`, presenting over `anchor` (the app's key
        /// window), with the system's credential-manager signals. `relyingPartyID` (the app's
        /// associated domain) lets the signals go out before any ceremony showed the server's.
        public convenience init(client: PasskeyClient, anchor: ASPresentationAnchor, relyingPartyID: String? = nil) {
            self.init(
                client: client, controllers: AuthenticationServicesControllers(anchor: anchor),
                signals: AuthenticationServicesCredentialSignals(), relyingPartyID: relyingPartyID)
        }

        /// The bridge over `ASAuthorizationController`, presenting over the foreground scene's key
        /// window, looked up when each sheet is shown (compose the app at once, no window needed).
        public convenience init(client: PasskeyClient, relyingPartyID: String? = nil) {
            self.init(
                client: client, controllers: AuthenticationServicesControllers(),
                signals: AuthenticationServicesCredentialSignals(), relyingPartyID: relyingPartyID)
        }
    }
#endif
