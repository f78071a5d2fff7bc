#if canImport(SwiftUI)
    import SwiftUI

    /// Signing in (slide 7: the password with Automatic Passkey Upgrade right after; slide 8: a
    /// passkey, by the button or by AutoFill on the email field).
    struct SignInView: View {
        private enum Field: Hashable {
            case email
            case password
        }

        let app: Router
        @Bindable var password: PasswordSignInPresenter
        let passkey: PasskeySignInPresenter
        @FocusState private var focus: Field?

        var body: some View {
            Form {
                Section {
                    TextField("Email address", text: $password.email)
                        // `.username` makes the system offer the passkeys above the keyboard.
                        .textContentType(.username)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                        .focused($focus, equals: .email)
                        // The AutoFill request lives as long as the field: SwiftUI cancels the task
                        // when the screen goes, and the bridge cancels the request with it.
                        .task { await passkey.emailFieldAppeared() }
                    SecureField("Password", text: $password.password)
                        .textContentType(.password)
                        .focused($focus, equals: .password)
                        .onSubmit { Task { await password.signIn() } }
                    Button("Sign in") { Task { await password.signIn() } }
                        .disabled(!password.canSubmit)
                }
                Section {
                    Button {
                        // One sheet: this device's passkeys and saved passwords (Apple's sample).
                        Task { await passkey.signInWithPasskeyOrPassword() }
                    } label: {
                        Label("Sign in with a passkey", systemImage: "person.badge.key")
                    }
                    .disabled(passkey.state == .signingIn || password.isBusy)
                }
                if let message {
                    Section { Text(message).foregroundStyle(.red) }
                }
                if case .upgrading = password.state {
                    Section { ProgressView("Signing in…") }
                }
                Section {
                    Button("Create an account with a passkey") { app.show(.createAccount) }
                    Button("Create an account with a password") { app.show(.passwordSignUp) }
                    Button("Lost your passkey? Use a recovery code") { app.show(.recovery) }
                }
            }
            .navigationTitle("Sign in")
            // Focusing the email field again brings the passkeys back (a stale challenge is
            // replaced); focusing the password field leaves them offered.
            .onChange(of: focus) { _, field in
                if field == .email { Task { await passkey.emailFieldFocused() } }
            }
        }

        private var message: String? {
            if case .failed(let text) = password.state { return text }
            if case .failed(let text) = passkey.state { return text }
            return nil
        }
    }
#endif
