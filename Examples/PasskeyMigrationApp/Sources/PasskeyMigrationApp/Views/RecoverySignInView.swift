#if canImport(SwiftUI)
    import SwiftUI

    /// Signing in with a recovery code when every passkey is lost (slide 9); the account screen
    /// then offers a new passkey.
    struct RecoverySignInView: View {
        let app: Router
        @Bindable var presenter: RecoverySignInPresenter

        var body: some View {
            Form {
                Section {
                    TextField("Email address", text: $presenter.email)
                        .textContentType(.username)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    TextField("Recovery code", text: $presenter.code)
                        .textInputAutocapitalization(.characters)
                        .autocorrectionDisabled()
                        .monospaced()
                    Button("Sign in") { Task { await presenter.signIn() } }
                        .disabled(!presenter.canSubmit)
                }
                if case .failed(let text) = presenter.state {
                    Section { Text(text).foregroundStyle(.red) }
                }
                Section {
                    Button("Back to sign-in") { app.show(.signIn) }
                }
            }
            .navigationTitle("Recovery")
        }
    }
#endif
