internal import Dispatch
internal import Foundation

/// Waits for one of the given signals (which are then no longer delivered by default).
/// `@unchecked Sendable`: the sources are created in init and never mutated; Dispatch sources
/// are thread-safe, they only lack the annotation.
final class SignalWaiter: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init(signals: [Int32]) {
        var continuation: AsyncStream<Int32>.Continuation!
        stream = AsyncStream { continuation = $0 }
        let yield = continuation!
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { yield.yield(number) }
            source.resume()
            return source
        }
    }

    /// The first signal received.
    func wait() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
