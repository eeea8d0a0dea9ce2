/// An activity's amount of work done at one moment: what a progress counter track draws.
public struct ProgressSample: Hashable, Sendable {
    /// Unix time in seconds.
    public var time: Double
    public var completed: Double
    /// The total at that moment; `nil` while indeterminate.
    public var total: Double?

    public init(time: Double, completed: Double, total: Double?) {
        self.time = time
        self.completed = completed
        self.total = total
    }
}
