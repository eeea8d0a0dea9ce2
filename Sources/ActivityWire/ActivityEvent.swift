/// One line of the wire protocol: `begin`, `progress`, `log` or `end`.
///
/// Events are plain values. ``ActivityEventEncoder`` writes them as compact JSON lines and
/// ``ActivityEventDecoder`` reads them back; `decode(encode(e)) == e` for every event.
///
/// ```swift
/// let id = ActivityID("dl.1")!
/// let begin = ActivityEvent.begin(.init(id: id, title: "Downloading", total: 12, unit: "files"))
/// let line = ActivityEventEncoder().encode(begin)
/// // {"v":1,"type":"begin","id":"dl.1","title":"Downloading","total":12,"unit":"files"}
/// ```
public enum ActivityEvent: Hashable, Sendable {
    case begin(Begin)
    case progress(Progress)
    case log(Log)
    case end(End)

    /// The activity the event is about; `nil` for a `log` line without an id.
    public var id: ActivityID? {
        switch self {
        case .begin(let e): e.id
        case .progress(let e): e.id
        case .log(let e): e.id
        case .end(let e): e.id
        }
    }

    /// The event's `ts`: Unix time in seconds, or `nil` when the producer left it out.
    public var timestamp: Double? {
        get {
            switch self {
            case .begin(let e): e.timestamp
            case .progress(let e): e.timestamp
            case .log(let e): e.timestamp
            case .end(let e): e.timestamp
            }
        }
        set {
            switch self {
            case .begin(var e): e.timestamp = newValue; self = .begin(e)
            case .progress(var e): e.timestamp = newValue; self = .progress(e)
            case .log(var e): e.timestamp = newValue; self = .log(e)
            case .end(var e): e.timestamp = newValue; self = .end(e)
            }
        }
    }

    /// The wire name of the event's type.
    public var typeName: String {
        switch self {
        case .begin: "begin"
        case .progress: "progress"
        case .log: "log"
        case .end: "end"
        }
    }
}

extension ActivityEvent {
    /// A new activity starts.
    public struct Begin: Hashable, Sendable {
        public var id: ActivityID
        public var title: String
        /// The enclosing activity; `nil` at top level.
        public var parent: ActivityID?
        /// The amount of work; `nil` when indeterminate.
        public var total: Double?
        /// The work already done when the activity starts.
        public var completed: Double
        /// What is counted: free text, `nil` for items. `bytes` makes renderers show KiB/MiB and B/s.
        public var unit: String?
        public var message: String?
        /// Whether a consumer may offer to cancel the activity.
        public var cancellable: Bool
        /// A hint for overlays: may the activity block input or dim the screen?
        public var blocking: Blocking
        /// Extensions: keys prefixed `x-` or in reverse-DNS form, told apart byte for byte.
        public var attributes: [AttributeKey: AttributeValue]
        public var timestamp: Double?

        /// ``attributes`` keyed by `String`. Keys that differ only in Unicode normalization are
        /// one `String`: this view then holds the value of the key first in byte order, and
        /// setting it replaces every attribute. Use ``attributes`` to see every key on the wire.
        public var attrs: [String: AttributeValue] {
            get {
                // Most activities have none; reserving even none allocates.
                guard !attributes.isEmpty else { return [:] }
                var result: [String: AttributeValue] = [:]
                result.reserveCapacity(attributes.count)
                for (key, value) in attributes {
                    if let index = result.index(forKey: key.rawValue) {
                        guard key < AttributeKey(result.keys[index]) else { continue }
                        result.remove(at: index)
                    }
                    result[key.rawValue] = value
                }
                return result
            }
            set {
                attributes = Dictionary(uniqueKeysWithValues: newValue.map { (AttributeKey($0.key), $0.value) })
            }
        }

        // Inlinable, as the end's is: called from another module, the initializer copied the
        // event it made on its way out, a retain and release of each text.
        @inlinable
        public init(
            id: ActivityID, title: String, parent: ActivityID? = nil, total: Double? = nil, completed: Double = 0,
            unit: String? = nil, message: String? = nil, cancellable: Bool = false, blocking: Blocking = .none,
            attrs: [String: AttributeValue] = [:], timestamp: Double? = nil
        ) {
            self.id = id
            self.title = title
            self.parent = parent
            self.total = total
            self.completed = completed
            self.unit = unit
            self.message = message
            self.cancellable = cancellable
            self.blocking = blocking
            // Most activities have none: a begin of a test suite's test then maps nothing.
            self.attributes =
                attrs.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: attrs.map { (AttributeKey($0.key), $0.value) })
            self.timestamp = timestamp
        }
    }

    /// An activity's numbers or text change. Every field but `id` is optional: absent means unchanged.
    public struct Progress: Hashable, Sendable {
        public var id: ActivityID
        /// The absolute amount of work done (never an increment).
        public var completed: Double?
        /// A new total: a number, or ``Total/indeterminate`` (`null` on the wire).
        public var total: Total?
        public var message: String?
        public var title: String?
        public var timestamp: Double?

        public init(
            id: ActivityID, completed: Double? = nil, total: Total? = nil, message: String? = nil,
            title: String? = nil, timestamp: Double? = nil
        ) {
            self.id = id
            self.completed = completed
            self.total = total
            self.message = message
            self.title = title
            self.timestamp = timestamp
        }
    }

    /// A line of text for the person watching, attached to an activity or not.
    public struct Log: Hashable, Sendable {
        public var message: String
        public var id: ActivityID?
        public var level: Level
        public var timestamp: Double?

        public init(message: String, id: ActivityID? = nil, level: Level = .info, timestamp: Double? = nil) {
            self.message = message
            self.id = id
            self.level = level
            self.timestamp = timestamp
        }
    }

    /// An activity finishes.
    public struct End: Hashable, Sendable {
        public var id: ActivityID
        public var status: Status
        public var message: String?
        /// What went wrong, for `failure`.
        public var error: String?
        /// The final amount of work done, when it changed since the last progress.
        public var completed: Double?
        public var total: Total?
        public var timestamp: Double?

        @inlinable
        public init(
            id: ActivityID, status: Status = .success, message: String? = nil, error: String? = nil,
            completed: Double? = nil, total: Total? = nil, timestamp: Double? = nil
        ) {
            self.id = id
            self.status = status
            self.message = message
            self.error = error
            self.completed = completed
            self.total = total
            self.timestamp = timestamp
        }
    }
}

extension ActivityEvent {
    /// A new total in `progress` or `end`.
    public enum Total: Hashable, Sendable {
        /// `null` on the wire: the amount of work is unknown from now on.
        case indeterminate
        case value(Double)

        /// The total as an optional number.
        public var value: Double? {
            if case .value(let v) = self { return v }
            return nil
        }
    }

    /// How an activity ended.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        case success, failure, cancelled, skipped
        /// Written only by consumers: the activity was still open when its parent ended, its
        /// producer went away, or the stream ended. Producers never send it.
        case abandoned
    }

    /// The severity of a `log` line.
    public enum Level: String, Hashable, Sendable, CaseIterable, Comparable {
        case debug, info, warning, error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warning: 2
            case .error: 3
            }
        }
    }

    /// What an overlay may do while the activity runs.
    public enum Blocking: String, Hashable, Sendable, CaseIterable, Comparable {
        /// Nothing: the work goes on in the background.
        case none
        /// Block input (the "Log in" button cannot be pressed twice).
        case block
        /// Block input and dim the screen.
        case dim

        public static func < (lhs: Blocking, rhs: Blocking) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .none: 0
            case .block: 1
            case .dim: 2
            }
        }
    }
}

extension ActivityEvent.Begin {
    /// The `attrs` key that marks an activity as a frame around another program's work (`true`):
    /// `activity run` marks its own activity so, and displays treat the command's top-level
    /// activities as top-level (the overlay's label, permanent lines) rather than as nested steps.
    public static let frameAttribute = "x-activity-frame"
}
