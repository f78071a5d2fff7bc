// The controller seam's Apple side: one ASAuthorizationController per request, its delegate and
// presentation context.
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    internal import Foundation
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif
    #if canImport(UIKit)
        internal import UIKit
    #elseif canImport(AppKit)
        internal import AppKit
    #endif

    /// Makes `ASAuthorizationController`-backed controllers. The window a sheet is presented over
    /// is looked up **when the sheet is shown**, not captured at launch: by default the key window
    /// of the foreground scene (so an app needs no window sniffer and no launch spinner, and a
    /// scene that changed since is followed).
    @MainActor
    public final class AuthenticationServicesControllers: PasskeyAuthorizationControllerFactory {
        /// Finds the window for the next sheet.
        public let anchor: @MainActor () -> ASPresentationAnchor?

        /// Controllers presenting over the key window of the foreground scene, looked up per request.
        public convenience init() { self.init(anchor: ForegroundWindow.keyWindow) }

        /// Controllers presenting over `anchor` (a window the app already has).
        public convenience init(anchor: ASPresentationAnchor) { self.init(anchor: { anchor }) }

        /// Controllers presenting over the window `anchor` returns for each request.
        public init(anchor: @escaping @MainActor () -> ASPresentationAnchor?) { self.anchor = anchor }

        public func makeController(
            for request: PasskeyAuthorizationRequest,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) -> any PasskeyAuthorizationController {
            AuthenticationServicesController(request: request, anchor: anchor, completion: completion)
        }
    }

    /// The key window of the foreground scene, where the platform has one.
    @MainActor
    enum ForegroundWindow {
        static func keyWindow() -> ASPresentationAnchor? {
            #if canImport(UIKit)
                let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
                let scene = scenes.first { $0.activationState == .foregroundActive } ?? scenes.first
                return scene?.keyWindow ?? scene?.windows.first
            #elseif canImport(AppKit)
                return NSApplication.shared.keyWindow ?? NSApplication.shared.windows.first
            #else
                return nil  // the stand-ins on Linux: no scenes
            #endif
        }
    }

    /// One request on an `ASAuthorizationController`: the delegate turns its answer into the
    /// bridge's result. A request this system cannot perform completes with `.notHandled` at start.
    @MainActor
    final class AuthenticationServicesController: NSObject, PasskeyAuthorizationController,
        ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding
    {
        private let request: PasskeyAuthorizationRequest
        private let anchor: @MainActor () -> ASPresentationAnchor?
        private let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        private var controller: ASAuthorizationController?
        private(set) var failureReason: String?

        init(
            request: PasskeyAuthorizationRequest, anchor: @escaping @MainActor () -> ASPresentationAnchor?,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) {
            self.request = request
            self.anchor = anchor
            self.completion = completion
        }

        func start() {
            let platformRequests = request.platformRequests()
            guard !platformRequests.isEmpty else { return completion(.failure(.notHandled)) }
            let controller = ASAuthorizationController(authorizationRequests: platformRequests)
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            if case .assertion(_, .immediate) = request {
                return controller.performRequests(options: .preferImmediatelyAvailableCredentials)
            }
            guard case .assertion(_, .autoFill) = request else { return controller.performRequests() }
            #if os(macOS) || targetEnvironment(macCatalyst)
                // AutoFill-assisted requests are iOS and visionOS only (unavailable on Mac Catalyst).
                completion(.failure(.notHandled))
            #else
                controller.performAutoFillAssistedRequests()
            #endif
        }

        func cancel() { controller?.cancel() }

        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            completion(PasskeyAuthorizationResult.from(authorization.credential))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            failureReason = PasskeyAuthorizationError.reason(of: error)
            completion(.failure(PasskeyAuthorizationError(platformError: error)))
        }

        /// Looked up now, when the platform asks; a new window only when none is found.
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            anchor() ?? ASPresentationAnchor()
        }
    }
#endif
