#if canImport(SwiftUI)
    import SwiftUI

    /// A new password account (slide 7): `.username` and `.newPassword` make iOS suggest a strong
    /// password and offer to save it, which is what later lets Automatic Passkey Upgrade create a
    /// passkey without asking (slides 41–42).
    struct PasswordSignUpView: View {
        let app: Router
        @Bindable var presenter: PasswordSignUpPresenter

        var body: some View {
            Form {
                Section {
                    TextField("Email address", text: $presenter.email)
                        .textContentType(.username)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    TextField("Your name", text: $presenter.displayName)
                        .textContentType(.name)
                    SecureField("New password (at least 8 characters)", text: $presenter.password)
                        .textContentType(.newPassword)
                        .onSubmit { Task { await presenter.signUp() } }
                    Button("Create account") { Task { await presenter.signUp() } }
                        .disabled(!presenter.canSubmit)
                }
                if case .failed(let text) = presenter.state {
                    Section { Text(text).foregroundStyle(.red) }
                }
                if presenter.state == .signingUp {
                    Section { ProgressView("Creating your account…") }
                }
                Section {
                    Button("I have an account") { app.show(.signIn) }
                }
            }
            .navigationTitle("Create an account")
        }
    }
#endif
