#if canImport(SwiftUI)
    import SwiftUI

    /// The 10 new recovery codes, shown once: copy or share them, then "Saved" drops them from the
    /// app for good (it never stores them).
    struct RecoveryCodesView: View {
        let codes: [String]
        let saved: () -> Void

        var body: some View {
            NavigationStack {
                List {
                    Section {
                        ForEach(codes, id: \.self) { Text($0).monospaced().textSelection(.enabled) }
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
