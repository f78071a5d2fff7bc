#if canImport(SwiftUI)
    import SwiftUI

    /// The 10 new recovery codes, shown once: copy or share them, then "Saved" drops them from the
    /// app for good (it never stores them). `.privacySensitive()` redacts them where the system
    /// redacts (widgets, the lock screen), and they are hidden whenever the app is not in the
    /// foreground, so the app-switcher snapshot never holds them.
    struct RecoveryCodesView: View {
        let codes: [String]
        let saved: () -> Void
        @Environment(\.scenePhase) private var scenePhase

        var body: some View {
            NavigationStack {
                List {
                    Section {
                        if scenePhase == .active {
                            ForEach(codes, id: \.self) {
                                Text($0).monospaced().textSelection(.enabled).privacySensitive()
                            }
                        } else {
                            Text("Hidden while the app is in the background.")
                        }
                    } footer: {
                        Text("Each code works once. This is the only time they are shown.")
                    }
                    ShareLink(item: codes.joined(separator: "\n"))
                }
                .navigationTitle("Recovery codes")
                .toolbar {
                    ToolbarItem(placement: .confirmationAction) { Button("Saved", action: saved) }
                }
            }
            .interactiveDismissDisabled()
        }
    }
#endif
