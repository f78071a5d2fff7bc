internal import Synchronization

/// A background loop as a service (the sweeper, the mail sender): `work` runs in a task of its
/// own until shutdown cancels it. `shutdown` only asks (it returns at once): the loop finishes
/// what it was doing (the mail sender: the transfer in flight) while the services after it are
/// stopped, and the group waits for its `run` at the end.
final class TaskService: Service {
    let name: String
    private let work: @Sendable () async -> Void
    private let state = Mutex<(task: Task<Void, Never>?, stopping: Bool)>((nil, false))

    init(name: String, _ work: @escaping @Sendable () async -> Void) {
        self.name = name
        self.work = work
    }

    func run() async {
        let running = Task { await work() }
        // A shutdown that came before the task existed cancels it now.
        if state.withLock({ state -> Bool in
            state.task = running
            return state.stopping
        }) {
            running.cancel()
        }
        await running.value
    }

    func shutdown(_ reason: ShutdownReason) async {
        state.withLock { state -> Task<Void, Never>? in
            state.stopping = true
            return state.task
        }?.cancel()
    }
}
