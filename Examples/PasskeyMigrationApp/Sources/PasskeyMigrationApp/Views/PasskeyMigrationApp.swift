#if canImport(SwiftUI) && canImport(UIKit)
    import AuthenticationServices
    internal import PasskeyClient
    import SwiftUI

    /// The composition root: one `PasskeyClient` keeping its token in the Keychain, one
    /// `PasskeyAuthorization` presenting over the app's window, and the `AppPresenter` that builds
    /// every Presenter and Interactor over them.
    ///
    /// The bridge needs the window as its presentation anchor, which exists only once the first
    /// view is on screen: `WindowReader` hands it over, and the app is composed then, on the main
    /// actor, exactly once.
    @main
    struct PasskeyMigrationApp: App {
        /// The server's origin; its RP ID is the associated domain (`webcredentials:<RP ID>`).
        static let serverURL = URL(string: "https://example.com")!
        /// For the credential-manager signals before any ceremony showed the server's RP ID.
        static let relyingPartyID = "example.com"

        @State private var app: AppPresenter?

        var body: some Scene {
            WindowGroup {
                Group {
                    if let app {
                        RootView(app: app)
                    } else {
                        ProgressView()
                    }
                }
                .background(
                    WindowReader { window in
                        if app == nil { app = Self.compose(anchor: window) }
                    })
            }
        }

        @MainActor private static func compose(anchor: ASPresentationAnchor) -> AppPresenter {
            // The session outlives the launch in the Keychain (this device only, after first unlock).
            let client = PasskeyClient(
                baseURL: serverURL, tokenStore: KeychainTokenStore(service: "PasskeyMigrationApp"))
            let authorization = PasskeyAuthorization(client: client, anchor: anchor, relyingPartyID: relyingPartyID)
            return AppPresenter(client: client, authorization: authorization)
        }
    }
#endif
