#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI
    import UIKit

    /// Reports the `UIWindow` its (invisible) view is placed in: the presentation anchor the
    /// passkey sheets are shown over.
    struct WindowReader: UIViewRepresentable {
        let found: @MainActor (UIWindow) -> Void

        func makeUIView(context: Context) -> ReportingView {
            let view = ReportingView()
            view.found = found
            view.isUserInteractionEnabled = false
            return view
        }

        func updateUIView(_ view: ReportingView, context: Context) {}

        final class ReportingView: UIView {
            var found: (@MainActor (UIWindow) -> Void)?

            override func didMoveToWindow() {
                super.didMoveToWindow()
                if let window { found?(window) }
            }
        }
    }
#endif
