// The controller seam over SwiftUI's `@Environment(\.authorizationController)` (iOS 16.4): for an
// app whose views already hold it, with no window and no delegate. On Linux it is compiled and
// tested against the stand-in (Tests/StandIns/AuthenticationServices/AuthorizationController.swift).
#if canImport(AuthenticationServices)
    public import AuthenticationServices
    internal import Foundation
    #if canImport(SwiftUI)
        public import SwiftUI
    #endif
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    /// Makes controllers that perform each request through SwiftUI's `AuthorizationController`:
    ///
    ///     @Environment(\.authorizationController) private var authorizationController
    ///     …
    ///     let passkeys = PasskeyAuthorization(
    ///         client: client, controllers: SwiftUIAuthorizationControllers(authorizationController))
    ///
    /// The environment value has no AutoFill-assisted method: an AutoFill request completes
    /// `.notHandled` (use `AuthenticationServicesControllers` for AutoFill). Cancelling ends the
    /// task that awaits the platform; the sheet goes when the platform notices.
    @available(iOS 16.4, macOS 13.3, *)
    @MainActor
    public final class SwiftUIAuthorizationControllers: PasskeyAuthorizationControllerFactory {
        let authorizationController: AuthorizationController

        public init(_ authorizationController: AuthorizationController) {
            self.authorizationController = authorizationController
        }

        public func makeController(
            for request: PasskeyAuthorizationRequest,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) -> any PasskeyAuthorizationController {
            SwiftUIAuthorizationController(
                request: request, authorizationController: authorizationController, completion: completion)
        }
    }

    /// One request on SwiftUI's controller: a task awaiting its answer.
    @available(iOS 16.4, macOS 13.3, *)
    @MainActor
    final class SwiftUIAuthorizationController: PasskeyAuthorizationController {
        private let request: PasskeyAuthorizationRequest
        private let authorizationController: AuthorizationController
        private let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        private var task: Task<Void, Never>?
        private(set) var failureReason: String?

        init(
            request: PasskeyAuthorizationRequest, authorizationController: AuthorizationController,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) {
            self.request = request
            self.authorizationController = authorizationController
            self.completion = completion
        }

        func start() {
            let requests = request.platformRequests()
            if requests.isEmpty { return completion(.failure(.notHandled)) }
            if case .assertion(_, .autoFill) = request { return completion(.failure(.notHandled)) }
            let immediate: Bool = if case .assertion(_, .immediate) = request { true } else { false }
            let controller = authorizationController
            task = Task { @MainActor [weak self] in
                do {
                    let result =
                        immediate
                        ? try await controller.performRequests(
                            requests, options: .preferImmediatelyAvailableCredentials)
                        : try await controller.performRequests(requests)
                    self?.completion(Self.value(of: result))
                } catch is CancellationError {
                    self?.completion(.failure(.cancelled))
                } catch {
                    self?.failureReason = PasskeyAuthorizationError.reason(of: error)
                    self?.completion(.failure(PasskeyAuthorizationError(platformError: error)))
                }
            }
        }

        func cancel() {
            task?.cancel()
            completion(.failure(.cancelled))
        }

        /// The client's value for SwiftUI's result (`.invalidResponse` for a kind it does not ask for).
        static func value(of result: ASAuthorizationResult)
            -> Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>
        {
            switch result {
            case .passkeyAssertion(let assertion): PasskeyAuthorizationResult.from(assertion)
            case .passkeyRegistration(let registration): PasskeyAuthorizationResult.from(registration)
            case .password(let password): PasskeyAuthorizationResult.from(password)
            default: .failure(.invalidResponse)
            }
        }
    }
#endif
