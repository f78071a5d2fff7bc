#if canImport(SwiftUI) && canImport(UIKit)
    import AuthenticationServices
    internal import PasskeyClient
    import SwiftUI

    /// The composition root: one `PasskeyClient` keeping its token in the Keychain, one
    /// `PasskeyAuthorization` presenting over the foreground scene's key window (looked up when
    /// each sheet is shown: no window sniffer, no launch spinner), and the `Router` that builds
    /// every Presenter and Interactor over them. `launch()` loads the stored token off the main
    /// thread and follows the signed-in state for the app's life.
    @main
    struct PasskeyMigrationApp: App {
        /// The server's origin; its RP ID is the associated domain (`webcredentials:<RP ID>`).
        static let serverURL = URL(string: "https://example.com")!
        /// For the credential-manager signals before any ceremony showed the server's RP ID.
        static let relyingPartyID = "example.com"
        /// The product's own backend, which trusts the server's JWTs for this audience (one of
        /// its `TOKEN_AUDIENCES`; `Examples/ResourceServer` is such a backend).
        static let productAPI = HTTPProductAPI(
            baseURL: URL(string: "https://api.example.com")!, audience: "https://api.example.com")

        @State private var router = Self.compose()

        var body: some Scene {
            WindowGroup {
                RootView(app: router)
                    .task { await router.launch() }
            }
        }

        @MainActor private static func compose() -> Router {
            // The session outlives the launch in the Keychain (this device only, while unlocked).
            let client = PasskeyClient(
                baseURL: serverURL, tokenStore: KeychainTokenStore(service: "PasskeyMigrationApp"))
            let authorization = PasskeyAuthorization(client: client, relyingPartyID: relyingPartyID)
            return Router(client: client, authorization: authorization, productAPI: productAPI)
        }
    }
#endif
