internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain

/// `serve`'s background webhook sender (docs/webhooks.md, "Delivery"): keeps up to
/// `inFlightLimit` attempts in flight, at most `perEndpoint` to one endpoint, so a slow or dead
/// endpoint holds a few of them and never the others' deliveries (nor the mail, which has its
/// own loop). It claims again as soon as an attempt ends (the next event of that account may now
/// be due) and otherwise every `pollInterval`; the oldest-pending gauge is refreshed at most
/// every 5 seconds. Cancelled, it claims nothing more and waits for the attempts in flight
/// (each bounded by `WEBHOOK_TIMEOUT_SECONDS`).
struct WebhookDeliveryLoop: Sendable {
    let sender: WebhookSender
    let deliveries: any WebhookDeliveryRepository
    let metrics: WebhookMetrics
    let logger: Logger
    var pollInterval: Duration = .seconds(1)
    var inFlightLimit = 32
    var perEndpoint = 16
    let gaugeInterval: TimeInterval = 5

    func run() async {
        await withTaskGroup(of: WebhookID?.self) { group in
            var busy: [WebhookID: Int] = [:]
            var inFlight = 0
            var timerPending = false
            var gaugeDue = Date.distantPast
            while !Task.isCancelled {
                let free = inFlightLimit - inFlight
                if free > 0 {
                    let saturated = Set(busy.filter { $0.value >= perEndpoint }.keys)
                    var claimed: [ClaimedWebhookDelivery] = []
                    do {
                        claimed = try await sender.claim(limit: free, perEndpoint: perEndpoint, excluding: saturated)
                    } catch {
                        logger.warning([
                            .event: "webhook", .outcome: "claim_failed", .error: FailureCause(error).logText,
                        ])
                    }
                    for delivery in claimed {
                        busy[delivery.key.webhookID, default: 0] += 1
                        inFlight += 1
                        group.addTask { await attempt(delivery) }
                    }
                }
                if Date() >= gaugeDue {
                    gaugeDue = Date().addingTimeInterval(gaugeInterval)
                    do {
                        metrics.recordOldestPendingAge(try await deliveries.oldestPendingAge())
                    } catch {
                        logger.warning([
                            .event: "webhook_gauge", .outcome: "failed", .error: FailureCause(error).logText,
                        ])
                    }
                }
                // Wait for an attempt to end or for the poll timer, whichever comes first.
                if !timerPending {
                    timerPending = true
                    let pause = pollInterval
                    group.addTask {
                        try? await Task.sleep(for: pause)
                        return nil
                    }
                }
                guard let ended = await group.next() else { break }
                if let webhookID = ended {
                    inFlight -= 1
                    busy[webhookID, default: 1] -= 1
                    if busy[webhookID] == 0 { busy[webhookID] = nil }
                } else {
                    timerPending = false
                }
            }
        }
    }

    /// One attempt and its settlement; returns the endpoint, which has one attempt less in flight.
    private func attempt(_ delivery: ClaimedWebhookDelivery) async -> WebhookID? {
        do {
            let outcome = try await sender.settle(delivery)
            metrics.record(outcome)
            log(outcome)
        } catch {
            // Not settled: the lease runs out and the delivery is tried again (at least once).
            logger.warning([
                .event: "webhook", .outcome: "unsettled", .webhookID: delivery.key.webhookID.description,
                .eventID: delivery.event.id.description, .error: FailureCause(error).logText,
            ])
        }
        return delivery.key.webhookID
    }

    /// One line per attempt: IDs, attempts and the transport's cause; never a URL, a header or a body.
    private func log(_ outcome: WebhookDeliveryOutcome) {
        switch outcome {
        case .delivered(let key, let attempts, let status):
            logger.info([
                .event: "webhook", .outcome: "delivered", .webhookID: key.webhookID.description,
                .attempts: String(attempts), .status: String(status),
            ])
        case .retried(let key, let attempts, let cause, let delay):
            logger.warning([
                .event: "webhook", .outcome: "retry", .webhookID: key.webhookID.description,
                .attempts: String(attempts), .seconds: String(Int(delay.rounded(.up))), .error: cause,
            ])
        case .abandoned(let key, let attempts, let cause):
            logger.error([
                .event: "webhook", .outcome: "abandoned", .webhookID: key.webhookID.description,
                .attempts: String(attempts), .error: cause,
            ])
        }
    }
}
