/// Runs services together until a signal, then shuts them down one at a time in reverse order of
/// the list (so a service listed last, such as the drain, stops first), each finishing before the
/// next is asked, and returns when every `run` has returned.
struct ServiceGroup: Sendable {
    let services: [any Service]
    let logger: Logger

    /// Runs every service; on the first of `signals`, shuts them down. Returns the reason.
    @discardableResult
    func run(until signals: SignalWaiter) async -> ShutdownReason {
        await withTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { await service.run() }
            }
            let reason = ShutdownReason(signal: await signals.wait())
            logger.info([.event: "shutdown", .signal: reason.signalName])
            for service in services.reversed() {
                await service.shutdown(reason)
            }
            await group.waitForAll()
            return reason
        }
    }
}
