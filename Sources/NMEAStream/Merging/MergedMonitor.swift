import Dispatch
import NMEA
import Signals
import Platform

extension GPSMonitor {
    /// A monitor of several receivers merged into one stream: at each epoch, the epoch (fix
    /// and sky) of the receiver ranked best, by ``BestFixSelection``'s documented order and
    /// hysteresis. Its events are the chosen receiver's epochs, a
    /// ``GPSEvent/sourceChanged(_:)`` before the first epoch of each receiver it changes to,
    /// and the members' integrity events with the members' own disagreements
    /// (``DisagreementCheck``), each before the epoch it concerns. A fix that failed an
    /// integrity check ranks below one that did not (``FixClass``): a receiver that jumps,
    /// steps its time, leaves the physical range or shows a spoofer's or a jammer's signs
    /// loses the stream to one that does not.
    ///
    /// Built from the members' shared signals like any other subscriber: it subscribes to each
    /// member while it is subscribed to itself (so the members open for its first subscriber
    /// and close after its last, unless others hold them), merges their epochs onto
    /// `scheduler`, and asks the selection there, fix by fix and at the deadline when the
    /// receiver carried would count as silent (a timer on `scheduler`). A member that fails is
    /// silent to it and is subscribed to again every `retryInterval`; the member's own
    /// subscribers see its failure.
    ///
    /// Members are devices (or logs paced as recorded): the choice is made by the time the
    /// fixes arrive.
    ///
    /// - Parameters:
    ///   - members: the receivers, in the user's order of preference.
    ///   - names: how events and reports name them; their sources' descriptions when `nil`.
    ///   - name: the merged source's name: `best:`.
    ///   - selection: the choice's rules, among `members.count` receivers; ``BestFixSelection``'s
    ///     defaults when `nil`.
    ///   - integrity: the limits of the disagreement check between members; `nil` for none.
    ///     Each member's own checks are its monitor's (created with `integrity`).
    ///   - retryInterval: how long after a member fails it is subscribed to again.
    ///   - scheduler: where the members' epochs are merged and the timer runs (a serial queue
    ///     of its own when `nil`). Each member's events reach it through a ``HandOff`` of
    ///     ``handOffCapacity`` events: a member that sends faster than the merge keeps up (a
    ///     flood on a network member) pushes out its own oldest events, counted in
    ///     ``dropped``, and never grows memory.
    public convenience init(merging members: [GPSMonitor], names: [String]? = nil, name: String = "best:",
                            selection: BestFixSelection? = nil, integrity: IntegrityThresholds? = IntegrityThresholds(),
                            retryInterval: Duration = .seconds(1), scheduler: (any Scheduler)? = nil) {
        let names = names ?? members.map(\.source.description)
        precondition(names.count == members.count, "one name per member")
        let rules = selection ?? BestFixSelection(receivers: members.count)
        precondition(rules.receiverCount == members.count, "a selection among as many receivers as members")
        // The monitor's own counter, once it exists: the merge's drops are added to it.
        let total = Protected<DropCounter?>(nil)
        let reading = Signal<GPSEvent, GPSError> { observer in
            let merger = FixMerger(names: names, selection: rules, dropped: DropCounter(alsoCounting: total.withLock { $0 }),
                                   disagreement: integrity.map { DisagreementCheck(names: names, thresholds: $0) },
                                   scheduler: scheduler ?? QueueScheduler(queue: DispatchQueue(label: "nmeastream.merged \(name)")),
                                   observer: observer)
            return merger.start(members, retryInterval: retryInterval)
        }
        self.init(source: .merged(name: name, members: names), delivery: nil, opening: .onFirstSubscriber, linger: .zero,
                  connection: MonitorConnection(), reading: reading)
        total.withLock { $0 = dropped }
    }

    /// How many of one member's events may wait for a merged monitor's scheduler: 64, three
    /// seconds of a 20 Hz receiver's epochs.
    public static let handOffCapacity = 64
}

/// One subscription of a merged monitor: the members' epochs, merged on one scheduler, through
/// the selection.
private final class FixMerger: Sendable {
    private struct State {
        var selection: BestFixSelection
        var disagreement: DisagreementCheck?
        /// Each member's latest epoch with a fix (what the selection's choice carries).
        var latest: [Epoch?]
    }

    private let state: Protected<State>
    private let names: [String]
    private let scheduler: any Scheduler
    private let observer: Observer<GPSEvent, GPSError>
    private let dropped: DropCounter
    /// The tick at the deadline of the receiver carried.
    private let timer = SerialDisposable()
    private let subscriptions = CompositeDisposable()

    init(names: [String], selection: BestFixSelection, dropped: DropCounter, disagreement: DisagreementCheck?,
         scheduler: any Scheduler, observer: Observer<GPSEvent, GPSError>) {
        self.names = names
        self.dropped = dropped
        self.scheduler = scheduler
        self.observer = observer
        state = Protected(State(selection: selection, disagreement: disagreement, latest: Array(repeating: nil, count: names.count)))
    }

    func start(_ members: [GPSMonitor], retryInterval: Duration) -> Disposable {
        for (index, member) in members.enumerated() {
            let subscription = SerialDisposable()
            subscriptions += subscription
            follow(member, index, into: subscription, retryInterval: retryInterval)
        }
        // Holds the merger while subscribed: its subscriptions hold it weakly.
        return BlockDisposable { [self] in
            timer.dispose()
            subscriptions.dispose()
        }
    }

    /// Takes `member`'s epochs (and integrity events) on the scheduler; after a failure, again
    /// in `retryInterval`.
    private func follow(_ member: GPSMonitor, _ index: Int, into subscription: SerialDisposable, retryInterval: Duration) {
        // The attempt takes its place before it is made: a failure told on the scheduler before
        // `observe` returns (a device missing fails at once) puts the retry in its place, and
        // the retry is never undone by this assignment coming after it.
        let attempt = SerialDisposable()
        subscription.inner = attempt
        attempt.inner = member.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false)
            .buffer(.newest(capacity: GPSMonitor.handOffCapacity), on: scheduler, dropped: dropped)
            .observe { [weak self] event in
                guard let self else { return }
                switch event {
                case .next(let event): take(event, from: index)
                case .failed:
                    subscription.inner = scheduler.schedule(after: retryInterval) { [weak self] in
                        self?.follow(member, index, into: subscription, retryInterval: retryInterval)
                    }
                case .completed: break
                }
            }
    }

    private func take(_ event: GPSEvent, from index: Int) {
        switch event {
        case .integrity: observer.next(event)
        case .epoch(var epoch):
            let now = scheduler.now.inSeconds
            let events = state.withLock { state -> [GPSEvent] in
                guard var fix = epoch.fix else {
                    // A sky alone: carried with its receiver.
                    return state.selection.current == index ? [.epoch(epoch)] : []
                }
                var events: [GPSEvent] = []
                if state.disagreement != nil {
                    let found = state.disagreement!.take(fix, from: index)
                    events += found.events.map(GPSEvent.integrity)
                    if !found.flags.isEmpty {
                        fix.integrity.formUnion(found.flags)
                        epoch.fix = fix
                    }
                }
                state.latest[index] = epoch
                return events + state.selection.take(fix, from: index, at: now).map { merged($0, in: state) }
            }
            for event in events { observer.next(event) }
            reschedule()
        case .sentence, .rejected, .bytes, .sourceChanged: break
        }
    }

    private func tick() {
        let now = scheduler.now.inSeconds
        let events = state.withLock { state in state.selection.tick(at: now).map { merged($0, in: state) } }
        for event in events { observer.next(event) }
        reschedule()
    }

    /// Ticks when the receiver carried would count as silent; not when that is past (nothing
    /// to change to then: the next fix of another receiver changes to it).
    private func reschedule() {
        guard let deadline = state.withLock({ $0.selection.deadline() }) else { return timer.inner = nil }
        // Just after, so that the receiver is past its allowance when the tick asks.
        let wait = deadline - scheduler.now.inSeconds + 0.001
        guard wait > 0 else { return timer.inner = nil }
        timer.inner = scheduler.schedule(after: .nanoseconds(Int64(wait * 1e9))) { [weak self] in self?.tick() }
    }

    private func merged(_ action: BestFixSelection.Action, in state: State) -> GPSEvent {
        switch action {
        case .emit(let fix, let receiver):
            return .epoch(state.latest[receiver] ?? Epoch(sky: nil, fix: fix))
        case .switched(let from, let to, let reason):
            return .sourceChanged(SourceChange(from: from.map { names[$0] }, to: names[to], index: to, reason: reason))
        }
    }
}
