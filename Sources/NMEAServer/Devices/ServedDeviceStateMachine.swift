import GPSDProtocol
import Signals

/// Who watches one served device, and when it opens, lingers, closes, is lost and retired: a
/// pure state machine that returns what to do, apart from ``ServedDevice`` that holds its
/// lock and does it (subscribes, disposes, writes to clients, starts timers) outside it.
///
/// The device is open while it has a subscription to its monitor. The first watcher opens it;
/// the last one leaving disposes the subscription at once (the monitor keeps the device open
/// for the server's linger, and a watcher that comes meanwhile joins it: there is one linger,
/// the monitor's). A device that fails is lost: its watchers are told once and it is tried
/// again while they watch. A device unplugged is retired: closed, its watchers told and let
/// go, never opened again.
struct ServedDeviceStateMachine<Watcher> {
    /// A watcher, and what it is sent: kept here, so that choosing the clients of a report
    /// takes this one lock, not each client's.
    struct Watching {
        let watcher: Watcher
        var streams: WatchedStreams
    }

    private(set) var watching: [ObjectIdentifier: Watching] = [:]
    /// The subscription to the monitor, while the device is open.
    private(set) var subscription: Disposable?
    /// The subscription to its sentences and bytes, while open and some watcher wants them.
    private(set) var raw: Disposable?
    /// It failed or went away while watched, and its watchers were told.
    private(set) var isLost = false
    /// No longer served: it opens no more.
    private(set) var isRetired = false
    /// What other subscribers (a time feed) hold, disposed when it is retired.
    private var others: [Disposable] = []

    /// What to dispose, outside the lock, in this order.
    typealias Disposals = [Disposable]

    var isOpen: Bool { subscription != nil }

    /// The watchers.
    var watchers: [Watcher] { watching.values.map(\.watcher) }

    /// The watchers sent any of `streams`.
    func watchers(sent streams: WatchedStreams) -> [Watcher] {
        watching.values.compactMap { $0.streams.isDisjoint(with: streams) ? nil : $0.watcher }
    }

    /// `watcher` watches from now on, sent `streams` (unless the device is retired); a watcher
    /// already here is sent `streams` from now on.
    mutating func attach(_ watcher: Watcher, streams: WatchedStreams) {
        guard !isRetired else { return }
        watching[ObjectIdentifier(watcher as AnyObject)] = Watching(watcher: watcher, streams: streams)
    }

    /// `watcher` no longer watches. Returns what to dispose when it was the last one: the
    /// device's subscriptions (closed by the monitor, after its linger).
    mutating func detach(_ watcher: Watcher) -> Disposals {
        guard watching.removeValue(forKey: ObjectIdentifier(watcher as AnyObject)) != nil, watching.isEmpty else { return [] }
        return letGo()
    }

    /// Opens it with `subscription` unless it is open, retired or unwatched: checked and
    /// claimed at once, so that it is never opened twice. Returns the watcher whose event
    /// loop should read it, or `nil` when it is not to be opened.
    mutating func open(with subscription: Disposable) -> Watcher? {
        guard !isRetired, self.subscription == nil, let first = watching.values.first else { return nil }
        self.subscription = subscription
        return first.watcher
    }

    /// It delivered a fix: it is no longer lost.
    mutating func heard() { isLost = false }

    /// What to do about the subscription to sentences and bytes.
    enum RawAction {
        case none
        /// Subscribe with this disposable.
        case subscribe(CompositeDisposable)
        /// Dispose it.
        case unsubscribe(Disposable)
    }

    /// Whether the sentences and bytes are wanted now: while open and some watcher is sent
    /// either.
    mutating func updateRaw() -> RawAction {
        let wanted = isOpen && watching.values.contains { !$0.streams.isDisjoint(with: [.sentences, .bytes]) }
        if wanted, raw == nil {
            let subscription = CompositeDisposable()
            raw = subscription
            return .subscribe(subscription)
        }
        if !wanted, let raw {
            self.raw = nil
            return .unsubscribe(raw)
        }
        return .none
    }

    /// What to do when the device failed or ended.
    struct LossAction {
        /// Its subscriptions, to dispose.
        var disposals: Disposals = []
        /// The watchers to tell that it is gone (once, not again until it comes back).
        var tell: [Watcher] = []
        /// Whether to try again (someone still watches).
        var retry = false
    }

    /// The device behind `subscription` failed or ended; nothing when that subscription is no
    /// longer the device's (it was closed meanwhile).
    mutating func lose(_ subscription: Disposable) -> LossAction {
        guard let current = self.subscription, current === subscription else { return LossAction() }
        defer { isLost = true }
        let watchers = watchers
        return LossAction(disposals: letGo(), tell: isLost ? [] : watchers, retry: !watchers.isEmpty)
    }

    /// Unplugged: returns what to dispose and the watchers to tell (unless they were told when
    /// reading failed); it forgets them and never opens again.
    mutating func retire() -> (disposals: Disposals, tell: [Watcher]) {
        let tell = isLost ? [] : watchers
        isRetired = true
        isLost = true
        watching = [:]
        return (letGo(), tell)
    }

    /// The server stops: its subscriptions, to dispose. It never opens again: a watcher whose
    /// connection was still being set up, or a retry's timer, finds it retired, rather than
    /// opening it on loops that are shutting down.
    mutating func closeNow() -> Disposals {
        isRetired = true
        watching = [:]
        return letGo()
    }

    /// Keeps another subscriber's `subscription` until it is retired; `false` when it already
    /// is (dispose it at once).
    mutating func keep(_ subscription: Disposable) -> Bool {
        guard !isRetired else { return false }
        others.append(subscription)
        return true
    }

    /// What other subscribers hold, to dispose.
    mutating func takeOthers() -> Disposals {
        defer { others = [] }
        return others
    }

    /// Forgets the subscriptions: the raw one first, since disposing the main one last closes
    /// the device.
    private mutating func letGo() -> Disposals {
        defer {
            subscription = nil
            raw = nil
        }
        return [raw, subscription].compactMap { $0 }
    }
}
