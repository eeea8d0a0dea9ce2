public import ActivityRendering

extension RendererConformance {
    /// A renderer to check, with a way to read what it wrote.
    ///
    /// ```swift
    /// RendererConformance.Subject(MyRenderer(output: buffer), isTerminal: true) { buffer.bytes }
    /// ```
    public struct Subject {
        public var renderer: any ActivityRenderer
        /// Whether the renderer's output is a terminal: passed-through output must then be
        /// sanitized too, and C1 controls (U+0080–U+009F) count as control sequences. Off a
        /// terminal, passed-through bytes are written as they came, by design.
        public var isTerminal: Bool
        /// Everything the renderer wrote, read once `finish(_:now:)` has returned; `nil` when its
        /// output cannot be read back, which leaves the output unchecked (only the timing is).
        public var written: (() -> [UInt8])?

        public init(_ renderer: any ActivityRenderer, isTerminal: Bool, written: (() -> [UInt8])?) {
            self.renderer = renderer
            self.isTerminal = isTerminal
            self.written = written
        }
    }

    /// How long a renderer may take. The defaults are generous enough for a debug build on a
    /// busy machine: they catch a renderer that blocks (on a file, a lock, a stalled reader), not
    /// one that is merely slower than it could be; set tighter ones for a release build.
    public struct Limits: Sendable, Hashable {
        /// The longest any one call may take.
        public var longestCall: Duration
        /// The longest `render(_:in:)` may take on average over a scenario.
        public var meanRender: Duration

        public init(longestCall: Duration = .seconds(2), meanRender: Duration = .milliseconds(10)) {
            self.longestCall = longestCall
            self.meanRender = meanRender
        }
    }
}
