#if canImport(SwiftUI)
    import SwiftUI

    /// A new account whose only credential is a passkey (slide 8): the form, or on iOS 26 the
    /// system's account-creation sheet.
    struct CreateAccountView: View {
        let app: Router
        @Bindable var presenter: AccountCreationPresenter

        var body: some View {
            Form {
                if presenter.offersSystemSheet {
                    Section {
                        Button {
                            Task { await presenter.createWithSystemSheet() }
                        } label: {
                            Label("Create an account with a passkey", systemImage: "person.crop.circle.badge.plus")
                        }
                    } footer: {
                        Text("The system asks for your email address and name.")
                    }
                }
                Section("Or fill in") {
                    TextField("Email address", text: $presenter.email)
                        .textContentType(.emailAddress)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    TextField("Name", text: $presenter.displayName)
                        .textContentType(.name)
                    Button("Create with a passkey") { Task { await presenter.createWithForm() } }
                        .disabled(!presenter.canSubmit)
                }
                if case .failed(let text) = presenter.state {
                    Section { Text(text).foregroundStyle(.red) }
                }
                if presenter.state == .creating {
                    Section { ProgressView() }
                }
                Section {
                    Button("I have an account") { app.show(.signIn) }
                }
            }
            .navigationTitle("New account")
        }
    }
#endif
