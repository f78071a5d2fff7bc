#if canImport(SwiftUI)
    import SwiftUI

    /// Account management and recovery (slide 9): the passkeys, recovery codes, stage ③, signing
    /// out and deleting the account.
    struct AccountView: View {
        let app: Router
        let presenter: AccountPresenter
        @State private var renaming: AccountSummary.PasskeyItem?
        @State private var newName = ""
        @State private var confirmingDeletion = false

        var body: some View {
            content
                .navigationTitle("Account")
                .task { await presenter.load() }
                .sheet(isPresented: showsRecoveryCodes) {
                    RecoveryCodesView(codes: presenter.recoveryCodes ?? []) { presenter.recoveryCodesSaved() }
                }
                .alert("Rename passkey", isPresented: showsRename, presenting: renaming) { passkey in
                    TextField("Name", text: $newName)
                    Button("Rename") { Task { await presenter.rename(passkey, to: newName) } }
                    Button("Cancel", role: .cancel) {}
                }
                .confirmationDialog("Delete the account?", isPresented: $confirmingDeletion) {
                    Button("Delete account", role: .destructive) { Task { await presenter.deleteAccount() } }
                } message: {
                    Text("Your passkeys stop working and the device stops offering them.")
                }
        }

        @ViewBuilder private var content: some View {
            switch presenter.state {
            case .loading:
                ProgressView()
            case .failed(let text):
                ContentUnavailableView {
                    Label("The account could not be loaded", systemImage: "exclamationmark.triangle")
                } description: {
                    Text(text)
                } actions: {
                    Button("Try again") { Task { await presenter.load() } }
                }
            case .signedOut, .deleted:
                ProgressView()
            case .loaded(let summary):
                loaded(summary)
            }
        }

        private func loaded(_ summary: AccountSummary) -> some View {
            List {
                Section {
                    if let note = upgradeNote { Label(note, systemImage: "checkmark.seal") }
                    if app.suggestsNewPasskey {
                        Text("You signed in with a recovery code: add a passkey for this device now.")
                    }
                    if let notice = presenter.notice { Text(notice).foregroundStyle(.red) }
                }
                Section("Passkeys") {
                    ForEach(summary.passkeys) { passkey in
                        PasskeyRow(passkey: passkey)
                            .swipeActions {
                                Button("Delete", role: .destructive) { Task { await presenter.delete(passkey) } }
                                Button("Rename") {
                                    newName = passkey.name
                                    renaming = passkey
                                }
                            }
                    }
                    Button("Add a passkey") { Task { await presenter.addPasskey() } }
                }
                Section {
                    Text("\(summary.recoveryCodesRemaining) recovery codes left")
                    Button("Create new recovery codes") { Task { await presenter.createRecoveryCodes() } }
                } header: {
                    Text("Recovery")
                } footer: {
                    Text("New codes replace the old ones. Keep them somewhere safe, away from this device.")
                }
                passwordSection(summary)
                // The product's own backend, called with a short-lived JWT (docs/tokens.md).
                Section("Your reports") {
                    if let reports = presenter.reports {
                        if reports.isEmpty { Text("No reports yet.") }
                        ForEach(reports, id: \.self) { Text($0) }
                    }
                    if let message = presenter.reportsMessage { Text(message).foregroundStyle(.red) }
                    Button("Load reports") { Task { await presenter.loadReports() } }
                }
                Section {
                    Button("Sign out") { Task { await presenter.signOut() } }
                    Button("Delete account", role: .destructive) { confirmingDeletion = true }
                }
            }
            .disabled(presenter.isWorking)
        }

        @ViewBuilder private func passwordSection(_ summary: AccountSummary) -> some View {
            switch summary.passwordRemoval {
            case .noPassword:
                EmptyView()
            case .allowed:
                Section {
                    Button("Remove the password", role: .destructive) { Task { await presenter.removePassword() } }
                } footer: {
                    Text("You sign in with your passkeys only; recovery codes are the way back.")
                }
            case .needsPasskeySignIn:
                Section("Password") { Text("Sign in with a passkey once to be able to remove the password.") }
            case .needsRecovery:
                Section("Password") { Text("Create recovery codes to be able to remove the password.") }
            }
        }

        private var upgradeNote: String? {
            switch app.upgrade {
            case .upgraded: "A passkey was created: next time, sign in with it."
            case .declined, .refused, nil: nil
            }
        }

        private var showsRecoveryCodes: Binding<Bool> {
            Binding {
                presenter.recoveryCodes != nil
            } set: {
                if !$0 { presenter.recoveryCodesSaved() }
            }
        }

        private var showsRename: Binding<Bool> {
            Binding {
                renaming != nil
            } set: {
                if !$0 { renaming = nil }
            }
        }
    }

    /// One passkey: its name, when it was last used, whether a credential manager syncs it.
    private struct PasskeyRow: View {
        let passkey: AccountSummary.PasskeyItem

        var body: some View {
            VStack(alignment: .leading) {
                Text(passkey.name)
                if let used = passkey.lastUsedAt {
                    Text("Last used \(used, format: .relative(presentation: .named))").font(.caption)
                } else {
                    Text("Not used yet").font(.caption)
                }
                if passkey.isSynced { Text("Synced").font(.caption2).foregroundStyle(.secondary) }
            }
        }
    }
#endif
