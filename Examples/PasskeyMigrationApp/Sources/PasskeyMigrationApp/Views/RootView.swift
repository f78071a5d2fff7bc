#if canImport(SwiftUI)
    import SwiftUI

    /// Shows the screen `Router` says is up.
    struct RootView: View {
        let app: Router

        var body: some View {
            NavigationStack {
                switch app.screen {
                case .signIn:
                    SignInView(app: app, password: app.passwordSignIn, passkey: app.passkeySignIn)
                case .passwordSignUp:
                    PasswordSignUpView(app: app, presenter: app.passwordSignUp)
                case .createAccount:
                    CreateAccountView(app: app, presenter: app.accountCreation)
                case .recovery:
                    RecoverySignInView(app: app, presenter: app.recoverySignIn)
                case .account:
                    if let account = app.account {
                        AccountView(app: app, presenter: account)
                    }
                }
            }
        }
    }
#endif
