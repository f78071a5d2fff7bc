// The controller seam's Apple side: one ASAuthorizationController per request, its delegate and
// presentation context.
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    internal import Foundation
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    /// Makes `ASAuthorizationController`-backed controllers presenting over `anchor` (the app's
    /// key window).
    @MainActor
    public final class AuthenticationServicesControllers: PasskeyAuthorizationControllerFactory {
        /// The window the sheets are presented over.
        public let anchor: ASPresentationAnchor

        /// Controllers presenting over `anchor`.
        public init(anchor: ASPresentationAnchor) { self.anchor = anchor }

        public func makeController(
            for request: PasskeyAuthorizationRequest,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) -> any PasskeyAuthorizationController {
            AuthenticationServicesController(request: request, anchor: anchor, completion: completion)
        }
    }

    /// One request on an `ASAuthorizationController`: the delegate turns its answer into the
    /// bridge's result. A request this system cannot perform completes with `.notHandled` at start.
    @MainActor
    final class AuthenticationServicesController: NSObject, PasskeyAuthorizationController,
        ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding
    {
        private let request: PasskeyAuthorizationRequest
        private let anchor: ASPresentationAnchor
        private let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        private var controller: ASAuthorizationController?

        init(
            request: PasskeyAuthorizationRequest, anchor: ASPresentationAnchor,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) {
            self.request = request
            self.anchor = anchor
            self.completion = completion
        }

        func start() {
            guard let platformRequest = request.platformRequest() else { return completion(.failure(.notHandled)) }
            let controller = ASAuthorizationController(authorizationRequests: [platformRequest])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            guard case .assertion(_, .autoFill) = request else { return controller.performRequests() }
            #if os(macOS)
                completion(.failure(.notHandled))  // AutoFill-assisted requests are iOS/visionOS only
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
            completion(.failure(PasskeyAuthorizationError(platformError: error)))
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }
    }
#endif
